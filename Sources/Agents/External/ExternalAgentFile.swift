import Foundation
import Gym

/// How to start an external agent (docs/agents.md): the program and its
/// arguments, where and with what environment it runs, what it observes, and
/// its time limits. Written as an agent file (`process:agents/ppo.json`) or
/// inline (`process:cmd=./agent --fast,name=A`).
///
/// An agent file is a JSON object:
///
///     {
///       "command": ["python3", "-m", "pbgym.agents", "ppo_agent:act"],
///       "directory": ".",                 (optional; relative to the file's folder; default: that folder)
///       "environment": {"OMP_NUM_THREADS": "1"},   (optional; added to the gym's own)
///       "observation": "features",        (or "pixels"; optional, default "features")
///       "pixels": [84, 84],               (optional; width, height of a pixel observation)
///       "name": "ppo",                    (optional; display name, default: the spec text)
///       "handshakeSeconds": 30,           (optional; time to answer HELLO, 0.1 ... 3600)
///       "actSeconds": 10,                 (optional; time to answer one ACT, 0.1 ... 3600)
///       "byeSeconds": 5                   (optional; time to exit after BYE, 0.1 ... 3600)
///     }
public struct ExternalAgentFile: Equatable, Sendable {
    /// What the agent observes.
    public enum Observation: Equatable, Sendable {
        /// The game's float32 feature rows (the observation layout of its docs).
        case features
        /// Grayscale images rendered from the agent's seat.
        case pixels(width: Int, height: Int)
    }

    /// The program (first element; a bare name is looked up on `PATH`) and its arguments.
    public var command: [String]
    /// The working directory (absolute), or nil for the gym's own.
    public var directory: String?
    /// Variables added to (or replacing in) the gym's environment.
    public var environment: [String: String]
    public var observation: Observation
    /// The display name the file gives, if any.
    public var name: String?
    /// Time limits in seconds.
    public var handshakeSeconds: Double, actSeconds: Double, byeSeconds: Double
    /// The agent file's path as given, or nil for an inline spec.
    public var path: String?
    /// SHA-256 of the agent file's bytes as hex (what `sha256sum` prints;
    /// nil for an inline spec), kept in match records.
    public var sha256: String?
    /// Whether the gym may start the program: the person named the agent
    /// (command line, code) or opted in; false for a spec read from a file.
    /// Not part of equality (the same agent, wherever it was read).
    public var mayStart = false

    public static func == (a: ExternalAgentFile, b: ExternalAgentFile) -> Bool {
        a.command == b.command && a.directory == b.directory && a.environment == b.environment
            && a.observation == b.observation && a.name == b.name && a.handshakeSeconds == b.handshakeSeconds
            && a.actSeconds == b.actSeconds && a.byeSeconds == b.byeSeconds && a.path == b.path && a.sha256 == b.sha256
    }

    public static let defaultHandshakeSeconds = 30.0
    public static let defaultActSeconds = 10.0
    public static let defaultByeSeconds = 5.0
    static let secondsRange = 0.1 ... 3600.0
    static let keys = ["command", "directory", "environment", "observation", "pixels", "name",
                       "handshakeSeconds", "actSeconds", "byeSeconds"]

    public init(command: [String], directory: String? = nil, environment: [String: String] = [:],
                observation: Observation = .features, name: String? = nil,
                handshakeSeconds: Double = defaultHandshakeSeconds, actSeconds: Double = defaultActSeconds,
                byeSeconds: Double = defaultByeSeconds, path: String? = nil, sha256: String? = nil) {
        self.command = command; self.directory = directory; self.environment = environment
        self.observation = observation; self.name = name
        self.handshakeSeconds = handshakeSeconds; self.actSeconds = actSeconds; self.byeSeconds = byeSeconds
        self.path = path; self.sha256 = sha256
    }

