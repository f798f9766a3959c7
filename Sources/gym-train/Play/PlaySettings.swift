import Foundation
import Gym

/// What `play` remembers between launches: the last game, each game's rules
/// (a preset or the config overrides of a `--config` file) and the Pong
/// opponent. Stored as JSON in `$XDG_CONFIG_HOME/pong-breakout-gym/settings.json`
/// (`~/.config/...` when `XDG_CONFIG_HOME` is unset or not absolute):
///
///     {"game": "pong", "opponent": "tracker",
///      "pong": {"preset": "touch"}, "breakout": {"config": {"preset": "classic", "lives": 5}}}
///
/// Every key is optional. A file that cannot be read as such is reported in
/// one line and ignored (then overwritten by the next launch's choices).
struct PlaySettings: Equatable {
    /// One game's rules: a preset name, or a config document (overrides, with an optional base `"preset"`).
    struct Rules: Equatable {
        var preset: String?
        var config: JSONValue?
    }

    var game: GameKind?
    var opponent: String?
    var pong = Rules()
    var breakout = Rules()

    subscript(game: GameKind) -> Rules {
        get { game == .pong ? pong : breakout }
        set { if game == .pong { pong = newValue } else { breakout = newValue } }
    }

    /// The settings file named by the environment (nil when neither
    /// `XDG_CONFIG_HOME` nor `HOME` gives a folder).
    static func fileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("pong-breakout-gym/settings.json")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/pong-breakout-gym/settings.json")
    }

    /// The settings in `url`: empty when there is no file; empty plus a
    /// one-line warning when the file is unreadable or corrupt.
    static func load(from url: URL) -> (settings: PlaySettings, warning: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (PlaySettings(), nil) }
        let ignored = "; ignored (it is rewritten with this game's settings)"
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            return (PlaySettings(), "settings file \(url.path) is not readable UTF-8 text\(ignored)")
        }
        do {
            return (try PlaySettings(json: try JSONValue.parse(text)), nil)
        } catch let error as JSONSyntaxError {
            return (PlaySettings(), "settings file \(url.path) is corrupt: \(error)\(ignored)")
        } catch {
            return (PlaySettings(), "settings file \(url.path) is corrupt: \(error)\(ignored)")
        }
    }

    /// Writes the settings whole (temp file, then rename), creating the folder.
    func save(to url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        try AtomicFile.write(Data((json.serialized() + "\n").utf8), to: url)
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let game { members.append(("game", .string(game.rawValue))) }
        if let opponent { members.append(("opponent", .string(opponent))) }
        for kind in GameKind.allCases {
            let rules = self[kind]
            var r: [(String, JSONValue)] = []
            if let p = rules.preset { r.append(("preset", .string(p))) }
            if let c = rules.config { r.append(("config", c)) }
            if !r.isEmpty { members.append((kind.rawValue, .object(r))) }
        }
        return .object(members)
    }

    /// Reads a settings document; unknown keys are ignored (a newer build's).
    init(json doc: JSONValue) throws(CLIError) {
        guard case .object = doc else { throw CLIError("the document is not a JSON object") }
        if let g = doc["game"] {
            guard case let .string(name) = g, let kind = GameKind(rawValue: name) else {
                throw CLIError("\"game\" must be one of \(GameKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            game = kind
        }
        if let o = doc["opponent"] {
            guard case let .string(spec) = o else { throw CLIError("\"opponent\" must be an agent spec string") }
            opponent = spec
        }
        for kind in GameKind.allCases {
            guard let r = doc[kind.rawValue] else { continue }
            guard case .object = r else { throw CLIError("\"\(kind.rawValue)\" must be an object") }
            var rules = Rules()
            if let p = r["preset"] {
                guard case let .string(name) = p else { throw CLIError("\"\(kind.rawValue).preset\" must be a preset name") }
                rules.preset = name
            }
            if let c = r["config"] {
                guard case .object = c else { throw CLIError("\"\(kind.rawValue).config\" must be a config object") }
                rules.config = c
            }
            self[kind] = rules
        }
    }

    init() {}
}
