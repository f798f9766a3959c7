import Gym

/// Per-episode rules drawn from a named variant set, as matches play them
/// (``Matches/play(_:config:roster:count:slots:path:runner:game:progress:rules:)``)
/// and their records name them (``RecordedRules``): the episode seeded `s`
/// plays ``RuleContext/rules(episodeSeed:)`` of `s`.
public struct EpisodeRules<C: VariantConfig>: Sendable {
    public let context: RuleContext<C>
    /// The variant file's source (a path, or ``RecordedRules/shippedFile(game:)``) and version.
    public let file: String, version: Int

    public init(context: RuleContext<C>, file: String, version: Int) {
        self.context = context; self.file = file; self.version = version
    }

    /// The rules of the episode seeded `seed`.
    public func config(seed: UInt64) -> C { context.rules(episodeSeed: seed).config }

    /// What the record of the episode seeded `seed` holds of its rules.
    public func recorded(seed: UInt64) -> RecordedRules {
        RecordedRules(set: context.set.name, file: file, version: version, variant: context.rules(episodeSeed: seed).variant)
    }

    /// The draw as ``Matches`` takes it.
    public var draw: @Sendable (UInt64) -> C? {
        let context = self.context
        return { context.rules(episodeSeed: $0).config }
    }
}
