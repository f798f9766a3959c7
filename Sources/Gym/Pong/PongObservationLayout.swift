extension PongPhysics {
    /// One seat's observation layout: ``PongPhysics/observationCount``
    /// floats, layout version ``PongGame/observationLayoutVersion``, and per
    /// index the bounds of ``PongGame``'s table ("about" ranges taken at
    /// their stated values, open bounds closed).
    public var observationLayout: ObservationLayout {
        let lower: [Float] = [-1, 0, -1, 0, -1, -1, -1.5, -1, -1, 0, 0, 0]
        let upper: [Float] = [1, 1, 1, 1, 1, 1, 1.5, 1, 1, 1, 1, 1]
        return ObservationLayout(count: Self.observationCount, version: PongGame.observationLayoutVersion,
                                 lower: lower, upper: upper)
    }
}
