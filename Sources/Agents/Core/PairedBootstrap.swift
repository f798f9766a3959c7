import Gym

/// A percentile bootstrap over paired episodes: every condition (an agent
/// under one set of rules) played the same episode seeds `0 ..< episodes`,
/// and each resample draws one list of episode indices that every
/// condition uses, so differences and ratios between conditions keep their
/// pairing (Efron & Tibshirani 1993, ch. 13 for the percentile interval).
///
/// A statistic is a ratio of column sums over the resampled episodes
/// (``Ratio``): a mean is a column over the episode count, a share a
/// column over another column.
public struct PairedBootstrap: Sendable {
    /// Episodes per condition.
    public let episodes: Int
    /// Resample `b`'s episode indices: `indices[b * episodes ..< (b + 1) * episodes]`.
    public let indices: [Int32]
    public let resamples: Int

    /// `resamples` resamples of `episodes` indices each, drawn with
    /// `Xoshiro256(seed: Seeds.stream(seed, SeedStream.robustnessBootstrap))`,
    /// index by index (`below(episodes)`).
    public init(episodes: Int, resamples: Int, seed: UInt64) {
        precondition(episodes >= 1 && resamples >= 1, "a bootstrap needs episodes and resamples")
        var rng = Xoshiro256(seed: Seeds.stream(seed, SeedStream.robustnessBootstrap))
        self.episodes = episodes
        self.resamples = resamples
        indices = (0 ..< episodes * resamples).map { _ in Int32(rng.below(episodes)) }
    }

    /// A statistic: the sum of column `numerator` over the sum of column
    /// `denominator` (nil: over the number of episodes).
    public struct Ratio: Sendable, Equatable {
        public var numerator: Int
        public var denominator: Int?
        public init(numerator: Int, denominator: Int? = nil) { self.numerator = numerator; self.denominator = denominator }

        /// The statistic of `rows` (one row of integer columns per episode) over the episodes `picks`
        /// (nil when its denominator is 0).
        func value<S: Sequence>(_ rows: [[Int]], _ picks: S) -> Double? where S.Element == Int {
            var num = 0, den = 0
            for e in picks {
                num += rows[e][numerator]
                den += denominator.map { rows[e][$0] } ?? 1
            }
            return den == 0 ? nil : Double(num) / Double(den)
        }
    }

    /// The statistic on all episodes, and on each resample (nil where undefined).
    public func replicate(_ ratio: Ratio, _ rows: [[Int]]) -> (estimate: Double?, resampled: [Double?]) {
        precondition(rows.count == episodes, "one row per episode")
        let all = ratio.value(rows, 0 ..< episodes)
        let reps = (0 ..< resamples).map { b in
            ratio.value(rows, indices[b * episodes ..< (b + 1) * episodes].lazy.map { Int($0) })
        }
        return (all, reps)
    }

    /// The central 95% percentile interval of `values` (undefined ones left out): the
    /// sorted values at ranks `round(0.025 (n − 1))` and `round(0.975 (n − 1))`; nil when none is defined.
    public static func interval(_ values: [Double?]) -> (lower: Double, upper: Double)? {
        let sorted = values.compactMap { $0 }.sorted()
        guard !sorted.isEmpty else { return nil }
        let last = Double(sorted.count - 1)
        return (sorted[Int((0.025 * last).rounded())], sorted[Int((0.975 * last).rounded())])
    }
}
