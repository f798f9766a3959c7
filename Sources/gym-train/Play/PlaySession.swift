import Agents
import Foundation
import Gym

/// The loop of `play`: reads keys, steps the game in real time (or one step
/// per "." with the manual clock of the tests), draws it, records finished
/// games and saves an interrupted one. Game k of a session is seeded with
/// `Seeds.episode(sessionSeed, k)`.
final class PlaySession<T: PlayTable> {
    struct Options {
        /// Frames per second; one agent step lasts `frameSkip / fps` seconds.
        var fps: Double
        var holdFrames: Int
        var manualClock: Bool
        var name: String
        var savePath: String?
        var folder: String?
        /// How `folder` is taken: fresh, replaced (--overwrite), or continued (--resume).
        var folderMode: ResultsFolder.Mode
        var sessionSeed: UInt64
    }

    /// How the session ended and what to tell the person afterwards.
    struct Outcome {
        var summary: [String]
    }

    private var table: T
    private let opponent: AgentSpec?
    private var gameIndex: Int
    private let options: Options
    private var control: PaddleControl
    private var reader = KeyReader()
    private var paused = false
    private var screen: TerminalScreen?
    private var results: ResultsFolder?
    private var recorded: [String]?
    private var finishedGames: [Int] = []

    init(table: T, opponent: AgentSpec?, gameIndex: Int, options: Options) {
        self.table = table
        self.opponent = opponent
        self.gameIndex = gameIndex
        self.options = options
        control = PaddleControl(holdFrames: options.holdFrames, frameSkip: table.frameSkip)
    }

    /// Plays until the person quits or saves, or a signal ends the session.
    func run() throws -> Outcome {
        // A folder named by the person is claimed before the game starts, so a used one is refused up front.
        if options.folder != nil { _ = try folder() }
        try RawTerminal.enter()
        defer { RawTerminal.restore() }
        var summary = try loop()
        RawTerminal.restore()
        if let results, !finishedGames.isEmpty {
            let file = results.url.appendingPathComponent("matches.jsonl").path
            summary.append("\(finishedGames.count) finished game(s) recorded in \(file); watch one again with:")
            summary.append("  gym-train render --replay \(file) --index \(recorded.map { $0.count - 1 } ?? 0) --terminal")
        }
        return Outcome(summary: summary)
    }

    private enum Step { case none, quit, save(reason: String) }

