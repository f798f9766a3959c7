import Gym

/// Observation layouts (length, version, per-index bounds) until the
/// batches publish theirs through ``VectorEnvironment/observationLayout``;
/// then the adapters read the protocol's and this file goes.
///
/// Bounds, pinned by the Python suite's long rollouts of every preset
/// (python/tests/test_bounds.py): positions are divided by half the field
/// (a ball may leave the field by its size before it scores, so ±1.5),
/// velocities by the max speed (±2: a moving paddle, Pong's touch preset,
/// or gravity in Breakout adds to a ball's velocity beyond it), counters
/// and flags lie in 0 ... 1.
enum ProvisionalLayouts {
    static func pong(_ c: PongConfig) -> ObservationLayout {
        let lower: [Float] = [-1, 0, -1, 0, -1.5, -1.5, -2, -2, -2.5, 0, 0, 0]
        let upper: [Float] = [1, 1, 1, 1, 1.5, 1.5, 2, 2, 2.5, 1, 1, 1]
        return ObservationLayout(count: PongBatch.observationCount, version: PongGame.observationLayoutVersion,
                                 lower: lower, upper: upper)
    }

    static func breakout(_ c: BreakoutConfig, count: Int) -> ObservationLayout {
        var lower: [Float] = [-1, 0, 0, 0, 0, 0, 0, 0]
        var upper: [Float] = [1, 1, 1, 1, 1, 1, 1, 2]
        for _ in 0 ..< c.maxBalls {
            lower += [0, -1.5, -1.5, -2, -2]
            upper += [1, 1.5, 1.5, 2, 2]
        }
        while lower.count < count {
            lower.append(0)
            upper.append(1)
        }
        return ObservationLayout(count: count, version: BreakoutGame.observationLayoutVersion, lower: lower, upper: upper)
    }
}
