import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train robustness`: agents across a variant set's rules, with paired bootstrap intervals.
struct Robustness: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score agents under every variant of a variant set (and one factor at a time), against the classic rules.",
        discussion: """
        Plays --episodes episodes per agent under the base rules (--config/--preset, default the \
        classic preset), under each variant of --variants (a set of the game's variant file: \
        near, far, or train, of which --draws variants are drawn) and under each value of the \
        file's one-factor sensitivity grid. Every condition plays the same episode seeds, so \
        intervals are paired bootstrap intervals (--bootstrap resamples, 95% percentile). \
        Pong: the agent against a fixed reference opponent (--opponent, default tracker), sides \
        alternating by episode; scores: share of points won (pointShare, the headline) and \
        whole-game wins (winRate). Breakout: the agent alone; scores: mean score (the headline), \
        bricks broken per life used (bricksPerLife) and the share of episodes that clear a level \
        (clearRate). Per agent: retention (mean headline score over the variants / under the base \
        rules) and the worst variant. Writes robustness.csv, robustness.json, \
        robustness-heatmap.svg (agents × variants) and robustness-sensitivity.svg (one curve per \
        rule parameter, the base value marked). --shard K/N plays conditions (agent × rules) \
        C·(K−1)/N ..< C·K/N; `gym-train merge` writes the whole run's files.
        """
    )

    @OptionGroup var game: GameOptions

    @Option(name: .customLong("agent"), help: "An agent to score (an agent spec; repeat for several agents).")
    var agents: [String] = []

    @Option(help: "Pong: the fixed reference opponent (an agent spec; default tracker).")
    var opponent: String?

    @Option(help: "The variant set to play (a set of the variant file: train, near, far).")
    var variants: String = "near"

    @Option(name: .customLong("variants-file"), help: "A variant file (default: the game's shipped Configs/variants/<game>.json).")
    var variantsFile: String?

    @Option(help: "Variants drawn from a ranges set (train), 1 ... 1000.")
    var draws: Int = 8

    @Option(help: "Bootstrap resamples for the intervals, 1 ... 100000.")
    var bootstrap: Int = 1000

    @OptionGroup var episodeOptions: EpisodeOptions
    @OptionGroup var workerOptions: WorkerOptions
    @OptionGroup var shardOptions: ShardOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if agents.isEmpty { throw ValidationError("--agent is missing; give at least one agent spec (e.g. --agent tracker)") }
        guard (1 ... 1000).contains(draws) else { throw ValidationError("--draws \(draws) is out of range; allowed: 1 ... 1000") }
        guard (1 ... 100_000).contains(bootstrap) else {
            throw ValidationError("--bootstrap \(bootstrap) is out of range; allowed: 1 ... 100000")
        }
    }

    func run() throws {
        switch game.game {
        case .pong: try play(Pong.self)
        case .breakout:
            if opponent != nil { throw CLIError("--opponent is for Pong; Breakout's agent plays alone") }
            try play(Breakout.self)
        }
    }

    /// The settings that decide the results, as run.json's parameters record them.
    struct Settings {
        var agents: [String]
        var opponent: String?
        var set: String
        var fileSource: String
        var fileText: String
        var draws: Int
        var episodes: Int
        var bootstrap: Int

        var parameters: [(String, JSONValue)] {
            [("agents", .array(agents.map { .string($0) })), ("opponent", opponent.map { .string($0) } ?? .null),
             ("variants", .string(set)), ("variantsFile", .string(fileSource)), ("variantsText", .string(fileText)),
             ("draws", .number(draws)), ("episodes", .number(episodes)), ("bootstrap", .number(bootstrap))]
        }

        /// run.json's members (the parameters without the variant file's text, which robustness.json names).
        var runInfo: [(String, JSONValue)] { parameters.filter { $0.0 != "variantsText" } }

        static func read(_ shard: ShardFolder) throws -> Settings {
            guard case let .array(list) = try shard.parameter("agents") else {
                throw CLIError("\(shard.path)/run.json: parameter \"agents\" must be a list")
            }
            let agents = list.compactMap { v -> String? in if case let .string(s) = v { s } else { nil } }
            var opponent: String?
            if case let .string(s) = try shard.parameter("opponent") { opponent = s }
            return Settings(agents: agents, opponent: opponent, set: try shard.stringParameter("variants"),
                            fileSource: try shard.stringParameter("variantsFile"),
                            fileText: try shard.stringParameter("variantsText"), draws: try shard.intParameter("draws"),
                            episodes: try shard.intParameter("episodes"), bootstrap: try shard.intParameter("bootstrap"))
        }
    }

    func play<G: RobustnessGame>(_: G.Type) throws {
        let base = try game.loadConfig(G.Config.self)
        let file = try VariantText(game: G.Config.gameName, path: variantsFile, option: "--variants-file")
        let settings = Settings(agents: agents, opponent: G.seats == 2 ? (opponent ?? "tracker") : nil, set: variants,
                                fileSource: file.source, fileText: file.text, draws: draws,
                                episodes: episodeOptions.episodes, bootstrap: bootstrap)
        let plan = try RobustnessPlan<G>(settings, base: base, seed: game.seed)
        let shard = shardOptions.value
        let range = shard?.range(of: plan.cells) ?? 0 ..< plan.cells
        let folder = try ResultsFolder.create(output, command: "robustness", game: G.Config.gameName, seed: game.seed)
        let progress = Progress(total: range.count * settings.episodes, label: "robustness", unit: "episodes")
        let clock = ContinuousClock()
        let start = clock.now
        let records = try range.map { c throws(AgentFault) in try plan.play(cell: c, runner: workerOptions.runner, progress: { progress.tick() }) }
        let seconds = (clock.now - start).seconds
        progress.finish()
        if let shard {
            return try ShardFolder.finish(folder, subcommand: "robustness", label: "robustness \(G.name)",
                                          units: "conditions", shard: shard, games: plan.cells, seed: game.seed,
                                          config: base, parameters: settings.parameters, records: records,
                                          seconds: seconds, workers: workerOptions.count)
        }
        try folder.writeRunInfo(command: "robustness", seed: game.seed, config: base,
                                extra: settings.runInfo + [("workers", .number(workerOptions.count))])
        try folder.write(ShardFolder.timingJSON(seconds: seconds, workers: workerOptions.count), to: ShardFolder.timingFile)
        try plan.report(records, folder: folder)
    }

    /// Writes the whole run's files from the shards of one `robustness --shard` run.
    static func merge(_ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let head = shards[0]
        switch GameKind(rawValue: head.game) {
        case .pong: try merge(Pong.self, shards, into: folder)
        case .breakout: try merge(Breakout.self, shards, into: folder)
        case nil: throw CLIError("cannot merge: \(head.path) names game \"\(head.game)\"")
        }
    }

    static func merge<G: RobustnessGame>(_: G.Type, _ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let head = shards[0]
        let plan = try RobustnessPlan<G>(try Settings.read(head), base: try head.config(G.Config.self), seed: head.seed)
        guard head.games == plan.cells else {
            throw CLIError("cannot merge: \(head.path) holds \(head.games) conditions; its settings give \(plan.cells)")
        }
        try folder.writeRunInfo(command: "robustness", seed: head.seed, config: plan.base,
                                extra: plan.settings.runInfo + [("mergedFrom", .array(shards.map { .string($0.path) }))])
        try folder.write(shards.timingJSON, to: ShardFolder.timingFile)
        try plan.report(shards.records, folder: folder)
    }
}

/// What `robustness` needs of a game: the per-episode integers it keeps
/// and the scores it computes from them. One conformance per game
/// (Games/PongRobustness.swift, Games/BreakoutRobustness.swift).
protocol RobustnessGame: CommandGame where Config: VariantConfig {
    /// The per-episode columns (integers), named.
    static var robustnessColumns: [String] { get }
    /// The scores, the headline first (retention, worst variant, heatmap and curves use it).
    static var robustnessScores: [(name: String, ratio: PairedBootstrap.Ratio)] { get }
    /// The columns of an episode's record for the agent in seat `seat`.
    static func robustnessRow(_ record: Record, seat: Int) -> [Int]
}
