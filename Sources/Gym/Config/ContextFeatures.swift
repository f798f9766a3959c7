/// The context features of per-episode rules (``RuleContext``, "Context
/// features"): one float per key, `2 (v − lower) / (upper − lower) − 1`
/// clamped to [−1, 1], with `lower ... upper` the key's span (0 for a key
/// whose span is a single value). Kept apart from the set it came from so
/// a saved policy can carry just the keys and spans it was trained with.
public struct ContextFeatures: Equatable, Sendable {
    /// The keys, in feature order.
    public let keys: [String]
    /// Per key: the span's lower and upper end.
    public let lower: [Double], upper: [Double]

    /// - Precondition: one span per key.
    public init(keys: [String], lower: [Double], upper: [Double]) {
        precondition(keys.count == lower.count && keys.count == upper.count, "one span per key")
        self.keys = keys; self.lower = lower; self.upper = upper
    }

    /// The features of a set: its keys, each spanning what the set can give it.
    public init(_ set: VariantSet) {
        let keys = set.keys
        let spans = keys.map { set.span($0) ?? (0, 0) }
        self.init(keys: keys, lower: spans.map(\.lower), upper: spans.map(\.upper))
    }

    /// Floats written per observation.
    public var count: Int { keys.count }

    /// The first key that is not one of `C`'s variant keys (nil: all are).
    public func unknownKey<C: VariantConfig>(for _: C.Type) -> String? {
        keys.first { C.variantField($0) == nil }
    }

    /// Writes the features of `config` into `out[0 ..< count]` (a key that is
    /// not a field of `C` reads as 0).
    public func write<C: VariantConfig>(of config: C, into out: UnsafeMutablePointer<Float>) {
        for (k, key) in keys.enumerated() {
            let x = C.variantField(key).flatMap { $0.read(config).numeric } ?? 0
            out[k] = upper[k] > lower[k] ? Float(max(-1, min(1, 2 * (x - lower[k]) / (upper[k] - lower[k]) - 1))) : 0
        }
    }
}
