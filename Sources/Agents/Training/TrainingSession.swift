import Foundation
import Gym

/// A trainer of a ``LinearPolicy``, as the training loop drives it.
public protocol PolicyTrainer {
    var policy: LinearPolicy { get }
    var state: TrainerState { get }
    /// Runs one iteration.
    /// - Throws: an opponent's ``AgentFault`` (the iteration is not applied).
    mutating func iterate(runner: ParallelRunner) throws(AgentFault) -> IterationReport
    /// Records wall time and the evaluation best in the state (so a
    /// checkpoint carries them).
    mutating func note(wallSeconds: Double, bestScore: Double?, bestIteration: Int)
}

/// A training run as configured by a ``TrainConfig``: the game, the task,
/// the trainer (fresh or resumed from a checkpoint) and the periodic
/// evaluation. The caller owns the loop (so it can stop between iterations
/// when interrupted), the clock and the files.
public struct TrainingSession {
    public let config: TrainConfig
    /// The effective game config (as JSON) and its hash.
    public let gameConfigJSON: JSONValue
    public let gameConfigHash: UInt64
    /// The policy's target (with a visible context: the game's observation and the context features).
    public let target: PolicyTarget
    /// The variant set trained across (``TrainConfig/variants``), as checkpoints record it.
    public let variants: PolicyContext?
    /// What the evaluation score means, e.g. "point share vs tracker".
    public let scoreName: String
    var trainer: any PolicyTrainer
    let evaluator: @Sendable (LinearPolicy, ParallelRunner) throws(AgentFault) -> [PolicyScore]
    let scoreOf: @Sendable ([PolicyScore]) -> Double

    /// Builds the run from `config`, or continues `resume`'s.
    /// - Throws: ``TrainingSetupError`` for a bad game config or opponent, or
    ///   a checkpoint that does not fit this config.
    public init(config: TrainConfig, resume: (checkpoint: Checkpoint, path: String)? = nil) throws(TrainingSetupError) {
        guard let game = trainableGames.first(where: { $0.name == config.game }) else {
            throw .unsupportedGame(config.game)
        }
        self = try Self.make(game, config: config, resume: resume)
    }

    static func make<G: TrainableGame>(_ game: G.Type, config: TrainConfig,
                                       resume: (checkpoint: Checkpoint, path: String)?) throws(TrainingSetupError) -> TrainingSession {
        try TrainingSession(game, config: config, resume: resume)
    }

    init<G: TrainableGame>(_: G.Type, config: TrainConfig,
                           resume: (checkpoint: Checkpoint, path: String)?) throws(TrainingSetupError) {
        self.config = config
        let game: G.Config, evalGame: G.Config
        do {
            game = try G.Config.decode(config.gameConfig, source: "gameConfig")
            evalGame = config.evalGameConfig == .null
                ? game : try G.Config.decode(config.evalGameConfig, source: "evalGameConfig")
        } catch { throw .config(error) }
        let rules = try Self.rules(G.Config.self, config: config, base: game)
        variants = rules?.policy
        let setup = try G.trainingSetup(config, game: game, evalGame: evalGame, rules: rules?.rules)
        gameConfigJSON = game.json
        gameConfigHash = game.configHash
        let trained = setup.task.target
        if let bad = config.ignoredInputs.first(where: { $0 >= trained.inputs }) {
            throw .config(.outOfRange(source: "the training config", key: "ignoredInputs", value: "\(bad)",
                                      allowed: "observation indices of \(trained.game): 0 ... \(trained.inputs - 1)"))
        }
        if let other = setup.evaluationTasks.first(where: { $0.target != trained })?.target {
            throw .config(.invalid(source: "the training config", key: "evalGameConfig",
                                   message: "gives policies of shape \(other) but gameConfig gives \(trained); they must match"))
        }
        target = trained
        scoreName = setup.scoreName
        let evalTasks = setup.evaluationTasks
        let (episodes, steps, seed) = (config.evalEpisodes, config.evalSteps, Seeds.stream(config.seed, SeedStream.evaluation))
        evaluator = { (policy, runner) throws(AgentFault) in
            var scores: [PolicyScore] = []
            for task in evalTasks {
                scores.append(try PolicyEvaluation.run(task: task, policy: policy, episodes: episodes, steps: steps,
                                                       seed: seed, runner: runner))
            }
            return scores
        }
        scoreOf = setup.score
        trainer = try Self.makeTrainer(task: setup.task, config: config, variants: variants, resume: resume)
    }

