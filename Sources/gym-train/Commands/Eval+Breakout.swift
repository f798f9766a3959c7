import Agents
import Foundation
import Gym

extension Eval {
    /// `eval --game breakout`: the agent alone over many episodes.
    func runBreakout() throws {
        let config = try game.breakoutConfig()
        let agentSpec = try AgentSpec.parse(agent)
        try agentSpec.check(breakout: config)
        let folder = try ResultsFolder.create(explicit: output.out, command: "eval", game: "breakout", seed: game.seed)
        try folder.writeRunInfo(command: "eval", seed: game.seed, config: config, extra: [
            ("agent", .string(agentSpec.text)),
            ("episodes", .number(episodeOptions.episodes)), ("workers", .number(workerOptions.count)),
        ])
        let progress = Progress(total: episodeOptions.episodes, label: "eval")
        let clock = ContinuousClock()
        let start = clock.now
        let results = BreakoutEvaluation.run(config: config, agent: agentSpec, episodes: episodeOptions.episodes,
                                             runSeed: game.seed, runner: ParallelRunner(workers: workerOptions.count),
                                             progress: { progress.tick() })
        let seconds = (clock.now - start).seconds
        progress.finish()
        let s = BreakoutEvalSummary(results)
        let stepsPerSecond = Double(s.totalSteps) / max(seconds, 1e-9)
        let realTime = stepsPerSecond * Double(config.frameSkip) / 60

        var csv = "episode,seed,score,steps,end,levels_cleared,lives_lost,bricks_broken,paddle_hits,balls_lost,pushes\n"
        for r in results {
            let e = r.events
            csv += "\(r.index),\(r.seed),\(r.score),\(r.steps),\(r.end),\(r.levelsCleared),\(r.livesLost),"
            csv += "\(e.bricksBroken),\(e.paddleHits),\(e.ballsLost),\(e.pushes)\n"
        }
        try folder.write(csv, to: "episodes.csv")
        let json = JSONValue.object([
            ("game", .string("breakout")), ("agent", .string(agentSpec.displayName)),
            ("episodes", .number(s.episodes)), ("seed", .number(game.seed)),
            ("meanScore", .number(s.meanScore)), ("meanScore95", .array([.number(s.scoreLow), .number(s.scoreHigh)])),
            ("clearedAWall", .number(s.clearedAWall)), ("clearRate", .number(s.clearRate)),
            ("clearRate95", .array([.number(s.clearRateLow), .number(s.clearRateHigh)])),
            ("clearedAllWalls", .number(s.clearedAll)), ("meanLevelsCleared", .number(s.meanLevelsCleared)),
            ("meanLivesLost", .number(s.meanLivesLost)), ("meanLength", .number(s.meanLength)),
            ("livesExhausted", .number(s.livesExhausted)), ("stepLimit", .number(s.stepLimit)),
            ("watchdog", .number(s.watchdog)), ("bricksBroken", .number(s.bricksBroken)),
            ("paddleHits", .number(s.paddleHits)), ("pushes", .number(s.pushes)),
            ("totalSteps", .number(s.totalSteps)), ("wallSeconds", .number(seconds)),
            ("stepsPerSecond", .number(stepsPerSecond)), ("timesRealTime", .number(realTime)),
            ("workers", .number(workerOptions.count)),
        ])
        try folder.write(json.serialized() + "\n", to: "summary.json")

        print("eval breakout: \(agentSpec.displayName), \(s.episodes) episodes, seed \(game.seed), \(workerOptions.count) workers")
        print(String(format: "  score   mean %.2f  95%% CI [%.2f, %.2f]", s.meanScore, s.scoreLow, s.scoreHigh))
        print(String(format: "  walls   cleared at least one in %d/%d (%.3f, 95%% CI [%.3f, %.3f]); all %d in %d; mean %.2f",
                     s.clearedAWall, s.episodes, s.clearRate, s.clearRateLow, s.clearRateHigh, config.levels, s.clearedAll, s.meanLevelsCleared))
        print(String(format: "  lives   mean %.2f lost of %d; ends: %d lives out, %d walls done, %d step limit, %d watchdog",
                     s.meanLivesLost, config.lives, s.livesExhausted, s.clearedAll, s.stepLimit, s.watchdog))
        print(String(format: "  length  mean %.1f steps; %d bricks broken, %d paddle hits, %d pushes",
                     s.meanLength, s.bricksBroken, s.paddleHits, s.pushes))
        print("  speed   \(formatRate(stepsPerSecond)) steps/s (\(s.totalSteps) steps in \(String(format: "%.2f", seconds)) s wall, agent included), \(formatRate(realTime))× real time")
        print("  results \(folder.path)")
    }
}
