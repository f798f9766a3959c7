import Agents
import Foundation
import Gym

// What the commands know of Breakout: eval's, render's and tournament's reports
// (``CommandGame``) and play's table (``BreakoutTable``); the rules stay in Gym.

extension Breakout: CommandGame {
    static let benchChunk = 32

    /// The agent alone: mean score with a 95% interval, walls cleared, lives lost, length.
    static func reportEval(_ records: [BreakoutEpisode], _ run: EvalRun, config: BreakoutConfig,
                           rules: EpisodeRules<BreakoutConfig>?) throws {
        let results = records.enumerated().map { index, episode in
            var e = episode
            e.index = index
            return e
        }
        let s = BreakoutEvalSummary(results)
        var csv = "episode,seed,score,steps,end,levels_cleared,lives_lost,bricks_broken,paddle_hits,balls_lost,pushes"
            + (rules == nil ? "\n" : ",variant,rules\n")
        var jsonl = ""
        for r in results {
            let e = r.events
            csv += "\(r.index),\(r.seed),\(r.score),\(r.steps),\(r.end),\(r.levelsCleared),\(r.livesLost),"
            csv += "\(e.bricksBroken),\(e.paddleHits),\(e.ballsLost),\(e.pushes)"
            guard let rules else { csv += "\n"; continue }
            let recorded = rules.recorded(seed: r.seed)
            csv += "," + CSV.row([recorded.variant.name, recorded.variant.assignments])
            jsonl += BreakoutEpisodeRecord(agent: run.agent.text, episode: r.index, config: config, result: r,
                                           program: run.agent.programRecord, rules: recorded,
                                           played: rules.config(seed: r.seed)).line + "\n"
        }
        if rules != nil { try run.folder.write(jsonl, to: "matches.jsonl") }
        let json = JSONValue.object([
            ("game", .string("breakout")), ("agent", .string(run.agent.displayName)),
            ("episodes", .number(s.episodes)), ("seed", .number(run.seed)),
            ("meanScore", .number(s.meanScore)), ("meanScore95", .array([.number(s.scoreLow), .number(s.scoreHigh)])),
            ("clearedAWall", .number(s.clearedAWall)), ("clearRate", .number(s.clearRate)),
            ("clearRate95", .array([.number(s.clearRateLow), .number(s.clearRateHigh)])),
            ("clearedAllWalls", .number(s.clearedAll)), ("meanLevelsCleared", .number(s.meanLevelsCleared)),
            ("meanLivesLost", .number(s.meanLivesLost)), ("meanLength", .number(s.meanLength)),
            ("livesExhausted", .number(s.livesExhausted)), ("stepLimit", .number(s.stepLimit)),
            ("watchdog", .number(s.watchdog)), ("bricksBroken", .number(s.bricksBroken)),
            ("paddleHits", .number(s.paddleHits)), ("pushes", .number(s.pushes)),
            ("totalSteps", .number(s.totalSteps)),
        ])
        try run.finish(csv: csv, summary: json, totalSteps: s.totalSteps, lines: [
            "eval breakout: \(run.agent.displayName), \(s.episodes) episodes, seed \(run.seed), \(run.workers) workers",
            String(format: "  score   mean %.2f  95%% CI [%.2f, %.2f]", s.meanScore, s.scoreLow, s.scoreHigh),
            String(format: "  walls   cleared at least one in %d/%d (%.3f, 95%% CI [%.3f, %.3f]); all %d in %d; mean %.2f",
                   s.clearedAWall, s.episodes, s.clearRate, s.clearRateLow, s.clearRateHigh, config.levels, s.clearedAll, s.meanLevelsCleared),
            String(format: "  lives   mean %.2f lost of %d; ends: %d lives out, %d walls done, %d step limit, %d watchdog",
                   s.meanLivesLost, config.lives, s.livesExhausted, s.clearedAll, s.stepLimit, s.watchdog),
            String(format: "  length  mean %.1f steps; %d bricks broken, %d paddle hits, %d pushes",
                   s.meanLength, s.bricksBroken, s.paddleHits, s.pushes),
        ])
    }

