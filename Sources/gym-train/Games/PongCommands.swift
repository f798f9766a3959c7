import Agents
import Foundation
import Gym

// What the commands know of Pong: eval's, render's and tournament's reports
// (``CommandGame``) and play's table (``PongTable``); the rules stay in Gym.

extension Pong: CommandGame {
    static let benchChunk = 64

    /// The agent alternates sides by episode; win rate, points share, score and length.
    static func reportEval(_ records: [PongMatchResult], _ run: EvalRun, config: PongConfig,
                           rules: EpisodeRules<PongConfig>?) throws {
        let results = records.enumerated().map { index, match in
            PongEvalEpisode(index: index, match: match, agentSide: index % 2 == 0 ? .bottom : .top)
        }
        let summary = PongEvalSummary(results)
        let opponent = run.opponent?.displayName ?? ""
        let opponentSpec = run.opponent ?? run.agent

        var csv = "episode,seed,agent_side,agent_score,opponent_score,steps,end,agent_hits,opponent_hits"
            + (rules == nil ? "\n" : ",variant,rules\n")
        var jsonl = ""
        for r in results {
            csv += "\(r.index),\(r.match.seed),\(r.agentSide),\(r.agentScore),\(r.opponentScore),\(r.match.steps),"
            csv += "\(r.match.end),\(r.match.hits(r.agentSide)),\(r.match.hits(r.agentSide.opponent))"
            guard let rules else { csv += "\n"; continue }
            let recorded = rules.recorded(seed: r.match.seed)
            csv += "," + CSV.row([recorded.variant.name, recorded.variant.assignments])
            let (bottom, top) = r.agentSide == .bottom ? (run.agent, opponentSpec) : (opponentSpec, run.agent)
            jsonl += PongMatchRecord(match: r.index, pairing: 0, pair: r.index, bottom: bottom.text, top: top.text,
                                     config: config, result: r.match, bottomProgram: bottom.programRecord,
                                     topProgram: top.programRecord, rules: recorded,
                                     played: rules.config(seed: r.match.seed)).line + "\n"
        }
        if rules != nil { try run.folder.write(jsonl, to: "matches.jsonl") }
        let json = JSONValue.object([
            ("game", .string("pong")), ("agent", .string(run.agent.displayName)),
            ("opponent", .string(opponent)), ("episodes", .number(summary.episodes)),
            ("seed", .number(run.seed)),
            ("wins", .number(summary.wins)), ("draws", .number(summary.draws)), ("losses", .number(summary.losses)),
            ("winRate", .number(summary.winRate)),
            ("winRate95", .array([.number(summary.winRateLow), .number(summary.winRateHigh)])),
            ("wholeGameWins", .number(summary.wholeGameWins)), ("wholeGameLosses", .number(summary.wholeGameLosses)),
            ("wholeGameWinRate", .number(summary.wholeGameWinRate)),
            ("wholeGameWinRate95", .array([.number(summary.wholeGameWinRateLow), .number(summary.wholeGameWinRateHigh)])),
            ("truncatedAhead", .number(summary.truncatedAhead)), ("truncatedLevel", .number(summary.truncatedLevel)),
            ("truncatedBehind", .number(summary.truncatedBehind)),
            ("pointsFor", .number(summary.pointsFor)), ("pointsAgainst", .number(summary.pointsAgainst)),
            ("pointShare", .number(summary.pointShare)),
            ("pointShare95", .array([.number(summary.pointShareLow), .number(summary.pointShareHigh)])),
            ("meanAgentScore", .number(summary.meanAgentScore)),
            ("meanOpponentScore", .number(summary.meanOpponentScore)),
            ("meanLength", .number(summary.meanLength)), ("truncated", .number(summary.truncated)),
            ("totalSteps", .number(summary.totalSteps)),
        ])
        try run.finish(csv: csv, summary: json, totalSteps: summary.totalSteps, lines: [
            "eval pong: \(run.agent.displayName) vs \(opponent), \(summary.episodes) games, seed \(run.seed), \(run.workers) workers",
            String(format: "  whole games  won %d, lost %d of %d played to %d   whole-game win rate %.3f  95%% CI [%.3f, %.3f]",
                   summary.wholeGameWins, summary.wholeGameLosses, summary.episodes - summary.truncated, config.maxScore,
                   summary.wholeGameWinRate, summary.wholeGameWinRateLow, summary.wholeGameWinRateHigh),
            String(format: "  truncated    %d at the %d-step limit: %d ahead, %d level, %d behind",
                   summary.truncated, config.maxSteps, summary.truncatedAhead, summary.truncatedLevel, summary.truncatedBehind),
            String(format: "  games   W %d  D %d  L %d (truncated games by the lead)   win rate %.3f  95%% CI [%.3f, %.3f]",
                   summary.wins, summary.draws, summary.losses, summary.winRate, summary.winRateLow, summary.winRateHigh),
            String(format: "  points  %d-%d   share %.3f  95%% CI [%.3f, %.3f]",
                   summary.pointsFor, summary.pointsAgainst, summary.pointShare, summary.pointShareLow, summary.pointShareHigh),
            String(format: "  mean score %.2f-%.2f, mean length %.1f steps, %d truncated",
                   summary.meanAgentScore, summary.meanOpponentScore, summary.meanLength, summary.truncated),
        ])
    }

