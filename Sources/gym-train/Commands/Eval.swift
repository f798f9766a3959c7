import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train eval`: an agent against an opponent over many episodes.
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate an agent against an opponent over many episodes, in parallel.",
        discussion: """
        Pong: the agent alternates sides by episode (even: bottom, odd: top) and plays \
        every game to its end or the step limit. Prints the games won and lost when \
        played to the end (whole-game win rate over all games, a truncated game \
        counting as not won), the truncated games by the score when they stopped, the \
        win rate counting a truncation by its lead, each with a 95% Wilson interval, the \
        share of points won, mean score and length, and the speed; writes config.json, \
        run.json, episodes.csv and summary.json to the results folder. \
        Breakout (--game breakout): the agent plays each episode alone; prints the mean \
        score with a 95% interval, walls cleared, lives lost, length and speed.
        """
    )

    @OptionGroup var game: GameOptions
    @OptionGroup var runOptions: RunOptions

    @Option(help: "The agent evaluated (e.g. tracker, random, tracker:reaction=3,noise=0.2, linear:PATH).")
    var agent: String = "tracker"

    @Option(help: "The opponent (Pong only).")
    var opponent: String = "random"

    func run() throws {
        if game.game == .breakout { return try runBreakout() }
        let config = try game.pongConfig()
        let agentSpec = try AgentSpec.parse(agent)
        let opponentSpec = try AgentSpec.parse(opponent)
        try agentSpec.check(pong: config)
        try opponentSpec.check(pong: config)
        let folder = try ResultsFolder.create(explicit: runOptions.out, command: "eval", game: "pong", seed: game.seed)
        try folder.writeRunInfo(command: "eval", seed: game.seed, config: config, extra: [
            ("agent", .string(agentSpec.text)), ("opponent", .string(opponentSpec.text)),
            ("episodes", .number(runOptions.episodes)), ("workers", .number(runOptions.workerCount)),
        ])
        let progress = Progress(total: runOptions.episodes, label: "eval")
        let clock = ContinuousClock()
        let start = clock.now
        let results = PongEvaluation.run(config: config, agent: agentSpec, opponent: opponentSpec,
                                         episodes: runOptions.episodes, runSeed: game.seed,
                                         runner: ParallelRunner(workers: runOptions.workerCount),
                                         progress: { progress.tick() })
        let seconds = (clock.now - start).seconds
        progress.finish()
        let summary = PongEvalSummary(results)
        let stepsPerSecond = Double(summary.totalSteps) / max(seconds, 1e-9)
        let realTime = stepsPerSecond * Double(config.frameSkip) / 60

        var csv = "episode,seed,agent_side,agent_score,opponent_score,steps,end,agent_hits,opponent_hits\n"
        for r in results {
            csv += "\(r.index),\(r.match.seed),\(r.agentSide),\(r.agentScore),\(r.opponentScore),\(r.match.steps),"
            csv += "\(r.match.end),\(r.match.hits(r.agentSide)),\(r.match.hits(r.agentSide.opponent))\n"
        }
        try folder.write(csv, to: "episodes.csv")
        let json = JSONValue.object([
            ("game", .string("pong")), ("agent", .string(agentSpec.displayName)),
            ("opponent", .string(opponentSpec.displayName)), ("episodes", .number(summary.episodes)),
            ("seed", .number(game.seed)),
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
            ("totalSteps", .number(summary.totalSteps)), ("wallSeconds", .number(seconds)),
            ("stepsPerSecond", .number(stepsPerSecond)), ("timesRealTime", .number(realTime)),
            ("workers", .number(runOptions.workerCount)),
        ])
        try folder.write(json.serialized() + "\n", to: "summary.json")

        print("eval pong: \(agentSpec.displayName) vs \(opponentSpec.displayName), \(summary.episodes) games, seed \(game.seed), \(runOptions.workerCount) workers")
        print(String(format: "  whole games  won %d, lost %d of %d played to %d   whole-game win rate %.3f  95%% CI [%.3f, %.3f]",
                     summary.wholeGameWins, summary.wholeGameLosses, summary.episodes - summary.truncated, config.maxScore,
                     summary.wholeGameWinRate, summary.wholeGameWinRateLow, summary.wholeGameWinRateHigh))
        print(String(format: "  truncated    %d at the %d-step limit: %d ahead, %d level, %d behind",
                     summary.truncated, config.maxSteps, summary.truncatedAhead, summary.truncatedLevel, summary.truncatedBehind))
        print(String(format: "  games   W %d  D %d  L %d (truncated games by the lead)   win rate %.3f  95%% CI [%.3f, %.3f]",
                     summary.wins, summary.draws, summary.losses, summary.winRate, summary.winRateLow, summary.winRateHigh))
        print(String(format: "  points  %d-%d   share %.3f  95%% CI [%.3f, %.3f]",
                     summary.pointsFor, summary.pointsAgainst, summary.pointShare, summary.pointShareLow, summary.pointShareHigh))
        print(String(format: "  mean score %.2f-%.2f, mean length %.1f steps, %d truncated",
                     summary.meanAgentScore, summary.meanOpponentScore, summary.meanLength, summary.truncated))
        print("  speed   \(formatRate(stepsPerSecond)) steps/s (\(summary.totalSteps) steps in \(String(format: "%.2f", seconds)) s wall, agents included), \(formatRate(realTime))× real time")
        print("  results \(folder.path)")
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}

/// 12345678 → "12.3 M".
func formatRate(_ x: Double) -> String {
    switch x {
    case 1e9...: String(format: "%.2f G", x / 1e9)
    case 1e6...: String(format: "%.1f M", x / 1e6)
    case 1e3...: String(format: "%.1f k", x / 1e3)
    default: String(format: "%.1f", x)
    }
}
