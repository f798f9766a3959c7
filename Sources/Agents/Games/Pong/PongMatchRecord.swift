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
/// | `bottomProgram`, `topProgram` | only for an external agent: its name, agent file and the file's SHA-256 (``AgentSpec/programRecord``) |
/// | `scoreBottom`, `scoreTop`, `steps`, `end` | the result |
/// | `hitsBottom`, `hitsTop`, `receiverPoints`, `pointSpeedSum` | statistics |
/// | `configHash` | hash of `config` (hex), checked on replay |
/// | `config` | the full effective config (under `rules`: the base the rules apply to) |
/// | `rules` | only for a game played under a variant set: its rules (``RecordedRules``) |
public struct PongMatchRecord: Equatable, Sendable {
    public var match: Int
    public var pairing: Int
    public var pair: Int
    public var bottom: String
    public var top: String
    public var config: PongConfig
    public var result: PongMatchResult
    /// Per side, what the record keeps of an external agent (``AgentSpec/programRecord``); nil for a built-in one.
    public var bottomProgram: JSONValue?, topProgram: JSONValue?
    /// The game's rules under a variant set (nil: it played `config`).
    public var rules: RecordedRules?
    /// The rules the game played: `config`, or `config` with `rules`.
    public var played: PongConfig

    /// - Parameter played: the rules the game played under `rules` (`config` without them).
    public init(match: Int, pairing: Int, pair: Int, bottom: String, top: String,
                config: PongConfig, result: PongMatchResult, bottomProgram: JSONValue? = nil, topProgram: JSONValue? = nil,
                rules: RecordedRules? = nil, played: PongConfig? = nil) {
        self.match = match; self.pairing = pairing; self.pair = pair
        self.bottom = bottom; self.top = top; self.config = config; self.result = result
        self.bottomProgram = bottomProgram; self.topProgram = topProgram
        self.rules = rules; self.played = played ?? config
    }

    /// The record of a tournament game between `agents`; under `rules` it
    /// names (and replays) the rules its seed drew.
    public init(_ game: PongTournamentGame, agents: [AgentSpec], config: PongConfig, rules: EpisodeRules<PongConfig>? = nil) {
        let seed = game.result.seed
        self.init(match: game.slot.game, pairing: game.slot.pairing, pair: game.slot.pair,
                  bottom: agents[game.bottomAgent].text, top: agents[game.topAgent].text,
                  config: config, result: game.result, bottomProgram: agents[game.bottomAgent].programRecord,
                  topProgram: agents[game.topAgent].programRecord,
                  rules: rules?.recorded(seed: seed), played: rules?.config(seed: seed))
    }

    public var json: JSONValue {
        .object(head + Self.configMembers(config) + (rules.map { [("rules", $0.json)] } ?? []))
    }

    /// The members before the config's: who played, on what seed, and what happened.
    var head: [(String, JSONValue)] {
        [
            ("game", .string("pong")), ("match", .number(match)), ("pairing", .number(pairing)),
            ("pair", .number(pair)), ("seed", .number(result.seed)),
            ("bottom", .string(bottom)), ("top", .string(top)),
        ] + [("bottomProgram", bottomProgram), ("topProgram", topProgram)].compactMap { k, v in v.map { (k, $0) } } + [
            ("scoreBottom", .number(result.scoreBottom)), ("scoreTop", .number(result.scoreTop)),
            ("steps", .number(result.steps)), ("end", .string(result.end.description)),
            ("hitsBottom", .number(result.hitsBottom)), ("hitsTop", .number(result.hitsTop)),
            ("receiverPoints", .number(result.receiverPoints)), ("pointSpeedSum", .number(result.pointSpeedSum)),
        ]
    }

    /// The members that name the config: its hash (hex) and the config itself.
    static func configMembers(_ config: PongConfig) -> [(String, JSONValue)] {
        [("configHash", .string(String(config.configHash, radix: 16))), ("config", config.json)]
    }

    /// The record as one line of JSONL (no newline).
    public var line: String { json.serialized(pretty: false) }