    /// The training rules of `config.variants` on `base` and what a checkpoint
    /// records of them; nil without variants. The set is read from its file
    /// (`variants.file`, else the game's shipped one) and checked on `base`.
    static func rules<C: VariantConfig>(_: C.Type, config: TrainConfig, base: C) throws(TrainingSetupError)
        -> (rules: TrainingRules<C>, policy: PolicyContext)? {
        guard let v = config.variants else { return nil }
        let source: String, text: String
        if let path = v.file {
            guard let data = FileManager.default.contents(atPath: path), let t = String(data: data, encoding: .utf8) else {
                throw .config(.invalid(source: "the training config", key: "variants.file",
                                       message: "= \"\(path)\" cannot be read (no such file, not readable or not UTF-8 text); allowed: a variant file's path, or null for the game's shipped file"))
            }
            (source, text) = (path, t)
        } else {
            guard let t = ShippedVariants.text(game: C.gameName) else {
                throw .config(.invalid(source: "the training config", key: "variants.file",
                                       message: "is null but \(C.gameName) ships no variant file; give a variant file's path"))
            }
            (source, text) = ("Configs/variants/\(C.gameName).json (shipped)", t)
        }
        do throws(ConfigError) {
            let file = try VariantFile<C>.decode(text, source: source)
            guard let set = file.sets.first(where: { $0.name == v.set }) else {
                throw ConfigError.outOfRange(source: "the training config", key: "variants.set", value: "\"\(v.set)\"",
                                             allowed: "\(file.sets.map(\.name).joined(separator: ", ")) (the sets of \(source))")
            }
            let context = try RuleContext(base: base, set: set, visible: v.visible,
                                          source: "\(source): set \"\(v.set)\" on gameConfig")
            let rules = TrainingRules(context: context, draws: true)
            return (rules, rules.policyContext(version: file.version))
        } catch { throw .config(error) }
    }

    static func makeTrainer<Task: TrainingTask>(task: Task, config: TrainConfig, variants: PolicyContext?,
                                                resume: (checkpoint: Checkpoint, path: String)?)
        throws(TrainingSetupError) -> any PolicyTrainer
    {
        let hash = config.trainingHash
        var restored: (LinearPolicy, TrainerState)?
        if let (checkpoint, path) = resume {
            // The checkpoint's own context decides the width it is checked at; then it must be this run's.
            do { try checkpoint.check(for: task.target.reading(features: -(variants?.featureCount ?? 0)), path: path) } catch {
                throw .checkpoint(error)
            }
            guard checkpoint.variants == variants else {
                throw .checkpoint(.configMismatch(path: path, found: checkpoint.training?.trainConfigHash ?? 0, expected: hash))
            }
            guard let state = checkpoint.training else { throw .checkpoint(.notResumable(path: path)) }
            guard state.trainConfigHash == hash, state.trainer == config.trainer else {
                throw .checkpoint(.configMismatch(path: path, found: state.trainConfigHash, expected: hash))
            }
            restored = (checkpoint.policy, state)
        }
        switch config.trainer {
        case "reinforce": return Reinforce<Task>(config, task: task, restored: restored)
        default: return EvolutionStrategies<Task>(config, task: task, restored: restored)
        }
    }

    public var policy: LinearPolicy { trainer.policy }
    public var state: TrainerState { trainer.state }

    /// Whether the configured budget (iterations or env steps) is spent.
    public var isFinished: Bool {
        state.iteration >= config.iterations || (config.maxEnvSteps > 0 && state.envSteps >= config.maxEnvSteps)
    }

