import Foundation
import Testing
@testable import Agents
import Gym

@Suite struct SPRTTests {
    /// Feeds pairs of a synthetic player who wins each game with probability
    /// `win` and draws with probability `draw`, until the test decides.
    static func run(win: Float, draw: Float, seed: UInt64, test: SPRT = SPRT(), maxPairs: Int = 100_000) -> SPRT.State {
        var rng = Xoshiro256(seed: seed)
        var state = SPRT.State(test: test, maxPairs: maxPairs)
        while state.decision == nil {
            var s = 0.0
            for _ in 0 ..< 2 {
                let u = rng.nextUnit()
                s += u < win ? 1 : (u < win + draw ? 0.5 : 0)
            }
            state.add(pairScore: s)
        }
        return state
    }

    @Test func clearlyBetterCandidateIsAccepted() {
        for seed: UInt64 in 1 ... 10 {
            let s = Self.run(win: 0.6, draw: 0.1, seed: seed)
            #expect(s.decision == .acceptH1, "seed \(seed): \(String(describing: s.decision)) after \(s.pairs) pairs, LLR \(s.llr)")
            #expect(s.llr >= s.test.upperBound)
        }
    }

    @Test func clearlyWorseCandidateIsRejected() {
        for seed: UInt64 in 1 ... 10 {
            let s = Self.run(win: 0.3, draw: 0.1, seed: seed)
            #expect(s.decision == .acceptH0, "seed \(seed): \(String(describing: s.decision)) after \(s.pairs) pairs, LLR \(s.llr)")
            #expect(s.llr <= s.test.lowerBound)
        }
    }

    @Test func boundsFollowAlphaAndBeta() {
        let t = SPRT(elo0: -10, elo1: 5, alpha: 0.05, beta: 0.1)
        #expect(abs(t.upperBound - log(0.9 / 0.05)) < 1e-12)
        #expect(abs(t.lowerBound - log(0.1 / 0.95)) < 1e-12)
    }

    @Test func llrSignFollowsTheScore() {
        let t = SPRT()
        #expect(t.llr([0, 0, 10, 20, 10]) > 0)   // scoring 62.5%
        #expect(t.llr([10, 20, 10, 0, 0]) < 0)   // scoring 37.5%
        #expect(t.llr([0, 0, 0, 0, 0]) == 0)
    }

    @Test func pairLimitMakesTheTestInconclusive() {
        let s = Self.run(win: 0.45, draw: 0.1, seed: 3, maxPairs: 5)
        #expect(s.decision == .inconclusive)
        #expect(s.pairs == 5)
    }

    /// The Pong SPRT decides on the same pair whatever the batch size and workers.
    @Test func pongSPRTIsIndependentOfBatchAndWorkers() throws {
        let strong = try AgentSpec.parse("tracker:noise=1.5"), weak = try AgentSpec.parse("tracker:noise=4")
        var config = PongConfig()
        config.maxScore = 3
        let a = try PongSPRT.run(config: config, candidate: strong, baseline: weak, test: SPRT(), maxPairs: 200,
                             seed: 11, batch: 3, runner: ParallelRunner(workers: 1))
        let b = try PongSPRT.run(config: config, candidate: strong, baseline: weak, test: SPRT(), maxPairs: 200,
                             seed: 11, batch: 16, runner: ParallelRunner(workers: 3))
        #expect(a.state == b.state)
        #expect(a.games == b.games)
        #expect(a.state.decision == .acceptH1)
        #expect(a.games.count == 2 * a.state.pairs)
        let c = try PongSPRT.run(config: config, candidate: weak, baseline: strong, test: SPRT(), maxPairs: 200,
                             seed: 11, batch: 8, runner: ParallelRunner(workers: 2))
        #expect(c.state.decision == .acceptH0)
    }
}

extension SPRTTests {
    /// The error rates hold at the hypotheses themselves: at elo = elo1 the
    /// test accepts H1 about 1 − beta of the time, at elo = elo0 it accepts
    /// H0 about 1 − alpha of the time (150 runs each; 0.95 expected, the
    /// bound leaves room for sampling error: P(≤ 127 of 150 | 0.95) < 1e-4).
    @Test func errorRatesHoldAtTheHypotheses() {
        let test = SPRT(elo0: -40, elo1: 0, alpha: 0.05, beta: 0.05)
        let pAtH0 = Float(SPRT.expectedScore(elo: -40))
        var acceptH1AtH1 = 0, acceptH0AtH0 = 0
        for seed: UInt64 in 0 ..< 150 {
            if Self.run(win: 0.5, draw: 0, seed: 1000 + seed, test: test).decision == .acceptH1 { acceptH1AtH1 += 1 }
            if Self.run(win: pAtH0, draw: 0, seed: 5000 + seed, test: test).decision == .acceptH0 { acceptH0AtH0 += 1 }
        }
        #expect(acceptH1AtH1 >= 128, "accepted H1 in \(acceptH1AtH1) of 150 runs at elo1")
        #expect(acceptH0AtH0 >= 128, "accepted H0 in \(acceptH0AtH0) of 150 runs at elo0")
    }
}