    static func decodeReplay(_ line: String, source: String) throws -> Replay<Breakout> {
        let record = try BreakoutEpisodeRecord.decode(line, source: source)
        return Replay(config: record.config, played: record.rules == nil ? nil : record.played, seed: record.result.seed,
                      seats: [record.agent],
                      label: "episode \(record.episode)", expected: record.result, runInfo: [])
    }

    static func makeFrame(_ config: BreakoutConfig, scale: Float) -> GrayFrame {
        BreakoutGame(config: config).makeFrame(scale: scale)
    }

    static func renderStatus(_ vector: Vector, step: Int, seats: [AgentSpec], config: BreakoutConfig) -> String {
        let s = vector.state(0).core
        return "step \(step)  \(seats[0].displayName)  score \(s.score)  lives \(s.lives)  walls \(s.levelsCleared)/\(config.levels)  bricks \(s.bricksLeft)"
    }

    static func renderSummary(_ vector: Vector, label: String, seed: UInt64, seats: [AgentSpec], steps: Int,
                              config: BreakoutConfig) -> String {
        let s = vector.state(0).core
        return "\(label) (seed \(seed)): \(seats[0].displayName) scored \(s.score), cleared \(s.levelsCleared) of \(config.levels) walls, \(s.lives) lives left after \(steps) steps, end: \(s.end)"
    }

    static func checkReplay(_ r: BreakoutEpisode, vector: Vector, steps: Int) throws -> String {
        let s = vector.state(0).core
        guard Int(s.score) == r.score, steps == r.steps, s.end == r.end else {
            throw CLIError("replay differs from the record: recorded \(r.score) points after \(r.steps) steps (\(r.end)), replayed \(s.score) after \(steps) steps (\(s.end))")
        }
        return "replay identical to the record: \(r.score) points after \(r.steps) steps (\(r.end))"
    }

    static func renderRunInfo(seats: [AgentSpec], seed: UInt64, episode: Int, replaying: Bool) -> [(String, JSONValue)] {
        [("agent", .string(seats[0].text)), ("episode", .number(episode)), ("episodeSeed", .number(seed))]
    }

    static func tournamentSizes(agents: Int, format: TournamentSchedule.Format, options: Tournament) -> TournamentSizes {
        TournamentSizes(mode: "\(format), duplicate", members: [("episodes", .number(options.episodeOptions.episodes))],
                        games: agents * options.episodeOptions.episodes)
    }

    /// The duplicate format: every agent plays the same `--episodes` seeds;
    /// two agents are compared seed by seed by score (a gauntlet keeps the
    /// candidate's comparisons only).
    static func playTournamentGames(_ specs: [AgentSpec], config: BreakoutConfig, format: TournamentSchedule.Format,
                                    options: Tournament, games: [Int], runner: ParallelRunner,
                                    rules: EpisodeRules<BreakoutConfig>?,
                                    finished: @escaping @Sendable (Int, BreakoutEpisode) -> Void) throws(AgentFault)
        -> [BreakoutEpisode] {
        try BreakoutDuplicate.play(config: config, agents: specs, episodes: options.episodeOptions.episodes, seed: options.game.seed,
                               games: games, runner: runner, rules: rules?.draw, finished: finished)
    }

