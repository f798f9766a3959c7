extension PongPhysics {
    /// One seat's observation layout: ``PongPhysics/observationCount``
    /// floats, layout version ``PongGame/observationLayoutVersion``, and per
    /// index the bounds of ``PongGame``'s table ("about" ranges taken at
    /// their stated values, open bounds closed).
    public var observationLayout: ObservationLayout {
        // Index 7: a paddle moving vertically adds its own speed to the
        // ball's (|vy| <= maxSpeed + vSpeed); index 8: ball and paddle may
        // stand at opposite walls (|dx| < W).
        let vy = 1 + vSpeed / maxSpeed
        let lower: [Float] = [-1, 0, -1, 0, -1, -1, -1.5, -vy, -2, 0, 0, 0]
        let upper: [Float] = [1, 1, 1, 1, 1, 1, 1.5, vy, 2, 1, 1, 1]
        return ObservationLayout(count: Self.observationCount, version: PongGame.observationLayoutVersion,
                                 lower: lower, upper: upper)
    }
}
