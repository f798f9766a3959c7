import Gym

/// How an agent is named everywhere (CLI, tournaments, balance scenarios):
///
///     random
///     tracker
///     tracker:reaction=3,noise=0.2,speed=0.8,predict=false
///     tracker:aim=false                  (Breakout: don't aim at the bricks)
///     constant:action=0
///     linear:Results/run/best.json
///     linear:path=Results/run/best.json,selection=softmax
///     recorded:actions=0x40.2x12.1      (a recorded game, e.g. one a person played)
///     process:agents/ppo.json           (an external agent: a program, docs/agents.md)
///     process:cmd=./my-agent --fast     (the same, inline: the command split at spaces)
///     <kind>[:params],name=Display Name
///
/// Parameters are `key=value` pairs separated by commas; `name` sets the
/// display name (default: the spec text itself). A `linear` agent's first
/// parameter may be the bare checkpoint path (`linear:PATH`, the path must
/// not contain a comma); the checkpoint is read and checked when the spec is
/// parsed, and its game and shape when it is fielded (``PlayableGame/check(_:config:)``).
public struct AgentSpec: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case random
        case tracker(TrackerSkill)
        case constant(action: Int)
        /// A saved ``LinearPolicy`` (checkpoint file).
        case linear(path: String, checkpoint: Checkpoint, selection: LinearAgent.Selection)
        /// Actions played back step by step (``RecordedAgent``; runs as in ``RecordedActions``).
        case recorded(actions: [UInt8])
        /// An external agent: a program speaking docs/agents.md's protocol.
        case process(ExternalAgentFile)
    }

    public var kind: Kind
    /// The name shown in tables and files.
    public var displayName: String
    /// The text this spec was parsed from.
    public var text: String

    public var description: String { displayName }

    /// The agent kinds, for error messages and help (`recorded`, which replays a
    /// record's actions and is written by `gym-train play`, is not offered).
    public static let kinds = ["random", "tracker", "constant", "linear", "process"]

    /// Parses a spec.
    /// - Parameter commandLine: the person named this spec (on the command
    ///   line, or in code): an external agent (`process:`) may be started.
    ///   A spec read from a file (a match record, a shard, a scenario file)
    ///   is parsed with false, and its program is never started unless the
    ///   person opts in (``allowingStart()``).
    /// - Throws: ``AgentSpecError`` naming the problem and what is allowed.
    public static func parse(_ text: String, commandLine: Bool = false) throws(AgentSpecError) -> AgentSpec {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { throw .empty }
        let kindName: Substring
        let paramText: Substring
        if let colon = trimmed.firstIndex(of: ":") {
            kindName = trimmed[..<colon]
            paramText = trimmed[trimmed.index(after: colon)...]
        } else {
            kindName = Substring(trimmed)
            paramText = ""
        }
        var params: [(String, String)] = []
        if !paramText.isEmpty {
            for (k, part) in paramText.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                if k == 0, kindName == "linear" || kindName == "process", !part.contains("=") {
                    params.append((kindName == "linear" ? "path" : "file", String(part).trimmingSpaces))
                    continue
                }
                if kindName == "process", let eq = part.firstIndex(of: "="), part[..<eq].trimmingSpaces == "cmd" {
                    params.append(("cmd", String(part[part.index(after: eq)...])))
                    continue
                }
                guard let eq = part.firstIndex(of: "=") else {
                    throw .malformedParameter(spec: text, part: String(part))
                }
                params.append((String(part[..<eq]).trimmingSpaces, String(part[part.index(after: eq)...]).trimmingSpaces))
            }
        }
        var displayName = trimmed
        if let name = params.first(where: { $0.0 == "name" }) {
            guard !name.1.isEmpty else { throw .badValue(kind: String(kindName), key: "name", value: "", allowed: "a non-empty name") }
            displayName = name.1
            params.removeAll { $0.0 == "name" }
        }
        let kind: Kind
        switch kindName {
        case "random":
            try rejectParameters(params, kind: "random", allowed: [])
            kind = .random
        case "constant":
            try rejectParameters(params, kind: "constant", allowed: ["action"])
            let action = try params.first { $0.0 == "action" }.map { (p) throws(AgentSpecError) in
                try intValue(p.1, kind: "constant", key: "action", range: 0 ... 4)
            } ?? 0
            kind = .constant(action: action)
        case "tracker":
            try rejectParameters(params, kind: "tracker", allowed: ["reaction", "noise", "speed", "predict", "aim"])
            var skill = TrackerSkill()
            for (key, value) in params {
                switch key {
                case "reaction":
                    skill.reaction = try intValue(value, kind: "tracker", key: key, range: TrackerSkill.reactionRange)
                case "noise":
                    skill.noise = try floatValue(value, kind: "tracker", key: key, range: TrackerSkill.noiseRange)
                case "speed":
                    skill.speed = try floatValue(value, kind: "tracker", key: key, range: TrackerSkill.speedRange)
                default:
                    guard let b = Bool(value) else {
                        throw .badValue(kind: "tracker", key: key, value: value, allowed: "true or false")
                    }
                    if key == "aim" { skill.aim = b } else { skill.predict = b }
                }
            }
            kind = .tracker(skill)
        case "linear":
            try rejectParameters(params, kind: "linear", allowed: ["path", "selection"])
            guard let path = params.first(where: { $0.0 == "path" })?.1, !path.isEmpty else {
                throw .badValue(kind: "linear", key: "path", value: "",
                                allowed: "a checkpoint file, as linear:PATH or linear:path=PATH")
            }
            var selection = LinearAgent.Selection.greedy
            if let s = params.first(where: { $0.0 == "selection" })?.1 {
                guard let parsed = LinearAgent.Selection(rawValue: s) else {
                    throw .badValue(kind: "linear", key: "selection", value: s,
                                    allowed: LinearAgent.Selection.allCases.map(\.rawValue).joined(separator: " or "))
                }
                selection = parsed
            }
            let checkpoint: Checkpoint
            do { checkpoint = try Checkpoint.load(path: path) } catch { throw .checkpoint(error) }
            kind = .linear(path: path, checkpoint: checkpoint, selection: selection)
        case "recorded":
            try rejectParameters(params, kind: "recorded", allowed: ["actions"])
            let text = params.first { $0.0 == "actions" }?.1 ?? ""
            guard let actions = RecordedActions.decode(text) else {
                throw .badValue(kind: "recorded", key: "actions", value: text,
                                allowed: "runs ACTIONxCOUNT joined by \".\" (actions 0 ... \(RecordedActions.maxAction))")
            }
            kind = .recorded(actions: actions)
        case "process":
            try rejectParameters(params, kind: "process", allowed: ["file", "cmd"])
            var file: ExternalAgentFile
            switch (params.first { $0.0 == "file" }?.1, params.first { $0.0 == "cmd" }?.1) {
            case let (path?, nil):
                guard !path.isEmpty else { throw .badValue(kind: "process", key: "file", value: "", allowed: "an agent file") }
                file = try ExternalAgentFile.load(path: path)
            case let (nil, command?):
                file = try ExternalAgentFile.inline(command: command)
            default:
                throw .badValue(kind: "process", key: "file", value: paramText.isEmpty ? "(none)" : String(paramText),
                                allowed: "an agent file (process:PATH.json) or an inline command (process:cmd=PROGRAM ARGS), one of them")
            }
            file.mayStart = commandLine
            if displayName == trimmed, let name = file.name { displayName = name }
            kind = .process(file)
        default:
            throw .unknownKind(String(kindName), allowed: kinds)
        }
        return AgentSpec(kind: kind, displayName: displayName, text: text)
    }

    static func rejectParameters(_ params: [(String, String)], kind: String, allowed: [String]) throws(AgentSpecError) {
        var seen: Set<String> = []
        for (key, _) in params {
            guard allowed.contains(key) else { throw .unknownParameter(kind: kind, key: key, allowed: allowed + ["name"]) }
            guard seen.insert(key).inserted else { throw .duplicateParameter(kind: kind, key: key) }
        }
    }

    static func intValue(_ text: String, kind: String, key: String, range: ClosedRange<Int>) throws(AgentSpecError) -> Int {
        guard let v = Int(text), range.contains(v) else {
            throw .badValue(kind: kind, key: key, value: text, allowed: "an integer in \(range.lowerBound) ... \(range.upperBound)")
        }
        return v
    }

    static func floatValue(_ text: String, kind: String, key: String, range: ClosedRange<Float>) throws(AgentSpecError) -> Float {
        guard let v = Float(text), v.isFinite, range.contains(v) else {
            throw .badValue(kind: kind, key: key, value: text, allowed: "a number in \(range.lowerBound) ... \(range.upperBound)")
        }
        return v
    }
}

