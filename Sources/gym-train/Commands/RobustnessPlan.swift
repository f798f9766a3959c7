import Agents
import Foundation
import Gym

/// A robustness run's conditions (agent × rules) and its report: built the
/// same way from the command line and from a shard's run.json, so a merged
/// run writes exactly the single run's files.
struct RobustnessPlan<G: RobustnessGame> {
    /// One set of rules played: the base (classic), a variant of the set, or one sensitivity value.
    struct Rules {
        enum Kind: String { case classic, variant, sensitivity }
        var variant: RuleVariant
        var kind: Kind
        var config: G.Config
    }

    let settings: Robustness.Settings
    let seed: UInt64
    let base: G.Config
    let roster: [[AgentSpec]]
    let rules: [Rules]
    /// Per sensitivity key: its values and the index into `rules` each is played as.
    let sensitivity: [(key: String, points: [(value: JSONValue, rules: Int)])]
    let fileVersion: Int

    /// Conditions: `roster.count × rules.count`, agent-major.
    var cells: Int { roster.count * rules.count }

    init(_ settings: Robustness.Settings, base: G.Config, seed: UInt64) throws {
        self.settings = settings
        self.seed = seed
        self.base = base
        let opponent = try settings.opponent.map { try AgentSpec.parse($0) }
        roster = try settings.agents.map { text in
            let spec = try AgentSpec.parse(text)
            let r = [spec] + (opponent.map { [$0] } ?? [])
            for s in r { try G.check(s, config: base) }
            return r
        }
        let (file, set) = try VariantText(source: settings.fileSource, text: settings.fileText).set(G.Config.self, settings.set)
        fileVersion = file.version
        func rules(_ v: RuleVariant, _ kind: Rules.Kind) throws -> Rules {
            do {
                return Rules(variant: v, kind: kind,
                             config: try v.apply(to: base, source: "\(settings.fileSource): set \"\(settings.set)\", variant \"\(v.name)\" on the run's rules"))
            } catch { throw CLIError("\(error)") }
        }
        var list = [Rules(variant: .classic, kind: .classic, config: base)]
        for v in set.variants(draws: settings.draws, seed: seed) { list.append(try rules(v, .variant)) }
        var curves: [(key: String, points: [(value: JSONValue, rules: Int)])] = []
        for (key, _) in file.sensitivity {
            var points: [(value: JSONValue, rules: Int)] = []
            for v in file.sensitivityVariants(key) {
                let r = try rules(v, .sensitivity)
                // The base's own value is the classic condition (played once).
                if r.config == base { points.append((v.values[0].value, 0)); continue }
                list.append(r)
                points.append((v.values[0].value, list.count - 1))
            }
            curves.append((key, points))
        }
        self.rules = list
        sensitivity = curves
    }

    /// Plays condition `cell` (agent `cell / rules.count` under rules `cell % rules.count`) on
    /// episode seeds `Seeds.episode(runSeed: seed, index: e)`, the same for every condition; its record
    /// is one row of ``RobustnessGame/robustnessColumns`` per episode.
    func play(cell: Int, runner: ParallelRunner, progress: @escaping @Sendable () -> Void) throws(AgentFault) -> JSONValue {
        let roster = roster[cell / rules.count], config = rules[cell % rules.count].config
        let seed = seed, seats = G.seats
        let records = try Matches.play(G.self, config: config, roster: roster, count: settings.episodes, runner: runner,
                                   game: { e in
            SeatedGame(seed: Seeds.episode(runSeed: seed, index: e), seats: MatchupOptions.seating(episode: e, seats: seats))
        }, progress: progress)
        return .array(records.enumerated().map { e, record in
            let seat = MatchupOptions.seating(episode: e, seats: seats).firstIndex(of: 0) ?? 0
            return .array(G.robustnessRow(record, seat: seat).map { .number($0) })
        })
    }

