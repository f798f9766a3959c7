import Gym

/// One Breakout episode of a duplicate tournament as a self-contained JSON
/// line: the effective config, the seed and the agent's spec are enough to
/// replay it exactly (the agent is seeded from the episode seed, stream 10).
///
/// Keys: `game` ("breakout"), `agent` (spec), `episode` (seed index), `seed`,
/// `score`, `steps`, `end`, `bricksBroken`, `ballsLost`, `livesLost`,
/// `levelsCleared`, `pushes`, `configHash` (hex), `config`.
public struct BreakoutEpisodeRecord: Equatable, Sendable {
    public var agent: String
    public var episode: Int
    public var config: BreakoutConfig
    public var result: BreakoutEpisode

    public init(agent: String, episode: Int, config: BreakoutConfig, result: BreakoutEpisode) {
        self.agent = agent; self.episode = episode; self.config = config; self.result = result
    }

    public var line: String {
        let e = result.events
        return JSONValue.object([
            ("game", .string("breakout")), ("agent", .string(agent)), ("episode", .number(episode)),
            ("seed", .number(result.seed)), ("score", .number(result.score)), ("steps", .number(result.steps)),
            ("end", .string(result.end.description)), ("bricksBroken", .number(Int(e.bricksBroken))),
            ("ballsLost", .number(Int(e.ballsLost))), ("livesLost", .number(Int(e.livesLost))),
            ("levelsCleared", .number(Int(e.levelsCleared))), ("pushes", .number(Int(e.pushes))),
            ("configHash", .string(String(config.configHash, radix: 16))), ("config", config.json),
        ]).serialized(pretty: false)
    }

    /// Decodes a record line (`source` names it in errors).
    public static func decode(_ line: String, source: String) throws(ReplayError) -> BreakoutEpisodeRecord {
        let doc: JSONValue
        do { doc = try JSONValue.parse(line) } catch { throw .malformed(source: source, message: error.description) }
        guard doc["game"] == .string("breakout") else {
            throw .unsupported(source: source, message: "not a breakout record (\"game\" must be \"breakout\")")
        }
        func int(_ key: String) throws(ReplayError) -> Int {
            guard case let .number(x, _)? = doc[key], let i = Int(exactly: x) else { throw .missing(source: source, key: key, expected: "an integer") }
            return i
        }
        guard case let .string(agent)? = doc["agent"] else { throw .missing(source: source, key: "agent", expected: "an agent spec") }
        guard case let .number(_, seedText)? = doc["seed"], let seed = UInt64(seedText) else {
            throw .missing(source: source, key: "seed", expected: "an unsigned 64-bit integer")
        }
        guard let configDoc = doc["config"] else { throw .missing(source: source, key: "config", expected: "a config object") }
        let config: BreakoutConfig
        do { config = try BreakoutConfig.decode(configDoc, source: "\(source) config") } catch {
            throw .malformed(source: source, message: error.description)
        }
        if case let .string(hash)? = doc["configHash"], hash != String(config.configHash, radix: 16) {
            throw .malformed(source: source, message: "configHash \(hash) does not match its config (\(String(config.configHash, radix: 16)))")
        }
        guard case let .string(endText)? = doc["end"], let end = EpisodeEnd.allCases.first(where: { $0.description == endText }) else {
            throw .missing(source: source, key: "end", expected: "one of \(EpisodeEnd.allCases.map(\.description).joined(separator: ", "))")
        }
        var events = BreakoutEvents()
        events.ballsLost = Int32(clamping: (try? int("ballsLost")) ?? 0)
        events.livesLost = Int32(clamping: (try? int("livesLost")) ?? 0)
        events.levelsCleared = Int32(clamping: (try? int("levelsCleared")) ?? 0)
        events.pushes = Int32(clamping: (try? int("pushes")) ?? 0)
        return BreakoutEpisodeRecord(agent: agent, episode: (try? int("episode")) ?? 0, config: config,
                                     result: BreakoutEpisode(index: (try? int("episode")) ?? 0, seed: seed, score: try int("score"),
                                                             steps: try int("steps"), end: end, levelsCleared: Int(events.levelsCleared),
                                                             livesLost: Int(events.livesLost), events: events))
    }

    /// Plays the recorded episode again.
    public func replay() throws(AgentSpecError) -> BreakoutEpisode {
        let spec = try AgentSpec.parse(agent)
        try spec.check(breakout: config)
        var a = spec.makeBreakoutAgent(config: config)
        return BreakoutRun.play(config: config, seed: result.seed, index: episode, agent: &a)
    }
}
