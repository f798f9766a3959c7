/// A vector environment whose games can play every episode under rules
/// drawn from a rule context (``RuleContext``): both games' batches.
///
/// Built with a context, every episode a game starts without explicit
/// rules (its first, every automatic restart, ``VectorEnvironment/reset(_:seed:)``,
/// ``VectorEnvironment/reset(_:stream:)``, ``VectorEnvironment/reset(mask:seeds:)``)
/// plays `context.rules(episodeSeed: s).config` for its episode seed `s`
/// (``VariantSet/draw(episodeSeed:)``), so a game plays the same rules for
/// any batch size, position, worker count or shard; ``VectorEnvironment/reset(_:seed:rules:)``
/// still sets a game's rules explicitly for that one episode. Without a
/// context every game plays the batch's `config` unless given rules.
/// The context's visibility is the caller's: a batch's observation layout
/// is the game's own (the C ABI appends the context features).
public protocol RuleContextVector: VectorEnvironment where Config: VariantConfig {
    /// `count` games as ``VectorEnvironment/init(config:count:seed:firstIndex:autoresetMode:)``
    /// does, each episode under the rules `context` draws from its seed
    /// (nil: the batch's `config`); `context.base` must be `config`.
    init(config: Config, count: Int, seed: UInt64, firstIndex: Int, autoresetMode: AutoresetMode,
         context: RuleContext<Config>?)
    /// The context the batch draws its episodes' rules from, if any.
    var ruleContext: RuleContext<Config>? { get }
}

extension RuleContextVector {
    /// A batch of `count` games, each starting its episode 0, every episode
    /// under the batch's config unless given other rules (no context).
    /// - Parameters:
    ///   - count: number of games, at least 1.
    ///   - seed: the batch seed (see ``VectorEnvironment``, "Seeds").
    ///   - firstIndex: global index of game 0 when this batch is a slice.
    public init(config: Config, count: Int, seed: UInt64, firstIndex: Int = 0,
                autoresetMode: AutoresetMode = .sameStep) {
        self.init(config: config, count: count, seed: seed, firstIndex: firstIndex, autoresetMode: autoresetMode,
                  context: nil)
    }

    /// The rules of an episode seeded `seed` started without explicit rules:
    /// the context's draw, or `config`.
    @inlinable
    public func episodeRules(seed: UInt64) -> Config {
        ruleContext?.rules(episodeSeed: seed).config ?? config
    }
}