    /// One score of one condition: the estimate on all episodes and the bootstrap replicates.
    struct Score {
        var estimate: Double?
        var resampled: [Double?]
        var interval: (lower: Double, upper: Double)? { PairedBootstrap.interval(resampled) }
    }

    /// robustness.csv, robustness.json and the two SVGs from every condition's record; prints a summary.
    func report(_ records: [JSONValue], folder: ResultsFolder) throws {
        guard records.count == cells else { throw CLIError("cannot merge: \(records.count) robustness conditions, expected \(cells)") }
        let width = G.robustnessColumns.count
        var rows: [[[Int]]] = []
        for (c, record) in records.enumerated() {
            guard case let .array(episodes) = record, episodes.count == settings.episodes else {
                throw CLIError("cannot merge: malformed record of robustness condition \(c)")
            }
            rows.append(try episodes.map { e in
                guard case let .array(f) = e, f.count == width else {
                    throw CLIError("cannot merge: malformed record of robustness condition \(c)")
                }
                return try f.map { v in
                    guard let i = v.integer(Int.self) else { throw CLIError("cannot merge: malformed record of robustness condition \(c)") }
                    return i
                }
            })
        }
        let boot = PairedBootstrap(episodes: settings.episodes, resamples: settings.bootstrap, seed: seed)
        // scores[cell][score]
        let scores: [[Score]] = rows.map { r in
            G.robustnessScores.map { s in
                let (e, reps) = boot.replicate(s.ratio, r)
                return Score(estimate: e, resampled: reps)
            }
        }
        func num(_ x: Double?) -> JSONValue { x.map { .number($0) } ?? .null }
        func text(_ x: Double?) -> String { x.map { "\($0)" } ?? "" }
        func interval(_ s: Score) -> [(String, JSONValue)] {
            let i = s.interval
            return [("estimate", num(s.estimate)), ("lower", num(i?.lower)), ("upper", num(i?.upper))]
        }
        let headline = G.robustnessScores[0].name
        var csv = CSV.row(["agent", "rules", "kind", "parameter", "value", "score", "estimate", "lower", "upper", "episodes"])
        var agentsJSON: [JSONValue] = []
        var lines: [String] = []
        var heat: [[Double?]] = []
        var curves: [[(key: String, points: [(x: Double, y: Double?, lower: Double?, upper: Double?)])]] = []
        let variantIndices = rules.indices.filter { rules[$0].kind == .variant }
        // Agents are labelled by their display name (the spec's `name=`, else the spec).
        let labels = roster.map { $0[0].displayName }
        for (a, agent) in labels.enumerated() {
            var conditions: [JSONValue] = []
            for (r, rule) in rules.enumerated() {
                let cell = a * rules.count + r
                let parameter = rule.kind == .sensitivity ? rule.variant.values[0].key : ""
                let value = rule.kind == .sensitivity ? rule.variant.values[0].value.serialized(pretty: false) : ""
                var metrics: [(String, JSONValue)] = []
                for (s, score) in G.robustnessScores.enumerated() {
                    let sc = scores[cell][s], i = sc.interval
                    csv += CSV.row([agent, rule.variant.name, rule.kind.rawValue, parameter, value, score.name,
                                    text(sc.estimate), text(i?.lower), text(i?.upper), "\(settings.episodes)"])
                    metrics.append((score.name, .object(interval(sc))))
                }
                conditions.append(.object([
                    ("rules", .string(rule.variant.name)), ("kind", .string(rule.kind.rawValue)),
                    ("values", rule.variant.json), ("scores", .object(metrics)),
                ]))
            }
            // Retention: the mean headline score over the set's variants over the classic one, per resample too.
            let classic = scores[a * rules.count][0]
            func retention(_ pick: (Score) -> Double?) -> Double? {
                guard let c = pick(classic), c != 0 else { return nil }
                let vs = variantIndices.compactMap { pick(scores[a * rules.count + $0][0]) }
                guard vs.count == variantIndices.count, !vs.isEmpty else { return nil }
                return vs.reduce(0, +) / Double(vs.count) / c
            }
            let ret = Score(estimate: retention(\.estimate),
                            resampled: (0 ..< settings.bootstrap).map { b in retention { $0.resampled[b] } })
            let worst = variantIndices.min { x, y in
                (scores[a * rules.count + x][0].estimate ?? .infinity) < (scores[a * rules.count + y][0].estimate ?? .infinity)
            }
            var curveJSON: [(String, JSONValue)] = []
            var agentCurves: [(key: String, points: [(x: Double, y: Double?, lower: Double?, upper: Double?)])] = []
            for (key, points) in sensitivity {
                var list: [JSONValue] = [], pts: [(x: Double, y: Double?, lower: Double?, upper: Double?)] = []
                for p in points {
                    let sc = scores[a * rules.count + p.rules][0], i = sc.interval
                    list.append(.object([("value", p.value), ("classic", .bool(p.rules == 0))] + interval(sc)))
                    pts.append((p.value.numeric ?? 0, sc.estimate, i?.lower, i?.upper))
                }
                curveJSON.append((key, .array(list)))
                agentCurves.append((key, pts))
            }
            curves.append(agentCurves)
            heat.append(([0] + variantIndices).map { scores[a * rules.count + $0][0].estimate })
            var summary: [(String, JSONValue)] = [("agent", .string(agent)), ("spec", .string(settings.agents[a])),
                                                  ("retention", .object(interval(ret)))]
            if let w = worst {
                summary.append(("worst", .object([("rules", .string(rules[w].variant.name))] + interval(scores[a * rules.count + w][0]))))
            }
            summary += [("conditions", .array(conditions)), ("sensitivity", .object(curveJSON))]
            agentsJSON.append(.object(summary))
            let ri = ret.interval
            lines.append("  \(agent): \(headline) classic \(format(classic.estimate)), retention \(format(ret.estimate)) [\(format(ri?.lower)), \(format(ri?.upper))]"
                + (worst.map { ", worst \(rules[$0].variant.name) \(format(scores[a * rules.count + $0][0].estimate))" } ?? ""))
        }
        let json = JSONValue.object([
            ("game", .string(G.Config.gameName)), ("seed", .number(seed)), ("episodes", .number(settings.episodes)),
            ("bootstrap", .number(settings.bootstrap)), ("opponent", settings.opponent.map { .string($0) } ?? .null),
            ("variantsFile", .string(settings.fileSource)), ("variantsVersion", .number(fileVersion)),
            ("variants", .string(settings.set)), ("headline", .string(headline)),
            ("scores", .array(G.robustnessScores.map { .string($0.name) })),
            ("rules", .array(rules.map { .object([("name", .string($0.variant.name)), ("kind", .string($0.kind.rawValue)), ("values", $0.variant.json)]) })),
            ("agents", .array(agentsJSON)),
        ])
        try folder.write(csv, to: "robustness.csv")
        try folder.write(json.serialized() + "\n", to: "robustness.json")
        let columns = ([0] + variantIndices).map { rules[$0].variant.name }
        let against = settings.opponent.map { " vs \($0)" } ?? ""
        try folder.write(RobustnessCharts.heatmap(title: "\(G.name) \(headline)\(against): agents × \(settings.set) variants",
                                                  rows: labels, columns: columns, values: heat),
                         to: "robustness-heatmap.svg")
        try folder.write(RobustnessCharts.sensitivity(title: "\(G.name) \(headline)\(against), one rule at a time",
                                                      score: headline, agents: labels,
                                                      keys: sensitivity.map(\.key), curves: curves,
                                                      classic: sensitivity.map { k in k.points.first { $0.rules == 0 }?.value.numeric }),
                         to: "robustness-sensitivity.svg")
        print("robustness \(G.name): \(settings.agents.count) agents × \(rules.count) rules (\(variantIndices.count) \(settings.set) variants), \(settings.episodes) episodes each, seed \(seed)")
        for line in lines { print(line) }
        print("results \(folder.path)")
    }

    func format(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "n/a" }
}
