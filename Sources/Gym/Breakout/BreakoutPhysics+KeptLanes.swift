extension BreakoutPhysics {
    // MARK: - Values a batch keeps per game for the lanes

    /// Per-game values the lanes read and write, kept by the batch in rows
    /// of one float per game so that the lanes load and store eight games'
    /// values with one vector move each instead of gathering them from the
    /// games' cores (and converting them) and writing them back one by one.
    /// Row `k` of game `g` of a group is at `first + k × stride + g`.
    ///
    /// Two kinds of row:
    /// - *Derived* rows (``keptCase`` ... ``keptBallVY``): values that
    ///   change only on frames that are not quiet (a serve, a lost ball, a
    ///   brick or top-wall hit, an end, a reset). The lanes only read them.
    /// - *Held* rows (``heldPaddleX`` ... ``heldSinceProgress``): the
    ///   fields quiet frames and quiet step ends change. For the games the
    ///   batch runs in lanes, these rows *are* the fields between the
    ///   batch's calls: the lanes and the group finish write only the rows,
    ///   and the core's copies are brought up to date
    ///   (``settle(_:from:stride:)``) before anything else reads or changes
    ///   the core.
    ///
    /// The batch writes a game's column from its core
    /// (``keep(_:into:stride:held:)``) after every change of the core outside
    /// the lanes.
    @usableFromInline struct KeptLanes {
        /// Row 0 of the group's first game.
        let first: UnsafeMutablePointer<Float>
        /// Floats from one row to the next (the batch's game count).
        let stride: Int

        /// Row `k` of the group's eight games.
        @inline(__always)
        func row(_ k: Int) -> Lanes { Lane8.load(first, k &* stride) }

        /// Sets row `k` of the group's eight games.
        @inline(__always)
        func set(_ k: Int, _ v: Lanes) { Lane8.store(v, first, k &* stride) }

        /// Row `k` (one holding integers) of the group's eight games.
        @inline(__always)
        func integers(_ k: Int) -> SIMD8<Int32> {
            UnsafeRawPointer(first + k &* stride).loadUnaligned(as: SIMD8<Int32>.self)
        }

        /// Sets row `k` (one holding integers) of the group's eight games.
        @inline(__always)
        func set(_ k: Int, _ v: SIMD8<Int32>) {
            UnsafeMutableRawPointer(first + k &* stride).storeBytes(of: v, as: SIMD8<Int32>.self)
        }
    }

    /// The rows of ``KeptLanes``. Derived:
    /// - ``keptCase``: the game's lane case in
    ///   ``quietLanes(_:actions:frames:kept:fields:serveFrames:)``: 1 one ball in
    ///   play and no serve pending, 16 a serve pending and no ball in play
    ///   (a ball count plus pending flag of 1 either way), 0 neither, the
    ///   episode ended or no brick left;
    /// - ``keptHalfWidth``: the paddle's half width;
    /// - ``keptLives``, ``keptLevels``, ``keptSpeed``: observation entries
    ///   2, 3 and 7 (``countEntries(_:)``, which ``observeHead(_:into:)``
    ///   writes);
    /// - ``keptBallVX``, ``keptBallVY``: ball slot 0's velocity.
    ///
    /// Held (floats unless stated): ``heldPaddleX``, ``heldBallX`` and
    /// ``heldBallY`` (slot 0), ``heldCooldown`` (the push cooldown, an
    /// integer far below 2^24, so exact), and as integers ``heldFrames``,
    /// ``heldLastAction`` (the byte, widened), ``heldSteps`` and
    /// ``heldSinceProgress``.
    static let keptCase = 0, keptHalfWidth = 1, keptLives = 2, keptLevels = 3, keptSpeed = 4
    static let keptBallVX = 5, keptBallVY = 6
    static let heldPaddleX = 7, heldBallX = 8, heldBallY = 9, heldCooldown = 10
    static let heldFrames = 11, heldLastAction = 12, heldSteps = 13, heldSinceProgress = 14
    /// The number of rows.
    static let keptRows = 15

    /// Writes the ``KeptLanes`` rows of the game whose core is at `c` to
    /// `column + k × stride`; the held rows only when `held`.
    func keep(_ c: UnsafePointer<BreakoutCore>, into column: UnsafeMutablePointer<Float>, stride: Int, held: Bool) {
        let pending: Int32 = c.pointee.servePending ? 1 : 0
        let fits = c.pointee.end == .none && c.pointee.bricksLeft != 0 && c.pointee.ballCount &+ pending == 1
        column[Self.keptCase &* stride] = fits ? (pending == 1 ? 16 : 1) : 0
        column[Self.keptHalfWidth &* stride] = c.pointee.paddleHalfWidth
        let counts = countEntries(c)
        column[Self.keptLives &* stride] = counts.lives
        column[Self.keptLevels &* stride] = counts.levels
        column[Self.keptSpeed &* stride] = counts.speed
        column[Self.keptBallVX &* stride] = c.pointee.ballVX[0]
        column[Self.keptBallVY &* stride] = c.pointee.ballVY[0]
        guard held else { return }
        column[Self.heldPaddleX &* stride] = c.pointee.paddleX
        column[Self.heldBallX &* stride] = c.pointee.ballX[0]
        column[Self.heldBallY &* stride] = c.pointee.ballY[0]
        column[Self.heldCooldown &* stride] = Float(c.pointee.pushCooldown)
        let raw = UnsafeMutableRawPointer(column)
        raw.storeBytes(of: c.pointee.frames, toByteOffset: 4 &* Self.heldFrames &* stride, as: Int32.self)
        raw.storeBytes(of: Int32(c.pointee.lastAction), toByteOffset: 4 &* Self.heldLastAction &* stride, as: Int32.self)
        raw.storeBytes(of: c.pointee.steps, toByteOffset: 4 &* Self.heldSteps &* stride, as: Int32.self)
        raw.storeBytes(of: c.pointee.stepsSinceProgress, toByteOffset: 4 &* Self.heldSinceProgress &* stride,
                       as: Int32.self)
    }

    /// Writes the held rows of the game at `column` (as ``keep(_:into:stride:held:)``
    /// lays them out) into its core at `c`: the inverse of `keep` on those
    /// fields.
    @inline(__always)
    func settle(_ c: UnsafeMutablePointer<BreakoutCore>, from column: UnsafePointer<Float>, stride: Int) {
        c.pointee.paddleX = column[Self.heldPaddleX &* stride]
        Self.setSlot0(&c.pointee.ballX, column[Self.heldBallX &* stride])
        Self.setSlot0(&c.pointee.ballY, column[Self.heldBallY &* stride])
        c.pointee.pushCooldown = Int32(column[Self.heldCooldown &* stride])
        let raw = UnsafeRawPointer(column)
        c.pointee.frames = raw.load(fromByteOffset: 4 &* Self.heldFrames &* stride, as: Int32.self)
        c.pointee.lastAction = UInt8(truncatingIfNeeded: raw.load(fromByteOffset: 4 &* Self.heldLastAction &* stride,
                                                                  as: Int32.self))
        c.pointee.steps = raw.load(fromByteOffset: 4 &* Self.heldSteps &* stride, as: Int32.self)
        c.pointee.stepsSinceProgress = raw.load(fromByteOffset: 4 &* Self.heldSinceProgress &* stride, as: Int32.self)
    }
}
