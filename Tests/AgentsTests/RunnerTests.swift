import Testing
import Gym
@testable import Agents

@Suite struct RunnerTests {
    @Test func resultsLandInIndexSlotsForAnyWorkerCount() {
        let expected = (0 ..< 257).map { $0 * $0 }
        for w in [1, 2, 3, 8, 300] {
            let got = ParallelRunner(workers: w).map(count: 257, makeWorker: { _ in 0 }, job: { calls, i in
                calls += 1
                return i * i
            })
            #expect(got == expected, "workers \(w)")
        }
        #expect(ParallelRunner(workers: 4).map(count: 0, makeWorker: { _ in () }, job: { _, i in i }).isEmpty)
    }

    @Test func evaluationIsIdenticalFor1_2_3And8Workers() throws {
        var config = PongConfig()
        config.maxScore = 3
        let agent = try AgentSpec.parse("tracker:reaction=2,noise=0.5")
        let opponent = try AgentSpec.parse("random")
        let reference = try PongEvaluation.run(config: config, agent: agent, opponent: opponent, episodes: 24,
                                           runSeed: 5, runner: ParallelRunner(workers: 1))
        #expect(reference.map(\.index) == Array(0 ..< 24))
        for w in [2, 3, 8] {
            let got = try PongEvaluation.run(config: config, agent: agent, opponent: opponent, episodes: 24,
                                         runSeed: 5, runner: ParallelRunner(workers: w))
            #expect(got == reference, "workers \(w)")
        }
        // And the seeds are the run's episode seeds, sides alternate.
        #expect(reference[7].match.seed == Seeds.episode(runSeed: 5, index: 7))
        #expect(reference[6].agentSide == .bottom && reference[7].agentSide == .top)
    }
}

@Suite struct TrackerTests {
    @Test func predictedCrossingFollowsWallBounces() {
        // Straight down: crosses where it is.
        #expect(PongTracker.crossing(x: 100, y: 200, vx: 0, vy: -2, lineY: 100, minX: 5, maxX: 315) == 100)
        // 50 steps to the line, drifting +4/step = +200 → 300 (inside).
        #expect(PongTracker.crossing(x: 100, y: 200, vx: 4, vy: -2, lineY: 100, minX: 5, maxX: 315) == 300)
        // +6/step = +300 → 400, reflected off 315 → 230.
        #expect(PongTracker.crossing(x: 100, y: 200, vx: 6, vy: -2, lineY: 100, minX: 5, maxX: 315) == 230)
        // -6/step = -300 → -200, reflected off 5 → 210.
        #expect(PongTracker.crossing(x: 100, y: 200, vx: -6, vy: -2, lineY: 100, minX: 5, maxX: 315) == 210)
    }

    @Test func trackerBeatsRandomEveryGame() throws {
        let results = try PongEvaluation.run(config: PongConfig(), agent: try AgentSpec.parse("tracker"),
                                         opponent: try AgentSpec.parse("random"), episodes: 6, runSeed: 3,
                                         runner: ParallelRunner(workers: 2))
        let summary = PongEvalSummary(results)
        #expect(summary.wins == 6)
        #expect(summary.pointShare > 0.95)
    }

    @Test func skillKnobsGradeTheTracker() throws {
        var config = PongConfig()
        config.maxScore = 5
        let results = try PongEvaluation.run(config: config, agent: try AgentSpec.parse("tracker"),
                                         opponent: try AgentSpec.parse("tracker:reaction=8,noise=1.5,speed=0.6"),
                                         episodes: 10, runSeed: 11, runner: ParallelRunner(workers: 2))
        #expect(PongEvalSummary(results).pointShare > 0.6)
    }

    @Test func trackerIsSeededByReset() {
        let config = PongConfig()
        var a = PongTracker(config: config, skill: .init(noise: 2))
        var b = PongTracker(config: config, skill: .init(noise: 2))
        var game = PongGame(config: config, seed: 8)
        var obs = [Float](repeating: 0, count: 12)
        a.reset(seed: 42); b.reset(seed: 42)
        for _ in 0 ..< 2000 {
            obs.withUnsafeMutableBufferPointer { game.observe(.bottom, into: $0) }
            let x = obs.withUnsafeBufferPointer { a.act($0) }
            let y = obs.withUnsafeBufferPointer { b.act($0) }
            #expect(x == y)
            _ = game.step(top: 0, bottom: x)
        }
    }
}

@Suite struct AgentSpecTests {
    @Test func parsesKindsParametersAndNames() throws {
        #expect(try AgentSpec.parse("random").kind == .random)
        #expect(try AgentSpec.parse("tracker").kind == .tracker(.init()))
        let t = try AgentSpec.parse("tracker:reaction=3,noise=0.2,speed=0.5,predict=false,name=Slow")
        #expect(t.kind == .tracker(.init(reaction: 3, noise: 0.2, speed: 0.5, predict: false)))
        #expect(t.displayName == "Slow")
        #expect(try AgentSpec.parse("constant:action=2").kind == .constant(action: 2))
    }

    @Test func everyMistakeIsNamed() {
        func message(_ s: String) -> String {
            do { _ = try AgentSpec.parse(s); return "" } catch { return error.description }
        }
        #expect(message("bogus") == "unknown agent \"bogus\"; agents are: random, tracker, constant, linear, process")
        #expect(message("tracker:speeed=1").contains("unknown parameter \"speeed\""))
        #expect(message("tracker:reaction=99").contains("reaction=99 is invalid; allowed: an integer in 0 ... 30"))
        #expect(message("tracker:noise=abc").contains("noise=abc"))
        #expect(message("tracker:reaction").contains("not key=value"))
        #expect(message("tracker:reaction=1,reaction=2").contains("given twice"))
        #expect(message("random:x=1").contains("allowed: name"))
        #expect(message("").contains("empty"))
    }
}
