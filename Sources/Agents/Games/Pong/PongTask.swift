import Gym

/// Training Pong: the policy plays one side against an opponent, the
/// episode return is points won minus points lost.
///
/// Episode `index` of an iteration puts the policy at the bottom when
/// `index` is even and at the top when odd (observations are egocentric, so
/// one policy plays both sides), against opponent `(index / 2) % count`
/// of the list (so with `2 × count` episodes every opponent is met on
/// both sides).
///
/// Under a variant set (``rules``) each episode plays the rules its seed
/// draws, on the slot engine only; the opponents are made for ``config``
/// (a tracker knows the base rules, not the episode's).
public struct PongTask: GameTrainingTask {
    public typealias Game = Pong

    /// Who the policy plays against.
    public enum Opponent: Equatable, Sendable {
        /// A fixed agent (tracker of some skill, random, a saved policy, …).
        case agent(AgentSpec)
        /// The policy itself as it stands at the start of each iteration (greedy).
        case selfPlay
    }

    public let config: PongConfig
    public let opponents: [Opponent]
    public let episodeSteps: Int
    public let rules: TrainingRules<PongConfig>?

    /// - Precondition: at least one opponent; `linear` opponents passed
    ///   ``Pong/check(_:config:)``.
    public init(config: PongConfig, opponents: [Opponent], episodeSteps: Int, rules: TrainingRules<PongConfig>? = nil) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        precondition(!opponents.isEmpty, "at least one opponent")
        self.config = config
        self.opponents = opponents
        self.episodeSteps = episodeSteps
        self.rules = rules
    }

    /// One opponent.
    public init(config: PongConfig, opponent: Opponent, episodeSteps: Int, rules: TrainingRules<PongConfig>? = nil) {
        self.init(config: config, opponents: [opponent], episodeSteps: episodeSteps, rules: rules)
    }

    public var target: PolicyTarget { PolicyTarget.pong(config).reading(features: rules?.featureCount ?? 0) }

    public func makeEnvironment(centre: LinearPolicy) -> PongEnvironments {
        precondition(rules == nil, "a task under a variant set plays on the slot engine only")
        return PongEnvironments(games: opponents.map { opponent in
            let agent: any Agent = switch opponent {
            case let .agent(spec): Pong.makeAgent(spec, config: config)
            case .selfPlay: LinearAgent(policy: centre)
            }
            return PongVersus(config: config, opponent: AnyAgent(agent))
        })
    }

    public func seating(_ k: Int) -> (learner: Int, opponent: Int) {
        (k % 2 == 0 ? 0 : 1, (k / 2) % opponents.count)
    }

    public func makeOpponents(centre: LinearPolicy, context: AgentContext<Pong>) throws(AgentFault)
        -> [any BatchAgent] {
        var made: [any BatchAgent] = []
        for opponent in opponents {
            switch opponent {
            case let .agent(spec): made.append(try Pong.makeBatchAgent(spec, context: context))
            case .selfPlay:
                let agent = LinearBatchAgent(games: context.games, policy: centre)
                if let rules, rules.context.visible {
                    made.append(ContextFeatureAgent(agent, features: rules.context.features, context: context))
                } else {
                    made.append(agent)
                }
            }
        }
        return made
    }

    public func reset(_ env: inout PongEnvironments, seed: UInt64, index: Int) {
        env.current = (index / 2) % env.games.count
        env.games[env.current].side = index % 2 == 0 ? .bottom : .top
        env.games[env.current].reset(seed: seed)
    }
}

/// One worker's Pong games, one per opponent; the current one is played.
public struct PongEnvironments: Environment {
    public var games: [PongVersus<AnyAgent>]
    public var current = 0

    public init(games: [PongVersus<AnyAgent>]) {
        precondition(!games.isEmpty, "at least one game")
        self.games = games
    }

    public var config: PongConfig { games[current].config }
    public var observationCount: Int { PongGame.observationCount }
    public var actionCount: Int { games[current].actionCount }
    public var lastEvents: PongEvents { games[current].lastEvents }
    public mutating func reset(seed: UInt64) { games[current].reset(seed: seed) }
    public mutating func step(_ action: Int) -> StepResult { games[current].step(action) }
    public func observe(into buffer: UnsafeMutableBufferPointer<Float>) { games[current].observe(into: buffer) }
    public func render(into frame: inout GrayFrame) { games[current].render(into: &frame) }
}
