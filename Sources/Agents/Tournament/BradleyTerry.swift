import Foundation

/// Bradley–Terry ratings fitted by the MM algorithm, on an Elo scale.
///
/// Model: agent `i` has strength `γᵢ > 0` and beats `j` with probability
/// `γᵢ / (γᵢ + γⱼ)`; a draw counts half a win to each side. The maximum
/// likelihood strengths are found with Hunter's minorization–maximization
/// iteration (Hunter 2004, "MM algorithms for generalized Bradley–Terry
/// models", Ann. Statist. 32(1), eq. 3):
///
///     γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)
///
/// where `Wᵢ` is i's total score and `nᵢⱼ` the games between i and j,
/// renormalised each sweep to a geometric mean of 1. Ratings are
/// `400 · log10 γᵢ`, shifted so their mean is 0: a 400-point gap means
/// 10 : 1 odds, as in Elo.
///
/// An agent that never scored (or never lost) has no finite maximum
/// likelihood rating. ``prior`` adds that many virtual *drawn* games to
/// every pairing that met (default 1, i.e. half a point each way), which
/// keeps every rating finite; a gap between agents with a perfect record is
/// then a lower bound driven by the number of games (about
/// 400·log10(2n + 1) for n straight wins with the default prior).
public struct BradleyTerry: Sendable {
    /// Virtual drawn games added to each pairing that met.
    public var prior: Double = 1
    /// Stop when no log-strength moves by more than this in a sweep.
    public var tolerance: Double = 1e-10
    public var maxIterations: Int = 100_000

    public init(prior: Double = 1) { self.prior = prior }

    /// Elo-scale ratings (mean 0) from a score matrix (`score[i][j]`: points
    /// of i against j) and a games matrix (`games[i][j]`, symmetric).
    public func fit(score: [[Double]], games: [[Double]]) -> [Double] {
        let n = score.count
        // Flat n × n copies (row i at i × n), and each strength's log kept
        // from the sweep that made it: the same operations in the same order
        // as on the nested arrays, without their per-access checks.
        var s = [Double](repeating: 0, count: n * n), g = s
        var total = [Double](repeating: 0, count: n)
        var gamma = [Double](repeating: 1, count: n)
        var next = gamma
        var logGamma = gamma.map { log($0) }
        s.withUnsafeMutableBufferPointer { s in
            g.withUnsafeMutableBufferPointer { g in
                for i in 0 ..< n {
                    for j in 0 ..< n {
                        s[i * n + j] = score[i][j]
                        g[i * n + j] = games[i][j]
                        if i != j && g[i * n + j] > 0 {
                            s[i * n + j] += prior / 2
                            g[i * n + j] += prior
                        }
                    }
                }
                for i in 0 ..< n { for j in 0 ..< n where i != j { total[i] += s[i * n + j] } }
                total.withUnsafeBufferPointer { total in
                    for _ in 0 ..< maxIterations {
                        let change = sweep(n, g: UnsafeBufferPointer(g), total: total, gamma: &gamma, next: &next,
                                           logGamma: &logGamma)
                        swap(&gamma, &next)
                        if change < tolerance { break }
                    }
                }
            }
        }
        var elo = gamma.map { 400 * log10($0) }
        let mean = Statistics.mean(elo)
        for i in 0 ..< n { elo[i] -= mean }
        return elo
    }

    /// One MM sweep: `next` from `gamma`, renormalised to a geometric mean of
    /// 1; `logGamma` (the logs of `gamma` on entry) becomes the logs of
    /// `next`. Returns the largest change of a log-strength.
    @inline(__always)
    func sweep(_ n: Int, g: UnsafeBufferPointer<Double>, total: UnsafeBufferPointer<Double>,
               gamma: inout [Double], next: inout [Double], logGamma: inout [Double]) -> Double {
        gamma.withUnsafeBufferPointer { gamma in
            next.withUnsafeMutableBufferPointer { next in
                logGamma.withUnsafeMutableBufferPointer { logGamma in
                    for i in 0 ..< n {
                        var denominator = 0.0
                        for j in 0 ..< n where j != i && g[i * n + j] > 0 {
                            denominator += g[i * n + j] / (gamma[i] + gamma[j])
                        }
                        // An agent that played nobody keeps its strength.
                        next[i] = denominator > 0 ? total[i] / denominator : gamma[i]
                    }
                    var logMean = 0.0
                    for i in 0 ..< n { logMean += log(next[i]) }
                    logMean /= Double(n)
                    let scale = exp(-logMean)
                    var change = 0.0
                    for i in 0 ..< n {
                        next[i] *= scale
                        let logNext = log(next[i])
                        change = max(change, abs(logNext - logGamma[i]))
                        logGamma[i] = logNext
                    }
                    return change
                }
            }
        }
    }

    /// Ratings of a tournament's outcomes.
    public func fit(_ outcomes: PairwiseOutcomes) -> [Double] {
        let m = outcomes.matrices()
        return fit(score: m.score, games: m.games)
    }
}
