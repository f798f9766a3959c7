/// An environment whose game can be made for any config of its kind (so a
/// wrapper can rebuild it under other rules).
public protocol ConfigurableEnvironment: Environment {
    /// A game under `config`, seeded with `seed` (as after `reset(seed:)`).
    init(config: Config, seed: UInt64)
}

extension BreakoutGame: ConfigurableEnvironment {}

/// A single environment that plays each episode under its own rules
/// (``RuleContext``): `reset(seed:)` draws the episode's rules from the
/// seed, `reset(seed:rules:)` takes them explicitly; the game is rebuilt
/// under them and then plays exactly as `E(config: rules, seed: seed)`.
/// With a visible context the context features follow the game's own
/// (``RuleContext``, "Context features"; bounds in ``observationBounds``).
/// The game (``game``) and its snapshot carry the episode's config, which is
/// the context; ``restore(_:)`` takes a game back when its rules are the
/// base's plus the set's keys.
public struct ContextEnvironment<E: ConfigurableEnvironment>: Environment where E.Config: VariantConfig {
    public typealias Config = E.Config
    public typealias Events = E.Events

    public let context: RuleContext<E.Config>
    /// The game of the running episode.
    public private(set) var game: E
    /// The running episode's rules (the set's keys and their values).
    public private(set) var rules: RuleVariant

    /// Before the first reset the game plays the base rules.
    public init(context: RuleContext<E.Config>, seed: UInt64 = 0) {
        self.context = context
        game = E(config: context.base, seed: seed)
        rules = context.variant(of: context.base) ?? .classic
    }

    public var config: E.Config { game.config }
    public var observationCount: Int { game.observationCount + context.featureCount }
    public var actionCount: Int { game.actionCount }
    public var lastEvents: E.Events { game.lastEvents }

    /// Starts an episode under the rules drawn from `seed`.
    public mutating func reset(seed: UInt64) {
        let (variant, config) = context.rules(episodeSeed: seed)
        start(config, variant, seed: seed)
    }

    /// Starts an episode under `rules` (checked on the base; errors name `source`, the key and the value).
    public mutating func reset(seed: UInt64, rules given: RuleVariant, source: String = "rules") throws(ConfigError) {
        let config = try context.rules(given, source: source)
        start(config, context.variant(of: config) ?? given, seed: seed)
    }

    mutating func start(_ config: E.Config, _ variant: RuleVariant, seed: UInt64) {
        game = E(config: config, seed: seed)
        game.reset(seed: seed)
        rules = variant
    }

    public mutating func step(_ action: Int) -> StepResult { game.step(action) }

    public func observe(into buffer: UnsafeMutableBufferPointer<Float>) {
        precondition(buffer.count >= observationCount, "observation buffer too small")
        game.observe(into: buffer)
        guard let base = buffer.baseAddress else { return }
        context.writeFeatures(of: game.config, into: base + game.observationCount)
    }

    public func render(into frame: inout GrayFrame) { game.render(into: &frame) }

    /// Continues from `game` (e.g. restored from a snapshot) under its own rules.
    /// - Throws: ``ConfigError/invalid(source:key:message:)`` when its rules
    ///   differ from the base outside the set's keys.
    public mutating func restore(_ game: E) throws(ConfigError) {
        guard let v = context.variant(of: game.config) else {
            throw .invalid(source: "restore", key: "config",
                           message: "differs from the base rules outside the variant set \"\(context.set.name)\" (\(context.keys.joined(separator: ", ")))")
        }
        self.game = game
        rules = v
    }
}
