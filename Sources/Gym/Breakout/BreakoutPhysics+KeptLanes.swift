extension BreakoutPhysics {
    // MARK: - Values a batch keeps per game for the lanes

    /// Values of a game that change only on frames that are not quiet (a
    /// serve, a lost ball, a brick or top-wall hit, an end, a reset), kept
    /// by the batch in rows of one float per game so that the lanes load
    /// eight games' values with one vector load instead of gathering them
    /// from the games' cores and converting them. Row `k` of game `g` of a
    /// group is at `first + k × stride + g`. The batch recomputes a game's
    /// column (``keep(_:into:stride:)``) after every change of its core
    /// outside the lanes; the lanes themselves change none of these values
    /// (a frame that would is not quiet).
    @usableFromInline struct KeptLanes {
        /// Row 0 of the group's first game.
        let first: UnsafePointer<Float>
        /// Floats from one row to the next (the batch's game count).
        let stride: Int

        /// Row `k` of the group's eight games.
        @inline(__always)
        func row(_ k: Int) -> Lanes { BreakoutPhysics.load(first + k &* stride) }
    }

    /// The rows of ``KeptLanes``:
    /// - ``keptCase``: the game's lane case in
    ///   ``quietLanes(_:actions:frames:kept:fields:serveFrames:)``: 1 one ball in
    ///   play and no serve pending, 16 a serve pending and no ball in play
    ///   (a ball count plus pending flag of 1 either way), 0 neither, the
    ///   episode ended or no brick left;
    /// - ``keptHalfWidth``: the paddle's half width;
    /// - ``keptLives``, ``keptLevels``, ``keptSpeed``: observation entries
    ///   2, 3 and 7 (``countEntries(_:)``, which ``observeHead(_:into:)``
    ///   writes).
    static let keptCase = 0, keptHalfWidth = 1, keptLives = 2, keptLevels = 3, keptSpeed = 4
    /// The number of rows.
    static let keptRows = 5

    /// Writes the ``KeptLanes`` rows of the game whose core is at `c` to
    /// `column + k × stride`.
    func keep(_ c: UnsafePointer<BreakoutCore>, into column: UnsafeMutablePointer<Float>, stride: Int) {
        let pending: Int32 = c.pointee.servePending ? 1 : 0
        let fits = c.pointee.end == .none && c.pointee.bricksLeft != 0 && c.pointee.ballCount &+ pending == 1
        column[Self.keptCase &* stride] = fits ? (pending == 1 ? 16 : 1) : 0
        column[Self.keptHalfWidth &* stride] = c.pointee.paddleHalfWidth
        let counts = countEntries(c)
        column[Self.keptLives &* stride] = counts.lives
        column[Self.keptLevels &* stride] = counts.levels
        column[Self.keptSpeed &* stride] = counts.speed
    }
}
