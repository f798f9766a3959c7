import Foundation
import Testing
@testable import Agents
import Gym

@Suite struct RatingTests {
    /// Outcomes of agents with true Elo ratings `elo`, each pairing playing
    /// `units` pairs of games drawn from the Bradley–Terry model with the
    /// generator seeded `seed`.
    static func synthetic(elo: [Double], units: Int, seed: UInt64) -> PairwiseOutcomes {
        var rng = Xoshiro256(seed: seed)
        var outcomes = PairwiseOutcomes(agentCount: elo.count, gamesPerUnit: 2)
        for i in 0 ..< elo.count {
            for j in i + 1 ..< elo.count {
                let p = Float(SPRT.expectedScore(elo: elo[i] - elo[j]))
                var scores: [Double] = [], w = 0, l = 0
                for _ in 0 ..< units {
                    var s = 0.0
                    for _ in 0 ..< 2 {
                        if rng.chance(p) { s += 1; w += 1 } else { l += 1 }
                    }
                    scores.append(s)
                }
                outcomes.add(a: i, b: j, unitScores: scores, wins: w, draws: 0, losses: l)
            }
        }
        return outcomes
    }

    /// The MM iteration as first written, on nested arrays with every log
    /// taken afresh: ``BradleyTerry/fit(score:games:)`` must give its bits.
    static func nestedFit(_ model: BradleyTerry, score: [[Double]], games: [[Double]]) -> [Double] {
        let n = score.count
        var s = score, g = games
        for i in 0 ..< n {
            for j in 0 ..< n where i != j && g[i][j] > 0 {
                s[i][j] += model.prior / 2
                g[i][j] += model.prior
            }
        }
        var total = [Double](repeating: 0, count: n)
        for i in 0 ..< n { for j in 0 ..< n where i != j { total[i] += s[i][j] } }
        var gamma = [Double](repeating: 1, count: n)
        var next = gamma
        for _ in 0 ..< model.maxIterations {
            for i in 0 ..< n {
                var denominator = 0.0
                for j in 0 ..< n where j != i && g[i][j] > 0 { denominator += g[i][j] / (gamma[i] + gamma[j]) }
                next[i] = denominator > 0 ? total[i] / denominator : gamma[i]
            }
            var logMean = 0.0
            for i in 0 ..< n { logMean += log(next[i]) }
            logMean /= Double(n)
            let scale = exp(-logMean)
            var change = 0.0
            for i in 0 ..< n {
                next[i] *= scale
                change = max(change, abs(log(next[i]) - log(gamma[i])))
            }
            swap(&gamma, &next)
            if change < model.tolerance { break }
        }
        var elo = gamma.map { 400 * log10($0) }
        let mean = Statistics.mean(elo)
        for i in 0 ..< n { elo[i] -= mean }
        return elo
    }

    /// The fit equals the nested reference bit for bit, over seeded random
    /// tournaments (wide gaps, perfect records, pairings that never met).
    @Test func fitEqualsTheNestedReference() {
        for seed in UInt64(0) ..< 40 {
            var rng = Xoshiro256(seed: seed)
            let n = 2 + rng.below(6)
            var score = [[Double]](repeating: [Double](repeating: 0, count: n), count: n), games = score
            for i in 0 ..< n {
                for j in i + 1 ..< n where rng.below(5) != 0 {
                    let played = Double(2 * (1 + rng.below(200)))
                    let won = (played * Double(rng.nextUnit()) * 2).rounded() / 2
                    games[i][j] = played; games[j][i] = played
                    score[i][j] = won; score[j][i] = played - won
                }
            }
            for prior in [0.0, 1.0] where prior > 0 || seed % 4 == 0 {
                let model = BradleyTerry(prior: prior)
                let got = model.fit(score: score, games: games), expected = Self.nestedFit(model, score: score, games: games)
                #expect(got.map(\.bitPattern) == expected.map(\.bitPattern), "seed \(seed), prior \(prior)")
            }
        }
    }

