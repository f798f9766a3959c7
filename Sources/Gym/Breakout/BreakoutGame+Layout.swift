extension BreakoutGame {
    /// Version of the observation layout documented on ``BreakoutGame``
    /// (the meaning and order of its features). Bump it whenever a feature
    /// is added, removed, reordered or rescaled: saved policies record it,
    /// and a policy made for another layout is refused.
    public static let observationLayoutVersion = 1
}
