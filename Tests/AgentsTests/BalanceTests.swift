import Testing
@testable import Agents
import Gym
import Synchronization

@Suite struct BalanceTests {
    static let small = """
    { "game": "pong", "preset": "classic", "seed": 5,
      "scenarios": [
        { "name": "mirror", "a": "tracker:noise=2", "b": "tracker:noise=2", "games": 20 },
        { "name": "gap", "a": "tracker:noise=2", "b": "tracker:noise=4", "games": 20 } ] }
    """

    @Test func scenarioFileDecodes() throws {
        let set = try BalanceScenarioSet.decode(Self.small, source: "s.json")
        #expect(set.rules == .pong(PongConfig()))
        #expect(set.alpha == 0.001)
        #expect(set.scenarios.map(\.name) == ["mirror", "gap"])
        #expect(set.scenarios[1].b?.kind == .tracker(PongTracker.Skill(noise: 4)))
        #expect(set.scenarioSeed(0) != set.scenarioSeed(1))
    }

    @Test(arguments: [
        ("{\"game\":\"pong\",\"seed\":1,\"scenarios\":[],\"speed\":2}", "unknown key \"speed\"; valid keys are: game, preset, config, seed, alpha, scenarios"),
        ("{\"game\":\"chess\",\"seed\":1}", "allowed: pong, breakout"),
        ("{\"game\":\"breakout\",\"seed\":1,\"scenarios\":[{\"name\":\"x\",\"a\":\"tracker\",\"b\":\"random\",\"games\":10}]}", "a breakout scenario has one agent"),
        ("{\"game\":\"breakout\",\"seed\":1,\"scenarios\":[{\"name\":\"x\",\"a\":\"constant:action=4\",\"games\":10}]}", "Breakout actions are 0 ... 3"),
        ("{\"game\":\"pong\",\"preset\":\"slow\",\"seed\":1}", "presets are: classic, touch, fast, ale"),
        ("{\"game\":\"pong\",\"config\":{\"paddleWidth\":1},\"seed\":1}", "\"paddleWidth\" = 1 is out of range; allowed: 8 ... 256"),
        ("{\"game\":\"pong\",\"seed\":-3,\"scenarios\":[]}", "\"seed\" must be an unsigned 64-bit integer"),
        ("{\"game\":\"pong\",\"seed\":1,\"alpha\":0.5,\"scenarios\":[]}", "allowed: 1e-09 ... 0.2"),
        ("{\"game\":\"pong\",\"seed\":1,\"scenarios\":[]}", "non-empty array"),
        ("{\"game\":\"pong\",\"seed\":1,\"scenarios\":[{\"name\":\"x\",\"a\":\"tracker\",\"b\":\"robot\",\"games\":10}]}", "scenarios[0]: \"b\": unknown agent \"robot\"; agents are: random, tracker, constant, linear, process"),
        ("{\"game\":\"pong\",\"seed\":1,\"scenarios\":[{\"name\":\"x\",\"a\":\"tracker\",\"b\":\"random\",\"games\":9}]}", "allowed: an even integer in 2 ... 100000"),
        ("{\"game\":\"pong\",\"seed\":1,\"scenarios\":[{\"name\":\"x\",\"a\":\"tracker\",\"b\":\"random\",\"games\":10,\"n\":1}]}", "unknown key \"n\"; valid keys are: name, a, b, games"),
        ("{\"game\":\"pong\",\"seed\":1,\"scenarios\":[{\"name\":\"x\",\"a\":\"tracker\",\"b\":\"random\",\"games\":10},{\"name\":\"x\",\"a\":\"tracker\",\"b\":\"random\",\"games\":10}]}", "used twice"),
        ("{\"game\":", "malformed JSON"),
    ])
    func badScenarioFilesGiveOneClearError(text: String, fragment: String) {
        expectOneClearError(text, prefix: "s.json", fragment: fragment) {
            _ = try BalanceScenarioSet.decode(text, source: "s.json")
        }
    }

