import Gym

/// What a policy is made for: the game, the version of that game's
/// observation layout, and the policy's shape (observation length in,
/// action count out). A checkpoint records it; loading one for a different
/// target is refused with ``CheckpointError``.
public struct PolicyTarget: Equatable, Sendable, CustomStringConvertible {
    public var game: String
    public var layoutVersion: Int
    public var inputs: Int
    public var outputs: Int

    public init(game: String, layoutVersion: Int, inputs: Int, outputs: Int) {
        self.game = game
        self.layoutVersion = layoutVersion
        self.inputs = inputs
        self.outputs = outputs
    }

    /// Pong's egocentric observation; 3 actions, or 5 with vertical movement.
    public static func pong(_ config: PongConfig) -> PolicyTarget {
        PolicyTarget(game: PongConfig.gameName, layoutVersion: PongGame.observationLayoutVersion,
                     inputs: PongGame.observationCount, outputs: config.verticalMovement ? 5 : 3)
    }

    public var description: String {
        "\(game) (observation layout v\(layoutVersion), \(inputs) inputs × \(outputs) actions)"
    }
}
