extension PongPhysics {
    /// Pong's observation layout (the table on ``PongGame``): 12 floats per
    /// side, version ``PongGame/observationLayoutVersion``, and per-index
    /// bounds that hold for every config in range. Why they hold:
    /// - paddle and ball x stay inside the side walls, so 0, 2, 4 lie
    ///   strictly inside [−1, 1], and 8 (a difference of two of them over
    ///   the whole width) strictly inside [−1, 1];
    /// - the ball's centre is in [0, H] whenever it is observed (past an
    ///   edge it scores and is served from the centre): 5 in [−1, 1];
    /// - `|vx| ≤ 2 × speed` and `|vy| ≤ maxBallSpeed` (see ``PongPhysics``),
    ///   both over `2 × maxBallSpeed`: 6 in [−1, 1], 7 in [−0.5, 0.5];
    /// - depths, speed level and scores never exceed their divisors.
    /// Entries that can reach a bound are clamped to it (rounding only).
    public static let observationLayout = ObservationLayout(
        count: observationCount, version: PongGame.observationLayoutVersion,
        lower: [-1, 0, -1, 0, -1, -1, -1, -0.5, -1, 0, 0, 0],
        upper: [1, 1, 1, 1, 1, 1, 1, 0.5, 1, 1, 1, 1])
}
