import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train balance`: record and check game-balance baselines.
struct Balance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record or check game-balance baselines (does the game still play the same?).",
        discussion: """
        A scenario file (Configs/balance/*.json) names the rules (a preset or a config), a seed, \
        and scenarios of two reference agents playing a fixed number of side-swapped game pairs. \
        `record` plays them and writes the baseline (Results/baselines/<file name>); `check` \
        plays them again — under the file's rules, or under --config/--preset to try a rules \
        change — and compares every metric with a two-sided z test at the file's alpha \
        (default 0.001 per metric): Welch z on means over game pairs (Pong) or episodes (Breakout). \
        Unchanged rules reproduce the baseline bit for bit. Exit status of check: 0 when no \
        metric moved beyond its tolerance, 1 otherwise.
        """,
        subcommands: [Record.self, Check.self]
    )

    /// Options both subcommands take.
    struct Common: ParsableArguments {
        @Option(name: .customLong("scenarios"), help: "A scenario file (repeatable; default: every Configs/balance/*.json).")
        var scenarioFiles: [String] = []

        @Option(name: .customLong("baselines"), help: "Folder of baseline files (one per scenario file, same file name; default: Results/baselines).")
        var baselinesOption: String?

        @OptionGroup var workerOptions: WorkerOptions
        @OptionGroup var shardOptions: ShardOptions
        @OptionGroup var output: OutputOptions

        /// The baseline folder (`--baselines`, else Results/baselines).
        var baselines: String { baselinesOption ?? "Results/baselines" }

        var workerCount: Int { workerOptions.count }

        /// The scenario files to use, in a stable order.
        func files() throws -> [String] {
            if !scenarioFiles.isEmpty { return scenarioFiles }
            let folder = "Configs/balance"
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                throw CLIError("no --scenarios given and \(folder) cannot be read; run from the package root or pass --scenarios FILE")
            }
            let files = names.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
            guard !files.isEmpty else { throw CLIError("no scenario files (*.json) in \(folder)") }
            return files
        }

        @Flag(help: "Start the programs of external agents (process:...) named in the scenario files; without it they are refused.")
        var allowAgentPrograms = false

        func load(_ file: String) throws -> BalanceScenarioSet {
            let set = try BalanceScenarioSet.decode(try readText(file, what: "scenario file"), source: file)
            return allowAgentPrograms ? set.allowingAgentPrograms() : set
        }

        /// The baseline of `file`, spelled as `--baselines` is (relative stays relative), so the shards of
        /// one check run in different folders or on different machines name it alike (merge compares it).
        func baselinePath(_ file: String) -> String {
            (baselines as NSString).appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent)
        }

        func play(_ set: BalanceScenarioSet, rules: BalanceRules, label: String) throws -> [BalanceScenarioResult] {
            for scenario in set.scenarios {
                try rules.check(scenario.a)
                if let b = scenario.b { try rules.check(b) }
            }
            let progress = Progress(total: set.scenarios.reduce(0) { $0 + $1.games }, label: label)
            defer { progress.finish() }
            return try BalanceRun.run(set, rules: rules, runner: ParallelRunner(workers: workerCount), progress: { progress.tick() })
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the scenario sets with fixed seeds and write their baselines.")

        @OptionGroup var common: Common

        func validate() throws {
            if common.output.out != nil, common.baselinesOption != nil, common.shardOptions.value == nil {
                throw ValidationError("give either --baselines DIR or --out DIR, not both (--out writes the baselines into a results folder)")
            }
        }

        func run() throws {
            if let shard = common.shardOptions.value {
                return try Balance.playShard(shard, subcommand: "balance-record", common: common,
                                             rules: nil, rulesLabel: nil, parameters: [])
            }
            let files = try common.files()
            let sets = try files.map { try common.load($0) }
            // --out: the baselines go into a results folder of their own (as `merge` of record shards writes them).
            let folder = try common.output.out.map { _ in
                try ResultsFolder.create(common.output, command: "balance-record", game: sets[0].game, seed: sets[0].seed)
            }
            let baselineFolder = folder?.url ?? URL(fileURLWithPath: common.baselines)
            if folder == nil {
                do { try FileManager.default.createDirectory(at: baselineFolder, withIntermediateDirectories: true) } catch {
                    throw CLIError("cannot create baseline folder \(common.baselines): \(error.localizedDescription)")
                }
            }
            if let folder {
                let run = JSONValue.object([
                    ("command", .string(CommandLine.arguments.joined(separator: " "))),
                    ("subcommand", .string("balance-record")), ("version", .string(GymTrainVersion.string)),
                    ("scenarioFiles", .array(files.map { .string($0) })),
                ])
                try folder.write(run.serialized() + "\n", to: "run.json")
            }
            for (file, set) in zip(files, sets) {
                let path = folder.map { $0.url.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent).path }
                    ?? common.baselinePath(file)
                guard URL(fileURLWithPath: path).standardizedFileURL != URL(fileURLWithPath: file).standardizedFileURL else {
                    throw CLIError("the baseline \(path) would overwrite the scenario file \(file); choose another --baselines folder")
                }
                let results = try common.play(set, rules: set.rules, label: "record \(file)")
                let baseline = BalanceBaseline(set: set, scenarioFile: file, rules: set.rules, results: results)
                try AtomicFile.write(Data((baseline.json.serialized() + "\n").utf8), to: URL(fileURLWithPath: path))
                Record.printTable(file, set: set, results: results)
                print("")
                print("wrote \(path)")
            }
        }

        /// The recorded metrics as printed.
        static func printTable(_ file: String, set: BalanceScenarioSet, results: [BalanceScenarioResult]) {
            print("balance record \(file) (\(set.rulesSource), config hash \(String(set.rules.configHash, radix: 16)), seed \(set.seed))")
            print("")
            print("| scenario | metric | value | n | sd |\n|---|---|---:|---:|---:|")
            for r in results {
                for m in r.metrics {
                    print("| \(r.name) | \(m.name) | \(num(m.value)) | \(Int(m.n)) | \(num(m.sd)) |")
                }
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play the scenario sets again and compare every metric with its baseline (exit 1 if any moved).")

        @OptionGroup var common: Common

        @Option(name: .customLong("config"), help: "Check these rules instead of the scenario file's (a config file; try a rules change).")
        var configFile: String?

        @Option(help: "Check this preset's rules instead of the scenario file's.")
        var preset: String?

        func validate() throws {
            if configFile != nil, preset != nil {
                throw ValidationError("give either --config or --preset, not both")
            }
            if common.output.out != nil, common.shardOptions.value == nil {
                throw ValidationError("--out is for --shard K/N (a check shard's results folder); balance check alone writes no results folder")
            }
        }

        func run() throws {
            var failed: [String] = []
            for file in try common.files() {
                let set = try common.load(file)
                let path = common.baselinePath(file)
                guard let text = try? readText(path, what: "baseline") else {
                    throw CLIError("no baseline at \(path); record one with `gym-train balance record --scenarios \(file)`")
                }
                let baseline = try BalanceBaseline.decode(text, source: path)
                try baseline.checkMatches(set, source: path)
                var config = set.rules
                var rules = set.rulesSource
                if let configFile {
                    let text = try readText(configFile, what: "config file")
                    let doc: JSONValue
                    do { doc = try JSONValue.parse(text) } catch { throw CLIError("\(configFile): \(error)") }
                    config = try BalanceRules.decode(game: set.game, doc, source: configFile)
                    rules = "config \(configFile)"
                } else if let preset {
                    config = try BalanceRules.preset(game: set.game, preset)
                    rules = "preset \(preset)"
                }
                if let shard = common.shardOptions.value {
                    guard let baselineText = try? readText(path, what: "baseline") else {
                        throw CLIError("no baseline at \(path)")
                    }
                    return try Balance.playShard(shard, subcommand: "balance-check", common: common,
                                                 rules: config, rulesLabel: rules, parameters: [
                                                     ("baselinePath", .string(path)), ("baseline", .string(baselineText)),
                                                 ])
                }
                let current = try common.play(set, rules: config, label: "check \(file)")
                if !Check.report(file, path: path, set: set, baseline: baseline, config: config, rules: rules,
                                 current: current) {
                    failed.append(file)
                }
            }
            if !failed.isEmpty {
                FileHandleOutput.standardError("balance check failed: \(failed.joined(separator: ", "))")
                throw ExitCode(1)
            }
        }

        /// Prints the comparison of `current` with the baseline; false when a metric moved beyond tolerance.
        static func report(_ file: String, path: String, set: BalanceScenarioSet, baseline: BalanceBaseline,
                           config: BalanceRules, rules: String, current: [BalanceScenarioResult]) -> Bool {
            let check = BalanceCheck(alpha: set.alpha)
            let rows = check.compare(baseline: baseline.results, current: current)
            let hashNote = config.configHash == baseline.configHash ? "same as the baseline's" : "baseline's was \(String(baseline.configHash, radix: 16))"
            print("balance check \(file) against \(path)")
            print("rules: \(rules), config hash \(String(config.configHash, radix: 16)) (\(hashNote)); seed \(set.seed)")
            print("tolerance: two-sided z test per metric at alpha \(set.alpha) (|z| ≤ \(String(format: "%.2f", check.critical)))")
            print("")
            print("| scenario | metric | baseline | current | difference | z | verdict |\n|---|---|---:|---:|---:|---:|---|")
            for r in rows {
                let z = r.verdict == .identical ? "0" : (r.z.isFinite ? String(format: "%+.2f", r.z) : (r.z > 0 ? "+inf" : "-inf"))
                print("| \(r.scenario) | \(r.metric) | \(num(r.baseline)) | \(num(r.current)) | \(signed(r.difference)) | \(z) | \(r.verdict.rawValue) |")
            }
            let changed = rows.filter { $0.verdict == .changed }.count
            let identical = rows.filter { $0.verdict == .identical }.count
            print("")
            if changed == 0 {
                print("PASS \(file): \(rows.count) metrics, \(identical) identical to the baseline, none moved beyond tolerance")
            } else {
                print("FAIL \(file): \(changed) of \(rows.count) metrics moved beyond tolerance")
            }
            print("")
            return changed == 0
        }
    }
}

/// A metric value with 4 significant decimals.
private func num(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e12 ? String(Int(x)) : String(format: "%.4f", x)
}

private func signed(_ x: Double) -> String {
    x == 0 ? "0" : (x == x.rounded() && abs(x) < 1e12 ? String(format: "%+d", Int(x)) : String(format: "%+.4f", x))
}
