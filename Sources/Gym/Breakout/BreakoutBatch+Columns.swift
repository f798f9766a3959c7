extension BreakoutBatch {
    /// The fields of each game that the lanes read or write at every step,
    /// and its score, which a caller reads for every game after every step
    /// (``writeScoreAndLives(into:)``: one column walked, not every core),
    /// one column each, entry `i` game `i`'s: their only copy. The lanes
    /// load and store eight games' values with one vector move per field;
    /// everything else of a game stays in its core, which holds 0 in these
    /// fields (slot 0 of each ball vector included).
    ///
    /// Code that runs a game's ``BreakoutPhysics`` on its core fills the
    /// core from the columns first (``fill(_:_:)``) and moves the fields
    /// back after (``take(_:_:)``); a reader builds the whole core
    /// (``BreakoutBatch/load(_:)``). Ball slot 0 is the slot a game with
    /// one ball plays in; the other slots stay in the core's vectors.
    struct Columns {
        let paddleX, halfWidth, ballX, ballY, ballVX, ballVY, speed: UnsafeMutablePointer<Float>
        let ballCount, bricksLeft, steps, frames, cooldown, sinceProgress, lives, levels, score: UnsafeMutablePointer<Int32>
        /// The serve pending flag (1 or 0), the last frame's action, the end's raw value.
        let pending, lastAction, end: UnsafeMutablePointer<UInt8>

        /// Columns of `count` games, every entry 0.
        init(count: Int) {
            func column<T: Numeric>(_: T.Type) -> UnsafeMutablePointer<T> {
                let c = UnsafeMutablePointer<T>.allocate(capacity: count)
                c.initialize(repeating: 0, count: count)
                return c
            }
            paddleX = column(Float.self); halfWidth = column(Float.self); speed = column(Float.self)
            ballX = column(Float.self); ballY = column(Float.self); ballVX = column(Float.self); ballVY = column(Float.self)
            ballCount = column(Int32.self); bricksLeft = column(Int32.self); steps = column(Int32.self)
            frames = column(Int32.self); cooldown = column(Int32.self); sinceProgress = column(Int32.self)
            lives = column(Int32.self); levels = column(Int32.self); score = column(Int32.self)
            pending = column(UInt8.self); lastAction = column(UInt8.self); end = column(UInt8.self)
        }

        func deallocate() {
            for c in [paddleX, halfWidth, ballX, ballY, ballVX, ballVY, speed] { c.deallocate() }
            for c in [ballCount, bricksLeft, steps, frames, cooldown, sinceProgress, lives, levels, score] { c.deallocate() }
            for c in [pending, lastAction, end] { c.deallocate() }
        }

        /// Writes game `i`'s fields from the columns into its core at `s`.
        @inline(__always)
        func fill(_ s: UnsafeMutablePointer<BreakoutCore>, _ i: Int) {
            s.pointee.paddleX = paddleX[i]; s.pointee.paddleHalfWidth = halfWidth[i]
            BreakoutPhysics.setSlot0(&s.pointee.ballX, ballX[i]); BreakoutPhysics.setSlot0(&s.pointee.ballY, ballY[i])
            BreakoutPhysics.setSlot0(&s.pointee.ballVX, ballVX[i]); BreakoutPhysics.setSlot0(&s.pointee.ballVY, ballVY[i])
            s.pointee.speed = speed[i]
            s.pointee.ballCount = ballCount[i]; s.pointee.bricksLeft = bricksLeft[i]; s.pointee.steps = steps[i]
            s.pointee.frames = frames[i]; s.pointee.pushCooldown = cooldown[i]
            s.pointee.stepsSinceProgress = sinceProgress[i]
            s.pointee.lives = lives[i]; s.pointee.levelsCleared = levels[i]; s.pointee.score = score[i]
            s.pointee.servePending = pending[i] != 0; s.pointee.lastAction = lastAction[i]
            s.pointee.end = EpisodeEnd(rawValue: end[i]) ?? .none
        }

        /// Moves game `i`'s fields from its core at `s` into the columns,
        /// leaving 0 in the core.
        @inline(__always)
        func take(_ s: UnsafeMutablePointer<BreakoutCore>, _ i: Int) {
            paddleX[i] = s.pointee.paddleX; halfWidth[i] = s.pointee.paddleHalfWidth
            ballX[i] = BreakoutPhysics.slot0(&s.pointee.ballX); ballY[i] = BreakoutPhysics.slot0(&s.pointee.ballY)
            ballVX[i] = BreakoutPhysics.slot0(&s.pointee.ballVX); ballVY[i] = BreakoutPhysics.slot0(&s.pointee.ballVY)
            speed[i] = s.pointee.speed
            ballCount[i] = s.pointee.ballCount; bricksLeft[i] = s.pointee.bricksLeft; steps[i] = s.pointee.steps
            frames[i] = s.pointee.frames; cooldown[i] = s.pointee.pushCooldown
            sinceProgress[i] = s.pointee.stepsSinceProgress
            lives[i] = s.pointee.lives; levels[i] = s.pointee.levelsCleared; score[i] = s.pointee.score
            pending[i] = s.pointee.servePending ? 1 : 0; lastAction[i] = s.pointee.lastAction
            end[i] = s.pointee.end.rawValue
            s.pointee.paddleX = 0; s.pointee.paddleHalfWidth = 0
            BreakoutPhysics.setSlot0(&s.pointee.ballX, 0); BreakoutPhysics.setSlot0(&s.pointee.ballY, 0)
            BreakoutPhysics.setSlot0(&s.pointee.ballVX, 0); BreakoutPhysics.setSlot0(&s.pointee.ballVY, 0)
            s.pointee.speed = 0
            s.pointee.ballCount = 0; s.pointee.bricksLeft = 0; s.pointee.steps = 0
            s.pointee.frames = 0; s.pointee.pushCooldown = 0; s.pointee.stepsSinceProgress = 0
            s.pointee.lives = 0; s.pointee.levelsCleared = 0; s.pointee.score = 0
            s.pointee.servePending = false; s.pointee.lastAction = 0; s.pointee.end = .none
        }
    }
}