    /// Fits side by side in the lanes of one vector (up to eight score
    /// matrices sharing one games matrix, each converging at its own sweep)
    /// each equal the nested reference of its own matrices, bit for bit.
    @Test func laneFitsEqualTheNestedReference() {
        for seed in UInt64(0) ..< 24 {
            var rng = Xoshiro256(seed: 1000 + seed)
            let n = 2 + rng.below(6), lanes = 1 + rng.below(BradleyTerry.Lanes.scalarCount)
            var games = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
            for i in 0 ..< n {
                for j in i + 1 ..< n where rng.below(5) != 0 {
                    let played = Double(2 * (1 + rng.below(200)))
                    games[i][j] = played; games[j][i] = played
                }
            }
            var scores = [[[Double]]]()
            let packed = Column<BradleyTerry.Lanes>(repeating: .zero, count: n * n)
            for l in 0 ..< lanes {
                var score = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
                for i in 0 ..< n {
                    for j in i + 1 ..< n where games[i][j] > 0 {
                        let won = (games[i][j] * Double(rng.nextUnit()) * 2).rounded() / 2
                        score[i][j] = won; score[j][i] = games[i][j] - won
                    }
                }
                for i in 0 ..< n { for j in 0 ..< n { packed[i * n + j][l] = score[i][j] } }
                scores.append(score)
            }
            for prior in [0.0, 1.0] where prior > 0 || seed % 4 == 0 {
                let model = BradleyTerry(prior: prior)
                let got = model.fit(agents: n, lanes: lanes, score: packed, games: games.flatMap { $0 })
                for l in 0 ..< lanes {
                    let expected = Self.nestedFit(model, score: scores[l], games: games)
                    #expect(got.map { $0[l].bitPattern } == expected.map(\.bitPattern), "seed \(seed), prior \(prior), lane \(l)")
                }
            }
        }
    }

