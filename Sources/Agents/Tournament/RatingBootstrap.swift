import Gym

/// A rating with its bootstrap confidence interval (Elo scale).
public struct RatedAgent: Equatable, Sendable {
    public var index: Int
    public var elo: Double
    public var low: Double
    public var high: Double
}

/// Percentile-bootstrap confidence intervals for Bradley–Terry ratings.
///
/// Each resample redraws, *within every pairing*, as many units (pairs of
/// side-swapped games on one seed, or one duplicate seed) as were played,
/// with replacement, and refits the ratings. Resampling whole units keeps a
/// pair's two games together, as they were played. Resample `r` draws from
/// its own generator `Xoshiro256(seed: Seeds.stream(seed, r))`, so the
/// intervals are a pure function of the results and the seed. The interval
/// is the (1−level)/2 and (1+level)/2 quantiles (linear interpolation) of
/// the resampled ratings (Efron & Tibshirani 1993, ch. 13), widened where
/// needed to contain the point fit. Limitation: when every pairing an agent
/// played is a perfect record, every resample repeats it and the interval
/// collapses onto the point, whose value rests on the prior; read such a
/// rating as a bound, not a measurement.
public struct RatingBootstrap: Sendable {
    public var resamples: Int
    public var level: Double
    public var seed: UInt64
    public var model: BradleyTerry

    public init(resamples: Int = 1000, level: Double = 0.95, seed: UInt64, model: BradleyTerry = BradleyTerry()) {
        precondition(resamples >= 1 && level > 0 && level < 1, "bad bootstrap parameters")
        self.resamples = resamples
        self.level = level
        self.seed = seed
        self.model = model
    }

    /// Point ratings and intervals, one per agent, in agent order.
    ///
    /// Every resample has the games matrix of the outcomes (each pairing
    /// redraws as many units as it played), so the resamples are fitted
    /// eight at a time, one per lane (``BradleyTerry/fit(agents:lanes:score:games:)``):
    /// each is the fit of its own matrices, bit for bit.
    public func rate(_ outcomes: PairwiseOutcomes) -> [RatedAgent] {
        let point = model.fit(outcomes)
        let n = outcomes.agentCount
        var samples = [[Double]](repeating: [], count: n)
        for i in 0 ..< n { samples[i].reserveCapacity(resamples) }
        var games = [Double](repeating: 0, count: n * n)
        for p in outcomes.pairings where !p.unitScores.isEmpty {
            let total = Double(p.unitScores.count * outcomes.gamesPerUnit)
            games[p.a * n + p.b] += total
            games[p.b * n + p.a] += total
        }
        let score = Column<BradleyTerry.Lanes>(repeating: .zero, count: n * n)
        let width = BradleyTerry.Lanes.scalarCount
        for first in stride(from: 0, to: resamples, by: width) {
            let lanes = min(width, resamples - first)
            for k in 0 ..< n * n { score[k] = .zero }
            for l in 0 ..< lanes {
                var rng = Xoshiro256(seed: Seeds.stream(seed, UInt64(first + l)))
                for p in outcomes.pairings {
                    let k = p.unitScores.count
                    guard k > 0 else { continue }
                    var s = 0.0
                    for _ in 0 ..< k { s += p.unitScores[rng.below(k)] }
                    let total = Double(k * outcomes.gamesPerUnit)
                    score[p.a * n + p.b][l] += s
                    score[p.b * n + p.a][l] += total - s
                }
            }
            let elo = model.fit(agents: n, lanes: lanes, score: score, games: games)
            for l in 0 ..< lanes { for i in 0 ..< n { samples[i].append(elo[i][l]) } }
        }
        let lowQ = (1 - level) / 2, highQ = (1 + level) / 2
        return (0 ..< n).map { i in
            let sorted = samples[i].sorted()
            // Skewed resample distributions (near-perfect records) can put
            // the percentiles beside the point fit; the interval is widened
            // to contain it.
            return RatedAgent(index: i, elo: point[i],
                              low: min(point[i], RatingBootstrap.quantile(sorted, lowQ)),
                              high: max(point[i], RatingBootstrap.quantile(sorted, highQ)))
        }
    }

    /// The `q` quantile of sorted values (linear interpolation between order statistics).
    public static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard let first = sorted.first else { return 0 }
        guard sorted.count > 1 else { return first }
        let position = q * Double(sorted.count - 1)
        let lo = Int(position.rounded(.down))
        let hi = min(lo + 1, sorted.count - 1)
        let t = position - Double(lo)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * t
    }
}

extension Array where Element == RatedAgent {
    /// Highest rating first; ties by agent index.
    public var ranked: [RatedAgent] {
        sorted { $0.elo != $1.elo ? $0.elo > $1.elo : $0.index < $1.index }
    }
}
