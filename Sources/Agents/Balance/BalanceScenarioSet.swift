import Gym

/// A declared set of balance scenarios (`Configs/balance/*.json`): the rules
/// under test, a master seed, and scenarios of reference agents playing a
/// fixed number of games (Pong: agents `a` and `b` against each other;
/// Breakout: agent `a` alone, episodes on seeds
/// `Seeds.episode(runSeed: Seeds.stream(seed, s), index: k)`).
///
///     {
///       "game": "pong",
///       "preset": "classic",              // or "config": { ...config keys... }
///       "seed": 2026,
///       "alpha": 0.001,                   // optional, per-metric two-sided test level
///       "scenarios": [
///         { "name": "mirror", "a": "tracker:noise=2", "b": "tracker:noise=2", "games": 100 },
///         { "name": "gap-2",  "a": "tracker:noise=2", "b": "tracker:noise=4", "games": 100 }
///       ]
///     }
///
/// Scenario `s` plays `games / 2` pairs of side-swapped games (agent `a` at
/// the bottom in the even game), pair `k` on seed
/// `Seeds.episode(runSeed: Seeds.stream(seed, s), index: k)`.
public struct BalanceScenarioSet: Equatable, Sendable {
    public struct Scenario: Equatable, Sendable {
        public var name: String
        public var a: AgentSpec
        /// Pong's second agent (nil in Breakout).
        public var b: AgentSpec?
        /// Games (Pong: even, whole side-swapped pairs) or episodes (Breakout).
        public var games: Int
    }

    public var game: String { rules.game }
    public var rules: BalanceRules
    /// How the rules were named in the file (`preset classic` or `config`).
    public var rulesSource: String
    public var seed: UInt64
    /// Two-sided level of each metric's test (default 0.001).
    public var alpha: Double
    public var scenarios: [Scenario]

    public static let keys = ["game", "preset", "config", "seed", "alpha", "scenarios"]
    public static let scenarioKeys = ["name", "a", "b", "games"]

    public init(rules: BalanceRules, rulesSource: String, seed: UInt64, alpha: Double, scenarios: [Scenario]) {
        self.rules = rules; self.rulesSource = rulesSource; self.seed = seed; self.alpha = alpha; self.scenarios = scenarios
    }
    public static let games = BalanceRules.games
    public static let gamesRange = 2 ... 100_000
    public static let alphaRange = 1e-9 ... 0.2

    /// The seed of scenario `index`'s schedule.
    public func scenarioSeed(_ index: Int) -> UInt64 { Seeds.stream(seed, UInt64(index)) }

