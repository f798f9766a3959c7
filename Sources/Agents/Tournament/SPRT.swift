import Foundation

/// A sequential probability ratio test (Wald 1945) of "is the candidate at
/// least as good as the baseline?", on pairs of side-swapped games.
///
/// ## Hypotheses
/// With `elo` the candidate's Elo advantage over the baseline (logistic:
/// expected score per game `L(elo) = 1 / (1 + 10^(−elo/400))`):
/// - H0: `elo = elo0` (default −20: the candidate is worse),
/// - H1: `elo = elo1` (default 0: the candidate is at least as good).
/// `alpha` bounds the chance of accepting H1 when H0 holds, `beta` the
/// chance of accepting H0 when H1 holds (defaults 0.05 each).
///
/// ## Model
/// Each pair (two games on one seed, sides swapped) scores
/// 0, ½, 1, 1½ or 2 points for the candidate: a *pentanomial* outcome, which
/// keeps the correlation between the two games of a pair (Fishtest's
/// pentanomial model). The log-likelihood ratio uses the normal
/// (generalised SPRT) approximation of Van den Bergh, "Normalized Elo" notes
/// (as in Fishtest): with `N` pairs, mean per-game score `μ` and per-pair
/// variance `σ²` of the pair's mean score,
///
///     LLR = N · (s1 − s0) · (2μ − s0 − s1) / (2σ²),   s0 = L(elo0), s1 = L(elo1).
///
/// `σ²` is shrunk toward 1/8 (the variance of the mean of two independent
/// fair games without draws) with the weight of ``priorPairs`` (2) pairs:
/// `σ² = (N·σ̂² + 2·(1/8)) / (N + 2)`. Without it the first few pairs,
/// which often all land in one bin, have a variance near 0 and an LLR that
/// crosses a bound after one pair; the prior's weight vanishes as pairs
/// accumulate (2% after 100 pairs). `μ` uses the real pairs only.
///
/// ## Stopping
/// After each pair: LLR ≥ log((1 − β)/α) accepts H1; LLR ≤ log(β/(1 − α))
/// accepts H0. A run that reaches its pair limit first is inconclusive.
public struct SPRT: Equatable, Sendable {
    public var elo0: Double
    public var elo1: Double
    public var alpha: Double
    public var beta: Double

    public init(elo0: Double = -20, elo1: Double = 0, alpha: Double = 0.05, beta: Double = 0.05) {
        precondition(elo0 < elo1 && alpha > 0 && alpha < 1 && beta > 0 && beta < 1, "bad SPRT parameters")
        self.elo0 = elo0; self.elo1 = elo1; self.alpha = alpha; self.beta = beta
    }

    /// Accepts H0 at or below this LLR.
    public var lowerBound: Double { log(beta / (1 - alpha)) }
    /// Accepts H1 at or above this LLR.
    public var upperBound: Double { log((1 - beta) / alpha) }

    /// Expected per-game score at an Elo advantage.
    public static func expectedScore(elo: Double) -> Double { 1 / (1 + pow(10, -elo / 400)) }

    /// The Elo advantage with expected per-game score `score` (0 < score < 1).
    public static func elo(score: Double) -> Double {
        let s = min(max(score, 1e-6), 1 - 1e-6)
        return -400 * log10(1 / s - 1)
    }

    /// The LLR of pentanomial counts (`counts[k]`: pairs in which the
    /// candidate scored k/2 points, k = 0 ... 4).
    public func llr(_ counts: [Int]) -> Double {
        precondition(counts.count == 5, "pentanomial counts have five bins")
        let n = Double(counts.reduce(0, +))
        guard n > 0 else { return 0 }
        var mean = 0.0
        for k in 0 ..< 5 { mean += Double(counts[k]) * Double(k) / 4 }
        mean /= n
        var sumSquares = 0.0
        for k in 0 ..< 5 { sumSquares += Double(counts[k]) * (Double(k) / 4 - mean) * (Double(k) / 4 - mean) }
        let variance = (sumSquares + SPRT.priorPairs * SPRT.priorVariance) / (n + SPRT.priorPairs)
        let s0 = SPRT.expectedScore(elo: elo0), s1 = SPRT.expectedScore(elo: elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    }

    /// Weight, in pairs, of the prior variance.
    public static let priorPairs = 2.0
    /// Prior variance of a pair's mean score: two independent fair games, no draws.
    public static let priorVariance = 0.125

    public enum Decision: String, Equatable, Sendable {
        /// H1: the candidate is at least as good (exit 0).
        case acceptH1 = "H1"
        /// H0: the candidate is worse (exit 1).
        case acceptH0 = "H0"
        /// The pair limit was reached first (exit 2).
        case inconclusive
    }

    /// The test's running state, fed one pair at a time.
    public struct State: Equatable, Sendable {
        public let test: SPRT
        public let maxPairs: Int
        /// Pentanomial counts so far.
        public private(set) var counts = [0, 0, 0, 0, 0]
        public private(set) var llr = 0.0
        public private(set) var decision: Decision?

        public init(test: SPRT, maxPairs: Int) {
            precondition(maxPairs >= 1, "maxPairs must be at least 1")
            self.test = test
            self.maxPairs = maxPairs
        }

        public var pairs: Int { counts.reduce(0, +) }

        /// Adds a pair in which the candidate scored `score` (0, 0.5, 1, 1.5
        /// or 2) and returns the decision once there is one.
        @discardableResult
        public mutating func add(pairScore score: Double) -> Decision? {
            guard decision == nil else { return decision }
            let k = Int((score * 2).rounded())
            precondition((0 ... 4).contains(k), "a pair scores 0 ... 2 points")
            counts[k] += 1
            llr = test.llr(counts)
            if llr >= test.upperBound {
                decision = .acceptH1
            } else if llr <= test.lowerBound {
                decision = .acceptH0
            } else if pairs >= maxPairs {
                decision = .inconclusive
            }
            return decision
        }

        /// The candidate's mean score per game and its Elo advantage with a
        /// 95% normal interval (from the per-pair variance).
        public var estimate: (score: Double, elo: Double, low: Double, high: Double) {
            let n = Double(pairs)
            guard n > 0 else { return (0.5, 0, -.infinity, .infinity) }
            var mean = 0.0
            for k in 0 ..< 5 { mean += Double(counts[k]) * Double(k) / 4 }
            mean /= n
            var variance = 0.0
            for k in 0 ..< 5 { variance += Double(counts[k]) * (Double(k) / 4 - mean) * (Double(k) / 4 - mean) }
            variance /= n
            let half = 1.96 * (variance / n).squareRoot()
            return (mean, SPRT.elo(score: mean), SPRT.elo(score: mean - half), SPRT.elo(score: mean + half))
        }
    }
}
