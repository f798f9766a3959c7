import Gym

/// Training Pong: the policy plays one side against an opponent, the
/// episode return is points won minus points lost.
///
/// Episode `index` of an iteration puts the policy at the bottom when
/// `index` is even and at the top when odd (observations are egocentric, so
/// one policy plays both sides).
public struct PongTask: TrainingTask {
    /// Who the policy plays against.
    public enum Opponent: Equatable, Sendable {
        /// A fixed agent (tracker of some skill, random, a saved policy, …).
        case agent(AgentSpec)
        /// The policy itself as it stands at the start of each iteration (greedy).
        case selfPlay
    }

    public let config: PongConfig
    public let opponent: Opponent
    public let episodeSteps: Int

    /// - Precondition: a `linear` opponent passed ``AgentSpec/check(pong:)``.
    public init(config: PongConfig, opponent: Opponent, episodeSteps: Int) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        self.config = config
        self.opponent = opponent
        self.episodeSteps = episodeSteps
    }

    public var target: PolicyTarget { .pong(config) }

    public func makeEnvironment(centre: LinearPolicy) -> PongVersus<AnyAgent> {
        let agent: any Agent = switch opponent {
        case let .agent(spec): spec.makePongAgent(config: config)
        case .selfPlay: LinearAgent(policy: centre)
        }
        return PongVersus(config: config, opponent: AnyAgent(agent))
    }

    public func reset(_ env: inout PongVersus<AnyAgent>, seed: UInt64, index: Int) {
        env.side = index % 2 == 0 ? .bottom : .top
        env.reset(seed: seed)
    }
}

/// Training a single-player game (Breakout): the return is the game's
/// reward sum (its score) within ``episodeSteps``.
public struct SinglePlayerTask<Env: Environment>: TrainingTask {
    public let target: PolicyTarget
    public let episodeSteps: Int
    let make: @Sendable () -> Env

    /// - Parameter make: builds one environment (called once per worker).
    public init(target: PolicyTarget, episodeSteps: Int, make: @escaping @Sendable () -> Env) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        self.target = target
        self.episodeSteps = episodeSteps
        self.make = make
    }

    public func makeEnvironment(centre: LinearPolicy) -> Env { make() }

    public func reset(_ env: inout Env, seed: UInt64, index: Int) { env.reset(seed: seed) }
}
