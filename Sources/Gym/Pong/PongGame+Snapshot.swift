extension PongGame {
    public typealias SavedGame = Snapshot<PongState, PongConfig>

    /// The full game as a snapshot value.
    public func snapshot() -> SavedGame { SavedGame(config: config, state: state) }

    /// A game continuing exactly from `snapshot`.
    public init(restoring snapshot: SavedGame) {
        self.init(config: snapshot.config)
        state = snapshot.state
    }
}
