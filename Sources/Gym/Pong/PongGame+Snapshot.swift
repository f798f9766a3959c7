extension PongGame: SingleGame {
    public typealias SavedGame = Snapshot<PongState, PongConfig>

    /// The full game as a snapshot value.
    public func snapshot() -> SavedGame { SavedGame(config: config, state: state) }

    /// A game continuing exactly from `snapshot`.
    /// - Throws: ``SnapshotError/impossible(field:value:allowed:)`` when the
    ///   state breaks one of Pong's invariants under the snapshot's config.
    public init(restoring snapshot: SavedGame) throws(SnapshotError) {
        try snapshot.state.checkInvariants(snapshot.config)
        self.init(config: snapshot.config)
        state = snapshot.state
    }
}