    static func tournamentPlay(_ specs: [AgentSpec], config: BreakoutConfig, format: TournamentSchedule.Format,
                               options: Tournament, records: [BreakoutEpisode], rules: EpisodeRules<BreakoutConfig>?) -> TournamentPlay {
        let seed = options.game.seed, episodes = options.episodeOptions.episodes
        let results = (0 ..< specs.count).map { a in Array(records[a * episodes ..< (a + 1) * episodes]) }
        var outcomes = BreakoutDuplicate.outcomes(results)
        if format == .gauntlet {
            var kept = PairwiseOutcomes(agentCount: specs.count, gamesPerUnit: 1)
            for p in outcomes.pairings where p.a == 0 {
                kept.add(a: p.a, b: p.b, unitScores: p.unitScores, wins: p.wins, draws: p.draws, losses: p.losses)
            }
            outcomes = kept
        }
        let names = specs.map(\.displayName)
        var records = ""
        for (a, row) in results.enumerated() {
            for (k, r) in row.enumerated() {
                records += BreakoutEpisodeRecord(agent: specs[a].text, episode: k, config: config, result: r,
                                                 program: specs[a].programRecord, rules: rules?.recorded(seed: r.seed),
                                                 played: rules?.config(seed: r.seed)).line + "\n"
            }
        }
        var scores = CSV.row(["agent", "mean_score", "sd_score", "mean_steps", "levels_cleared", "truncated"])
        var table = ["| agent | mean score | sd | mean steps | walls cleared | truncated |\n|---|---:|---:|---:|---:|---:|"]
        for (a, row) in results.enumerated() {
            let s = row.map { Double($0.score) }
            let meanSteps = Statistics.mean(row.map { Double($0.steps) })
            let cleared = row.reduce(0) { $0 + Int($1.events.levelsCleared) }
            let truncated = row.count { $0.end.isTruncation }
            scores += CSV.row([names[a], "\(Statistics.mean(s))", "\(Statistics.standardDeviation(s))",
                               "\(meanSteps)", String(cleared), String(truncated)])
            table.append(String(format: "| %@ | %.1f | %.1f | %.0f | %d | %d |", names[a], Statistics.mean(s),
                                Statistics.standardDeviation(s), meanSteps, cleared, truncated))
        }
        let steps = results.joined().reduce(0) { $0 + $1.steps }
        return TournamentPlay(
            outcomes: outcomes, records: records, steps: steps,
            summary: [
                ("game", .string("breakout")), ("mode", .string("\(format), duplicate")), ("seed", .number(seed)),
                ("episodesPerAgent", .number(episodes)), ("steps", .number(steps)),
                ("bootstrap", .number(options.ratingOptions.bootstrap)),
                ("meanScores", .array(results.map { .number(Statistics.mean($0.map { Double($0.score) })) })),
            ],
            files: [("scores.csv", scores)],
            header: "tournament breakout (\(format), duplicate format): \(specs.count) agents × \(episodes) common seeds, seed \(seed)",
            notes: table + ["", "Games: agent vs agent on each common seed, higher score wins (equal: draw). " + options.ratingOptions.method(resampling: "seeds")],
            chartTitle: "Breakout \(format), duplicate — \(episodes) seeds × \(specs.count) agents, seed \(seed)")
    }
}

// MARK: - play

/// Breakout for `play`: the person alone against the wall.
struct BreakoutTable: PlayTable {
    let config: BreakoutConfig
    let seed: UInt64
    private(set) var game: BreakoutGame
    private(set) var actions: [UInt8] = []
    private(set) var events = BreakoutEvents()

    init(config: BreakoutConfig, seed: UInt64, opponent _: AgentSpec?) {
        self.config = config
        self.seed = seed
        game = BreakoutGame(config: config, seed: seed)
    }

    var pushAction: Int? { BreakoutAction.push.rawValue }

    func action(for key: PlayKey) -> Int? {
        switch key {
        case .left: BreakoutAction.left.rawValue
        case .right: BreakoutAction.right.rawValue
        default: nil
        }
    }

    mutating func step(person: Int) {
        actions.append(UInt8(clamping: person))
        var e = BreakoutEvents()
        _ = game.step(person, events: &e)
        events.accumulate(e)
    }

    func status(name: String) -> String {
        let s = game.state.core
        let serve = s.servePending && !config.autoServe ? "   space serves" : ""
        return "\(name)   score \(s.score)   lives \(s.lives)   walls \(s.levelsCleared)/\(config.levels)   bricks \(s.bricksLeft)   step \(s.steps)\(serve)"
    }

    var keyHelp: String { "←/→ or a/d move, space push/serve, p pause, s save and quit, q quit" }

    func result(name: String) -> String {
        let s = game.state.core
        return "\(name) scored \(s.score), cleared \(s.levelsCleared) of \(config.levels) walls in \(s.steps) steps (\(s.end))"
    }

    func recordLine(match: Int, person: String) -> String {
        let episode = BreakoutEpisode(index: match, seed: seed, final: game.state.core, events: events)
        return BreakoutEpisodeRecord(agent: person, episode: match, config: config, result: episode).line
    }
}