    @Test func unchangedRulesReproduceTheBaselineExactlyAndAChangeIsFlagged() throws {
        let set = try BalanceScenarioSet.decode(Self.small, source: "s.json")
        let recorded = try BalanceRun.run(set, rules: set.rules, runner: ParallelRunner(workers: 2))
        let baseline = BalanceBaseline(set: set, scenarioFile: "s.json", rules: set.rules, results: recorded)
        // Through the file format and back: still bit-identical.
        let decoded = try BalanceBaseline.decode(baseline.json.serialized(), source: "b.json")
        #expect(decoded.results == recorded)
        try decoded.checkMatches(set, source: "b.json")

        let again = try BalanceRun.run(set, rules: set.rules, runner: ParallelRunner(workers: 1))
        let check = BalanceCheck(alpha: set.alpha)
        let rows = check.compare(baseline: decoded.results, current: again)
        #expect(rows.count == 14)
        #expect(rows.allSatisfy { $0.verdict == .identical })

        // Paddles 40% narrower and a faster serve: the game plays differently.
        var changed = PongConfig()
        changed.paddleWidth *= 0.6
        changed.serveSpeed = 3
        let moved = check.compare(baseline: decoded.results, current: try PongBalance.run(set, config: changed, runner: ParallelRunner(workers: 2)))
        #expect(moved.contains { $0.verdict == .changed }, "\(moved.map { "\($0.scenario) \($0.metric) z \($0.z)" })")
    }

