import Agents
import Foundation
import Gym

extension Breakout: CommandGame {
    static func frameSkip(_ config: BreakoutConfig) -> Int { config.frameSkip }

    /// The agent alone: mean score with a 95% interval, walls cleared, lives lost, length.
    static func reportEval(_ records: [BreakoutEpisode], _ run: EvalRun, config: BreakoutConfig) throws {
        let results = records.enumerated().map { index, episode in
            var e = episode
            e.index = index
            return e
        }
        let s = BreakoutEvalSummary(results)
        let seconds = run.seconds
        let stepsPerSecond = Double(s.totalSteps) / max(seconds, 1e-9)
        let realTime = stepsPerSecond * Double(run.frameSkip) / 60

        var csv = "episode,seed,score,steps,end,levels_cleared,lives_lost,bricks_broken,paddle_hits,balls_lost,pushes\n"
        for r in results {
            let e = r.events
            csv += "\(r.index),\(r.seed),\(r.score),\(r.steps),\(r.end),\(r.levelsCleared),\(r.livesLost),"
            csv += "\(e.bricksBroken),\(e.paddleHits),\(e.ballsLost),\(e.pushes)\n"
        }
        try run.folder.write(csv, to: "episodes.csv")
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
            ("totalSteps", .number(s.totalSteps)), ("wallSeconds", .number(seconds)),
            ("stepsPerSecond", .number(stepsPerSecond)), ("timesRealTime", .number(realTime)),
            ("workers", .number(run.workers)),
        ])
        try run.folder.write(json.serialized() + "\n", to: "summary.json")

        print("eval breakout: \(run.agent.displayName), \(s.episodes) episodes, seed \(run.seed), \(run.workers) workers")
        print(String(format: "  score   mean %.2f  95%% CI [%.2f, %.2f]", s.meanScore, s.scoreLow, s.scoreHigh))
        print(String(format: "  walls   cleared at least one in %d/%d (%.3f, 95%% CI [%.3f, %.3f]); all %d in %d; mean %.2f",
                     s.clearedAWall, s.episodes, s.clearRate, s.clearRateLow, s.clearRateHigh, config.levels, s.clearedAll, s.meanLevelsCleared))
        print(String(format: "  lives   mean %.2f lost of %d; ends: %d lives out, %d walls done, %d step limit, %d watchdog",
                     s.meanLivesLost, config.lives, s.livesExhausted, s.clearedAll, s.stepLimit, s.watchdog))
        print(String(format: "  length  mean %.1f steps; %d bricks broken, %d paddle hits, %d pushes",
                     s.meanLength, s.bricksBroken, s.paddleHits, s.pushes))
        print("  speed   \(formatRate(stepsPerSecond)) steps/s (\(s.totalSteps) steps in \(String(format: "%.2f", seconds)) s wall, agent included), \(formatRate(realTime))× real time")
        print("  results \(run.folder.path)")
    }
}
