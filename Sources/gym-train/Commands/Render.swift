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
        """
    )

    @OptionGroup var game: GameOptions

    @Option(help: "The agent (bottom on even episode indices, top on odd).")
    var agent: String = "tracker"

    @Option(help: "The opponent (Pong).")
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

    @Option(help: "Stop after this many steps (0 = the whole episode).")
    var maxSteps: Int = 3000

    @Option(help: "Keep every Nth step in the GIF/PGM output.")
    var every: Int = 2

    @Option(help: "Pixels per field unit in GIF/PGM output.")
    var scale: Float = 0.5

    @Option(help: "Results folder (default: Results/render-<game>-<time>-s<seed>).")
    var out: String?

    func validate() throws {
        guard episode >= 0 else { throw ValidationError("--episode \(episode) is out of range; allowed: 0 or more") }
        guard (0 ... 1_000_000).contains(maxSteps) else { throw ValidationError("--max-steps \(maxSteps) is out of range; allowed: 0 ... 1000000") }
        guard (1 ... 1000).contains(every) else { throw ValidationError("--every \(every) is out of range; allowed: 1 ... 1000") }
        guard scale >= 0.1, scale <= 4 else { throw ValidationError("--scale \(scale) is out of range; allowed: 0.1 ... 4") }
        guard fps > 0, fps <= 10_000 else { throw ValidationError("--fps \(fps) is out of range; allowed: (0, 10000]") }
    }

    func run() throws {
        let config = try game.pongConfig()
        let agentSpec = try AgentSpec.parse(agent)
        let opponentSpec = try AgentSpec.parse(opponent)
        try agentSpec.check(pong: config)
        try opponentSpec.check(pong: config)
        let seed = Seeds.episode(runSeed: game.seed, index: episode)
        let agentSide: PongSide = episode % 2 == 0 ? .bottom : .top
        var a = agentSpec.makePongAgent(config: config)
        var b = opponentSpec.makePongAgent(config: config)
        var pongGame = PongGame(config: config, seed: seed)
        a.reset(seed: Seeds.stream(seed, agentSide == .bottom ? 10 : 11))
        b.reset(seed: Seeds.stream(seed, agentSide == .bottom ? 11 : 10))

        let wantsFile = gif != nil || pgm != nil || !terminal
        let folder = wantsFile && (gif == nil || pgm == nil) && out != nil || (wantsFile && gif == nil && pgm == nil)
            ? try ResultsFolder.create(explicit: out, command: "render", game: "pong", seed: game.seed) : nil
        let gifPath = gif ?? (pgm == nil && folder != nil ? folder?.url.appendingPathComponent("episode.gif").path : nil)
        var frame = pongGame.makeFrame(scale: scale)
        var encoder = gifPath.map { _ in GIFEncoder(width: frame.width, height: frame.height, delay: UInt16(max(1, min(100, every * 100 / 60)))) }
        if let pgm {
            do { try FileManager.default.createDirectory(atPath: pgm, withIntermediateDirectories: true) } catch {
                throw CLIError("cannot create PGM folder \(pgm): \(error.localizedDescription)")
            }
        }
        let screen = terminal ? TerminalScreen() : nil
        let n = PongGame.observationCount
        var obsA = [Float](repeating: 0, count: n), obsB = [Float](repeating: 0, count: n)
        var step = 0, written = 0
        while true {
            if step % every == 0 {
                pongGame.render(into: &frame)
                encoder?.add(frame)
                if let pgm {
                    try AtomicFile.write(PGM.encode(frame), to: URL(fileURLWithPath: pgm).appendingPathComponent(String(format: "frame-%06d.pgm", written)))
                }
                written += 1
            }
            if let screen {
                let s = pongGame.state
                let score = agentSide == .bottom ? "\(s.scoreBottom)-\(s.scoreTop)" : "\(s.scoreTop)-\(s.scoreBottom)"
                screen.draw(pongGame, status: "step \(step)  \(agentSpec.displayName) \(score) \(opponentSpec.displayName)")
                Thread.sleep(forTimeInterval: Double(config.frameSkip) / fps)
            }
            if pongGame.isOver || (maxSteps > 0 && step >= maxSteps) { break }
            obsA.withUnsafeMutableBufferPointer { pongGame.observe(agentSide, into: $0) }
            obsB.withUnsafeMutableBufferPointer { pongGame.observe(agentSide.opponent, into: $0) }
            let actA = obsA.withUnsafeBufferPointer { a.act($0) }
            let actB = obsB.withUnsafeBufferPointer { b.act($0) }
            _ = agentSide == .bottom ? pongGame.step(top: actB, bottom: actA) : pongGame.step(top: actA, bottom: actB)
            step += 1
        }
        screen?.finish()
        if let encoder, let gifPath {
            try AtomicFile.write(Data(encoder.data), to: URL(fileURLWithPath: gifPath))
            print("wrote \(gifPath) (\(encoder.frameCount) frames, \(frame.width)×\(frame.height))")
        }
        if let pgm { print("wrote \(written) PGM frames to \(pgm)") }
        if let folder {
            try folder.writeRunInfo(command: "render", seed: game.seed, config: config, extra: [
                ("agent", .string(agentSpec.text)), ("opponent", .string(opponentSpec.text)),
                ("episode", .number(episode)), ("episodeSeed", .number(seed)),
            ])
        }
        let s = pongGame.state
        print("episode \(episode) (seed \(seed)): \(agentSpec.displayName) [\(agentSide)] \(s.scoreBottom)-\(s.scoreTop) after \(step) steps, end: \(s.end)")
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
        let rows = Int(Float(columns) * game.config.fieldHeight / game.config.fieldWidth / 2)
        var frame = GrayFrame(width: columns, height: rows)
        // Each cell is a field-sized box scaled to the grid (x and y scaled apart).
        var big = game.makeFrame(scale: Float(columns) / game.config.fieldWidth * 2)
        game.render(into: &big)
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
