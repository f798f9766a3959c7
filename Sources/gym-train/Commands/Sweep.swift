import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train sweep`: a balance scenario file played under every cell of a grid of config values.
struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a balance scenario file under every cell of a grid of config values (e.g. paddle width × serve speed).",
        discussion: """
        Each --grid KEY=V1,V2,... names a config key of the scenario file's game and its values \
        (one or two --grid options; the first varies slowest). Every cell's rules are the file's \
        rules with the cell's values set, checked like a config file. Writes sweep.csv (one row \
        per cell, scenario and metric), sweep.json and one heatmap SVG per scenario and metric \
        (heatmap-<scenario>-<metric>.svg). Cells shard like games: --shard K/N plays cells \
        C·(K−1)/N ..< C·K/N, and `gym-train merge` writes the whole sweep's files.
        """
    )

    @Flag(help: "Start the programs of external agents (process:...) named in the scenario file; without it they are refused.")
    var allowAgentPrograms = false

    @Option(name: .customLong("scenarios"), help: "The balance scenario file (Configs/balance/*.json).")
    var scenarioFile: String

    @Option(help: "A config key and its values, KEY=V1,V2,... (one or two).")
    var grid: [String] = []

    @OptionGroup var workerOptions: WorkerOptions
    @OptionGroup var shardOptions: ShardOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var resumeOptions: ResumeOptions

    func validate() throws {
        guard (1 ... 2).contains(grid.count) else {
            throw ValidationError("--grid is given \(grid.count) times; allowed: 1 or 2 (KEY=V1,V2,...)")
        }
    }

    /// One grid axis: a config key and its values as written.
    struct Axis: Equatable {
        var key: String
        var values: [String]
    }

    static func parseAxis(_ text: String) throws -> Axis {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw CLIError("--grid \(text) is invalid; allowed: KEY=V1,V2,... (e.g. paddleWidth=40,56,72)")
        }
        let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !values.isEmpty, values.allSatisfy({ !$0.isEmpty }), Set(values).count == values.count else {
            throw CLIError("--grid \(text) is invalid: values must be non-empty and distinct (KEY=V1,V2,...)")
        }
        return Axis(key: parts[0], values: values)
    }

    /// The cells in order (the first axis varies slowest): each axis's value index.
    static func cells(_ axes: [Axis]) -> [[Int]] {
        axes.reduce([[]]) { cells, axis in cells.flatMap { c in axis.values.indices.map { c + [$0] } } }
    }

    /// The scenario file's rules with `cell`'s values set; a bad key or value is one line naming both.
    static func rules(_ set: BalanceScenarioSet, axes: [Axis], cell: [Int]) throws -> BalanceRules {
        guard case var .object(members) = set.rules.json else { return set.rules }
        for (axis, v) in zip(axes, cell) {
            let text = axis.values[v]
            let value = (try? JSONValue.parse(text)) ?? .string(text)
            if let i = members.firstIndex(where: { $0.0 == axis.key }) { members[i].1 = value } else {
                members.append((axis.key, value))
            }
        }
        let label = zip(axes, cell).map { "\($0.key)=\($0.values[$1])" }.joined(separator: ", ")
        do {
            return try BalanceRules.decode(game: set.game, .object(members), source: "--grid \(label)")
        } catch {
            throw CLIError("\(error)")
        }
    }

    func run() throws {
        let text = try readText(scenarioFile, what: "scenario file")
        let decoded = try BalanceScenarioSet.decode(text, source: scenarioFile)
        let set = allowAgentPrograms ? decoded.allowingAgentPrograms() : decoded
        let axes = try grid.map(Self.parseAxis)
        if axes.count == 2, axes[0].key == axes[1].key {
            throw CLIError("--grid names \"\(axes[0].key)\" twice; allowed: two different keys (one --grid per key)")
        }
        let cells = Self.cells(axes)
        let allRules = try cells.map { try Self.rules(set, axes: axes, cell: $0) }
        for rules in allRules {
            for scenario in set.scenarios {
                try rules.check(scenario.a)
                if let b = scenario.b { try rules.check(b) }
            }
        }
        let shard = shardOptions.value
        let range = shard?.range(of: cells.count) ?? 0 ..< cells.count
        let folder = try resumeOptions.folder(output, command: "sweep", game: set.game, seed: set.seed)
        let parameters: [(String, JSONValue)] = [
            ("scenarioFile", .string(scenarioFile)), ("scenarios", .string(text)),
            ("grid", .array(grid.map { .string($0) })),
        ]
        let programs = set.scenarios.flatMap { [$0.a] + ($0.b.map { [$0] } ?? []) }.compactMap(\.programRecord)
        let identity: [(String, JSONValue)]
        switch set.rules {
        case let .pong(c):
            identity = RunJournal.identity(subcommand: "sweep", seed: set.seed, config: c, shard: shard,
                                           parameters: parameters + [("programs", .array(programs))])
        case let .breakout(c):
            identity = RunJournal.identity(subcommand: "sweep", seed: set.seed, config: c, shard: shard,
                                           parameters: parameters + [("programs", .array(programs))])
        }
        let journal = try RunJournal.open(folder, run: identity, options: resumeOptions)
        let (have, missing) = try journal.split(range, what: "cell") { $0 }
        journal.announce(recorded: have.count, of: range.count, unit: "cells")
        let progress = Progress(total: range.count, done: have.count, label: "sweep", unit: "cells")
        let clock = ContinuousClock()
        let start = clock.now
        var played: [JSONValue] = []
        for c in missing {
            let results = try BalanceRun.run(set, rules: allRules[c], runner: workerOptions.runner)
            let record = JSONValue.array(results.map { .array($0.metrics.map { .array([.string($0.name), .number($0.value), .number($0.n), .number($0.sd)]) }) })
            journal.append(c, record)
            played.append(record)
            progress.tick()
        }
        let records = try RunJournal.merge(range, have: have, missing: missing, played: played)
        let seconds = (clock.now - start).seconds
        progress.finish()
        if let shard {
            func finish<C: GameConfig>(_ config: C) throws {
                try ShardFolder.finish(folder, subcommand: "sweep", label: "sweep \(scenarioFile)", units: "cells",
                                       shard: shard, games: cells.count, seed: set.seed, config: config,
                                       parameters: parameters, records: records, seconds: seconds,
                                       workers: workerOptions.count)
            }
            switch set.rules {
            case let .pong(c): try finish(c)
            case let .breakout(c): try finish(c)
            }
            try journal.complete()
            return
        }
        try folder.write(ShardFolder.timingJSON(seconds: seconds, workers: workerOptions.count), to: ShardFolder.timingFile)
        try Self.report(set, file: scenarioFile, axes: axes, records: records, folder: folder)
        try journal.complete()
    }

    /// Writes the whole sweep's files from the shards of one `sweep --shard` run.
    static func merge(_ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let head = shards[0]
        let file = try head.stringParameter("scenarioFile")
        let set = try BalanceScenarioSet.decode(try head.stringParameter("scenarios"), source: file)
        guard case let .array(gridValues) = try head.parameter("grid") else {
            throw CLIError("\(head.path)/run.json: parameter \"grid\" must be an array")
        }
        let axes = try gridValues.map { v -> Axis in
            guard case let .string(s) = v else { throw CLIError("\(head.path)/run.json: grid entries must be strings") }
            return try parseAxis(s)
        }
        try folder.write(shards.timingJSON, to: ShardFolder.timingFile)
        try report(set, file: file, axes: axes, records: shards.records, folder: folder)
    }

    /// sweep.csv, sweep.json and the heatmaps from every cell's record (value, n, sd per scenario metric).
    static func report(_ set: BalanceScenarioSet, file: String, axes: [Axis], records: [JSONValue],
                       folder: ResultsFolder) throws {
        let cells = Self.cells(axes)
        // Per cell, per scenario: the metrics' names and (value, n, sd).
        var names: [[String]] = []
        var table: [[[[Double]]]] = []
        for (c, record) in records.enumerated() {
            func malformed() -> CLIError { CLIError("cannot merge: malformed record of sweep cell \(c)") }
            guard case let .array(scenarios) = record, scenarios.count == set.scenarios.count else { throw malformed() }
            var cellNames: [[String]] = [], cell: [[[Double]]] = []
            for entry in scenarios {
                guard case let .array(metrics) = entry else { throw malformed() }
                var n: [String] = [], v: [[Double]] = []
                for m in metrics {
                    guard case let .array(f) = m, f.count == 4, case let .string(name) = f[0],
                          let a = f[1].double, let b = f[2].double, let d = f[3].double else { throw malformed() }
                    n.append(name); v.append([a, b, d])
                }
                cellNames.append(n); cell.append(v)
            }
            if names.isEmpty { names = cellNames } else if names != cellNames { throw malformed() }
            table.append(cell)
        }
        guard table.count == cells.count else { throw CLIError("cannot merge: \(table.count) sweep cells, expected \(cells.count)") }
        var csv = CSV.row(axes.map(\.key) + ["scenario", "metric", "value", "n", "sd"])
        var jsonCells: [JSONValue] = []
        for (c, cell) in cells.enumerated() {
            let values = zip(axes, cell).map { $0.values[$1] }
            var scenarios: [(String, JSONValue)] = []
            for (s, scenario) in set.scenarios.enumerated() {
                var metrics: [(String, JSONValue)] = []
                for (m, name) in names[s].enumerated() {
                    let v = table[c][s][m]
                    csv += CSV.row(values + [scenario.name, name, "\(v[0])", "\(Int(v[1]))", "\(v[2])"])
                    metrics.append((name, .object([("value", .number(v[0])), ("n", .number(v[1])), ("sd", .number(v[2]))])))
                }
                scenarios.append((scenario.name, .object(metrics)))
            }
            jsonCells.append(.object([
                ("values", .object(zip(axes, values).map { ($0.key, .string($1)) })),
                ("scenarios", .object(scenarios)),
            ]))
        }
        let json = JSONValue.object([
            ("game", .string(set.game)), ("scenarioFile", .string(file)), ("seed", .number(set.seed)),
            ("grid", .array(axes.map { .object([("key", .string($0.key)), ("values", .array($0.values.map { .string($0) }))]) })),
            ("cells", .array(jsonCells)),
        ])
        try folder.write(csv, to: "sweep.csv")
        try folder.write(json.serialized() + "\n", to: "sweep.json")
        for (s, scenario) in set.scenarios.enumerated() {
            for (m, name) in names[s].enumerated() {
                let values = table.map { $0[s][m][0] }
                try folder.write(heatmap(title: "\(scenario.name): \(name)", axes: axes, values: values),
                                 to: "heatmap-\(scenario.name)-\(name).svg")
            }
        }
        print("sweep \(file): \(cells.count) cells × \(set.scenarios.count) scenarios, seed \(set.seed)")
        print("results \(folder.path)")
    }

    /// A heatmap: rows the first axis's values, columns the second's (one column for one axis);
    /// cell shade from the lowest (light) to the highest value (dark), value printed in each cell.
    static func heatmap(title: String, axes: [Axis], values: [Double]) -> String {
        let rows = axes[0].values, columns = axes.count > 1 ? axes[1].values : [""]
        let cellW = 90.0, cellH = 36.0, left = 110.0, top = 60.0
        var svg = SVG(width: left + cellW * Double(columns.count) + 20, height: top + cellH * Double(rows.count) + 30)
        svg.rect(x: 0, y: 0, width: svg.width, height: svg.height, fill: "white")
        svg.text(title, x: svg.width / 2, y: 22, size: 14, anchor: .middle)
        svg.text(axes[0].key, x: 8, y: top - 8, size: 11)
        if axes.count > 1 { svg.text(axes[1].key, x: left + cellW * Double(columns.count) / 2, y: 42, size: 11, anchor: .middle) }
        let finite = values.filter(\.isFinite)
        let lo = finite.min() ?? 0, hi = finite.max() ?? 1
        for (c, name) in columns.enumerated() {
            svg.text(name, x: left + cellW * (Double(c) + 0.5), y: top - 8, size: 11, anchor: .middle)
        }
        for (r, name) in rows.enumerated() {
            svg.text(name, x: left - 8, y: top + cellH * (Double(r) + 0.6), size: 11, anchor: .end)
            for c in columns.indices {
                let v = values[r * columns.count + c]
                let t = hi > lo && v.isFinite ? (v - lo) / (hi - lo) : 0.5
                let shade = Int((235 - 170 * t).rounded())
                svg.rect(x: left + cellW * Double(c), y: top + cellH * Double(r), width: cellW, height: cellH,
                         fill: "rgb(\(shade),\(shade),255)", stroke: "white")
                svg.text(String(format: "%.4g", v), x: left + cellW * (Double(c) + 0.5), y: top + cellH * (Double(r) + 0.6),
                         size: 11, anchor: .middle, fill: t > 0.6 ? "white" : "#222")
            }
        }
        return svg.document
    }
}
