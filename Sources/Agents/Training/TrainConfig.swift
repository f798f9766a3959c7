import Gym

/// A training run's configuration (`Configs/train.json`), decoded strictly
/// by the same machinery as the game configs (``GameConfig``, ``ConfigField``):
/// unknown keys, wrong types and out-of-range values are errors naming the
/// key, the value and what is allowed. `"preset"` names a base (`default`,
/// or `smoke` for tiny test runs); every other key overrides one value.
///
/// The game itself is configured by `"gameConfig"`: a game config object
/// (its own `"preset"` plus overrides), decoded by that game's config type.
public struct TrainConfig: GameConfig {
    public static let gameName = "train"

    /// Which game: "pong" or "breakout".
    public var game: String = "pong"
    /// The game config document (`{}`: the game's first preset).
    public var gameConfig: JSONValue = .object([])
    /// The game config of the periodic evaluation (which picks
    /// `best.json`); `null` (the default): the same as `gameConfig`. With
    /// it, training may play a curriculum (e.g. Pong serves at a higher
    /// speed) while the policy kept is the one that plays the real rules best.
    public var evalGameConfig: JSONValue = .null
    /// "es" (evolution strategies) or "reinforce".
    public var trainer: String = "es"
    /// Pong: who the policy trains against: agent specs (`tracker`,
    /// `random`, `linear:PATH`, …) or `self`, several separated by `;`
    /// (a member's episode `k` plays opponent `(k / 2) mod count`, so all
    /// are met only with `episodesPerMember` ≥ 2 × count; ``PongTask``).
    public var opponent: String = "tracker;random"
    /// Pong: the opponents of the periodic evaluation (agent specs separated
    /// by `;`); the score is the lowest point share among them.
    public var evalOpponent: String = "tracker;random"
    /// Iterations to run (the run stops at this or at `maxEnvSteps`).
    public var iterations: Int = 600
    /// Stop once this many training env steps are done (0 = no limit).
    public var maxEnvSteps: Int = 0
    /// ES: members per iteration (even; antithetic pairs).
    public var population: Int = 32
    /// ES: episodes each member plays per iteration (same seeds for all).
    public var episodesPerMember: Int = 4
    /// Agent steps after which a training episode stops.
    public var episodeSteps: Int = 5000
    /// ES: perturbation scale.
    public var sigma: Float = 0.1
    public var learningRate: Float = 0.03
    public var weightDecay: Float = 0.005
    /// Keep running observation statistics and normalise the policy's input.
    public var normalizeObservations: Bool = false
    /// Observation indices the policy ignores: their weights start at zero
    /// and are never changed (ES perturbs and REINFORCE steps only the other
    /// parameters). Empty (the default): every input is learned. Pong's
    /// scores (10 and 11) are the use: training episodes see only the
    /// first points of a game, so weights learned on them act on values a
    /// whole game reaches but training never showed. Each index must be
    /// below the game's observation count (checked when the run starts).
    public var ignoredInputs: [Int] = []
    /// Train across a variant set (nil, the default: every episode plays
    /// `gameConfig`); see ``TrainVariants``. The periodic evaluation plays
    /// `evalGameConfig` (or `gameConfig`) itself, with the context features
    /// of its rules when they are visible.
    public var variants: TrainVariants?
    /// REINFORCE: episodes per iteration.
    public var batchEpisodes: Int = 16
    /// REINFORCE: reward discount per step.
    public var discount: Float = 0.99
    /// REINFORCE: learning rate of the linear value baseline.
    public var baselineLearningRate: Float = 0.01
    /// Parallel workers (0 = the machine's cores). Never changes results.
    public var workers: Int = 0
    /// The run's master seed.
    public var seed: UInt64 = 1
    /// Evaluate the greedy policy every this many iterations (and at the end).
    public var evalInterval: Int = 10
    public var evalEpisodes: Int = 16
    /// Agent steps per evaluation episode.
    public var evalSteps: Int = 20000
    /// Write `checkpoint.json` every this many iterations (and at the end).
    public var checkpointInterval: Int = 25
    /// Whether the opponents' external agents (`process:`) may be started:
    /// the person named them on the command line or opted in. Not a rule of
    /// the run (never written to config.json): a spec read from a file never
    /// starts a program on its own (docs/agents.md).
    public var allowAgentPrograms = false

    public init() {}

    /// The games training supports.
    public static var games: [String] { trainableGames.map { $0.name } }
    public static let trainers = ["es", "reinforce"]