    static func decodeReplay(_ line: String, source: String) throws -> Replay<Pong> {
        let record = try PongMatchRecord.decode(line, source: source)
        return Replay(config: record.config, played: record.rules == nil ? nil : record.played, seed: record.result.seed,
                      seats: [record.bottom, record.top],
                      label: "match \(record.match)", expected: record.result, runInfo: [("replayOf", record.json)])
    }

    static func makeFrame(_ config: PongConfig, scale: Float) -> GrayFrame {
        PongGame(config: config).makeFrame(scale: scale)
    }

    static func renderStatus(_ vector: Vector, step: Int, seats: [AgentSpec], config: PongConfig) -> String {
        let s = vector.state(0)
        return "step \(step)  \(seats[0].displayName) (bottom) \(s.scoreBottom)-\(s.scoreTop) \(seats[1].displayName) (top)"
    }

    static func renderSummary(_ vector: Vector, label: String, seed: UInt64, seats: [AgentSpec], steps: Int,
                              config: PongConfig) -> String {
        let s = vector.state(0)
        return "\(label) (seed \(seed)): \(seats[0].displayName) [bottom] \(s.scoreBottom)-\(s.scoreTop) \(seats[1].displayName) [top] after \(steps) steps, end: \(s.end)"
    }

    static func checkReplay(_ r: PongMatchResult, vector: Vector, steps: Int) throws -> String {
        let s = vector.state(0)
        guard Int(s.scoreBottom) == r.scoreBottom, Int(s.scoreTop) == r.scoreTop, steps == r.steps, s.end == r.end else {
            throw CLIError("replay differs from the record: recorded \(r.scoreBottom)-\(r.scoreTop) after \(r.steps) steps (\(r.end)), replayed \(s.scoreBottom)-\(s.scoreTop) after \(steps) steps (\(s.end))")
        }
        return "replay identical to the record: \(r.scoreBottom)-\(r.scoreTop) after \(r.steps) steps (\(r.end))"
    }

    static func renderRunInfo(seats: [AgentSpec], seed: UInt64, episode: Int, replaying: Bool) -> [(String, JSONValue)] {
        [("bottom", .string(seats[0].text)), ("top", .string(seats[1].text)), ("episodeSeed", .number(seed))]
            + (replaying ? [] : [("episode", .number(episode))])
    }

    static func tournamentSizes(agents: Int, format: TournamentSchedule.Format, options: Tournament) -> TournamentSizes {
        let schedule = TournamentSchedule(agentCount: agents, format: format, pairs: options.pairs, seed: options.game.seed)
        return TournamentSizes(mode: format.description, members: [("pairs", .number(options.pairs))],
                               games: schedule.gameCount)
    }

    /// Every pairing plays `--pairs` pairs of side-swapped games, pair `k` on one seed in every pairing.
    static func playTournamentGames(_ specs: [AgentSpec], config: PongConfig, format: TournamentSchedule.Format,
                                    options: Tournament, games: [Int], runner: ParallelRunner,
                                    rules: EpisodeRules<PongConfig>?,
                                    finished: @escaping @Sendable (Int, PongMatchResult) -> Void) throws(AgentFault)
        -> [PongMatchResult] {
        let schedule = TournamentSchedule(agentCount: specs.count, format: format, pairs: options.pairs,
                                          seed: options.game.seed)
        return try PongTournament.play(config: config, agents: specs, schedule: schedule, games: games, runner: runner,
                                   rules: rules?.draw, finished: { g, game in finished(g, game.result) }).map(\.result)
    }

    static func tournamentPlay(_ specs: [AgentSpec], config: PongConfig, format: TournamentSchedule.Format,
                               options: Tournament, records: [PongMatchResult], rules: EpisodeRules<PongConfig>?) -> TournamentPlay {
        let seed = options.game.seed, pairs = options.pairs
        let schedule = TournamentSchedule(agentCount: specs.count, format: format, pairs: pairs, seed: seed)
        let games = records.enumerated().map { g, result in PongTournamentGame(slot: schedule.slot(g), result: result) }
        var records = ""
        let lines = PongMatchRecord.Lines(config: config)
        for g in games { records += lines.line(g, agents: specs, rules: rules) + "\n" }
        let steps = games.reduce(0) { $0 + $1.result.steps }
        let truncated = games.count { $0.result.end.isTruncation }
        var notes = [options.ratingOptions.method(resampling: "pairs")]
        if truncated > 0 {
            notes.append("\(truncated) games reached the step limit (maxSteps \(config.maxSteps)) and were scored as they stood (equal scores: draw).")
        }
        return TournamentPlay(
            outcomes: PongTournament.outcomes(games, schedule: schedule), records: records, steps: steps,
            summary: [
                ("game", .string("pong")), ("mode", .string(format.description)), ("seed", .number(seed)),
                ("pairsPerPairing", .number(pairs)), ("games", .number(games.count)),
                ("truncated", .number(truncated)), ("bootstrap", .number(options.ratingOptions.bootstrap)), ("steps", .number(steps)),
            ],
            files: [],
            header: "tournament pong (\(format)): \(specs.count) agents, \(schedule.pairings.count) pairings × \(pairs) pairs × 2 sides = \(games.count) games, seed \(seed)",
            notes: notes,
            chartTitle: "Pong \(format) — \(games.count) games, seed \(seed)")
    }
}

