import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train render`: replay one episode to a GIF, PGM frames or the terminal.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play one episode and render it to an animated GIF, PGM frames, and/or the terminal.",
        discussion: """
        The episode is the one `eval` plays with the same --seed and --episode index \
        (seed = episode seed of (seed, index); the agent plays bottom on even indices), \
        so any evaluated game can be watched again, identically.

        --replay re-plays a recorded Pong game or Breakout episode from a tournament's matches.jsonl (the line \
        --index N, counted from 0) or from one JSON line given inline: the record's \
        config, seed and agent spec(s) give the identical game, and the replayed score \
        and length are checked against the record (exit 1 if they differ).
        """
    )

    @OptionGroup var game: GameOptions

    @OptionGroup var matchup: MatchupOptions

    @Option(help: "Episode index within the run (selects the seed and sides, as in eval).")
    var episode: Int = 0

    @Option(help: "GIF file to write (default: episode.gif in the results folder unless --terminal).")
    var gif: String?

    @Option(help: "Folder to write one PGM image per frame into.")
    var pgm: String?

    @Flag(help: "Play the episode live in the terminal.")
    var terminal = false

    @Option(help: "Terminal playback speed in frames per second (60 = real time).")
    var fps: Double = 60

    @Option(help: "Stop after this many steps (0 = the whole episode; default 3000, or 0 with --replay).")
    var maxSteps: Int?

    @OptionGroup var replayOptions: ReplayOptions

    @Option(help: "Keep every Nth step in the GIF/PGM output.")
    var every: Int = 2

    @Option(help: "Pixels per field unit in GIF/PGM output.")
    var scale: Float = 0.5

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard episode >= 0 else { throw ValidationError("--episode \(episode) is out of range; allowed: 0 or more") }
        if let maxSteps, !(0 ... 1_000_000).contains(maxSteps) {
            throw ValidationError("--max-steps \(maxSteps) is out of range; allowed: 0 ... 1000000")
        }
        guard replayOptions.index >= 0 else { throw ValidationError("--index \(replayOptions.index) is out of range; allowed: 0 or more") }
        if replayOptions.replay != nil, game.rules.isGiven {
            throw ValidationError("--replay takes the config from the record; drop --config/--preset")
        }
        guard (1 ... 1000).contains(every) else { throw ValidationError("--every \(every) is out of range; allowed: 1 ... 1000") }
        guard scale >= 0.1, scale <= 4 else { throw ValidationError("--scale \(scale) is out of range; allowed: 0.1 ... 4") }
        guard fps > 0, fps <= 10_000 else { throw ValidationError("--fps \(fps) is out of range; allowed: (0, 10000]") }
    }

    func run() throws {
        let recorded = try replayOptions.replayLine()
        let kind = recorded?.game ?? game.game
        let line = recorded.map { (line: $0.line, source: $0.source) }
        try play(kind.game, recorded: line)
    }

    /// Plays the episode of `G` (episode `--episode` of an `eval` run, or the
    /// recorded one) on a one-game vector environment, exactly as the
    /// evaluation or the tournament played it: same seed derivation, same
    /// seats, agents reset with `Seeds.agent(seed, seat:)`.
    func play<G: CommandGame>(_: G.Type, recorded: (line: String, source: String)?) throws {
        let replay = try recorded.map { try G.decodeReplay($0.line, source: $0.source) }
        let config = try replay?.config ?? game.loadConfig(G.Config.self)
        let seats: [AgentSpec]
        let seed: UInt64
        if let replay {
            // A record's external agents start only on --allow-agent-programs.
            seats = try replay.seats.map { let s = try AgentSpec.parse($0); return replayOptions.allowAgentPrograms ? s.allowingStart() : s }
            seed = replay.seed
        } else {
            let roster = try matchup.roster(seats: G.seats)
            seats = MatchupOptions.seating(episode: episode, seats: G.seats).map { roster[$0] }
            seed = Seeds.episode(runSeed: game.seed, index: episode)
        }
        let label = replay?.label ?? "episode \(episode)"
        let limit = maxSteps ?? (replay == nil ? 3000 : 0)
        for spec in seats { try G.check(spec, config: config) }
        let vector = G.makeVector(config: config, count: 1)
        if let played = replay?.played { vector.reset(0, seed: seed, rules: played) } else { vector.reset(0, seed: seed) }
        // Seat s's agent plays one game: seat s of the vector's one game.
        var agents: [any BatchAgent] = []
        for (s, spec) in seats.enumerated() {
            let agent = try G.makeBatchAgent(spec, context: AgentContext(
                config: config, seating: .oneSeat(s, slots: 1, seats: G.seats), vector: vector))
            try agent.start(game: 0, seed: Seeds.agent(seed, seat: s))
            agents.append(agent)
        }
        let firstGame: [Int32] = [0]

        var frames = try EpisodeFrames(options: self, game: G.Config.gameName, frame: G.makeFrame(config, scale: scale))
        let screen = terminal ? TerminalScreen() : nil
        let n = vector.observationLayout.count, seatCount = vector.seats
        var observations = [Float](repeating: 0, count: seatCount * n)
        var actions = [Int32](repeating: 0, count: seatCount)
        var rewards = [Float](repeating: 0, count: seatCount)
        var terminated: UInt8 = 0, truncated: UInt8 = 0
        observations.withUnsafeMutableBufferPointer { if let o = $0.baseAddress { vector.observe(into: o) } }
        var step = 0
        var over = false
        while true {
            try frames.capture(step: step) { vector.render(0, into: &$0) }
            if let screen {
                var big = G.makeFrame(config, scale: Float(screen.columns) / config.fieldWidth * 2)
                vector.render(0, into: &big)
                screen.draw(big, status: G.renderStatus(vector, step: step, seats: seats, config: config))
                Thread.sleep(forTimeInterval: Double(config.frameSkip) / fps)
            }
            if over || (limit > 0 && step >= limit) { break }
            try observations.withUnsafeBufferPointer { (obs) throws(AgentFault) in
                try actions.withUnsafeMutableBufferPointer { (act) throws(AgentFault) in
                    try firstGame.withUnsafeBufferPointer { (g) throws(AgentFault) in
                        guard let o = obs.baseAddress, let a = act.baseAddress, let g = g.baseAddress else { return }
                        for s in 0 ..< seatCount {
                            try agents[s].act(AgentRows(count: 1, games: g, observations: o + s * n, stride: n,
                                                        actions: a + s))
                        }
                    }
                }
            }
            observations.withUnsafeMutableBufferPointer { obs in
                actions.withUnsafeBufferPointer { act in
                    rewards.withUnsafeMutableBufferPointer { rew in
                        guard let o = obs.baseAddress, let a = act.baseAddress, let r = rew.baseAddress else { return }
                        vector.step(actions: a, into: VectorStepOutput(observations: o, rewards: r,
                                                                       terminated: &terminated, truncated: &truncated))
                    }
                }
            }
            over = terminated | truncated != 0
            step += 1
        }
        screen?.finish()
        try frames.finish()
        if let folder = frames.folder {
            try folder.writeRunInfo(command: "render", seed: game.seed, config: config,
                                    extra: G.renderRunInfo(seats: seats, seed: seed, episode: episode, replaying: replay != nil)
                                        + (replay?.runInfo ?? []))
        }
        print(G.renderSummary(vector, label: label, seed: seed, seats: seats, steps: step, config: config))
        if let replay {
            guard over else {
                print("replay stopped at --max-steps \(limit) before the end; not compared with the record")
                return
            }
            print(try G.checkReplay(replay.expected, vector: vector, steps: step))
        }
    }
}

/// Portable graymap (binary P5).
enum PGM {
    static func encode(_ frame: GrayFrame) -> Data {
        var data = Data("P5\n\(frame.width) \(frame.height)\n255\n".utf8)
        data.append(contentsOf: frame.pixels)
        return data
    }
}

/// Draws frames as characters with ANSI cursor control.
final class TerminalScreen {
    /// Character columns of the field (each cell covers a field-sized box).
    let columns: Int
    private var first = true
    private let ramp = Array(" .:-=+*#%@")

    init(columns: Int = 64) { self.columns = columns }

    /// Draws a frame rendered at twice the terminal's column resolution.
    func draw(_ big: GrayFrame, status: String) {
        FileHandle.standardOutput.write(Data(text(big, status: status).utf8))
    }

    /// The characters and cursor controls that draw `big` (see ``draw(_:status:)``).
    func text(_ big: GrayFrame, status: String) -> String {
        let rows = max(1, columns * big.height / big.width / 2)
        var frame = GrayFrame(width: columns, height: rows)
        // Each cell is a field-sized box scaled to the grid (x and y scaled apart).
        for y in 0 ..< rows {
            for x in 0 ..< columns {
                var maxV: UInt8 = 0
                let x0 = x * big.width / columns, x1 = max(x0 + 1, (x + 1) * big.width / columns)
                let y0 = y * big.height / rows, y1 = max(y0 + 1, (y + 1) * big.height / rows)
                for yy in y0 ..< min(y1, big.height) { for xx in x0 ..< min(x1, big.width) { maxV = max(maxV, big[xx, yy]) } }
                frame[x, y] = maxV
            }
        }
        var text = first ? "\u{1B}[2J" : ""
        first = false
        text += "\u{1B}[H+" + String(repeating: "-", count: columns) + "+\n"
        for y in 0 ..< rows {
            text += "|"
            for x in 0 ..< columns { text.append(ramp[Int(frame[x, y]) * (ramp.count - 1) / 255]) }
            text += "|\n"
        }
        text += "+" + String(repeating: "-", count: columns) + "+\n" + status + "\u{1B}[K\n"
        return text
    }

    func finish() {}
}