/// A mistake in an agent spec.
public enum AgentSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case unknownKind(String, allowed: [String])
    case malformedParameter(spec: String, part: String)
    case unknownParameter(kind: String, key: String, allowed: [String])
    case duplicateParameter(kind: String, key: String)
    case badValue(kind: String, key: String, value: String, allowed: String)
    case unusable(spec: String, reason: String)
    /// A `linear` agent's checkpoint is unreadable, corrupt or made for another game.
    case checkpoint(CheckpointError)

    public var description: String {
        switch self {
        case .empty:
            "empty agent spec; agents are: \(AgentSpec.kinds.joined(separator: ", "))"
        case let .unknownKind(name, allowed):
            "unknown agent \"\(name)\"; agents are: \(allowed.joined(separator: ", "))"
        case let .malformedParameter(spec, part):
            "agent spec \"\(spec)\": parameter \"\(part)\" is not key=value"
        case let .unknownParameter(kind, key, allowed):
            "agent \(kind): unknown parameter \"\(key)\"; allowed: \(allowed.isEmpty ? "none" : allowed.joined(separator: ", "))"
        case let .duplicateParameter(kind, key):
            "agent \(kind): parameter \"\(key)\" given twice"
        case let .badValue(kind, key, value, allowed):
            "agent \(kind): \(key)=\(value) is invalid; allowed: \(allowed)"
        case let .unusable(spec, reason):
            "agent \"\(spec)\": \(reason)"
        case let .checkpoint(error):
            "agent linear: \(error)"
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " { s.removeFirst() }
        while let l = s.last, l == " " { s.removeLast() }
        return String(s)
    }
}

extension AgentSpec {
    /// The external agent's description, if this is one.
    public var externalAgent: ExternalAgentFile? {
        if case let .process(file) = kind { file } else { nil }
    }

    /// This spec with permission to start its program (the person opted in,
    /// e.g. with `--allow-agent-programs`, for a spec read from a file).
    public func allowingStart() -> AgentSpec {
        guard case var .process(file) = kind else { return self }
        file.mayStart = true
        var copy = self
        copy.kind = .process(file)
        return copy
    }

    /// Checks a `linear` spec's saved policy against `target` (its game,
    /// observation layout and shape); the other kinds have none.
    public func checkPolicy(_ target: PolicyTarget) throws(AgentSpecError) {
        if case let .linear(path, checkpoint, _) = kind {
            do { try checkpoint.check(for: target, path: path) } catch { throw .checkpoint(error) }
        }
    }
}
