import Testing
@testable import Agents
import Gym

@Suite struct TournamentScheduleTests {
    @Test func roundRobinPairsEveryAgentOnceAndGauntletPairsTheCandidate() {
        let rr = TournamentSchedule(agentCount: 4, format: .roundRobin, pairs: 3, seed: 1)
        #expect(rr.pairings.map { [$0.a, $0.b] } == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
        #expect(rr.gameCount == 6 * 3 * 2)
        let g = TournamentSchedule(agentCount: 4, format: .gauntlet, pairs: 3, seed: 1)
        #expect(g.pairings.map { [$0.a, $0.b] } == [[0, 1], [0, 2], [0, 3]])
    }

    /// Games 2k and 2k+1 of a pairing share a seed with sides swapped, and
    /// pair k has the same seed in every pairing.
    @Test func pairsShareCommonSeedsWithSidesSwapped() {
        for seed: UInt64 in [1, 7, 12345] {
            let s = TournamentSchedule(agentCount: 3, format: .roundRobin, pairs: 5, seed: seed)
            for g in 0 ..< s.gameCount {
                let slot = s.slot(g)
                #expect(slot.swapped == (g % 2 == 1), "seed \(seed) game \(g)")
                #expect(s.pairSeed(slot.pair) == Seeds.episode(runSeed: seed, index: slot.pair), "seed \(seed) game \(g)")
                if g % 2 == 0 {
                    let next = s.slot(g + 1)
                    #expect(next.pair == slot.pair && next.pairing == slot.pairing && next.swapped, "seed \(seed) game \(g)")
                }
            }
        }
    }

    @Test func playedGamesUseTheScheduledSeedsAndSides() throws {
        let agents = try! ["random", "tracker:noise=3", "constant:action=1"].map { try AgentSpec.parse($0) }
        let s = TournamentSchedule(agentCount: 3, format: .roundRobin, pairs: 2, seed: 9)
        let games = try PongTournament.run(config: PongConfig(), agents: agents, schedule: s, runner: ParallelRunner(workers: 2))
        var bottomGames = [0, 0, 0], topGames = [0, 0, 0]
        for (g, game) in games.enumerated() {
            #expect(game.slot == s.slot(g))
            #expect(game.result.seed == s.pairSeed(game.slot.pair), "game \(g)")
            #expect(game.bottomAgent == (g % 2 == 0 ? game.slot.a : game.slot.b), "game \(g)")
            bottomGames[game.bottomAgent] += 1
            topGames[game.topAgent] += 1
            // The record replays to the same game.
            let record = PongMatchRecord(game, agents: agents, config: PongConfig())
            #expect(record.bottom == agents[game.bottomAgent].text)
        }
        // Every agent plays each side equally often.
        #expect(bottomGames == topGames)
        #expect(bottomGames == [4, 4, 4])
    }

    @Test func tournamentResultsAreIdenticalForOneAndSeveralWorkers() throws {
        let agents = try! ["random", "tracker:noise=4", "tracker:noise=2"].map { try AgentSpec.parse($0) }
        let s = TournamentSchedule(agentCount: 3, format: .roundRobin, pairs: 3, seed: 42)
        let one = try PongTournament.run(config: PongConfig(), agents: agents, schedule: s, runner: ParallelRunner(workers: 1))
        let three = try PongTournament.run(config: PongConfig(), agents: agents, schedule: s, runner: ParallelRunner(workers: 3))
        #expect(one == three)
        let o1 = PongTournament.outcomes(one, schedule: s), o3 = PongTournament.outcomes(three, schedule: s)
        #expect(o1 == o3)
        let b = RatingBootstrap(resamples: 200, seed: 5)
        #expect(b.rate(o1) == b.rate(o3))
    }

    @Test func matchRecordLineReplaysToTheRecordedGame() throws {
        let agents = try ["tracker:noise=2,name=A", "tracker:noise=3"].map { try AgentSpec.parse($0) }
        var config = PongConfig()
        config.maxScore = 5
        let s = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: 2, seed: 3)
        let games = try PongTournament.run(config: config, agents: agents, schedule: s, runner: ParallelRunner(workers: 2))
        for game in games {
            let line = PongMatchRecord(game, agents: agents, config: config).line
            let decoded = try PongMatchRecord.decode(line, source: "test")
            #expect(decoded.config == config)
            #expect(decoded.result == game.result, "game \(game.slot.game)")
            #expect(try decoded.replay() == game.result, "game \(game.slot.game)")
        }
    }

    /// ``PongMatchRecord/Lines`` (the config's members serialized once)
    /// writes each game's ``PongMatchRecord/line`` byte for byte, with and
    /// without drawn rules, for built-in and external agents.
    @Test func linesOfOneConfigAreTheRecordsLines() throws {
        let agents = try ["random", "tracker:noise=2,name=T2", "process:cmd=c.sh,name=C"].map { try AgentSpec.parse($0) }
        let config = try PongConfig.preset("classic")
        let file = RecordedRules.shippedFile(game: PongConfig.gameName)
        let set = try VariantFile<PongConfig>.decode(ShippedVariants.text(game: PongConfig.gameName) ?? "", source: file)
            .set("train", source: file)
        let rules = EpisodeRules(context: try RuleContext(base: config, set: set, visible: false, source: "test"), file: file,
                                 version: 1)
        let s = TournamentSchedule(agentCount: agents.count, format: .roundRobin, pairs: 2, seed: 9)
        let lines = PongMatchRecord.Lines(config: config)
        for g in 0 ..< s.gameCount {
            let result = PongMatchResult(seed: s.pairSeed(s.slot(g).pair), scoreBottom: g % 3, scoreTop: 2, steps: 100 + g,
                                         end: .stepLimit, hitsBottom: g, hitsTop: 1, receiverPoints: 0, pointSpeedSum: 2.5)
            let game = PongTournamentGame(slot: s.slot(g), result: result)
            for r in [nil, rules] {
                let expected = PongMatchRecord(game, agents: agents, config: config, rules: r).line
                #expect(lines.line(game, agents: agents, rules: r) == expected, "game \(g), rules \(r != nil)")
            }
        }
    }

    @Test func corruptMatchRecordsGiveOneClearError() {
        let cases: [(String, String)] = [
            ("{\"game\":\"pong\"", "malformed JSON"),
            ("[1]", "a match record is a JSON object"),
            ("{\"game\":\"chess\"}", "allowed: \"pong\""),
            ("{\"game\":\"pong\",\"seed\":-1}", "\"seed\" must be an unsigned 64-bit integer"),
        ]
        for (line, fragment) in cases {
            expectOneClearError(line, prefix: "m.jsonl:0: ", fragment: fragment) {
                _ = try PongMatchRecord.decode(line, source: "m.jsonl:0")
            }
        }
    }
}
