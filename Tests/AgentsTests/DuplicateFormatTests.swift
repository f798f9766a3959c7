import Testing
@testable import Agents
import Gym

@Suite struct BreakoutDuplicateTests {
    static let agents = try! ["random", "constant:action=0", "tracker:noise=1"].map { try AgentSpec.parse($0) }

    @Test func everyAgentPlaysTheSameSeedsAndResultsIgnoreWorkers() throws {
        let one = try BreakoutDuplicate.run(config: BreakoutConfig(), agents: Self.agents, episodes: 4, seed: 5, runner: ParallelRunner(workers: 1))
        let three = try BreakoutDuplicate.run(config: BreakoutConfig(), agents: Self.agents, episodes: 4, seed: 5, runner: ParallelRunner(workers: 3))
        #expect(one == three)
        for k in 0 ..< 4 {
            let seeds = Set(one.map { $0[k].seed })
            #expect(seeds == [Seeds.episode(runSeed: 5, index: k)], "seed index \(k)")
        }
    }

    @Test func outcomesCompareScoresSeedBySeed() throws {
        let results = try BreakoutDuplicate.run(config: BreakoutConfig(), agents: Self.agents, episodes: 4, seed: 5, runner: ParallelRunner(workers: 2))
        let outcomes = BreakoutDuplicate.outcomes(results)
        #expect(outcomes.pairings.count == 3)
        for p in outcomes.pairings {
            for k in 0 ..< 4 {
                let x = results[p.a][k].score, y = results[p.b][k].score
                #expect(p.unitScores[k] == (x > y ? 1 : (x == y ? 0.5 : 0)), "pairing \(p.a)-\(p.b) seed \(k)")
            }
        }
        // The tracker beats random on these seeds.
        #expect(outcomes.record(2, 0).wins == 4)
    }

    @Test func episodeRecordReplaysToTheSameEpisode() throws {
        let results = try BreakoutDuplicate.run(config: BreakoutConfig(), agents: Self.agents, episodes: 2, seed: 9, runner: ParallelRunner(workers: 2))
        for (a, row) in results.enumerated() {
            for (k, r) in row.enumerated() {
                let line = BreakoutEpisodeRecord(agent: Self.agents[a].text, episode: k, config: BreakoutConfig(), result: r).line
                let decoded = try BreakoutEpisodeRecord.decode(line, source: "m.jsonl")
                let replayed = try decoded.replay()
                #expect(replayed == r, "agent \(a) episode \(k)")
                #expect(decoded.result.score == r.score && decoded.result.steps == r.steps)
            }
        }
    }

    @Test func linearPoliciesAndBadActionsAreRefusedForBreakout() throws {
        #expect(throws: AgentSpecError.self) { try Breakout.check(AgentSpec.parse("constant:action=4"), config: BreakoutConfig()) }
        try Breakout.check(AgentSpec.parse("constant:action=3"), config: BreakoutConfig())
    }
}
