extension PongGame {
    /// Version of the observation layout documented on ``PongGame`` (the
    /// meaning and order of the 12 features). Bump it whenever a feature is
    /// added, removed, reordered or rescaled: saved policies record it, and
    /// a policy made for another layout is refused instead of silently
    /// misreading its inputs.
    public static let observationLayoutVersion = 2
}
