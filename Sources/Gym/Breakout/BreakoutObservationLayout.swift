extension BreakoutPhysics {
    /// This config's observation layout (the table on ``BreakoutGame``):
    /// ``observationCount`` floats, version
    /// ``BreakoutGame/observationLayoutVersion``, and per-index bounds that
    /// hold for every config in range. Why they hold:
    /// - the paddle stays inside the walls and is at most `fieldWidth / 2`
    ///   wide (checked): index 0 in [−1, 1], 1 in [0, 0.5];
    /// - counters never exceed their divisors: 2 … 5 and 7 in [0, 1];
    /// - a ball's centre stays in [r, W − r] × [0, H − r] while in play (below
    ///   0 it is lost): x and y in [−1, 1];
    /// - every ball's speed is capped at `maxBallSpeed`: velocities in [−1, 1];
    /// - a brick has at most `toughHits` hits: cells in [0, 1].
    /// Entries that can reach a bound are clamped to it (rounding only).
    public var observationLayout: ObservationLayout {
        var lower: [Float] = [-1, 0, 0, 0, 0, 0, 0, 0]
        var upper: [Float] = [1, 0.5, 1, 1, 1, 1, 1, 1]
        for _ in 0 ..< Int(maxBalls) {
            lower += [0, -1, -1, -1, -1]
            upper += [1, 1, 1, 1, 1]
        }
        lower += [Float](repeating: 0, count: cells)
        upper += [Float](repeating: 1, count: cells)
        return ObservationLayout(count: observationCount, version: BreakoutGame.observationLayoutVersion,
                                 lower: lower, upper: upper)
    }
}
