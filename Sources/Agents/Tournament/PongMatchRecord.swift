import Gym

/// One Pong game as a self-contained JSON line (the tournament's
/// `matches.jsonl`): enough to replay it exactly — the effective config, the
/// seed, and the spec of the agent on each side — plus what happened.
///
/// | key | meaning |
/// |---|---|
/// | `game` | `"pong"` |
/// | `match`, `pairing`, `pair` | global game index, pairing index, pair (seed) index |
/// | `seed` | the game's seed (agents are seeded from it: streams 10 bottom, 11 top) |
/// | `bottom`, `top` | agent specs (the grammar of ``AgentSpec``) on each side |
/// | `scoreBottom`, `scoreTop`, `steps`, `end` | the result |
/// | `hitsBottom`, `hitsTop`, `receiverPoints`, `pointSpeedSum` | statistics |
/// | `configHash` | hash of `config` (hex), checked on replay |
/// | `config` | the full effective config |
public struct PongMatchRecord: Equatable, Sendable {
    public var match: Int
    public var pairing: Int
    public var pair: Int
    public var bottom: String
    public var top: String
    public var config: PongConfig
    public var result: PongMatchResult

    public init(match: Int, pairing: Int, pair: Int, bottom: String, top: String,
                config: PongConfig, result: PongMatchResult) {
        self.match = match; self.pairing = pairing; self.pair = pair
        self.bottom = bottom; self.top = top; self.config = config; self.result = result
    }

    /// The record of a tournament game between `agents`.
    public init(_ game: PongTournamentGame, agents: [AgentSpec], config: PongConfig) {
        self.init(match: game.slot.game, pairing: game.slot.pairing, pair: game.slot.pair,
                  bottom: agents[game.bottomAgent].text, top: agents[game.topAgent].text,
                  config: config, result: game.result)
    }

    public var json: JSONValue {
        .object([
            ("game", .string("pong")), ("match", .number(match)), ("pairing", .number(pairing)),
            ("pair", .number(pair)), ("seed", .number(result.seed)),
            ("bottom", .string(bottom)), ("top", .string(top)),
            ("scoreBottom", .number(result.scoreBottom)), ("scoreTop", .number(result.scoreTop)),
            ("steps", .number(result.steps)), ("end", .string(result.end.description)),
            ("hitsBottom", .number(result.hitsBottom)), ("hitsTop", .number(result.hitsTop)),
            ("receiverPoints", .number(result.receiverPoints)), ("pointSpeedSum", .number(result.pointSpeedSum)),
            ("configHash", .string(String(config.configHash, radix: 16))),
            ("config", config.json),
        ])
    }

    /// The record as one line of JSONL (no newline).
    public var line: String { json.serialized(pretty: false) }

    /// Decodes a record line.
    /// - Parameter source: names the line in errors, e.g. `matches.jsonl:12`.
    public static func decode(_ line: String, source: String) throws(ReplayError) -> PongMatchRecord {
        let doc: JSONValue
        do { doc = try JSONValue.parse(line) } catch { throw .malformed(source: source, message: error.description) }
        guard case .object = doc else { throw .malformed(source: source, message: "a match record is a JSON object") }
        if let g = doc["game"], g != .string("pong") {
            throw .unsupported(source: source, message: "game \(g.serialized(pretty: false)) cannot be replayed; allowed: \"pong\"")
        }
        func int(_ key: String) throws(ReplayError) -> Int {
            guard case let .number(x, _)? = doc[key], let i = Int(exactly: x) else { throw .missing(source: source, key: key, expected: "an integer") }
            return i
        }
        func string(_ key: String) throws(ReplayError) -> String {
            guard case let .string(s)? = doc[key] else { throw .missing(source: source, key: key, expected: "a string") }
            return s
        }
        guard case let .number(_, seedText)? = doc["seed"], let seed = UInt64(seedText) else {
            throw .missing(source: source, key: "seed", expected: "an unsigned 64-bit integer")
        }
        guard let configDoc = doc["config"] else { throw .missing(source: source, key: "config", expected: "a config object") }
        let config: PongConfig
        do { config = try PongConfig.decode(configDoc, source: "\(source) config") } catch {
            throw .malformed(source: source, message: error.description)
        }
        if case let .string(hash)? = doc["configHash"], hash != String(config.configHash, radix: 16) {
            throw .malformed(source: source, message: "configHash \(hash) does not match its config (\(String(config.configHash, radix: 16)))")
        }
        let endText = try string("end")
        guard let end = EpisodeEnd.allCases.first(where: { $0.description == endText }) else {
            throw .missing(source: source, key: "end", expected: "one of \(EpisodeEnd.allCases.map(\.description).joined(separator: ", "))")
        }
        var speedSum = 0.0
        if case let .number(x, _)? = doc["pointSpeedSum"] { speedSum = x }
        let result = PongMatchResult(seed: seed, scoreBottom: try int("scoreBottom"), scoreTop: try int("scoreTop"),
                                     steps: try int("steps"), end: end,
                                     hitsBottom: (try? int("hitsBottom")) ?? 0, hitsTop: (try? int("hitsTop")) ?? 0,
                                     receiverPoints: (try? int("receiverPoints")) ?? 0, pointSpeedSum: speedSum)
        return PongMatchRecord(match: (try? int("match")) ?? 0, pairing: (try? int("pairing")) ?? 0,
                               pair: (try? int("pair")) ?? 0, bottom: try string("bottom"), top: try string("top"),
                               config: config, result: result)
    }

    /// Plays the recorded game again from its seed, config and agents.
    public func replay() throws(AgentSpecError) -> PongMatchResult {
        let bottomSpec = try AgentSpec.parse(bottom), topSpec = try AgentSpec.parse(top)
        try bottomSpec.check(pong: config)
        try topSpec.check(pong: config)
        var b = bottomSpec.makePongAgent(config: config)
        var t = topSpec.makePongAgent(config: config)
        return PongMatch.play(config: config, seed: result.seed, bottom: &b, top: &t)
    }
}

/// A match record that cannot be replayed.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(source: String, message: String)
    case missing(source: String, key: String, expected: String)
    case unsupported(source: String, message: String)

    public var description: String {
        switch self {
        case let .malformed(source, message): "\(source): \(message)"
        case let .missing(source, key, expected): "\(source): \"\(key)\" must be \(expected)"
        case let .unsupported(source, message): "\(source): \(message)"
        }
    }
}