    /// The bootstrap's ratings and intervals are those of every resample
    /// fitted alone by the nested reference (resamples not a multiple of
    /// the lane width, so the last group is partly filled).
    @Test func bootstrapEqualsOneNestedFitPerResample() {
        let outcomes = Self.synthetic(elo: [0, 40, 250, 700], units: 30, seed: 12)
        let bootstrap = RatingBootstrap(resamples: 21, seed: 5)
        let n = outcomes.agentCount
        var samples = [[Double]](repeating: [], count: n)
        for r in 0 ..< bootstrap.resamples {
            var rng = Xoshiro256(seed: Seeds.stream(bootstrap.seed, UInt64(r)))
            var score = [[Double]](repeating: [Double](repeating: 0, count: n), count: n), games = score
            for p in outcomes.pairings {
                let k = p.unitScores.count
                var s = 0.0
                for _ in 0 ..< k { s += p.unitScores[rng.below(k)] }
                let total = Double(k * outcomes.gamesPerUnit)
                score[p.a][p.b] += s; score[p.b][p.a] += total - s
                games[p.a][p.b] += total; games[p.b][p.a] += total
            }
            let elo = Self.nestedFit(bootstrap.model, score: score, games: games)
            for i in 0 ..< n { samples[i].append(elo[i]) }
        }
        let m = outcomes.matrices()
        let point = Self.nestedFit(bootstrap.model, score: m.score, games: m.games)
        let rated = bootstrap.rate(outcomes)
        for i in 0 ..< n {
            let sorted = samples[i].sorted()
            let low = min(point[i], RatingBootstrap.quantile(sorted, (1 - bootstrap.level) / 2))
            let high = max(point[i], RatingBootstrap.quantile(sorted, (1 + bootstrap.level) / 2))
            #expect([rated[i].elo, rated[i].low, rated[i].high].map(\.bitPattern)
                == [point[i], low, high].map(\.bitPattern), "agent \(i)")
        }
    }

    /// With scores exactly at the model's expectation, the MM fit recovers
    /// the true rating gaps.
    @Test func mmRecoversExactRatingsFromExpectedScores() {
        let truth: [Double] = [-300, -50, 0, 120, 230]
        let n = truth.count
        var score = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        var games = score
        for i in 0 ..< n {
            for j in 0 ..< n where i != j {
                games[i][j] = 100
                score[i][j] = 100 * SPRT.expectedScore(elo: truth[i] - truth[j])
            }
        }
        let fitted = BradleyTerry(prior: 0).fit(score: score, games: games)
        let mean = truth.reduce(0, +) / Double(n)
        for i in 0 ..< n {
            #expect(abs(fitted[i] - (truth[i] - mean)) < 1e-6, "agent \(i): \(fitted[i]) vs \(truth[i] - mean)")
        }
    }

    @Test func ratingsOfASyntheticTournamentFollowTheKnownOrdering() {
        let truth: [Double] = [0, 150, 300, 600]
        for seed: UInt64 in [1, 2, 3] {
            let outcomes = Self.synthetic(elo: truth, units: 200, seed: seed)
            let rated = RatingBootstrap(resamples: 300, seed: seed).rate(outcomes)
            #expect(rated.ranked.map(\.index) == [3, 2, 1, 0], "seed \(seed)")
            for r in rated {
                #expect(r.low <= r.elo && r.elo <= r.high, "seed \(seed) agent \(r.index)")
                // The true gap to the mean lies within the interval (a 95% interval; 12 checks).
                let trueCentred = truth[r.index] - truth.reduce(0, +) / 4
                #expect(abs(r.elo - trueCentred) < 60, "seed \(seed) agent \(r.index): \(r.elo) vs \(trueCentred)")
            }
            // Large gaps (150 Elo with 1200 games per agent) separate the intervals.
            let sorted = rated.ranked
            for k in 0 ..< sorted.count - 1 {
                #expect(sorted[k].low > sorted[k + 1].high, "seed \(seed): intervals of ranks \(k + 1) and \(k + 2) overlap")
            }
        }
    }

    @Test func bootstrapIntervalsShrinkWithMoreGames() {
        let truth: [Double] = [0, 100, 200]
        for seed: UInt64 in [4, 5] {
            let small = RatingBootstrap(resamples: 400, seed: seed).rate(Self.synthetic(elo: truth, units: 25, seed: seed))
            let large = RatingBootstrap(resamples: 400, seed: seed).rate(Self.synthetic(elo: truth, units: 400, seed: seed))
            for i in 0 ..< 3 {
                let ws = small[i].high - small[i].low, wl = large[i].high - large[i].low
                // 16× the games: about a quarter of the width; demand at least a halving.
                #expect(wl < ws / 2, "seed \(seed) agent \(i): width \(wl) with 400 pairs vs \(ws) with 25")
            }
        }
    }

    @Test func bootstrapIsAPureFunctionOfResultsAndSeed() {
        let outcomes = Self.synthetic(elo: [0, 50, 100], units: 30, seed: 8)
        let a = RatingBootstrap(resamples: 100, seed: 77).rate(outcomes)
        let b = RatingBootstrap(resamples: 100, seed: 77).rate(outcomes)
        let c = RatingBootstrap(resamples: 100, seed: 78).rate(outcomes)
        #expect(a == b)
        #expect(a.map(\.low) != c.map(\.low))
    }

    @Test func perfectRecordsStayFiniteThroughThePrior() {
        var outcomes = PairwiseOutcomes(agentCount: 2, gamesPerUnit: 2)
        outcomes.add(a: 0, b: 1, unitScores: [Double](repeating: 2, count: 50), wins: 100, draws: 0, losses: 0)
        let elo = BradleyTerry().fit(outcomes)
        // 100 wins + ½ from one virtual draw against ½: odds 201 : 1.
        #expect(abs((elo[0] - elo[1]) - 400 * log10(201)) < 1e-6)
    }

    @Test func quantileInterpolatesBetweenOrderStatistics() {
        #expect(RatingBootstrap.quantile([1, 2, 3, 4, 5], 0.5) == 3)
        #expect(RatingBootstrap.quantile([0, 10], 0.25) == 2.5)
        #expect(RatingBootstrap.quantile([7], 0.9) == 7)
    }
}