    /// One run for every scenario, a mirror pair's game played once
    /// (``BalanceGames``), gives every scenario's games exactly as a
    /// tournament of that scenario alone plays them.
    @Test func sharedRunMatchesEachScenarioPlayedAlone() throws {
        let text = """
        { "game": "pong", "preset": "fast", "seed": 9,
          "scenarios": [
            { "name": "mirror", "a": "tracker:noise=2", "b": "tracker:noise=2", "games": 12 },
            { "name": "gap", "a": "tracker:noise=2", "b": "tracker:noise=4,reaction=3", "games": 10 },
            { "name": "vs-random", "a": "tracker", "b": "random", "games": 6 } ] }
        """
        let set = try BalanceScenarioSet.decode(text, source: "s.json")
        guard case let .pong(config) = set.rules else { Issue.record("not a pong set"); return }
        let runner = ParallelRunner(workers: 2)
        let ticks = Atomic<Int>(0)
        let shared = try PongBalance.run(set, config: config, runner: runner, progress: { ticks.add(1, ordering: .relaxed) })
        #expect(ticks.load(ordering: .relaxed) == 28, "one tick per listed game, a mirror's copies included")
        for (s, scenario) in set.scenarios.enumerated() {
            let b = scenario.b ?? scenario.a
            let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: scenario.games / 2,
                                              seed: set.scenarioSeed(s))
            let alone = try PongTournament.run(config: config, agents: [scenario.a, b], schedule: schedule, runner: runner)
            #expect(shared[s].metrics == PongBalance.metrics(alone), "scenario \(scenario.name)")
        }
    }

    /// A mirror pair's two games are one game (the same specs in the same
    /// seats on the same seed): planned once; every other game once each.
    @Test func aMirrorPairIsPlannedOnce() throws {
        let a = try AgentSpec.parse("tracker:noise=2"), b = try AgentSpec.parse("tracker:noise=4")
        let plan = BalanceGames.Plan([(1, [a, a]), (1, [a, a]), (2, [a, a]), (2, [a, a]), (1, [a, b]), (1, [b, a])])
        #expect(plan.roster == [a, b])
        #expect(plan.unique.count == 4)
        #expect(plan.played == [0, 0, 1, 1, 2, 3])
    }

    @Test func sharedRunMatchesEachBreakoutScenarioPlayedAlone() throws {
        let text = """
        { "game": "breakout", "preset": "classic", "seed": 4,
          "scenarios": [
            { "name": "tracker", "a": "tracker:speed=0.2", "games": 5 },
            { "name": "random", "a": "random", "games": 7 } ] }
        """
        let set = try BalanceScenarioSet.decode(text, source: "s.json")
        guard case let .breakout(config) = set.rules else { Issue.record("not a breakout set"); return }
        let runner = ParallelRunner(workers: 2)
        let shared = try BreakoutBalance.run(set, config: config, runner: runner)
        for (s, scenario) in set.scenarios.enumerated() {
            let alone = try BreakoutDuplicate.run(config: config, agents: [scenario.a], episodes: scenario.games,
                                                  seed: set.scenarioSeed(s), runner: runner)[0]
            #expect(shared[s].metrics == BreakoutBalance.metrics(alone), "scenario \(scenario.name)")
        }
    }

    @Test func baselineForOtherScenariosIsRejected() throws {
        let set = try BalanceScenarioSet.decode(Self.small, source: "s.json")
        let results = [BalanceScenarioResult(name: "mirror", a: "tracker:noise=2", b: "tracker:noise=2", games: 20, metrics: []),
                       BalanceScenarioResult(name: "gap", a: "tracker:noise=2", b: "tracker:noise=3", games: 20, metrics: [])]
        let baseline = BalanceBaseline(set: set, scenarioFile: "s.json", rules: set.rules, results: results)
        #expect(throws: BalanceError.self) { try baseline.checkMatches(set, source: "b.json") }
    }

    @Test func zTestFlagsOnlyDifferencesBeyondTheSpread() {
        let base = BalanceMetric(name: "m", value: 10, n: 100, sd: 5)
        #expect(BalanceCheck.z(base, BalanceMetric(name: "m", value: 10.5, n: 100, sd: 5)) < 1)
        #expect(BalanceCheck.z(base, BalanceMetric(name: "m", value: 13, n: 100, sd: 5)) > 3.29)
        let zero = BalanceMetric(name: "t", value: 0, n: 50, sd: 0)
        #expect(BalanceCheck.z(zero, zero) == 0)
        #expect(BalanceCheck.z(zero, BalanceMetric(name: "t", value: 0.02, n: 50, sd: 0)) == .infinity)
        #expect(abs(BalanceCheck(alpha: 0.001).critical - 3.2905) < 1e-3)
        #expect(abs(Normal.quantile(0.975) - 1.959964) < 1e-6)
    }

    static let breakout = """
    { "game": "breakout", "preset": "classic", "seed": 3,
      "scenarios": [
        { "name": "tracker", "a": "tracker:noise=1.2", "games": 8 },
        { "name": "random", "a": "random", "games": 8 } ] }
    """

    @Test func breakoutBalanceReproducesExactlyAndFlagsAMuchHarderGame() throws {
        let set = try BalanceScenarioSet.decode(Self.breakout, source: "b.json")
        let one = try BalanceRun.run(set, rules: set.rules, runner: ParallelRunner(workers: 1))
        let two = try BalanceRun.run(set, rules: set.rules, runner: ParallelRunner(workers: 2))
        #expect(one == two)
        #expect(one[0].metrics.map(\.name) == ["score", "bricksPerLife", "ballsLost", "episodeLength", "levelClearRate",
                                               "pushes", "specialActivations", "watchdogRate", "truncationRate"])
        let baseline = BalanceBaseline(set: set, scenarioFile: "b.json", rules: set.rules, results: one)
        let decoded = try BalanceBaseline.decode(baseline.json.serialized(), source: "b.json")
        #expect(decoded.results == one)
        let check = BalanceCheck(alpha: set.alpha)
        #expect(check.compare(baseline: decoded.results, current: two).allSatisfy { $0.verdict == .identical })
        var changed = BreakoutConfig()
        changed.ballSpeed = 8
        changed.paddleWidth = 12
        let moved = check.compare(baseline: decoded.results, current: try BalanceRun.run(set, rules: .breakout(changed), runner: ParallelRunner(workers: 2)))
        #expect(moved.contains { $0.verdict == .changed }, "\(moved.map { "\($0.scenario) \($0.metric) z \($0.z)" })")
    }
}
