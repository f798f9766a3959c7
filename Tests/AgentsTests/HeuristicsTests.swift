import Testing
@testable import Agents
@testable import Gym

/// The Breakout tracker, agent specs for Breakout, and the evaluation.
@Suite struct BreakoutAgentTests {
    @Test func trackerClearsTheClassicWallInMostEpisodes() throws {
        let results = try BreakoutEvaluation.run(config: BreakoutConfig(), agent: try! AgentSpec.parse("tracker"),
                                             episodes: 6, runSeed: 11, runner: ParallelRunner(workers: 2))
        let summary = BreakoutEvalSummary(results)
        #expect(summary.clearedAWall >= 5, "cleared \(summary.clearedAWall) of 6")
        let random = BreakoutEvalSummary(try BreakoutEvaluation.run(config: BreakoutConfig(), agent: try! AgentSpec.parse("random"),
                                                                 episodes: 6, runSeed: 11, runner: ParallelRunner(workers: 2)))
        #expect(random.clearedAWall == 0 && summary.meanScore > 3 * random.meanScore)
    }

    @Test func evaluationIsTheSameForAnyNumberOfWorkers() throws {
        let spec = try! AgentSpec.parse("tracker:reaction=5,noise=1,speed=0.8")
        var config = BreakoutConfig()
        config.maxSteps = 2000
        let one = try BreakoutEvaluation.run(config: config, agent: spec, episodes: 5, runSeed: 3, runner: ParallelRunner(workers: 1))
        let two = try BreakoutEvaluation.run(config: config, agent: spec, episodes: 5, runSeed: 3, runner: ParallelRunner(workers: 2))
        #expect(one == two)
        #expect(one.map(\.index) == [0, 1, 2, 3, 4])
        #expect(Set(one.map(\.seed)).count == 5)
    }

    /// An observation with no ball, or the given watchdog and cooldown.
    func observation(_ config: BreakoutConfig, watchdog: Float = 0, cooldown: Float = 0, servePending: Bool = false) -> [Float] {
        var game = BreakoutGame(config: config, seed: 1)
        if !servePending {
            game.state.core.servePending = false
            game.state.core.ballCount = 1
            game.state.core.ballX[0] = 100; game.state.core.ballY[0] = 300
            game.state.core.ballVX[0] = 1; game.state.core.ballVY[0] = 3
        }
        var o = game.observation()
        o[4] = cooldown; o[5] = watchdog
        return o
    }

    func act(_ agent: inout BreakoutTracker, _ o: [Float]) -> Int {
        o.withUnsafeBufferPointer { agent.act($0) }
    }

    @Test func trackerPushesOnlyWhenTheWatchdogIsNearAndThePushIsReady() {
        let config = BreakoutConfig()
        var t = BreakoutTracker(config: config)
        #expect(act(&t, observation(config, watchdog: 0.8)) == BreakoutAction.push.rawValue)
        #expect(act(&t, observation(config, watchdog: 0.8, cooldown: 0.5)) != BreakoutAction.push.rawValue)
        #expect(act(&t, observation(config, watchdog: 0.2)) != BreakoutAction.push.rawValue)
    }

    @Test func trackerServesWhenTheServeIsManual() throws {
        let atari = try BreakoutConfig.preset("atari")
        var t = BreakoutTracker(config: atari)
        #expect(act(&t, observation(atari, servePending: true)) == BreakoutAction.push.rawValue)
        var c = BreakoutTracker(config: BreakoutConfig())
        #expect(act(&c, observation(BreakoutConfig(), servePending: true)) != BreakoutAction.push.rawValue)
    }

