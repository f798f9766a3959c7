extension BreakoutGame {
    public typealias SavedGame = Snapshot<BreakoutState, BreakoutConfig>

    /// The full game as a snapshot value.
    public func snapshot() -> SavedGame { SavedGame(config: config, state: state) }

    /// A game continuing exactly from `snapshot`.
    /// - Throws: ``SnapshotError/corrupt(_:)`` when the brick grid does not
    ///   fit the config or the ball count is out of range.
    public init(restoring snapshot: SavedGame) throws(SnapshotError) {
        let config = snapshot.config
        guard snapshot.state.bricks.count == config.brickRows * config.brickColumns else {
            throw .corrupt("brick grid has \(snapshot.state.bricks.count) cells, the config needs \(config.brickRows * config.brickColumns)")
        }
        let balls = snapshot.state.core.ballCount
        guard balls >= 0, Int(balls) <= config.maxBalls else {
            throw .corrupt("ballCount \(balls) is outside 0 ... maxBalls (\(config.maxBalls))")
        }
        self.init(config: config)
        state = snapshot.state
    }
}