    /// Reads and checks the agent file at `path`.
    /// - Throws: ``AgentSpecError`` naming the file, the key and what is allowed.
    public static func load(path: String) throws(AgentSpecError) -> ExternalAgentFile {
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw .badValue(kind: "process", key: "file", value: path, allowed: "a readable agent file (JSON)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw .unusable(spec: "process:\(path)", reason: "\(error)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var file = try parse(json, source: path, folder: folder)
        file.path = path
        file.sha256 = SHA256.hex(bytes)
        return file
    }

    /// The agent described by the JSON object `json` (read from `source`;
    /// relative directories are taken from `folder`).
    static func parse(_ json: JSONValue, source: String, folder: String) throws(AgentSpecError) -> ExternalAgentFile {
        func bad(_ key: String, _ value: String, _ allowed: String) -> AgentSpecError {
            .badValue(kind: "process", key: "\(source): \(key)", value: value, allowed: allowed)
        }
        guard case let .object(members) = json else { throw bad("(top level)", json.kindName, "a JSON object") }
        for (key, _) in members where !keys.contains(key) {
            throw .unknownParameter(kind: "process (\(source))", key: key, allowed: keys)
        }
        guard case let .array(parts)? = json["command"], !parts.isEmpty else {
            throw bad("command", json["command"]?.kindName ?? "missing", "a non-empty array of strings (program, arguments)")
        }
        var command: [String] = []
        for part in parts {
            guard case let .string(s) = part, !s.isEmpty || !command.isEmpty else {
                throw bad("command", part.kindName, "strings, the first one not empty")
            }
            command.append(s)
        }
        var directory = folder
        if let value = json["directory"] {
            guard case let .string(d) = value, !d.isEmpty else { throw bad("directory", value.kindName, "a non-empty string") }
            directory = d.hasPrefix("/") ? d : URL(fileURLWithPath: folder).appendingPathComponent(d).path
        }
        var environment: [String: String] = [:]
        if let value = json["environment"] {
            guard case let .object(vars) = value else { throw bad("environment", value.kindName, "an object of strings") }
            for (k, v) in vars {
                guard case let .string(s) = v, !k.isEmpty, !k.contains("=") else {
                    throw bad("environment.\(k)", v.kindName, "a string value under a name without '='")
                }
                environment[k] = s
            }
        }
        var observation = Observation.features
        if let value = json["observation"] {
            switch value {
            case .string("features"): observation = .features
            case .string("pixels"): observation = .pixels(width: 84, height: 84)
            default: throw bad("observation", "\(value)", "\"features\" or \"pixels\"")
            }
        }
        if let value = json["pixels"] {
            guard case .pixels = observation else { throw bad("pixels", "\(value)", "only with \"observation\": \"pixels\"") }
            guard case let .array(sides) = value, sides.count == 2,
                  case let .number(w, _) = sides[0], case let .number(h, _) = sides[1],
                  let size = PixelObservation(width: Int(exactly: w) ?? 0, height: Int(exactly: h) ?? 0)
            else { throw bad("pixels", "\(value)", "[width, height], each 1 ... \(PixelObservation.maxSide)") }
            observation = .pixels(width: size.width, height: size.height)
        }
        var name: String?
        if let value = json["name"] {
            guard case let .string(n) = value, !n.isEmpty else { throw bad("name", value.kindName, "a non-empty string") }
            name = n
        }
        func seconds(_ key: String, _ fallback: Double) throws(AgentSpecError) -> Double {
            guard let value = json[key] else { return fallback }
            guard case let .number(s, _) = value, secondsRange.contains(s) else {
                throw bad(key, "\(value)", "seconds in \(secondsRange.lowerBound) ... \(secondsRange.upperBound)")
            }
            return s
        }
        return ExternalAgentFile(command: command, directory: directory, environment: environment,
                                 observation: observation, name: name,
                                 handshakeSeconds: try seconds("handshakeSeconds", defaultHandshakeSeconds),
                                 actSeconds: try seconds("actSeconds", defaultActSeconds),
                                 byeSeconds: try seconds("byeSeconds", defaultByeSeconds))
    }

    /// The inline form's command: `cmd=PROGRAM ARG ...`, split at spaces
    /// (no quoting; use an agent file for arguments with spaces or commas).
    static func inline(command text: String) throws(AgentSpecError) -> ExternalAgentFile {
        let command = text.split(separator: " ").map(String.init)
        guard !command.isEmpty else {
            throw .badValue(kind: "process", key: "cmd", value: text, allowed: "a program and its arguments separated by spaces")
        }
        return ExternalAgentFile(command: command)
    }
}
