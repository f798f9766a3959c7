import Agents
import Foundation
import Gym

extension Render {
    /// `render --game breakout`: episode `--episode` of an `eval` run, played
    /// again bit for bit (same seed derivation and agent seeding as
    /// ``BreakoutRun/play(config:seed:index:agent:)``); or, with `record`, a
    /// tournament's recorded episode, checked against the record.
    func runBreakout(record: BreakoutEpisodeRecord? = nil) throws {
        let config = try record.map(\.config) ?? game.breakoutConfig()
        let spec = try AgentSpec.parse(record?.agent ?? agent)
        try spec.check(breakout: config)
        let seed = record?.result.seed ?? Seeds.episode(runSeed: game.seed, index: episode)
        let limit = maxSteps ?? (record == nil ? 3000 : 0)
        var player = spec.makeBreakoutAgent(config: config)
        player.reset(seed: Seeds.agent(seed, seat: 0))
        var breakout = BreakoutGame(config: config, seed: seed)

        var frames = try EpisodeFrames(options: self, game: "breakout", frame: breakout.makeFrame(scale: scale))
        let screen = terminal ? TerminalScreen() : nil
        var observation = [Float](repeating: 0, count: breakout.observationCount)
        var step = 0
        while true {
            try frames.capture(step: step) { breakout.render(into: &$0) }
            if let screen {
                let s = breakout.state.core
                var big = breakout.makeFrame(scale: Float(screen.columns) / config.fieldWidth * 2)
                breakout.render(into: &big)
                screen.draw(big, status: "step \(step)  \(spec.displayName)  score \(s.score)  lives \(s.lives)  walls \(s.levelsCleared)/\(config.levels)  bricks \(s.bricksLeft)")
                Thread.sleep(forTimeInterval: Double(config.frameSkip) / fps)
            }
            if breakout.isOver || (limit > 0 && step >= limit) { break }
            observation.withUnsafeMutableBufferPointer { breakout.observe(into: $0) }
            let action = observation.withUnsafeBufferPointer { player.act($0) }
            _ = breakout.step(action)
            step += 1
        }
        screen?.finish()
        try frames.finish()
        if let folder = frames.folder {
            try folder.writeRunInfo(command: "render", seed: game.seed, config: config, extra: [
                ("agent", .string(spec.text)), ("episode", .number(episode)), ("episodeSeed", .number(seed)),
            ])
        }
        let s = breakout.state.core
        print("episode \(record?.episode ?? episode) (seed \(seed)): \(spec.displayName) scored \(s.score), cleared \(s.levelsCleared) of \(config.levels) walls, \(s.lives) lives left after \(step) steps, end: \(s.end)")
        if let r = record?.result {
            guard breakout.isOver else {
                print("replay stopped at --max-steps \(limit) before the end; not compared with the record")
                return
            }
            guard Int(s.score) == r.score, step == r.steps, s.end == r.end else {
                throw CLIError("replay differs from the record: recorded \(r.score) points after \(r.steps) steps (\(r.end)), replayed \(s.score) after \(step) steps (\(s.end))")
            }
            print("replay identical to the record: \(r.score) points after \(r.steps) steps (\(r.end))")
        }
    }
}