// MARK: - play

/// Pong for `play`: the person on the bottom paddle, an agent on the top.
struct PongTable: PlayTable {
    let config: PongConfig
    let seed: UInt64
    let opponent: AgentSpec
    private(set) var game: PongGame
    /// The opponent: a batched agent of one game (seat 1 of this table's one game).
    private let agent: any BatchAgent
    private(set) var actions: [UInt8] = []
    /// Statistics as ``PongMatch/play(config:seed:bottom:top:)`` keeps them.
    private(set) var result: PongMatchResult
    private var receiver: PongSide
    private var observation = [Float](repeating: 0, count: PongGame.observationCount)

    init(config: PongConfig, seed: UInt64, opponent: AgentSpec?) throws(AgentFault) {
        self.config = config
        self.seed = seed
        guard let spec = opponent else { preconditionFailure("a Pong table needs an opponent") }
        self.opponent = spec
        game = PongGame(config: config, seed: seed)
        agent = try Pong.makeBatchAgent(spec, context: AgentContext(
            config: config, seating: .oneSeat(1, slots: 1, seats: Pong.seats)))
        try agent.start(game: 0, seed: Seeds.agent(seed, seat: 1))
        result = PongMatchResult(startingFrom: seed)
        receiver = game.state.ballVY < 0 ? .bottom : .top
    }

    var pushAction: Int? { nil }

    func action(for key: PlayKey) -> Int? {
        switch key {
        case .left: PongAction.left.rawValue
        case .right: PongAction.right.rawValue
        case .up where config.verticalMovement: PongAction.up.rawValue
        case .down where config.verticalMovement: PongAction.down.rawValue
        default: nil
        }
    }

    mutating func step(person: Int) throws(AgentFault) {
        observation.withUnsafeMutableBufferPointer { game.observe(.top, into: $0) }
        var top: Int32 = 0
        let row: [Int32] = [0]
        try observation.withUnsafeBufferPointer { (o) throws(AgentFault) in
            try row.withUnsafeBufferPointer { (g) throws(AgentFault) in
                try withUnsafeMutablePointer(to: &top) { (a) throws(AgentFault) in
                    guard let base = o.baseAddress, let games = g.baseAddress else { return }
                    try agent.act(AgentRows(count: 1, games: games, observations: base, stride: o.count, actions: a))
                }
            }
        }
        actions.append(UInt8(clamping: person))
        var events = PongEvents()
        _ = game.step(top: Int(top), bottom: person, events: &events)
        result.hitsBottom += Int(events.hitsBottom)
        result.hitsTop += Int(events.hitsTop)
        for _ in 0 ..< Int(events.pointsBottom) {
            if receiver == .bottom { result.receiverPoints += 1 }
            receiver = .bottom
            result.pointSpeedSum += Double(events.pointSpeed)
        }
        for _ in 0 ..< Int(events.pointsTop) {
            if receiver == .top { result.receiverPoints += 1 }
            receiver = .top
            result.pointSpeedSum += Double(events.pointSpeed)
        }
        let s = game.state
        result.scoreBottom = Int(s.scoreBottom)
        result.scoreTop = Int(s.scoreTop)
        result.steps = Int(s.steps)
        result.end = s.end
        if game.isOver { try agent.end(game: 0) }
    }

    func status(name: String) -> String {
        let s = game.state
        return "\(name) (bottom) \(s.scoreBottom) - \(s.scoreTop) \(opponent.displayName) (top)   first to \(config.maxScore)   step \(s.steps)"
    }

    var keyHelp: String {
        (config.verticalMovement ? "←/→ or a/d move, ↑/↓ or w/x forward/back" : "←/→ or a/d move")
            + ", p pause, s save and quit, q quit"
    }

    func result(name: String) -> String {
        let s = game.state
        let score = "\(s.scoreBottom)-\(s.scoreTop)"
        if s.scoreBottom > s.scoreTop { return "\(name) wins \(score) against \(opponent.displayName) (\(s.end))" }
        if s.scoreTop > s.scoreBottom { return "\(opponent.displayName) wins \(score) against \(name) (\(s.end))" }
        return "draw \(score) (\(s.end))"
    }

    func recordLine(match: Int, person: String) -> String {
        PongMatchRecord(match: match, pairing: 0, pair: match, bottom: person, top: opponent.text,
                        config: config, result: result, topProgram: opponent.programRecord).line
    }
}
