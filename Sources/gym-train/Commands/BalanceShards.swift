import Agents
import ArgumentParser
import Foundation
import Gym

/// `balance record/check --shard K/N`: a scenario file's games in one global
/// order (scenario 0's games, then scenario 1's, ...), cut into shards like
/// any run's games; `merge` computes the metrics from all the records.
extension Balance {
    /// The games of scenario `s` in the order the whole run plays them.
    static func gameCount(_ set: BalanceScenarioSet, _ s: Int) -> Int {
        let scenario = set.scenarios[s]
        return set.game == "pong" ? scenario.games / 2 * 2 : scenario.games
    }

    /// Plays the games `range` (global indices) of `set` under `rules`; each game's record fields.
    static func play(_ set: BalanceScenarioSet, rules: BalanceRules, range: Range<Int>,
                     runner: ParallelRunner, progress: @escaping @Sendable () -> Void) throws(AgentFault) -> [JSONValue] {
        var out: [JSONValue] = [], first = 0
        for (s, scenario) in set.scenarios.enumerated() {
            let count = gameCount(set, s)
            defer { first += count }
            let lo = max(range.lowerBound, first) - first, hi = min(range.upperBound, first + count) - first
            guard lo < hi else { continue }
            switch rules {
            case let .pong(config):
                let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: scenario.games / 2,
                                                  seed: set.scenarioSeed(s))
                out += try PongTournament.play(config: config, agents: [scenario.a, scenario.b ?? scenario.a],
                                           schedule: schedule, games: lo ..< hi, runner: runner, progress: progress)
                    .map { .array(Pong.fields($0.result)) }
            case let .breakout(config):
                out += try BreakoutDuplicate.play(config: config, agents: [scenario.a], episodes: scenario.games,
                                              seed: set.scenarioSeed(s), games: lo ..< hi, runner: runner,
                                              progress: progress)
                    .map { .array(Breakout.fields($0)) }
            }
        }
        return out
    }

    /// Every scenario's metrics from the records of all the set's games (in global order).
    static func results(_ set: BalanceScenarioSet, records: [JSONValue]) throws -> [BalanceScenarioResult] {
        var first = 0, out: [BalanceScenarioResult] = []
        func fields(_ g: Int) throws -> [JSONValue] {
            guard g < records.count, case let .array(f) = records[g] else {
                throw CLIError("cannot merge: the shards hold no record of balance game \(g)")
            }
            return f
        }
        for (s, scenario) in set.scenarios.enumerated() {
            let count = gameCount(set, s)
            defer { first += count }
            if set.game == "pong" {
                let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: scenario.games / 2,
                                                  seed: set.scenarioSeed(s))
                let games = try (0 ..< count).map { k in
                    guard let r = Pong.record(fields: try fields(first + k)) else {
                        throw CLIError("cannot merge: balance game \(first + k) is not a pong record")
                    }
                    return PongTournamentGame(slot: schedule.slot(k), result: r)
                }
                out.append(BalanceScenarioResult(name: scenario.name, a: scenario.a.text, b: (scenario.b ?? scenario.a).text,
                                                 games: scenario.games, metrics: PongBalance.metrics(games)))
            } else {
                let episodes = try (0 ..< count).map { k in
                    guard let r = Breakout.record(fields: try fields(first + k)) else {
                        throw CLIError("cannot merge: balance game \(first + k) is not a breakout record")
                    }
                    return r
                }
                out.append(BalanceScenarioResult(name: scenario.name, a: scenario.a.text, b: nil, games: scenario.games,
                                                 metrics: BreakoutBalance.metrics(episodes)))
            }
        }
        return out
    }

    /// Plays shard `shard` of the one scenario file of `common` and writes its folder.
    static func playShard(_ shard: Shard, subcommand: String, common: Common, rules: BalanceRules?,
                          rulesLabel: String?, parameters extra: [(String, JSONValue)]) throws {
        let files = try common.files()
        guard files.count == 1 else {
            throw CLIError("--shard needs exactly one --scenarios FILE (got \(files.count) scenario files)")
        }
        let file = files[0]
        let text = try readText(file, what: "scenario file")
        let set = try common.load(file)
        let effective = rules ?? set.rules
        for scenario in set.scenarios {
            try effective.check(scenario.a)
            if let b = scenario.b { try effective.check(b) }
        }
        let total = (0 ..< set.scenarios.count).reduce(0) { $0 + gameCount(set, $1) }
        let range = shard.range(of: total)
        let folder = try ResultsFolder.create(common.output, command: subcommand, game: set.game, seed: set.seed)
        let progress = Progress(total: range.count, label: "\(subcommand) shard \(shard)")
        let clock = ContinuousClock()
        let start = clock.now
        let records = try play(set, rules: effective, range: range, runner: common.workerOptions.runner,
                           progress: { progress.tick() })
        let seconds = (clock.now - start).seconds
        progress.finish()
        let parameters: [(String, JSONValue)] = [
            ("scenarioFile", .string(file)), ("scenarios", .string(text)),
            ("rules", .string(rulesLabel ?? set.rulesSource)),
        ] + extra
        func finish<C: GameConfig>(_ config: C) throws {
            try ShardFolder.finish(folder, subcommand: subcommand,
                                   label: "\(subcommand.replacingOccurrences(of: "-", with: " ")) \(file)", units: "games",
                                   shard: shard, games: total, seed: set.seed, config: config, parameters: parameters,
                                   records: records, seconds: seconds, workers: common.workerCount)
        }
        switch effective {
        case let .pong(c): try finish(c)
        case let .breakout(c): try finish(c)
        }
    }

    /// The scenario set and its metrics from the shards of one `balance --shard` run.
    static func mergedResults(_ shards: [ShardFolder]) throws -> (file: String, set: BalanceScenarioSet, rules: BalanceRules,
                                                                   label: String, results: [BalanceScenarioResult]) {
        let head = shards[0]
        let file = try head.stringParameter("scenarioFile")
        let set = try BalanceScenarioSet.decode(try head.stringParameter("scenarios"), source: file)
        let doc: JSONValue
        do { doc = try JSONValue.parse(head.configText) } catch { throw CLIError("\(head.path)/config.json: \(error)") }
        let rules = try BalanceRules.decode(game: set.game, doc, source: "\(head.path)/config.json")
        return (file, set, rules, try head.stringParameter("rules"), try results(set, records: shards.records))
    }

    /// `merge` of `balance record --shard`: the baseline, written to the merge's folder under the scenario file's name.
    static func mergeRecord(_ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let m = try mergedResults(shards)
        let baseline = BalanceBaseline(set: m.set, scenarioFile: m.file, rules: m.rules, results: m.results)
        let name = URL(fileURLWithPath: m.file).lastPathComponent
        try folder.write(shards.timingJSON, to: ShardFolder.timingFile)
        try folder.write(baseline.json.serialized() + "\n", to: name)
        Record.printTable(m.file, set: m.set, results: m.results)
        print("")
        print("wrote \(folder.url.appendingPathComponent(name).path)")
    }

    /// `merge` of `balance check --shard`: the check's table and verdict (exit 1 when a metric moved).
    static func mergeCheck(_ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let m = try mergedResults(shards)
        let path = try shards[0].stringParameter("baselinePath")
        let baseline = try BalanceBaseline.decode(try shards[0].stringParameter("baseline"), source: path)
        try baseline.checkMatches(m.set, source: path)
        try folder.write(shards.timingJSON, to: ShardFolder.timingFile)
        if !Check.report(m.file, path: path, set: m.set, baseline: baseline, config: m.rules, rules: m.label,
                         current: m.results) {
            FileHandleOutput.standardError("balance check failed: \(m.file)")
            throw ExitCode(1)
        }
    }
}