    public static let fields: [ConfigField<TrainConfig>] = [
        .custom("game", allowed: games.joined(separator: ", "), "the game to train on", read: { .string($0.game) },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    c.game = try string(v, key: "game", source: source, allowed: TrainConfig.games)
                }),
        .custom("gameConfig", allowed: "an object", "the game's config: {\"preset\": name, key: value, …} ({} = the first preset)",
                read: { $0.gameConfig },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    guard case .object = v else {
                        throw .wrongType(source: source, key: "gameConfig", expected: "an object", found: v.kindName)
                    }
                    c.gameConfig = v
                }),
        .custom("evalGameConfig", allowed: "an object or null",
                "the periodic evaluation's game config (null = gameConfig)",
                read: { $0.evalGameConfig },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    switch v {
                    case .object, .null: c.evalGameConfig = v
                    default: throw .wrongType(source: source, key: "evalGameConfig", expected: "an object or null", found: v.kindName)
                    }
                }),
        .custom("trainer", allowed: "es, reinforce", "es = evolution strategies, reinforce = REINFORCE with a linear baseline",
                read: { .string($0.trainer) },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    c.trainer = try string(v, key: "trainer", source: source, allowed: TrainConfig.trainers)
                }),
        .custom("opponent", allowed: "agent specs or self, separated by ;", "Pong: who the policy trains against (self = self-play; several: a member's episode k plays opponent (k / 2) mod count, so every one is met only when episodesPerMember is at least 2 × count)",
                read: { .string($0.opponent) },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    c.opponent = try agent(v, key: "opponent", source: source, allowSelf: true)
                }),
        .custom("evalOpponent", allowed: "agent specs, separated by ;", "Pong: the opponents of the periodic evaluation (score: the lowest point share)",
                read: { .string($0.evalOpponent) },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    c.evalOpponent = try agent(v, key: "evalOpponent", source: source, allowSelf: false)
                }),
        .int("iterations", \.iterations, 1 ... 1_000_000, "training iterations (the run stops at this or maxEnvSteps)"),
        .int("maxEnvSteps", \.maxEnvSteps, 0 ... 1_000_000_000_000, "stop after this many training env steps (0 = no limit)"),
        .int("population", \.population, 2 ... 4096, "ES: members per iteration (even: antithetic pairs)"),
        .int("episodesPerMember", \.episodesPerMember, 1 ... 256, "ES: episodes per member per iteration (same seeds for all members)"),
        .int("episodeSteps", \.episodeSteps, 10 ... 1_000_000, "agent steps after which a training episode stops"),
        .float("sigma", \.sigma, 0.0001 ... 10, "ES: perturbation scale"),
        .float("learningRate", \.learningRate, 0.00001 ... 1, "Adam learning rate of the policy"),
        .float("weightDecay", \.weightDecay, 0 ... 1, "L2 weight decay added to the gradient"),
        .bool("normalizeObservations", \.normalizeObservations, "normalise the policy's input by running statistics"),
        .custom("ignoredInputs", allowed: "a list of distinct observation indices (integers 0 ... \(maxInputIndex))",
                "observation indices whose weights stay zero ([] = learn every input)",
                read: { .array($0.ignoredInputs.map { .number($0) }) },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    c.ignoredInputs = try indices(v, key: "ignoredInputs", source: source)
                }),
        .custom("variants", allowed: TrainVariants.allowed,
                "train across a variant set: each episode under the rules its seed draws (null = gameConfig's rules only)",
                read: { $0.variants?.json ?? .null },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    c.variants = try TrainVariants.decode(v, source: source)
                }),
        .int("batchEpisodes", \.batchEpisodes, 1 ... 4096, "REINFORCE: episodes per iteration"),
        .float("discount", \.discount, 0 ... 1, "REINFORCE: reward discount per step"),
        .float("baselineLearningRate", \.baselineLearningRate, 0.000001 ... 1, "REINFORCE: Adam learning rate of the linear value baseline"),
        .int("workers", \.workers, 0 ... 256, "parallel workers (0 = the machine's cores); results never depend on it"),
        .custom("seed", allowed: "0 ... 18446744073709551615 (integer)", "the run's master seed",
                read: { .number($0.seed) },
                write: { (c: inout TrainConfig, v: JSONValue, source: String) throws(ConfigError) in
                    guard case let .number(_, text) = v, let s = UInt64(text) else {
                        throw .wrongType(source: source, key: "seed", expected: "an integer in 0 ... 18446744073709551615",
                                         found: v.kindName == "a number" ? jsonText(v) : v.kindName)
                    }
                    c.seed = s
                }),
        .int("evalInterval", \.evalInterval, 1 ... 1_000_000, "evaluate the greedy policy every this many iterations (and at the end)"),
        .int("evalEpisodes", \.evalEpisodes, 1 ... 10_000, "episodes per evaluation"),
        .int("evalSteps", \.evalSteps, 10 ... 10_000_000, "agent steps per evaluation episode"),
        .int("checkpointInterval", \.checkpointInterval, 1 ... 1_000_000, "write checkpoint.json every this many iterations (and at the end)"),
    ]

    public static let presets: [(name: String, config: TrainConfig)] = {
        let standard = TrainConfig()
        var smoke = standard
        smoke.opponent = "random"
        smoke.evalOpponent = "random"
        smoke.iterations = 4
        smoke.population = 8
        smoke.episodesPerMember = 1
        smoke.episodeSteps = 400
        smoke.batchEpisodes = 4
        smoke.evalInterval = 2
        smoke.evalEpisodes = 2
        smoke.evalSteps = 400
        smoke.checkpointInterval = 2
        return [("default", standard), ("smoke", smoke)]
    }()

    public func checkRelations(source: String) throws(ConfigError) {
        if population % 2 != 0 {
            throw .invalid(source: source, key: "population", message: "= \(population) must be even (antithetic pairs)")
        }
        if Self.split(opponent).contains("self"), game != "pong" {
            throw .invalid(source: source, key: "opponent", message: "= self needs a two-player game (pong)")
        }
    }

    /// Hash of everything that changes the weights a run produces: the
    /// whole config except `iterations`, `maxEnvSteps` (a resumed run may be
    /// extended), `workers` (never changes results), and the evaluation and
    /// checkpoint cadence. A resume with a different hash is refused.
    /// An empty `ignoredInputs` and a null `variants` are left out too, so
    /// configs without them keep the hash they had before the keys existed.
    public var trainingHash: UInt64 {
        var ignored: Set<String> = ["iterations", "maxEnvSteps", "workers", "evalInterval", "evalEpisodes",
                                    "evalSteps", "evalOpponent", "evalGameConfig", "checkpointInterval"]
        if ignoredInputs.isEmpty { ignored.insert("ignoredInputs") }
        if variants == nil { ignored.insert("variants") }
        guard case let .object(members) = json else { return 0 }
        let kept = JSONValue.object(members.filter { !ignored.contains($0.0) })
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in kept.serialized(pretty: false).utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    static func string(_ v: JSONValue, key: String, source: String, allowed: [String]) throws(ConfigError) -> String {
        guard case let .string(s) = v else {
            throw .wrongType(source: source, key: key, expected: "one of \(allowed.joined(separator: ", "))", found: v.kindName)
        }
        guard allowed.contains(s) else {
            throw .outOfRange(source: source, key: key, value: "\"\(s)\"", allowed: allowed.joined(separator: ", "))
        }
        return s
    }

    /// The largest index `ignoredInputs` may name before the game is known.
    static let maxInputIndex = 4095

    static func indices(_ v: JSONValue, key: String, source: String) throws(ConfigError) -> [Int] {
        let allowed = "a list of distinct observation indices (integers 0 ... \(maxInputIndex))"
        guard case let .array(items) = v else {
            throw .wrongType(source: source, key: key, expected: allowed, found: v.kindName)
        }
        var list: [Int] = []
        for item in items {
            guard case let .number(x, text) = item, x == x.rounded(), let i = Int(exactly: x) else {
                throw .wrongType(source: source, key: key, expected: allowed, found: "an element that is \(item.kindName)")
            }
            guard (0 ... maxInputIndex).contains(i) else {
                throw .outOfRange(source: source, key: key, value: text, allowed: allowed)
            }
            guard !list.contains(i) else {
                throw .invalid(source: source, key: key, message: "names index \(i) twice (indices must be distinct)")
            }
            list.append(i)
        }
        return list
    }

    static func agent(_ v: JSONValue, key: String, source: String, allowSelf: Bool) throws(ConfigError) -> String {
        guard case let .string(s) = v else {
            throw .wrongType(source: source, key: key, expected: "agent specs (a string)", found: v.kindName)
        }
        let parts = split(s)
        guard !parts.isEmpty, parts.count <= 16 else {
            throw .invalid(source: source, key: key, message: "= \"\(s)\" must name 1 to 16 agents separated by ;")
        }
        for part in parts where !(allowSelf && part == "self") {
            do { _ = try AgentSpec.parse(part) } catch {
                throw .invalid(source: source, key: key, message: "= \"\(s)\": \(error)")
            }
        }
        return s
    }

    /// The agent specs of a `;`-separated list, trimmed.
    public static func split(_ list: String) -> [String] {
        list.split(separator: ";").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
    }

    static func jsonText(_ v: JSONValue) -> String {
        if case let .number(_, text) = v { return text }
        return v.kindName
    }
}
