import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train play`: a person plays in the terminal, against an agent (Pong,
/// bottom paddle) or alone (Breakout).
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play Pong (bottom paddle, against an agent) or Breakout yourself in the terminal.",
        discussion: """
        Keys: left/right arrows or a/d move the paddle; up/down arrows or w/x move it forward/back where the \
        preset allows vertical movement (Pong's verticalMovement); space is Breakout's push (and its serve \
        when autoServe is off); p pauses and resumes; s saves the game and quits; q (or Ctrl-C) quits. \
        Ctrl-Z, SIGTSTP, SIGHUP (the terminal closed) and SIGTERM save and quit like s.

        Terminals report presses, not releases: a direction key moves the paddle for --hold-frames frames \
        from its press, the keyboard's repeat of a held key extends that, and another direction takes over \
        at once.

        A saved game continues with --resume FILE exactly where it stopped (every ball at its velocity; the \
        opponent is rebuilt by playing the game again from its seed with the saved moves, checked against \
        the saved snapshot). Each finished game is appended to matches.jsonl in the results folder, in the \
        record format of `tournament`, so `gym-train render --replay FILE --index N --terminal` shows it \
        again (the person is the agent spec recorded:actions=...,name=NAME). The results folder (--out) \
        holds matches.jsonl and the save; with --resume it defaults to the save file's folder.

        The last game, each game's preset or config overrides, and the opponent are remembered in \
        $XDG_CONFIG_HOME/pong-breakout-gym/settings.json (~/.config when unset) and are the defaults of \
        the next launch; --reset-settings forgets them.
        """
    )

    @Option(help: "The game: pong or breakout (default: the last one played, else pong).")
    var game: GameKind?

    @OptionGroup var rules: RulesOptions

    @Option(help: "Pong: the agent on the top paddle (an agent spec: tracker, random, linear:FILE, ...; default: the last one, else tracker).")
    var opponent: String?

    @Option(help: "Session seed; game k of the session uses its k-th episode seed (default: from the clock).")
    var seed: UInt64?

    @Option(help: "Frames per second (60 = real time).")
    var fps: Double = 60

    @Option(help: "Frames a direction key press moves the paddle (1 ... 600).")
    var holdFrames: Int = 15

    @Option(help: "Your name in records and on screen (letters, digits, spaces, - and _).")
    var name: String = "person"

    @Option(help: "Continue a saved game (a file written by s, Ctrl-Z or a lost terminal).")
    var resume: String?

    @Option(help: "Where s, Ctrl-Z and signals save the game (default: saved-game.json in the results folder).")
    var save: String?

    @OptionGroup var output: OutputOptions

    @Flag(help: "Forget the remembered settings before starting.")
    var resetSettings = false

    /// Tests: time advances one agent step per "." byte read, never by the clock.
    @Flag(help: .hidden)
    var manualClock = false

    func validate() throws {
        guard fps > 0, fps <= 1000 else { throw ValidationError("--fps \(fps) is out of range; allowed: (0, 1000]") }
        guard (1 ... 600).contains(holdFrames) else {
            throw ValidationError("--hold-frames \(holdFrames) is out of range; allowed: 1 ... 600")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " -_"))
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.unicodeScalars.allSatisfy(allowed.contains) else {
            throw ValidationError("--name \"\(name)\" is invalid; allowed: letters, digits, spaces, - and _ (not empty)")
        }
        if resume != nil, output.overwrite {
            throw ValidationError("give either --resume FILE or --overwrite, not both (a resumed session keeps its folder's records)")
        }
        if resume != nil {
            let given = [("--game", game != nil), ("--config", rules.configFile != nil), ("--preset", rules.preset != nil),
                         ("--opponent", opponent != nil), ("--seed", seed != nil)].filter(\.1).map(\.0)
            if !given.isEmpty {
                throw ValidationError("--resume takes the game, config, opponent and seed from the save file; drop \(given.joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        guard RawTerminal.isInteractive else {
            throw CLIError("play needs a terminal: standard input and output must be a TTY (not a pipe or a file)")
        }
        let settingsURL = PlaySettings.fileURL()
        if resetSettings, let url = settingsURL, FileManager.default.fileExists(atPath: url.path) {
            do { try FileManager.default.removeItem(at: url) } catch {
                throw CLIError("cannot remove settings file \(url.path): \(error.localizedDescription)")
            }
            printError("settings forgotten (\(url.path) removed)")
        }
        if let resume { return try resumeGame(path: resume) }

        var settings = PlaySettings()
        if let url = settingsURL {
            let loaded = PlaySettings.load(from: url)
            settings = loaded.settings
            if let warning = loaded.warning { printError(warning) }
        }
        let kind = game ?? settings.game ?? .pong
        let rules = try chosenRules(kind, remembered: settings[kind])
        let sessionSeed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000)
        switch kind {
        case .pong:
            let config: PongConfig = try rules.config(kind: kind)
            let spec = try chosenOpponent(remembered: settings.opponent, config: config)
            settings.opponent = spec.text
            remember(kind, rules.rules, in: &settings, at: settingsURL)
            try session(PongTable.self, config: config, opponent: spec, sessionSeed: sessionSeed)
        case .breakout:
            if opponent != nil { throw CLIError("--opponent is for Pong; Breakout is played alone (drop --opponent or add --game pong)") }
            let config: BreakoutConfig = try rules.config(kind: kind)
            remember(kind, rules.rules, in: &settings, at: settingsURL)
            try session(BreakoutTable.self, config: config, opponent: nil, sessionSeed: sessionSeed)
        }
    }

    // MARK: - Settings

    /// The rules to play: the command line's, else the remembered ones
    /// (dropped with a one-line note if they no longer load), else the first preset.
    struct ChosenRules {
        var rules: PlaySettings.Rules
        var fromSettings: Bool

        func config<C: GameConfig>(kind: GameKind) throws -> C {
            let source = fromSettings ? "remembered \(kind.rawValue) config" : "config"
            do {
                if let doc = rules.config { return try C.decode(doc, source: source) }
                return try C.preset(rules.preset ?? C.presets[0].name)
            } catch {
                guard fromSettings else { throw CLIError("\(error)") }
                printError("settings: \(error); ignored, playing the \(C.presets[0].name) preset")
                return C.presets[0].config
            }
        }
    }

    func chosenRules(_ kind: GameKind, remembered: PlaySettings.Rules) throws -> ChosenRules {
        if let configFile = rules.configFile {
            let text = try readText(configFile, what: "config file")
            let doc: JSONValue
            do { doc = try JSONValue.parse(text) } catch { throw CLIError("\(ConfigError.malformed(source: configFile, error))") }
            // Checked now, so a bad file is reported against its path (and never remembered).
            switch kind {
            case .pong: _ = try PongConfig.decode(doc, source: configFile)
            case .breakout: _ = try BreakoutConfig.decode(doc, source: configFile)
            }
            return ChosenRules(rules: .init(preset: nil, config: doc), fromSettings: false)
        }
        if let preset = rules.preset { return ChosenRules(rules: .init(preset: preset, config: nil), fromSettings: false) }
        return ChosenRules(rules: remembered, fromSettings: true)
    }

    func chosenOpponent(remembered: String?, config: PongConfig) throws -> AgentSpec {
        if let opponent {
            let spec = try AgentSpec.parse(opponent, commandLine: true)
            try Pong.check(spec, config: config)
            return spec
        }
        if let remembered {
            do {
                let spec = try AgentSpec.parse(remembered)
                try Pong.check(spec, config: config)
                return spec
            } catch {
                printError("settings: opponent \"\(remembered)\": \(error); ignored, playing tracker")
            }
        }
        return try AgentSpec.parse("tracker")
    }

    /// Stores the launch's choices as the next launch's defaults (a failure is reported, not fatal).
    func remember(_ kind: GameKind, _ rules: PlaySettings.Rules, in settings: inout PlaySettings, at url: URL?) {
        guard let url else { return }
        settings.game = kind
        settings[kind] = rules
        do { try settings.save(to: url) } catch { printError("settings not saved: \(error)") }
    }

    // MARK: - Sessions

    func resumeGame(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read save file \(path): no such file or not readable")
        }
        let header = try PlaySaveHeader.read(data, path: path)
        let folder = output.out ?? URL(fileURLWithPath: path).deletingLastPathComponent().path
        switch header.game {
        case PongConfig.gameName:
            let saved = try PongTable.Save.decode(data, path: path)
            guard let text = saved.opponent else { throw CLIError("save file \(path) is corrupt: a Pong save names its \"opponent\"") }
            let spec = try AgentSpec.parse(text)
            try Pong.check(spec, config: saved.snapshot.config)
            let table = try PongTable.resuming(saved, opponent: spec, path: path)
            try runSession(table, opponent: spec, sessionSeed: saved.sessionSeed, gameIndex: saved.gameIndex,
                           name: saved.name, folder: folder, mode: .resume)
        case BreakoutConfig.gameName:
            let saved = try BreakoutTable.Save.decode(data, path: path)
            let table = try BreakoutTable.resuming(saved, opponent: nil, path: path)
            try runSession(table, opponent: nil, sessionSeed: saved.sessionSeed, gameIndex: saved.gameIndex,
                           name: saved.name, folder: folder, mode: .resume)
        default:
            throw CLIError("save file \(path) is of game \"\(header.game)\"; allowed: pong, breakout")
        }
    }

    func session<T: PlayTable>(_: T.Type, config: T.Config, opponent: AgentSpec?, sessionSeed: UInt64) throws {
        let table = try T(config: config, seed: Seeds.episode(runSeed: sessionSeed, index: 0), opponent: opponent)
        try runSession(table, opponent: opponent, sessionSeed: sessionSeed, gameIndex: 0, name: name, folder: output.out,
                       mode: output.overwrite ? .overwrite : .fresh)
    }

    func runSession<T: PlayTable>(_ table: T, opponent: AgentSpec?, sessionSeed: UInt64, gameIndex: Int,
                                  name: String, folder: String?, mode: ResultsFolder.Mode) throws {
        let options = PlaySession<T>.Options(fps: fps, holdFrames: holdFrames, manualClock: manualClock, name: name,
                                             savePath: save, folder: folder, folderMode: mode, sessionSeed: sessionSeed)
        let session = PlaySession(table: table, opponent: opponent, gameIndex: gameIndex, options: options)
        let outcome = try session.run()
        for line in outcome.summary { print(line) }
    }
}

/// One line on standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