    @Test func trackerMovesTowardTheFallingBall() {
        let config = BreakoutConfig()
        var game = BreakoutGame(config: config, seed: 1)
        game.state.core.servePending = false
        game.state.core.ballCount = 1
        game.state.core.ballX[0] = 40; game.state.core.ballY[0] = 200
        game.state.core.ballVX[0] = 0; game.state.core.ballVY[0] = -4
        var t = BreakoutTracker(config: config, skill: .init(aim: false))
        #expect(act(&t, game.observation()) == BreakoutAction.left.rawValue)
        game.state.core.ballX[0] = 280
        var u = BreakoutTracker(config: config, skill: .init(aim: false))
        #expect(act(&u, game.observation()) == BreakoutAction.right.rawValue)
    }

    @Test func aimingPutsThePaddleBesideTheBallTowardTheBricks() {
        var config = BreakoutConfig()
        config.layout = ["..........", "..........", "..........", "..........", "#########."].map { String($0) }
        config.layout[4] = "#........."   // only the leftmost column has a brick
        var game = BreakoutGame(config: config, seed: 1)
        game.state.core.servePending = false
        game.state.core.ballCount = 1
        game.state.core.ballX[0] = 160; game.state.core.ballY[0] = 60
        game.state.core.ballVX[0] = 0; game.state.core.ballVY[0] = -4
        var t = BreakoutTracker(config: config)
        // To send the ball left it must hit the paddle's left half: the paddle moves right.
        #expect(act(&t, game.observation()) == BreakoutAction.right.rawValue)
    }

    @Test func specsBuildBreakoutAgents() throws {
        let spec = try AgentSpec.parse("tracker:aim=false,reaction=2")
        guard case let .tracker(skill) = spec.kind else { Issue.record("not a tracker"); return }
        #expect(!skill.aim && skill.reaction == 2)
        #expect(try AgentSpec.parse("tracker").kind == .tracker(PongTracker.Skill(aim: true)))
        #expect(throws: AgentSpecError.badValue(kind: "tracker", key: "aim", value: "maybe", allowed: "true or false")) {
            _ = try AgentSpec.parse("tracker:aim=maybe")
        }
        let config = BreakoutConfig()
        try Breakout.check(AgentSpec.parse("random"), config: config)
        var random = try Breakout.makeAgent(AgentSpec.parse("random"), config: config)
        random.reset(seed: 1)
        let o = [Float](repeating: 0, count: BreakoutPhysics.observationCount(for: config))
        let actions = Set((0 ..< 200).map { _ in o.withUnsafeBufferPointer { random.act($0) } })
        #expect(actions == [0, 1, 2, 3])
        #expect(throws: AgentSpecError.self) { try Breakout.check(AgentSpec.parse("constant:action=4"), config: config) }
        #expect(PolicyTarget.breakout(config).inputs == 89 && PolicyTarget.breakout(config).outputs == 4)
    }

    @Test func summaryCountsAndIntervals() {
        func episode(_ i: Int, score: Int, levels: Int, end: EpisodeEnd) -> BreakoutEpisode {
            BreakoutEpisode(index: i, seed: UInt64(i), score: score, steps: 100 * (i + 1), end: end,
                            levelsCleared: levels, livesLost: end == .livesExhausted ? 3 : 1, events: BreakoutEvents())
        }
        let s = BreakoutEvalSummary([
            episode(0, score: 10, levels: 1, end: .levelsCleared), episode(1, score: 20, levels: 0, end: .livesExhausted),
            episode(2, score: 30, levels: 0, end: .watchdog), episode(3, score: 40, levels: 1, end: .levelsCleared),
        ])
        #expect(s.meanScore == 25 && s.scoreLow < 25 && s.scoreHigh > 25)
        #expect(abs((s.scoreHigh - s.scoreLow) / 2 - 1.96 * (500.0 / 3).squareRoot() / 2) < 1e-9)
        #expect(s.clearedAWall == 2 && s.clearRate == 0.5 && s.clearedAll == 2)
        #expect(s.livesExhausted == 1 && s.watchdog == 1 && s.stepLimit == 0)
        #expect(s.meanLivesLost == 1.5 && s.meanLength == 250 && s.totalSteps == 1000)
    }
}
