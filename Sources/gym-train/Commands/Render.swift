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

    @Option(help: "The agent (bottom on even episode indices, top on odd).")
    var agent: String = "tracker"

    @Option(help: "The opponent (Pong only).")
    var opponent: String = "random"

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

    @Option(help: "Replay a recorded game: a matches.jsonl file (with --index) or one JSON record line.")
    var replay: String?

    @Option(help: "With --replay FILE: the record's line number, from 0.")
    var index: Int = 0

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
        guard index >= 0 else { throw ValidationError("--index \(index) is out of range; allowed: 0 or more") }
        if replay != nil, game.configFile != nil || game.preset != nil {
            throw ValidationError("--replay takes the config from the record; drop --config/--preset")
        }
        guard (1 ... 1000).contains(every) else { throw ValidationError("--every \(every) is out of range; allowed: 1 ... 1000") }
        guard scale >= 0.1, scale <= 4 else { throw ValidationError("--scale \(scale) is out of range; allowed: 0.1 ... 4") }
        guard fps > 0, fps <= 10_000 else { throw ValidationError("--fps \(fps) is out of range; allowed: (0, 10000]") }
    }

    /// What to play: the config, the seed, the agents on each side and,
    /// for a replay, the record to check against.
    struct Episode {
        var config: PongConfig
        var seed: UInt64
        var bottom: AgentSpec, top: AgentSpec
        var label: String
        var record: PongMatchRecord?
    }

    func episodeToPlay() throws -> Episode {
        if let replay {
            let record = try loadRecord(replay)
            return Episode(config: record.config, seed: record.result.seed,
                           bottom: try AgentSpec.parse(record.bottom), top: try AgentSpec.parse(record.top),
                           label: "match \(record.match)", record: record)
        }
        let agentSpec = try AgentSpec.parse(agent)
        let opponentSpec = try AgentSpec.parse(opponent)
        let even = episode % 2 == 0
        return Episode(config: try game.pongConfig(), seed: Seeds.episode(runSeed: game.seed, index: episode),
                       bottom: even ? agentSpec : opponentSpec, top: even ? opponentSpec : agentSpec,
                       label: "episode \(episode)", record: nil)
    }

    /// The record on line `index` of a JSONL file, or an inline JSON line.
    func loadRecord(_ argument: String) throws -> PongMatchRecord {
        let (line, source) = try recordLine(argument)
        return try PongMatchRecord.decode(line, source: source)
    }

    /// The text of the record line `--replay` names, and a name for errors.
    func recordLine(_ argument: String) throws -> (line: String, source: String) {
        if argument.hasPrefix("{") { return (argument, "--replay") }
        let text = try readText(argument, what: "match file")
        var k = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if k == index { return (String(line), "\(argument):\(index)") }
            k += 1
        }
        throw CLIError("--index \(index) is out of range for \(argument); allowed: 0 ... \(max(0, k - 1)) (\(k) records)")
    }

    func run() throws {
        if let replay {
            let (line, source) = try recordLine(replay)
            if line.contains("\"game\":\"breakout\"") {
                return try runBreakout(record: try BreakoutEpisodeRecord.decode(line, source: source))
            }
        }
        if game.game == .breakout { return try runBreakout() }
        let ep = try episodeToPlay()
        let config = ep.config
        let seed = ep.seed
        let limit = maxSteps ?? (replay == nil ? 3000 : 0)
        try ep.bottom.check(pong: config)
        try ep.top.check(pong: config)
        var bottomAgent = ep.bottom.makePongAgent(config: config)
        var topAgent = ep.top.makePongAgent(config: config)
        var pongGame = PongGame(config: config, seed: seed)
        // As PongMatch.play seeds them, so the game is the one recorded or evaluated.
        bottomAgent.reset(seed: Seeds.agent(seed, seat: 0))
        topAgent.reset(seed: Seeds.agent(seed, seat: 1))

        var frames = try EpisodeFrames(options: self, game: "pong", frame: pongGame.makeFrame(scale: scale))
        let screen = terminal ? TerminalScreen() : nil
        let n = PongGame.observationCount
        var obsBottom = [Float](repeating: 0, count: n), obsTop = [Float](repeating: 0, count: n)
        var step = 0
        while true {
            try frames.capture(step: step) { pongGame.render(into: &$0) }
            if let screen {
                let s = pongGame.state
                screen.draw(pongGame, status: "step \(step)  \(ep.bottom.displayName) (bottom) \(s.scoreBottom)-\(s.scoreTop) \(ep.top.displayName) (top)")
                Thread.sleep(forTimeInterval: Double(config.frameSkip) / fps)
            }
            if pongGame.isOver || (limit > 0 && step >= limit) { break }
            obsBottom.withUnsafeMutableBufferPointer { pongGame.observe(.bottom, into: $0) }
            obsTop.withUnsafeMutableBufferPointer { pongGame.observe(.top, into: $0) }
            let b = obsBottom.withUnsafeBufferPointer { bottomAgent.act($0) }
            let t = obsTop.withUnsafeBufferPointer { topAgent.act($0) }
            _ = pongGame.step(top: t, bottom: b)
            step += 1
        }
        screen?.finish()
        try frames.finish()
        if let folder = frames.folder {
            var extra: [(String, JSONValue)] = [
                ("bottom", .string(ep.bottom.text)), ("top", .string(ep.top.text)), ("episodeSeed", .number(seed)),
            ]
            if let record = ep.record { extra.append(("replayOf", record.json)) } else { extra.append(("episode", .number(episode))) }
            try folder.writeRunInfo(command: "render", seed: game.seed, config: config, extra: extra)
        }
        let s = pongGame.state
        print("\(ep.label) (seed \(seed)): \(ep.bottom.displayName) [bottom] \(s.scoreBottom)-\(s.scoreTop) \(ep.top.displayName) [top] after \(step) steps, end: \(s.end)")
        if let record = ep.record {
            let r = record.result
            guard pongGame.isOver else {
                print("replay stopped at --max-steps \(limit) before the end; not compared with the record")
                return
            }
            if Int(s.scoreBottom) == r.scoreBottom, Int(s.scoreTop) == r.scoreTop, step == r.steps, s.end == r.end {
                print("replay identical to the record: \(r.scoreBottom)-\(r.scoreTop) after \(r.steps) steps (\(r.end))")
            } else {
                throw CLIError("replay differs from the record: recorded \(r.scoreBottom)-\(r.scoreTop) after \(r.steps) steps (\(r.end)), replayed \(s.scoreBottom)-\(s.scoreTop) after \(step) steps (\(s.end))")
            }
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
    let columns = 64
    private var first = true
    private let ramp = Array(" .:-=+*#%@")

    func draw(_ game: PongGame, status: String) {
        var big = game.makeFrame(scale: Float(columns) / game.config.fieldWidth * 2)
        game.render(into: &big)
        draw(big, status: status)
    }

    /// Draws a frame rendered at twice the terminal's column resolution.
    func draw(_ big: GrayFrame, status: String) {
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
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func finish() {}
}