    /// Decodes a scenario file strictly.
    public static func decode(_ text: String, source: String) throws(BalanceError) -> BalanceScenarioSet {
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw .invalid(source: source, message: error.description) }
        guard case let .object(members) = doc else {
            throw .invalid(source: source, message: "a scenario file must be a JSON object with keys \(keys.joined(separator: ", "))")
        }
        for (key, _) in members where !keys.contains(key) {
            throw .invalid(source: source, message: "unknown key \"\(key)\"; valid keys are: \(keys.joined(separator: ", "))")
        }
        guard case let .string(game)? = doc["game"] else {
            throw .invalid(source: source, message: "\"game\" must be a string; allowed: \(games.joined(separator: ", "))")
        }
        guard games.contains(game) else {
            throw .invalid(source: source, message: "\"game\" = \"\(game)\" is not supported; allowed: \(games.joined(separator: ", "))")
        }
        var rules = try? BalanceRules.preset(game: game, nil)
        var rulesSource = "preset \(game == "breakout" ? BreakoutConfig.presets[0].name : PongConfig.presets[0].name)"
        if doc["preset"] != nil, doc["config"] != nil {
            throw .invalid(source: source, message: "give either \"preset\" or \"config\", not both (a config may name its base with \"preset\")")
        }
        do {
            if let p = doc["preset"] {
                guard case let .string(name) = p else {
                    throw BalanceError.invalid(source: source, message: "\"preset\" must be a preset name")
                }
                rules = try BalanceRules.preset(game: game, name)
                rulesSource = "preset \(name)"
            } else if let c = doc["config"] {
                rules = try BalanceRules.decode(game: game, c, source: "\(source) config")
                rulesSource = "config"
            }
        } catch let error as BalanceError {
            throw error
        } catch {
            throw .invalid(source: source, message: "\(error)")
        }
        guard let rules else { throw .invalid(source: source, message: "no default preset for \(game)") }
        guard case let .number(_, seedText)? = doc["seed"], let seed = UInt64(seedText) else {
            throw .invalid(source: source, message: "\"seed\" must be an unsigned 64-bit integer")
        }
        var alpha = 0.001
        if let a = doc["alpha"] {
            guard case let .number(x, _) = a, alphaRange.contains(x) else {
                throw .invalid(source: source, message: "\"alpha\" = \(a.serialized(pretty: false)) is out of range; allowed: \(alphaRange.lowerBound) ... \(alphaRange.upperBound)")
            }
            alpha = x
        }
        guard case let .array(items)? = doc["scenarios"], !items.isEmpty else {
            throw .invalid(source: source, message: "\"scenarios\" must be a non-empty array of {\(scenarioKeys.joined(separator: ", "))}")
        }
        var scenarios: [Scenario] = []
        for (k, item) in items.enumerated() {
            let where_ = "\(source) scenarios[\(k)]"
            guard case let .object(fields) = item else {
                throw .invalid(source: where_, message: "a scenario must be an object with keys \(scenarioKeys.joined(separator: ", "))")
            }
            for (key, _) in fields where !scenarioKeys.contains(key) {
                throw .invalid(source: where_, message: "unknown key \"\(key)\"; valid keys are: \(scenarioKeys.joined(separator: ", "))")
            }
            guard case let .string(name)? = item["name"], !name.isEmpty else {
                throw .invalid(source: where_, message: "\"name\" must be a non-empty string")
            }
            guard !scenarios.contains(where: { $0.name == name }) else {
                throw .invalid(source: where_, message: "scenario name \"\(name)\" is used twice; names must be distinct")
            }
            func spec(_ key: String) throws(BalanceError) -> AgentSpec {
                guard case let .string(text)? = item[key] else {
                    throw .invalid(source: where_, message: "\"\(key)\" must be an agent spec string (e.g. \"tracker:noise=2\")")
                }
                do { return try AgentSpec.parse(text) } catch { throw .invalid(source: where_, message: "\"\(key)\": \(error)") }
            }
            let pong = game == PongConfig.gameName
            guard case let .number(x, _)? = item["games"], let n = Int(exactly: x), gamesRange.contains(n), !pong || n % 2 == 0 else {
                let found = item["games"]?.serialized(pretty: false) ?? "missing"
                throw .invalid(source: where_, message: pong
                    ? "\"games\" = \(found) is invalid; allowed: an even integer in \(gamesRange.lowerBound) ... \(gamesRange.upperBound) (games are played in side-swapped pairs)"
                    : "\"games\" = \(found) is invalid; allowed: an integer in \(gamesRange.lowerBound) ... \(gamesRange.upperBound) (episodes)")
            }
            let a = try spec("a")
            var b: AgentSpec?
            if pong {
                b = try spec("b")
            } else if item["b"] != nil {
                throw .invalid(source: where_, message: "\"b\" is for pong; a breakout scenario has one agent, \"a\"")
            }
            do {
                try rules.check(a)
                if let b { try rules.check(b) }
            } catch {
                throw .invalid(source: where_, message: error.description)
            }
            scenarios.append(Scenario(name: name, a: a, b: b, games: n))
        }
        return BalanceScenarioSet(rules: rules, rulesSource: rulesSource, seed: seed, alpha: alpha, scenarios: scenarios)
    }
}

/// A mistake in a scenario or baseline file, or a baseline that does not fit.
public enum BalanceError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(source: String, message: String)
    case mismatch(baseline: String, message: String)

    public var description: String {
        switch self {
        case let .invalid(source, message): "\(source): \(message)"
        case let .mismatch(baseline, message): "\(baseline): \(message); re-record it with `gym-train balance record`"
        }
    }
}
