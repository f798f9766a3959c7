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
        // Flat n × n copies (row i at i × n) and the strengths in raw memory,
        // the sweep's two buffers swapped by pointer: the same operations in
        // the same order as on the nested arrays, without their per-access
        // checks or copies.
        let s = UnsafeMutablePointer<Double>.allocate(capacity: max(1, n * n))
        let g = UnsafeMutablePointer<Double>.allocate(capacity: max(1, n * n))
        let total = UnsafeMutablePointer<Double>.allocate(capacity: max(1, n))
        let buffers = UnsafeMutablePointer<Double>.allocate(capacity: max(1, 2 * n))
        defer { s.deallocate(); g.deallocate(); total.deallocate(); buffers.deallocate() }
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
        for i in 0 ..< n {
            total[i] = 0
            for j in 0 ..< n where i != j { total[i] += s[i * n + j] }
        }
        var gamma = buffers, next = buffers + n
        gamma.initialize(repeating: 1, count: n)
        next.initialize(repeating: 1, count: n)
        for _ in 0 ..< maxIterations {
            let converged = sweep(n, g: g, total: total, gamma: gamma, next: next)
            swap(&gamma, &next)
            if converged { break }
        }
        var elo = (0 ..< n).map { 400 * log10(gamma[$0]) }
        let mean = Statistics.mean(elo)
        for i in 0 ..< n { elo[i] -= mean }
        return elo
    }

    /// One MM sweep: `next` from `gamma`, renormalised to a geometric mean of
    /// 1. Returns whether it converged: the largest change of a log-strength,
    /// `|log next[i] − log gamma[i]|`, is below ``tolerance``.
    ///
    /// The logs of that test are taken only when its answer rests on them.
    /// For positive x and y, `|log x − log y| ≥ |x − y| / max(x, y)`, and
    /// each computed log of a finite double lies within 2⁻⁴³ of the true one
    /// (|log| < 745, an error under one ulp); so a strength whose relative
    /// move exceeds `tolerance + 10⁻¹²` has a computed change above
    /// `tolerance`, and the sweep has not converged: the same answer, and
    /// the same iterates, as taking every log.
    @inline(__always)
    func sweep(_ n: Int, g: UnsafePointer<Double>, total: UnsafePointer<Double>,
               gamma: UnsafePointer<Double>, next: UnsafeMutablePointer<Double>) -> Bool {
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
        for i in 0 ..< n { next[i] *= scale }
        if tolerance > 0 && tolerance <= 1000 {
            let moved = tolerance + 1e-12
            for i in 0 ..< n {
                let x = next[i], y = gamma[i]
                if x > 0 && y > 0 && x.isFinite && y.isFinite && abs(x - y) > moved * max(x, y) { return false }
            }
        }
        var change = 0.0
        for i in 0 ..< n { change = max(change, abs(log(next[i]) - log(gamma[i]))) }
        return change < tolerance
    }

    /// Ratings of a tournament's outcomes.
    public func fit(_ outcomes: PairwiseOutcomes) -> [Double] {
        let m = outcomes.matrices()
        return fit(score: m.score, games: m.games)
    }
}
