import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train eval`: an agent against an opponent over many episodes.
struct Eval: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Evaluate an agent against an opponent over many episodes, in parallel.",
        discussion: """
        Pong: the agent alternates sides by episode (even: bottom, odd: top) and plays \
        every game to its end or the step limit. Prints the games won and lost when \
        played to the end (whole-game win rate over all games, a truncated game \
        counting as not won), the truncated games by the score when they stopped, the \
        win rate counting a truncation by its lead, each with a 95% Wilson interval, the \
        share of points won, mean score and length, and the speed; writes config.json, \
        run.json, episodes.csv and summary.json to the results folder. \
        Breakout (--game breakout): the agent plays each episode alone; prints the mean \
        score with a 95% interval, walls cleared, lives lost, length and speed. \
        With --variants SET every episode plays the rules its seed draws from the set: \
        episodes.csv names each episode's variant and rule values (columns variant, rules) and matches.jsonl holds \
        one replayable record per episode with its rules (`gym-train render --replay`).
        """
    )

    @OptionGroup var game: GameOptions
    @OptionGroup var episodeOptions: EpisodeOptions
    @OptionGroup var workerOptions: WorkerOptions
    @OptionGroup var shardOptions: ShardOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var resumeOptions: ResumeOptions

    @OptionGroup var matchup: MatchupOptions
    @OptionGroup var variantOptions: VariantOptions

    func run() throws {
        try evaluate(game.game.game)
    }

    func evaluate<G: CommandGame>(_: G.Type) throws {
        let config = try game.loadConfig(G.Config.self)
        let roster = try matchup.roster(seats: G.seats)
        for spec in roster { try G.check(spec, config: config) }
        let extra: [(String, JSONValue)] = zip(["agent", "opponent"], roster).map { ($0, .string($1.text)) }
        let variantRules = try variantOptions.played(G.Config.self, base: config, command: "the eval's")
        let episodes = episodeOptions.episodes, seed = game.seed
        let shard = shardOptions.value
        let range = shard?.range(of: episodes) ?? 0 ..< episodes
        let folder = try resumeOptions.folder(output, command: "eval", game: G.Config.gameName, seed: seed)
        let journal = try RunJournal.open(folder, run: RunJournal.identity(
            subcommand: "eval", seed: seed, config: config, shard: shard,
            parameters: extra + [("episodes", .number(episodes)),
                                 ("programs", .array(roster.map { $0.programRecord ?? .null }))]
                + (variantRules?.identity ?? [])), options: resumeOptions)
        if shard == nil, !journal.hasRunInfo {
            try folder.writeRunInfo(command: "eval", seed: seed, config: config, extra: extra + [
                ("episodes", .number(episodes)), ("workers", .number(workerOptions.count)),
            ] + (variantRules?.runInfo ?? []))
        }
        let (have, missing) = try journal.split(range, what: "episode") { value -> G.Record? in
            guard case let .array(fields) = value else { return nil }
            return G.record(fields: fields)
        }
        journal.announce(recorded: have.count, of: range.count, unit: "episodes")
        let progress = Progress(total: range.count, done: have.count, label: "eval", unit: "episodes")
        let clock = ContinuousClock()
        let start = clock.now
        // Episode g's seed and seats depend on (seed, g) alone, so a shard or a resumed run plays exactly the unsharded run's games.
        let played = try Matches.play(G.self, config: config, roster: roster, count: missing.count,
                                   runner: workerOptions.runner, game: { k in
            let i = missing[k]
            return SeatedGame(seed: Seeds.episode(runSeed: seed, index: i),
                              seats: MatchupOptions.seating(episode: i, seats: G.seats))
        }, rules: variantRules?.rules.draw, finished: { k, record in
            journal.append(missing[k], .array(G.fields(record)))
            progress.tick()
        })
        let records = try RunJournal.merge(range, have: have, missing: missing, played: played)
        let seconds = (clock.now - start).seconds
        progress.finish()
        if let shard {
            try ShardFolder.write(folder, subcommand: "eval", shard: shard, games: episodes, seed: seed, config: config,
                                  parameters: extra + (variantRules?.shardParameters ?? []), records: records.map { .array(G.fields($0)) },
                                  seconds: seconds, workers: workerOptions.count)
            try journal.complete()
            print("eval \(G.name) shard \(shard): episodes \(range.lowerBound) ..< \(range.upperBound) of \(episodes), seed \(seed)")
            print("  results \(folder.path) (combine the shards with gym-train merge)")
            return
        }
        try folder.write(ShardFolder.timingJSON(seconds: seconds, workers: workerOptions.count), to: ShardFolder.timingFile)
        try G.reportEval(records, EvalRun(folder: folder, agent: roster[0], opponent: roster.count > 1 ? roster[1] : nil,
                                          seed: seed, workers: workerOptions.count, seconds: seconds,
                                          frameSkip: config.frameSkip), config: config, rules: variantRules?.rules)
        try journal.complete()
    }

    /// Writes the unsharded run's files from the shards of one `eval --shard` run.
    static func merge<G: CommandGame>(_: G.Type, _ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let head = shards[0]
        let config = try head.config(G.Config.self)
        let agent = try AgentSpec.parse(try head.stringParameter("agent"))
        let opponent = G.seats == 2 ? try AgentSpec.parse(try head.stringParameter("opponent")) : nil
        let variantRules = try PlayedVariants<G.Config>.ofShard(head, base: config, command: "the eval's")
        var records: [G.Record] = []
        for (g, value) in shards.records.enumerated() {
            guard case let .array(fields) = value, let r = G.record(fields: fields) else {
                throw CLIError("cannot merge: the record of episode \(g) is not a \(G.name) eval record")
            }
            records.append(r)
        }
        let workers = shards.map(\.workers).max() ?? 0, seconds = shards.reduce(0) { $0 + $1.wallSeconds }
        var extra: [(String, JSONValue)] = [("agent", .string(agent.text))]
        if let opponent { extra.append(("opponent", .string(opponent.text))) }
        try folder.writeRunInfo(command: "eval", seed: head.seed, config: config, extra: extra + [
            ("episodes", .number(head.games)),
        ] + (variantRules?.runInfo ?? []) + [("mergedFrom", .array(shards.map { .string($0.path) }))])
        try folder.write(shards.timingJSON, to: ShardFolder.timingFile)
        try G.reportEval(records, EvalRun(folder: folder, agent: agent, opponent: opponent, seed: head.seed,
                                          workers: workers, seconds: seconds, frameSkip: config.frameSkip),
                         config: config, rules: variantRules?.rules)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}

/// 12345678 → "12.3 M".
func formatRate(_ x: Double) -> String {
    switch x {
    case 1e9...: String(format: "%.2f G", x / 1e9)
    case 1e6...: String(format: "%.1f M", x / 1e6)
    case 1e3...: String(format: "%.1f k", x / 1e3)
    default: String(format: "%.1f", x)
    }
}
