extension BreakoutGame {
    /// Version of the observation layout documented on ``BreakoutGame``.
    /// Bump it whenever a feature is added, removed, reordered or rescaled:
    /// saved policies record it, and a policy made for another layout is
    /// refused instead of silently misreading its inputs.
    public static let observationLayoutVersion = 2
}
