import Gym

/// Training Breakout: the return is the game's reward sum (its score) within
/// ``episodeSteps``; every episode starts from its seed alone (the index
/// does not matter). ES episodes and evaluations are played one by one on
/// ``BreakoutGame``s or batched on ``BreakoutBatch``es
/// (``playBatched(_:runner:slots:)``, measured slower, so only when forced),
/// with the same results; REINFORCE has no batched Breakout path and always
/// plays one by one.
public struct BreakoutTask: GameTrainingTask {
    public typealias Game = Breakout

    public let config: BreakoutConfig
    public let episodeSteps: Int

    public init(config: BreakoutConfig, episodeSteps: Int) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        self.config = config
        self.episodeSteps = episodeSteps
    }

    public var target: PolicyTarget { .breakout(config) }

    public func makeEnvironment(centre: LinearPolicy) -> BreakoutGame { BreakoutGame(config: config) }

    public func seating(_ k: Int) -> (learner: Int, opponent: Int) { (0, 0) }

    public func makeOpponents(centre: LinearPolicy) -> [any Agent] { [] }

    public func reset(_ env: inout BreakoutGame, seed: UInt64, index: Int) { env.reset(seed: seed) }
}
