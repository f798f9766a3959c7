extension BreakoutBatch {
    /// The fields of each game that the lanes read or write at every step,
    /// and its score, which a caller reads for every game after every step
    /// (``writeScoreAndLives(into:)``: the columns walked, not every core),
    /// their only copy: one ``LaneGroup`` per group of eight games (games
    /// `8k ..< 8k + 8` in entry `k`, game `i` in lane `i % 8`), so that the
    /// lanes load and store a group's values with one vector move per field,
    /// every field at a fixed offset from one address (``group(_:)``).
    /// Everything else of a game stays in its core, which holds 0 in these
    /// fields (slot 0 of each ball vector included).
    ///
    /// Code that runs a game's ``BreakoutPhysics`` on its core fills the
    /// core from the columns first (``fill(_:_:)``) and moves the fields
    /// back after (``take(_:_:)``); a reader builds the whole core
    /// (``BreakoutBatch/load(_:)``). Ball slot 0 is the slot a game with
    /// one ball plays in; the other slots stay in the core's vectors.
    struct Columns: ~Copyable {
        let groups: Column<LaneGroup>

        /// Columns of `count` games, every entry 0.
        init(count: Int) { groups = Column(repeating: LaneGroup(), count: (count + 7) / 8) }

        /// The fields of the group of eight games game `i` is in.
        @inline(__always)
        func group(_ i: Int) -> UnsafeMutablePointer<LaneGroup> { groups.base + (i &>> 3) }

        /// Writes game `i`'s fields from the columns into its core at `s`.
        @inline(__always)
        func fill(_ s: UnsafeMutablePointer<BreakoutCore>, _ i: Int) {
            let g = group(i), j = i & 7
            s.pointee.paddleX = g.pointee.paddleX[j]; s.pointee.paddleHalfWidth = g.pointee.halfWidth[j]
            BreakoutPhysics.setSlot0(&s.pointee.ballX, g.pointee.ballX[j])
            BreakoutPhysics.setSlot0(&s.pointee.ballY, g.pointee.ballY[j])
            BreakoutPhysics.setSlot0(&s.pointee.ballVX, g.pointee.ballVX[j])
            BreakoutPhysics.setSlot0(&s.pointee.ballVY, g.pointee.ballVY[j])
            s.pointee.speed = g.pointee.speed[j]
            s.pointee.ballCount = g.pointee.ballCount[j]; s.pointee.bricksLeft = g.pointee.bricksLeft[j]
            s.pointee.steps = g.pointee.steps[j]; s.pointee.frames = g.pointee.frames[j]
            s.pointee.pushCooldown = g.pointee.cooldown[j]; s.pointee.stepsSinceProgress = g.pointee.sinceProgress[j]
            s.pointee.lives = g.pointee.lives[j]; s.pointee.levelsCleared = g.pointee.levels[j]
            s.pointee.score = g.pointee.score[j]
            s.pointee.servePending = g.pointee.pending[j] != 0; s.pointee.lastAction = g.pointee.lastAction[j]
            s.pointee.end = EpisodeEnd(rawValue: g.pointee.end[j]) ?? .none
        }

        /// Moves game `i`'s fields from its core at `s` into the columns,
        /// leaving 0 in the core.
        @inline(__always)
        func take(_ s: UnsafeMutablePointer<BreakoutCore>, _ i: Int) {
            let g = group(i), j = i & 7
            g.pointee.paddleX[j] = s.pointee.paddleX; g.pointee.halfWidth[j] = s.pointee.paddleHalfWidth
            g.pointee.ballX[j] = BreakoutPhysics.slot0(&s.pointee.ballX)
            g.pointee.ballY[j] = BreakoutPhysics.slot0(&s.pointee.ballY)
            g.pointee.ballVX[j] = BreakoutPhysics.slot0(&s.pointee.ballVX)
            g.pointee.ballVY[j] = BreakoutPhysics.slot0(&s.pointee.ballVY)
            g.pointee.speed[j] = s.pointee.speed
            g.pointee.ballCount[j] = s.pointee.ballCount; g.pointee.bricksLeft[j] = s.pointee.bricksLeft
            g.pointee.steps[j] = s.pointee.steps; g.pointee.frames[j] = s.pointee.frames
            g.pointee.cooldown[j] = s.pointee.pushCooldown; g.pointee.sinceProgress[j] = s.pointee.stepsSinceProgress
            g.pointee.lives[j] = s.pointee.lives; g.pointee.levels[j] = s.pointee.levelsCleared
            g.pointee.score[j] = s.pointee.score
            g.pointee.pending[j] = s.pointee.servePending ? 1 : 0; g.pointee.lastAction[j] = s.pointee.lastAction
            g.pointee.end[j] = s.pointee.end.rawValue
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

    /// The column fields of eight games, lane `g` game `g`'s.
    struct LaneGroup {
        var paddleX = SIMD8<Float>(), halfWidth = SIMD8<Float>(), speed = SIMD8<Float>()
        var ballX = SIMD8<Float>(), ballY = SIMD8<Float>(), ballVX = SIMD8<Float>(), ballVY = SIMD8<Float>()
        var ballCount = SIMD8<Int32>(), bricksLeft = SIMD8<Int32>(), steps = SIMD8<Int32>(), frames = SIMD8<Int32>()
        var cooldown = SIMD8<Int32>(), sinceProgress = SIMD8<Int32>(), lives = SIMD8<Int32>(), levels = SIMD8<Int32>()
        var score = SIMD8<Int32>()
        /// The serve pending flag (1 or 0), the last frame's action, the end's raw value.
        var pending = SIMD8<UInt8>(), lastAction = SIMD8<UInt8>(), end = SIMD8<UInt8>()
    }
}
