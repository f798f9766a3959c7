extension BreakoutGame: SingleGame {
    public typealias SavedGame = Snapshot<BreakoutState, BreakoutConfig>

    /// The full game as a snapshot value.
    public func snapshot() -> SavedGame { SavedGame(config: config, state: state) }

    /// A game continuing exactly from `snapshot`.
    /// - Throws: ``SnapshotError/impossible(field:value:allowed:)`` when the
    ///   state breaks one of Breakout's invariants under the snapshot's config
    ///   (``BreakoutState/checkInvariants(_:)``).
    public init(restoring snapshot: SavedGame) throws(SnapshotError) {
        let config = snapshot.config
        try snapshot.state.checkInvariants(config)
        self.init(config: config)
        state = snapshot.state
    }
}
