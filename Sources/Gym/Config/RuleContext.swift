/// Per-episode rules: each episode plays its base config with a variant of
/// a variant set drawn from the episode's seed (``VariantSet/draw(episodeSeed:)``),
/// or with a variant given explicitly. The context (the variant's values)
/// can be shown to the agent as extra features after the game's own.
///
/// ## Context features (when `visible`)
/// One float per key of the set, in the set's key order:
/// `2 (v − lower) / (upper − lower) − 1` with `lower ... upper` the key's
/// span over the set (``VariantSet/span(_:)``), so every drawn context lies
/// in [−1, 1] (0 for a key the set holds constant). An explicit context
/// outside the span is clamped into it. A key the variant leaves alone
/// takes the base config's value.
public struct RuleContext<C: VariantConfig>: Sendable {
    public let base: C
    public let set: VariantSet
    /// Whether the context features are appended to the game's observation.
    public let visible: Bool
    /// The set's keys (the context features' order).
    public let keys: [String]
    /// The context features: the set's keys and their spans.
    public let features: ContextFeatures
    let fields: [ConfigField<C>]

    /// Checks that every variant the set can give is a valid game on `base`
    /// (points: each one; ranges: every corner), so a draw never fails.
    public init(base: C, set: VariantSet, visible: Bool, source: String) throws(ConfigError) {
        self.base = base
        self.set = set
        self.visible = visible
        keys = set.keys
        var fields: [ConfigField<C>] = []
        for k in keys {
            guard let f = C.variantField(k) else { throw .unknownKey(source: source, key: k, allowed: C.variantKeys) }
            fields.append(f)
        }
        features = ContextFeatures(set)
        self.fields = fields
        switch set.content {
        case let .points(points):
            for p in points { _ = try p.apply(to: base, source: "\(source), point \"\(p.name)\"") }
        case let .ranges(ranges):
            for corner in 0 ..< (1 << ranges.count) {
                let values = ranges.enumerated().map { k, r in
                    RuleVariant.Value(key: r.key, value: rangeEnd((corner >> k) & 1 == 0 ? r.lower : r.upper, integer: r.isInteger))
                }
                let v = RuleVariant(name: "corner", values: values)
                _ = try v.apply(to: base, source: "\(source), corner \(v.assignments)")
            }
        }
    }

    /// Context features appended to each observation (0 when hidden).
    public var featureCount: Int { visible ? keys.count : 0 }

    /// The rules of the episode seeded `episodeSeed`: the drawn variant and the config it gives.
    /// (A drawn variant of a checked context is always a valid game; a failure here is a bug.)
    public func rules(episodeSeed: UInt64) -> (variant: RuleVariant, config: C) {
        let v = set.draw(episodeSeed: episodeSeed)
        do { return (v, try v.apply(to: base, source: "rule context")) } catch {
            preconditionFailure("a checked rule context drew an invalid game: \(error)")
        }
    }

    /// The config of an explicitly given variant (checked; errors name `source`).
    public func rules(_ variant: RuleVariant, source: String) throws(ConfigError) -> C {
        try variant.apply(to: base, source: source)
    }

    /// The context of a game playing `config`: the values of the set's keys,
    /// nil when `config` differs from the base in a key outside the set.
    public func variant(of config: C) -> RuleVariant? {
        let v = RuleVariant(name: set.name + "~", values: zip(keys, fields).map { .init(key: $0, value: $1.read(config)) })
        guard let rebuilt = try? v.apply(to: base, source: "context"), rebuilt == config else { return nil }
        return v
    }

    /// Writes the context features of `config` (see the type's doc) into `out[0 ..< featureCount]`.
    public func writeFeatures(of config: C, into out: UnsafeMutablePointer<Float>) {
        guard visible else { return }
        features.write(of: config, into: out)
    }

    /// The context features' bounds: [−1, 1] each.
    public var featureBounds: (lower: [Float], upper: [Float]) {
        ([Float](repeating: -1, count: featureCount), [Float](repeating: 1, count: featureCount))
    }
}
