extension BreakoutPhysics {
    /// The observation layout of this config: ``observationCount`` floats,
    /// layout version ``BreakoutGame/observationLayoutVersion``, and per
    /// index the bounds of ``BreakoutGame``'s table ("about" ranges taken at
    /// their stated values, open bounds closed).
    public var observationLayout: ObservationLayout {
        var lower: [Float] = [-1, 0, 0, 0, 0, 0, 0, 0]
        var upper: [Float] = [1, 0.5, 1, 1, 1, 1, 1, 1]
        for _ in 0 ..< Int(maxBalls) {
            // in play, x, y, x velocity, y velocity
            lower += [0, -1, -1, -1, -1]
            upper += [1, 1, 1, 1, 1]
        }
        lower += [Float](repeating: 0, count: cellCount)
        upper += [Float](repeating: 1, count: cellCount)
        return ObservationLayout(count: observationCount, version: BreakoutGame.observationLayoutVersion,
                                 lower: lower, upper: upper)
    }
}
