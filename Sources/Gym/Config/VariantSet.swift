/// A named set of rule variants for one game: a list of rule assignments
/// (points) or ranges of values, with the rule that draws one variant per
/// episode. Read from a variant file (``VariantFile``), checked like a config.
///
/// ## Drawing (the `uniform` sampling rule)
/// An episode seeded `s` plays under `draw(episodeSeed: s)`, drawn from the
/// generator `Xoshiro256(seed: Seeds.stream(s, Seeds.variantStream))`:
/// - points: point `below(count)`;
/// - ranges: each key in the set's order, independently: an integer key
///   `lower + below(upper − lower + 1)`; a real key
///   `min(lower + (upper − lower) · nextUnit(), upper)` in `Float`.
/// A pure function of the episode seed, so every worker count, batch size,
/// shard and language that plays the episode plays the same rules.
public struct VariantSet: Equatable, Sendable {
    /// One key's range (both ends allowed, `lower ≤ upper`), as the file gives it.
    public struct Range: Equatable, Sendable {
        public var key: String
        public var lower: Double
        public var upper: Double
        /// An integer key draws integers.
        public var isInteger: Bool

        public func contains(_ x: Double) -> Bool { x >= lower && x <= upper }
    }

    public enum Content: Equatable, Sendable {
        case points([RuleVariant])
        case ranges([Range])
    }

    /// The set's name in its file ("train", "near", "far").
    public var name: String
    /// How a variant is drawn per episode; the one rule so far is `uniform` (see the type's doc).
    public var sampling: String
    public var content: Content

    /// The sampling rules a set may name.
    public static let samplingRules = ["uniform"]

    /// The keys the set varies, in its order (for points: in order of first appearance).
    public var keys: [String] {
        switch content {
        case let .ranges(r): return r.map(\.key)
        case let .points(p):
            var out: [String] = []
            for v in p.flatMap(\.values) where !out.contains(v.key) { out.append(v.key) }
            return out
        }
    }

    /// The variant of the episode seeded `episodeSeed` (see the type's doc).
    /// A drawn range variant is named for its set ("train~").
    public func draw(episodeSeed: UInt64) -> RuleVariant {
        var rng = Xoshiro256(seed: Seeds.stream(episodeSeed, Seeds.variantStream))
        switch content {
        case let .points(points):
            return points[rng.below(points.count)]
        case let .ranges(ranges):
            var values: [RuleVariant.Value] = []
            for r in ranges {
                if r.isInteger {
                    let lo = Int(r.lower), n = Int(r.upper) - lo + 1
                    values.append(.init(key: r.key, value: .number(lo + rng.below(n))))
                } else {
                    let lo = Float(r.lower), hi = Float(r.upper)
                    values.append(.init(key: r.key, value: .number(min(lo + (hi - lo) * rng.nextUnit(), hi))))
                }
            }
            return RuleVariant(name: name + "~", values: values)
        }
    }

    /// The finite list of variants a report plays: a points set's points;
    /// for a ranges set, `draws` variants drawn with seeds
    /// `Seeds.episode(runSeed: Seeds.stream(seed, Seeds.variantStream), index: k)`,
    /// named `<set>-1`, `<set>-2`, ….
    public func variants(draws: Int, seed: UInt64) -> [RuleVariant] {
        switch content {
        case let .points(points): return points
        case .ranges:
            let run = Seeds.stream(seed, Seeds.variantStream)
            return (0 ..< max(draws, 0)).map { k in
                var v = draw(episodeSeed: Seeds.episode(runSeed: run, index: k))
                v.name = "\(name)-\(k + 1)"
                return v
            }
        }
    }

    /// The smallest and largest value the set can give `key` (nil: the set leaves it alone).
    public func span(_ key: String) -> (lower: Double, upper: Double)? {
        switch content {
        case let .ranges(r):
            return r.first { $0.key == key }.map { ($0.lower, $0.upper) }
        case let .points(p):
            let xs = p.compactMap { $0[key] }.compactMap(\.numeric)
            guard let lo = xs.min(), let hi = xs.max() else { return nil }
            return (lo, hi)
        }
    }
}

extension JSONValue {
    /// A number's value, or 0/1 for `false`/`true`; nil otherwise.
    public var numeric: Double? {
        switch self {
        case let .number(x, _): x
        case let .bool(b): b ? 1 : 0
        default: nil
        }
    }
}
