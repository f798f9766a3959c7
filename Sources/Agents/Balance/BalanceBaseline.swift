import Gym

/// A recorded balance baseline (`Results/baselines/<set>.json`): the scenario
/// set's definition, the rules it was recorded with, and every metric.
///
/// Numbers are written in shortest round-trip form, so a re-run under
/// unchanged rules reproduces them bit for bit.
public struct BalanceBaseline: Equatable, Sendable {
    public static let format = 1

    public var game: String
    public var scenarioFile: String
    public var seed: UInt64
    public var alpha: Double
    public var configHash: UInt64
    public var rules: BalanceRules
    public var results: [BalanceScenarioResult]

    public init(set: BalanceScenarioSet, scenarioFile: String, rules: BalanceRules, results: [BalanceScenarioResult]) {
        game = set.game
        self.scenarioFile = scenarioFile
        seed = set.seed
        alpha = set.alpha
        configHash = rules.configHash
        self.rules = rules
        self.results = results
    }

    public var json: JSONValue {
        .object([
            ("format", .number(BalanceBaseline.format)), ("game", .string(game)),
            ("scenarioFile", .string(scenarioFile)), ("seed", .number(seed)), ("alpha", .number(alpha)),
            ("configHash", .string(String(configHash, radix: 16))), ("config", rules.json),
            ("scenarios", .array(results.map { r in
                .object([
                    ("name", .string(r.name)), ("a", .string(r.a)), ("b", r.b.map { .string($0) } ?? .null), ("games", .number(r.games)),
                    ("metrics", .array(r.metrics.map { m in
                        .object([("name", .string(m.name)), ("value", .number(m.value)), ("n", .number(m.n)),
                                 ("sd", .number(m.sd))])
                    })),
                ])
            })),
        ])
    }

    public static func decode(_ text: String, source: String) throws(BalanceError) -> BalanceBaseline {
        func bad(_ message: String) -> BalanceError { .invalid(source: source, message: message) }
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw bad(error.description) }
        guard case let .number(f, _)? = doc["format"], Int(exactly: f) == format else {
            throw bad("not a balance baseline of format \(format) (key \"format\")")
        }
        guard case let .string(game)? = doc["game"], case let .string(file)? = doc["scenarioFile"],
              case let .number(_, seedText)? = doc["seed"], let seed = UInt64(seedText),
              case let .number(alpha, _)? = doc["alpha"], case let .string(hashText)? = doc["configHash"],
              let hash = UInt64(hashText, radix: 16), let configDoc = doc["config"],
              case let .array(items)? = doc["scenarios"]
        else { throw bad("missing or mistyped key; a baseline has format, game, scenarioFile, seed, alpha, configHash, config, scenarios") }
        guard BalanceRules.games.contains(game) else { throw bad("\"game\" = \"\(game)\"; allowed: \(BalanceRules.games.joined(separator: ", "))") }
        let rules: BalanceRules
        do { rules = try BalanceRules.decode(game: game, configDoc, source: "\(source) config") } catch { throw bad(error.description) }
        var results: [BalanceScenarioResult] = []
        for item in items {
            let b: String? = if case let .string(text)? = item["b"] { text } else { nil }
            guard case let .string(name)? = item["name"], case let .string(a)? = item["a"],
                  case let .number(g, _)? = item["games"], let games = Int(exactly: g), case let .array(ms)? = item["metrics"]
            else { throw bad("a scenario needs name, a, b, games and metrics") }
            var metrics: [BalanceMetric] = []
            for m in ms {
                guard case let .string(mName)? = m["name"], case let .number(value, _)? = m["value"], case let .number(n, _)? = m["n"], case let .number(sd, _)? = m["sd"]
                else { throw bad("scenario \(name): a metric needs name, value, n and sd") }
                metrics.append(BalanceMetric(name: mName, value: value, n: n, sd: sd))
            }
            results.append(BalanceScenarioResult(name: name, a: a, b: b, games: games, metrics: metrics))
        }
        var baseline = BalanceBaseline(set: BalanceScenarioSet(rules: rules, rulesSource: "baseline", seed: seed,
                                                               alpha: alpha, scenarios: []),
                                       scenarioFile: file, rules: rules, results: results)
        baseline.configHash = hash
        return baseline
    }

    /// Checks that `set` declares the scenarios this baseline recorded.
    public func checkMatches(_ set: BalanceScenarioSet, source: String) throws(BalanceError) {
        guard set.game == game else { throw .mismatch(baseline: source, message: "recorded for game \(game), the scenario file is for \(set.game)") }
        guard set.seed == seed else { throw .mismatch(baseline: source, message: "recorded with seed \(seed), the scenario file says \(set.seed)") }
        guard set.scenarios.count == results.count else {
            throw .mismatch(baseline: source, message: "recorded \(results.count) scenarios, the scenario file declares \(set.scenarios.count)")
        }
        for (s, r) in zip(set.scenarios, results) where s.name != r.name || s.a.text != r.a || s.b?.text != r.b || s.games != r.games {
            throw .mismatch(baseline: source, message: "scenario \(r.name) (\(r.a) vs \(r.b ?? "-"), \(r.games) games) differs from the file's \(s.name) (\(s.a.text) vs \(s.b?.text ?? "-"), \(s.games) games)")
        }
    }
}
