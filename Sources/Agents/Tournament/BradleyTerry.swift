import Foundation
import Gym

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

    /// Up to eight fits side by side: lane `l` of each vector belongs to fit `l`.
    typealias Lanes = SIMD8<Double>

    public init(prior: Double = 1) { self.prior = prior }

    /// Elo-scale ratings (mean 0) from a score matrix (`score[i][j]`: points
    /// of i against j) and a games matrix (`games[i][j]`, symmetric).
    public func fit(score: [[Double]], games: [[Double]]) -> [Double] {
        let n = score.count
        let lanes = Column<Lanes>(repeating: .zero, count: n * n)
        for i in 0 ..< n { for j in 0 ..< n { lanes[i * n + j][0] = score[i][j] } }
        let elo = fit(agents: n, lanes: 1, score: lanes, games: games.flatMap { $0 })
        return elo.map { $0[0] }
    }

    /// Ratings of a tournament's outcomes.
    public func fit(_ outcomes: PairwiseOutcomes) -> [Double] {
        let m = outcomes.matrices()
        return fit(score: m.score, games: m.games)
    }

    /// The ratings of `lanes` (1 ... 8) score matrices of `n` agents that
    /// share one games matrix, fitted side by side: fit `l`'s score of `i`
    /// against `j` is lane `l` of `score[i × n + j]`, the games of `i` and `j`
    /// are `games[i × n + j]` (a symmetric matrix), and fit `l`'s rating of `i` is lane `l` of the
    /// result's entry `i`.
    ///
    /// Each lane goes through the operations of the one-fit iteration, in
    /// its order (a vector's lanes round alone), so its iterates are that
    /// fit's bit for bit; a lane that converged keeps its strengths while
    /// the others go on, and the logs are taken lane by lane, only for the
    /// lanes still running.
    func fit(agents n: Int, lanes: Int, score: borrowing Column<Lanes>, games: [Double]) -> [Lanes] {
        precondition((1 ... Lanes.scalarCount).contains(lanes) && score.count == n * n && games.count == n * n,
                     "bad lane fit")
        guard n > 0 else { return [] }
        let g = Column<Double>(repeating: 0, count: n * n)
        for k in 0 ..< n * n { g[k] = games[k] }
        for i in 0 ..< n { for j in 0 ..< i { precondition(g[i * n + j] == g[j * n + i], "the games matrix is symmetric") } }
        let total = Column<Lanes>(repeating: .zero, count: n)
        for i in 0 ..< n {
            for j in 0 ..< n where i != j {
                var s = score[i * n + j]
                if g[i * n + j] > 0 {
                    s += prior / 2
                    g[i * n + j] += prior
                }
                total[i] += s
            }
        }
        let gamma = Column<Lanes>(repeating: Lanes(repeating: 1), count: n)
        let next = Column<Lanes>(repeating: Lanes(repeating: 1), count: n)
        // The running lanes, as a mask and as bits (lane l at bit l).
        var running = SIMDMask<Lanes.MaskStorage>(repeating: false), runningBits: UInt8 = 0
        for l in 0 ..< lanes { running[l] = true; runningBits |= 1 << l }
        var sweeps = 0
        while runningBits != 0 && sweeps < maxIterations {
            let converged = sweep(n, g: g, total: total, gamma: gamma, next: next, running: runningBits)
            for i in 0 ..< n { gamma[i].replace(with: next[i], where: running) }
            if converged != 0 {
                runningBits &= ~converged
                for l in 0 ..< lanes { running[l] = runningBits & (1 << l) != 0 }
            }
            sweeps += 1
        }
        var result = [Lanes](repeating: .zero, count: n)
        for l in 0 ..< lanes {
            var elo = (0 ..< n).map { 400 * log10(gamma[$0][l]) }
            let mean = Statistics.mean(elo)
            for i in 0 ..< n { elo[i] -= mean; result[i][l] = elo[i] }
        }
        return result
    }

    /// One MM sweep of every running lane (bit `l` of `running`): `next`
    /// from `gamma`, renormalised to a geometric mean of 1. Returns the
    /// lanes that converged: the largest change of a log-strength,
    /// `|log next[i] − log gamma[i]|`, is below ``tolerance``.
    ///
    /// The games matrix is symmetric, so the term `g[i][j] / (γᵢ + γⱼ)` of
    /// i's denominator is also j's (a sum is the same either way round):
    /// each pair's is taken once and added to both. Taking the pairs `i < j`
    /// in order adds each denominator's terms in the order of the one-fit
    /// sum, partner by partner (those below it while the outer loop reaches
    /// it, then those above), into `next`, which then holds the quotients.
    ///
    /// The logs of that test are taken only when its answer rests on them.
    /// For positive x and y, `|log x − log y| ≥ |x − y| / max(x, y)`, and
    /// each computed log of a finite double lies within 2⁻⁴³ of the true one
    /// (|log| < 745, an error under one ulp); so a strength whose relative
    /// move exceeds `tolerance + 10⁻¹²` has a computed change above
    /// `tolerance`, and the lane has not converged: the same answer, and
    /// the same iterates, as taking every log.
    @inline(__always)
    func sweep(_ n: Int, g: borrowing Column<Double>, total: borrowing Column<Lanes>, gamma: borrowing Column<Lanes>,
               next: borrowing Column<Lanes>, running: UInt8) -> UInt8 {
        for i in 0 ..< n { next[i] = .zero }
        for i in 0 ..< n {
            for j in i + 1 ..< n where g[i * n + j] > 0 {
                let term = g[i * n + j] / (gamma[i] + gamma[j])
                next[i] += term
                next[j] += term
            }
        }
        for i in 0 ..< n {
            let denominator = next[i]
            // An agent that played nobody keeps its strength.
            next[i] = gamma[i].replacing(with: total[i] / denominator, where: denominator .> 0)
        }
        var scale = Lanes(repeating: 1)
        var lanes = running
        while lanes != 0 {
            let l = lanes.trailingZeroBitCount
            lanes &= lanes - 1
            var logMean = 0.0
            for i in 0 ..< n { logMean += log(next[i][l]) }
            logMean /= Double(n)
            scale[l] = exp(-logMean)
        }
        for i in 0 ..< n { next[i] *= scale }
        var converged: UInt8 = 0
        lanes = running
        lanes: while lanes != 0 {
            let l = lanes.trailingZeroBitCount
            lanes &= lanes - 1
            if tolerance > 0 && tolerance <= 1000 {
                let moved = tolerance + 1e-12
                for i in 0 ..< n {
                    let x = next[i][l], y = gamma[i][l]
                    if x > 0 && y > 0 && x.isFinite && y.isFinite && abs(x - y) > moved * max(x, y) { continue lanes }
                }
            }
            var change = 0.0
            for i in 0 ..< n { change = max(change, abs(log(next[i][l]) - log(gamma[i][l]))) }
            if change < tolerance { converged |= 1 << l }
        }
        return converged
    }
}