    private func loop() throws -> [String] {
        draw()
        var buffer = [UInt8](repeating: 0, count: 256)
        let interval = Double(table.frameSkip) / options.fps
        var next = Self.now() + interval
        while true {
            switch RawTerminal.takeInterruption() {
            case .quit?: return ["quit"]
            case let .save(sig)?: return try finish(.save(reason: "signal \(Self.signalName(sig))"))
            case .redraw?:
                RawTerminal.reapply()
                screen = nil
                draw()
            case nil: break
            }
            let running = !paused && !table.isOver && !options.manualClock
            var timeout: Int32 = -1
            if running { timeout = Int32(max(0, ((next - Self.now()) * 1000).rounded(.up))) }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: RawTerminal.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds[1].fd >= 0 ? 2 : 1), timeout)
            if ready < 0, errno != EINTR {
                throw CLIError("cannot wait for keys: \(String(cString: strerror(errno)))")
            }
            if ready > 0, fds[0].revents != 0 {
                let n = read(STDIN_FILENO, &buffer, buffer.count)
                if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) {
                    // The terminal is gone (end of input, or an I/O error after a hangup).
                    return try finish(.save(reason: "end of input"))
                }
                if n > 0 {
                    for key in reader.feed(buffer[0 ..< n]) {
                        let step = try handle(key)
                        if case .none = step { continue }
                        return try finish(step)
                    }
                }
            }
            if paused || table.isOver || options.manualClock {
                // After a pause or an end screen the clock starts again one step from then, not where it stopped.
                next = Self.now() + interval
            } else if Self.now() >= next {
                try advance()
                next += interval
                // After a stall (a suspended process, a slow terminal) play on from now rather than catch up.
                let now = Self.now()
                if now - next > 0.25 { next = now + interval }
            }
        }
    }

    private func handle(_ key: PlayKey) throws -> Step {
        switch key {
        case .quit: return .quit
        case .save: return table.isOver ? .quit : .save(reason: "s")
        case .suspend: return table.isOver ? .quit : .save(reason: "Ctrl-Z")
        default: break
        }
        if table.isOver {
            // The end screen: any key but the clock's tick and pause starts the next game.
            if key != .tick, key != .pause { try newGame() }
            return .none
        }
        if key == .pause {
            paused.toggle()
            draw()
            return .none
        }
        if paused { return .none }
        switch key {
        case .tick:
            if options.manualClock { try advance() }
        case .push:
            if table.pushAction != nil { control.pressPush() }
        default:
            if let action = table.action(for: key) { control.press(action) }
        }
        return .none
    }

    private func advance() throws(AgentFault) {
        try table.step(person: control.nextAction(pushAction: table.pushAction))
        if table.isOver {
            do { try record() } catch { recordError = "\(error)" }
        }
        draw()
    }

    private var recordError: String?

    private func newGame() throws(AgentFault) {
        gameIndex += 1
        table = try T(config: table.config, seed: Seeds.episode(runSeed: options.sessionSeed, index: gameIndex), opponent: opponent)
        control.clear()
        paused = false
        screen = nil
        draw()
    }

    // MARK: - Files

    private func folder() throws -> ResultsFolder {
        if let results { return results }
        let f = try ResultsFolder.create(out: options.folder, mode: options.folderMode, command: "play", game: T.Config.gameName,
                                         seed: options.sessionSeed)
        results = f
        return f
    }

    /// Appends the finished game's record to matches.jsonl (the file is rewritten whole).
    private func record() throws {
        let f = try folder()
        var lines: [String]
        if let recorded { lines = recorded } else {
            let url = f.url.appendingPathComponent("matches.jsonl")
            let text = (FileManager.default.contents(atPath: url.path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
        lines.append(table.recordLine(match: gameIndex, person: table.personSpec(name: options.name)))
        try f.write(lines.joined(separator: "\n") + "\n", to: "matches.jsonl")
        recorded = lines
        finishedGames.append(gameIndex)
    }

    private func finish(_ step: Step) throws -> [String] {
        switch step {
        case .none, .quit:
            return []
        case let .save(reason):
            let path = try savePath()
            let save = T.Save(sessionSeed: options.sessionSeed, gameIndex: gameIndex, seed: table.seed,
                              opponent: opponent?.text, name: options.name,
                              actions: RecordedActions.encode(table.actions), snapshot: table.snapshot)
            let data: Data
            do { data = try save.encoded() } catch { throw CLIError("cannot encode the saved game: \(error)") }
            try AtomicFile.write(data, to: URL(fileURLWithPath: path))
            return ["game saved (\(reason)) after \(table.actions.count) steps to \(path); continue it with:",
                    "  gym-train play --resume \(path)"]
        }
    }

    private func savePath() throws -> String {
        if let p = options.savePath {
            let dir = URL(fileURLWithPath: p).deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return p
        }
        return try folder().url.appendingPathComponent("saved-game.json").path
    }

    // MARK: - Drawing

    private func draw() {
        let (cols, rows) = RawTerminal.size
        // Three status lines and the two border lines; cells are about twice as tall as wide.
        let fitRows = max(4, rows - 6)
        let columns = max(16, min(cols - 2, Int(Double(fitRows) * 2 / table.aspect)))
        if screen?.columns != columns { screen = TerminalScreen(columns: columns) }
        guard let screen else { return }
        let big = table.frame(scale: Float(columns) / table.fieldWidth * 2)
        let line2: String
        let line3: String
        if table.isOver {
            line2 = "GAME OVER: \(table.result(name: options.name))"
            line3 = recordError.map { "not recorded: \($0)" } ?? "any key starts a new game, q quits"
        } else if paused {
            line2 = "PAUSED: p resumes, s saves and quits, q quits"
            line3 = ""
        } else {
            line2 = table.keyHelp
            line3 = ""
        }
        let status = [table.status(name: options.name), line2, line3].joined(separator: "\u{1B}[K\n")
        let bytes = Array(screen.text(big, status: status).utf8)
        // Written with write(2), errors ignored: a terminal that went away must not end the game before it is saved.
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(STDOUT_FILENO, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n <= 0 {
                    if n < 0, errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += n
            }
        }
    }

    // MARK: - Helpers

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    private static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGTSTP: "SIGTSTP"
        case SIGHUP: "SIGHUP"
        case SIGTERM: "SIGTERM"
        default: "\(sig)"
        }
    }
}