    /// Whether the periodic evaluation is due after the iteration just done.
    public var evaluationDue: Bool { state.iteration % config.evalInterval == 0 || isFinished }

    /// Whether the periodic checkpoint is due after the iteration just done.
    public var checkpointDue: Bool { state.iteration % config.checkpointInterval == 0 || isFinished }

    public mutating func iterate(runner: ParallelRunner) throws(AgentFault) -> IterationReport {
        try trainer.iterate(runner: runner)
    }

    /// Evaluates the current greedy policy against each evaluation
    /// opponent; returns the score (higher is better; Pong: the lowest
    /// point share) and the results, one per opponent.
    public func evaluate(runner: ParallelRunner) throws(AgentFault) -> (score: Double, results: [PolicyScore]) {
        let r = try evaluator(trainer.policy, runner)
        return (scoreOf(r), r)
    }

    /// Records wall time and the best evaluation so far in the trainer state.
    public mutating func note(wallSeconds: Double, bestScore: Double?, bestIteration: Int) {
        trainer.note(wallSeconds: wallSeconds, bestScore: bestScore, bestIteration: bestIteration)
    }

    /// The current policy with the trainer state (what `checkpoint.json` holds).
    public func checkpoint(includingState: Bool = true) -> Checkpoint {
        Checkpoint(target: target, gameConfigHash: gameConfigHash, gameConfig: gameConfigJSON,
                   policy: trainer.policy, variants: variants, training: includingState ? trainer.state : nil)
    }
}

extension LinearPolicyTrainer {
    /// The trainer `config` sets up on `task`: continuing `restored` (a
    /// checkpoint's policy and state), or fresh.
    init(_ config: TrainConfig, task: Task, restored: (LinearPolicy, TrainerState)?) {
        let settings = TrainerSettings(config)
        if let (policy, state) = restored {
            self.init(task: task, settings: settings, seed: config.seed, policy: policy, state: state)
        } else {
            self.init(task: task, settings: settings, seed: config.seed,
                      normalize: config.normalizeObservations, trainConfigHash: config.trainingHash)
        }
    }
}

/// The games a training config may name (``TrainConfig/game``).
let trainableGames: [any TrainableGame.Type] = [Pong.self, Breakout.self]

/// A game a ``TrainingSession`` can train on: how a ``TrainConfig`` becomes
/// its training task, its evaluation tasks and its evaluation score.
public protocol TrainableGame: PlayableGame {
    associatedtype Task: GameTrainingTask
    /// - Parameters:
    ///   - game: the game trained on.
    ///   - evalGame: the game of the periodic evaluation (``TrainConfig/evalGameConfig``).
    ///   - rules: the variant set trained across (``TrainConfig/variants``; its
    ///     evaluation tasks play `evalGame` with ``TrainingRules/fixed``), or nil.
    static func trainingSetup(_ config: TrainConfig, game: Config, evalGame: Config,
                              rules: TrainingRules<Config>?) throws(TrainingSetupError) -> TrainingSetup<Task>
}

/// What a ``TrainableGame`` makes of a ``TrainConfig``.
public struct TrainingSetup<Task: GameTrainingTask> {
    /// The task trained on.
    public var task: Task
    /// The periodic evaluation's tasks (one per evaluation opponent).
    public var evaluationTasks: [Task]
    /// What the evaluation score means, e.g. "point share vs tracker".
    public var scoreName: String
    /// The evaluation score (higher is better) from the tasks' results, in order.
    public var score: @Sendable ([PolicyScore]) -> Double
}

/// Why a training run cannot start.
public enum TrainingSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    case config(ConfigError)
    case agent(AgentSpecError)
    case checkpoint(CheckpointError)
    case unsupportedGame(String)

    public var description: String {
        switch self {
        case let .config(e): "\(e)"
        case let .agent(e): "\(e)"
        case let .checkpoint(e): "\(e)"
        case let .unsupportedGame(g): "training does not support game \"\(g)\"; games: \(TrainConfig.games.joined(separator: ", "))"
        }
    }
}