    /// The lines of a tournament's games under one config (its
    /// `matches.jsonl`), the config's members (``configMembers(_:)``)
    /// serialized and hashed once: each line is the game's record's
    /// ``line``, byte for byte (a line is an object's members joined by
    /// commas, so the config's text is spliced in where its members stand).
    public struct Lines {
        public let config: PongConfig
        /// `"configHash":"…","config":{…}`.
        let configText: Substring

        public init(config: PongConfig) {
            self.config = config
            configText = JSONValue.object(PongMatchRecord.configMembers(config)).serialized(pretty: false).dropFirst().dropLast()
        }

        /// The ``line`` of `game`'s record (``init(_:agents:config:rules:)`` with this config).
        public func line(_ game: PongTournamentGame, agents: [AgentSpec], rules: EpisodeRules<PongConfig>? = nil) -> String {
            let record = PongMatchRecord(game, agents: agents, config: config, rules: rules)
            var out = JSONValue.object(record.head).serialized(pretty: false)
            out.removeLast()
            out += ","
            out += configText
            if let rules = record.rules { out += ",\"rules\":" + rules.json.serialized(pretty: false) }
            out += "}"
            return out
        }
    }

    /// Decodes a record line.
    /// - Parameter source: names the line in errors, e.g. `matches.jsonl:12`.
    public static func decode(_ line: String, source: String) throws(ReplayError) -> PongMatchRecord {
        let record = try RecordLine(line, source: source)
        guard case .object = record.doc else { throw .malformed(source: source, message: "a match record is a JSON object") }
        if let g = record["game"], g != .string("pong") {
            throw .unsupported(source: source, message: "game \(g.serialized(pretty: false)) cannot be replayed; allowed: \"pong\"")
        }
        let seed = try record.seed()
        let config = try record.config(PongConfig.self)
        let rules = try record.rules()
        let played = try rules?.config(on: config, seed: seed, source: source) ?? config
        let end = try record.end(try record.string("end"))
        var speedSum = 0.0
        if case let .number(x, _)? = record["pointSpeedSum"] { speedSum = x }
        let result = PongMatchResult(seed: seed, scoreBottom: try record.int("scoreBottom"), scoreTop: try record.int("scoreTop"),
                                     steps: try record.int("steps"), end: end,
                                     hitsBottom: (try? record.int("hitsBottom")) ?? 0, hitsTop: (try? record.int("hitsTop")) ?? 0,
                                     receiverPoints: (try? record.int("receiverPoints")) ?? 0, pointSpeedSum: speedSum)
        return PongMatchRecord(match: (try? record.int("match")) ?? 0, pairing: (try? record.int("pairing")) ?? 0,
                               pair: (try? record.int("pair")) ?? 0, bottom: try record.string("bottom"),
                               top: try record.string("top"), config: config, result: result,
                               bottomProgram: record["bottomProgram"], topProgram: record["topProgram"],
                               rules: rules, played: played)
    }

    /// Plays the recorded game again from its seed, config and agents (by
    /// ``Matches``, agents batched): under `rules` the game plays `played`
    /// and the agents are made for `config`, as the tournament made them.
    /// - Throws: ``AgentSpecError`` for a spec that cannot play, ``AgentFault`` when an agent faults.
    public func replay() throws -> PongMatchResult {
        let bottomSpec = try AgentSpec.parse(bottom), topSpec = try AgentSpec.parse(top)
        try Pong.check(bottomSpec, config: config)
        try Pong.check(topSpec, config: config)
        let seed = result.seed, played = self.played
        var perGame: (@Sendable (UInt64) -> PongConfig?)?
        if rules != nil { perGame = { _ in played } }
        return try Matches.play(Pong.self, config: config, roster: [bottomSpec, topSpec], count: 1, slots: 1,
                                runner: ParallelRunner(workers: 1), game: { _ in SeatedGame(seed: seed, seats: [0, 1]) },
                                rules: perGame)[0]
    }
}
