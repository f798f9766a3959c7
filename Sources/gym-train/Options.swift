import ArgumentParser
import Foundation
import Agents
import Gym

/// The games the gym offers.
enum GameKind: String, ExpressibleByArgument, CaseIterable, Sendable {
    case pong
    case breakout
}

/// Options every subcommand takes: which game, which rules, which seed.
struct GameOptions: ParsableArguments {
    @Option(help: "The game: \(GameKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var game: GameKind = .pong

    @OptionGroup var rules: RulesOptions

    @Option(help: "The run's master seed; every episode seed derives from it.")
    var seed: UInt64 = 1

    /// The effective Pong config.
    func pongConfig() throws -> PongConfig {
        try loadConfig(PongConfig.self)
    }

    /// The effective config of `C`: the config file, else the preset, else the first preset.
    func loadConfig<C: GameConfig>(_ type: C.Type) throws -> C {
        if let path = rules.configFile { return try RulesOptions.decode(C.self, path: path) }
        return try C.preset(rules.preset ?? C.presets[0].name)
    }
}

/// `--config` and `--preset`, the rules of a game: one or the other, never both.
struct RulesOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "A game config file (JSON); keys not given take the preset's values.")
    var configFile: String?

    @Option(help: "A named preset (pong: \(PongConfig.presetNames.joined(separator: ", ")); breakout: \(BreakoutConfig.presetNames.joined(separator: ", "))).")
    var preset: String?

    /// Whether either option is given.
    var isGiven: Bool { configFile != nil || preset != nil }

    func validate() throws {
        if configFile != nil, preset != nil {
            throw ValidationError("give either --config or --preset, not both (a config file may name its base with \"preset\")")
        }
    }

    /// The config file at `path`, its errors named by the path.
    static func decode<C: GameConfig>(_: C.Type, path: String) throws -> C {
        try C.decode(try readText(path, what: "config file"), source: path)
    }
}

/// `--agent` and `--opponent` of the subcommands that play one agent's
/// episodes (`eval`, `render`), and the seats the two take in each episode.
struct MatchupOptions: ParsableArguments {
    @Option(help: "The agent (an agent spec: tracker, random, tracker:reaction=3,noise=0.2, linear:PATH, ...; Pong: bottom on even episode indices, top on odd).")
    var agent: String = "tracker"

    @Option(help: "The opponent (Pong only).")
    var opponent: String = "random"

    /// The agent's spec, then the opponent's where the game has a second seat.
    func roster(seats: Int) throws -> [AgentSpec] {
        let agentSpec = try AgentSpec.parse(agent, commandLine: true)
        return seats == 1 ? [agentSpec] : [agentSpec, try AgentSpec.parse(opponent, commandLine: true)]
    }

    /// The roster index seated at each seat in episode `index`: the agent
    /// (0) takes seat 0 (Pong: bottom) on even episodes, seat 1 on odd ones.
    static func seating(episode index: Int, seats: Int) -> [Int] {
        seats == 1 ? [0] : (index % 2 == 0 ? [0, 1] : [1, 0])
    }
}

/// `--workers`, the one rule every subcommand that spreads work shares.
struct WorkerOptions: ParsableArguments {
    /// Allowed `--workers` values (0: the machine's cores).
    static let range = 0 ... 256

    @Option(help: "Parallel workers (0 or not given: the machine's cores; never changes results).")
    var workers: Int?

    func validate() throws {
        if let w = workers, !Self.range.contains(w) {
            throw ValidationError("--workers \(w) is out of range; allowed: \(Self.range.lowerBound) ... \(Self.range.upperBound) (0: the machine's cores)")
        }
    }

    /// The workers to run on: `--workers`, or the machine's cores when 0 or not given.
    var count: Int { Self.resolve(workers ?? 0) }

    /// `n` workers, or the machine's cores for 0.
    static func resolve(_ n: Int) -> Int { n == 0 ? ParallelRunner.defaultWorkers : n }

    var runner: ParallelRunner { ParallelRunner(workers: count) }
}

/// `--out` and `--overwrite`, the results folder of every subcommand that
/// writes one (the folder rules: ``ResultsFolder``).
struct OutputOptions: ParsableArguments {
    @Option(help: "Results folder: a new or empty folder (default: Results/<command>-<game>-<time>-s<seed>).")
    var out: String?

    @Flag(help: "Replace the results in the --out folder, which an earlier gym-train run wrote (its files are removed first).")
    var overwrite = false

    static let emptyOutMessage = "--out '' is empty; allowed: a folder path (a new or empty folder, or an earlier run's with --overwrite)"

    func validate() throws {
        if out?.isEmpty == true { throw ValidationError(Self.emptyOutMessage) }
        if overwrite, out == nil { throw ValidationError("--overwrite needs --out DIR (the results folder to replace)") }
    }
}

/// `--episodes` of the subcommands that play a number of episodes.
struct EpisodeOptions: ParsableArguments {
    @Option(help: "Number of episodes.")
    var episodes: Int = 100

    func validate() throws {
        guard (1 ... 10_000_000).contains(episodes) else {
            throw ValidationError("--episodes \(episodes) is out of range; allowed: 1 ... 10000000")
        }
    }
}

/// A runtime failure the user can act on, printed as one line.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func readText(_ path: String, what: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError("cannot read \(what) \(path): no such file or not readable")
    }
    guard let text = String(data: data, encoding: .utf8) else {
        throw CLIError("\(what) \(path) is not UTF-8 text")
    }
    return text
}
