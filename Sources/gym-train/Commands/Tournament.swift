import Agents
import ArgumentParser
import Foundation
import Gym

/// `gym-train tournament`: rank agents by playing them against each other.
struct Tournament: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rank agents in a round-robin or gauntlet, or run an SPRT of a candidate against a baseline.",
        discussion: """
        Pong: every pairing plays --pairs pairs of games; pair k is played on the same seed in \
        every pairing (seed = episode seed of (--seed, k)) and its two games swap sides, so \
        neither serve, side nor seed favours an agent. Ratings: Bradley-Terry fitted by MM \
        (Hunter 2004) on an Elo scale (mean 0), with percentile-bootstrap intervals that \
        resample whole pairs within each pairing (seeded: the same numbers every run). \
        Writes ratings.csv, matrix.csv, summary.json, matches.jsonl (one replayable line per \
        game: `gym-train render --replay FILE --index N`) and ratings.svg. Breakout: every agent \
        plays the same --episodes episodes (common seeds).

        SPRT (--mode sprt --candidate A --baseline B): H0 elo = --elo0, H1 elo = --elo1 \
        (candidate minus baseline) on pentanomial pair outcomes; plays pairs until the \
        log-likelihood ratio crosses log(beta/(1-alpha)) or log((1-beta)/alpha). \
        Exit status: 0 H1 accepted (at least as good), 1 H0 accepted (worse), \
        2 inconclusive at --max-pairs.
        """
    )

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case roundRobin = "round-robin", gauntlet, sprt
    }

    @OptionGroup var game: GameOptions

    @Option(help: "How agents meet: \(Mode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: Mode = .roundRobin

    @Option(name: .customLong("agent"), help: "An agent (repeat: --agent random --agent tracker ...). The field in a gauntlet.")
    var agents: [String] = []

    @Option(help: "The candidate (gauntlet, sprt).")
    var candidate: String?

    @Option(help: "The baseline the candidate must match (sprt).")
    var baseline: String?

    @Option(help: "Pong: game pairs (two side-swapped games on one seed) per pairing.")
    var pairs: Int = 50

    @OptionGroup var episodeOptions: EpisodeOptions

    @OptionGroup var variantOptions: VariantOptions

    @OptionGroup var ratingOptions: RatingOptions

    @OptionGroup var sprtOptions: SPRTOptions

    @OptionGroup var workerOptions: WorkerOptions
    @OptionGroup var shardOptions: ShardOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var resumeOptions: ResumeOptions

    func validate() throws {
        guard (1 ... 1_000_000).contains(pairs) else { throw ValidationError("--pairs \(pairs) is out of range; allowed: 1 ... 1000000") }
        if game.game.game.seats == 1, mode == .sprt {
            throw ValidationError("--mode sprt is for --game pong; breakout allows --mode round-robin or gauntlet (duplicate format)")
        }
        let (bootstrap, level) = (ratingOptions.bootstrap, ratingOptions.level)
        guard (1 ... 100_000).contains(bootstrap) else { throw ValidationError("--bootstrap \(bootstrap) is out of range; allowed: 1 ... 100000") }
        guard level > 0, level < 1 else { throw ValidationError("--level \(level) is out of range; allowed: between 0 and 1 (exclusive)") }
        if mode == .sprt, let s = shardOptions.shard {
            throw ValidationError("--shard \(s) is for --mode round-robin or gauntlet; an SPRT decides pair by pair and stays sequential")
        }
        switch mode {
        case .roundRobin:
            guard agents.count >= 2 else { throw ValidationError("round-robin needs at least two --agent options (got \(agents.count))") }
            guard candidate == nil, baseline == nil else { throw ValidationError("--candidate and --baseline are for --mode gauntlet or sprt; a round-robin takes only --agent") }
        case .gauntlet:
            guard candidate != nil else { throw ValidationError("--mode gauntlet needs --candidate SPEC") }
            guard !agents.isEmpty else { throw ValidationError("--mode gauntlet needs at least one --agent (the field)") }
            guard baseline == nil else { throw ValidationError("--baseline is for --mode sprt; a gauntlet takes --candidate and --agent") }
        case .sprt:
            guard candidate != nil, baseline != nil else { throw ValidationError("--mode sprt needs --candidate SPEC and --baseline SPEC") }
            guard agents.isEmpty else { throw ValidationError("--mode sprt takes --candidate and --baseline, not --agent") }
        }
    }

    var workerCount: Int { workerOptions.count }

    func run() throws {
        switch mode {
        case .roundRobin, .gauntlet: try rank(game.game.game)
        case .sprt: try sprt(config: try game.pongConfig())
        }
    }

    /// Parses the specs, checks that each can play `config`, and rejects
    /// two agents shown under one name.
    func parseAgents(_ texts: [String], config: PongConfig) throws -> [AgentSpec] {
        let specs = try uniqueSpecs(texts)
        for spec in specs { try Pong.check(spec, config: config) }
        return specs
    }

    func uniqueSpecs(_ texts: [String]) throws -> [AgentSpec] {
        let specs = try texts.map { (t: String) throws -> AgentSpec in try AgentSpec.parse(t, commandLine: true) }
        var seen: Set<String> = []
        for s in specs where !seen.insert(s.displayName).inserted {
            throw CLIError("two agents are named \"\(s.displayName)\"; give each a distinct display name with name=... (e.g. tracker:noise=2,name=T2)")
        }
        return specs
    }

    func rank<G: CommandGame>(_: G.Type) throws {
        let config = try game.loadConfig(G.Config.self)
        let format: TournamentSchedule.Format = mode == .gauntlet ? .gauntlet : .roundRobin
        let specs = try uniqueSpecs(mode == .gauntlet ? [candidate ?? ""] + agents : agents)
        for spec in specs { try G.check(spec, config: config) }
        let variantRules = try variantOptions.played(G.Config.self, base: config, command: "the tournament's")
        let rules = variantRules?.rules
        let sizes = G.tournamentSizes(agents: specs.count, format: format, options: self)
        let shard = shardOptions.value
        let range = shard?.range(of: sizes.games) ?? 0 ..< sizes.games
        let folder = try resumeOptions.folder(output, command: "tournament", game: G.name, seed: game.seed)
        let journal = try RunJournal.open(folder, run: RunJournal.identity(
            subcommand: "tournament", seed: game.seed, config: config, shard: shard,
            parameters: shardParameters(specs) + [("programs", .array(specs.map { $0.programRecord ?? .null }))]
                + (variantRules?.identity ?? [])),
            options: resumeOptions)
        if shard == nil, !journal.hasRunInfo {
            try folder.writeRunInfo(command: "tournament", seed: game.seed, config: config, extra: [
                ("mode", .string(sizes.mode)), ("agents", .array(specs.map { .string($0.text) })),
            ] + sizes.members + ratingOptions.parameters + [("workers", .number(workerCount))]
                + (variantRules?.runInfo ?? []))
        }
        let (have, missing) = try journal.split(range, what: "game") { value -> G.Record? in
            guard case let .array(fields) = value else { return nil }
            return G.record(fields: fields)
        }
        journal.announce(recorded: have.count, of: range.count, unit: "games")
        let progress = Progress(total: range.count, done: have.count, label: "tournament")
        let clock = ContinuousClock()
        let start = clock.now
        let played = try G.playTournamentGames(specs, config: config, format: format, options: self, games: missing,
                                           runner: workerOptions.runner, rules: rules, finished: { g, record in
            journal.append(g, .array(G.fields(record)))
            progress.tick()
        })
        let records = try RunJournal.merge(range, have: have, missing: missing, played: played)
        if let shard {
            let seconds = (clock.now - start).seconds
            progress.finish()
            try ShardFolder.write(folder, subcommand: "tournament", shard: shard, games: sizes.games, seed: game.seed,
                                  config: config, parameters: shardParameters(specs) + (variantRules?.shardParameters ?? []),
                                  records: records.map { .array(G.fields($0)) }, seconds: seconds, workers: workerCount)
            try journal.complete()
            print("tournament \(G.name) shard \(shard): games \(range.lowerBound) ..< \(range.upperBound) of \(sizes.games), seed \(game.seed)")
            print("results \(folder.path) (combine the shards with gym-train merge)")
            return
        }
        try finish(G.self, specs: specs, config: config, format: format, records: records, rules: rules, folder: folder,
                   progress: progress, seconds: { (clock.now - start).seconds })
        try folder.write(ShardFolder.timingJSON(seconds: (clock.now - start).seconds, workers: workerCount),
                         to: ShardFolder.timingFile)
        try journal.complete()
    }

    /// What a shard's run.json records of the options that decide the
    /// results: the arguments `merge` rebuilds the tournament from.
    func shardParameters(_ specs: [AgentSpec]) -> [(String, JSONValue)] {
        [("mode", .string(mode.rawValue)), ("agents", .array(specs.map { .string($0.text) })),
         ("pairs", .number(pairs)), ("episodes", .number(episodeOptions.episodes))] + ratingOptions.parameters
    }

    /// Writes the unsharded run's files from the shards of one `tournament --shard` run.
    static func merge<G: CommandGame>(_: G.Type, _ shards: [ShardFolder], into folder: ResultsFolder) throws {
        let head = shards[0]
        func text(_ key: String) throws -> String {
            let v = try head.parameter(key)
            if case let .string(s) = v { return s }
            if case let .number(_, t) = v { return t }
            throw CLIError("\(head.path)/run.json: parameter \"\(key)\" must be a string or a number")
        }
        guard case let .array(agentValues) = try head.parameter("agents") else {
            throw CLIError("\(head.path)/run.json: parameter \"agents\" must be an array")
        }
        let texts = agentValues.compactMap { if case let .string(s) = $0 { s } else { nil } }
        let mode = try text("mode")
        var arguments = ["--game", head.game, "--seed", String(head.seed), "--mode", mode, "--pairs", try text("pairs"),
                         "--episodes", try text("episodes"), "--bootstrap", try text("bootstrap"), "--level", try text("level")]
        for (k, t) in texts.enumerated() {
            arguments += [mode == Mode.gauntlet.rawValue && k == 0 ? "--candidate" : "--agent", t]
        }
        let options: Tournament
        do { options = try Tournament.parse(arguments) } catch {
            throw CLIError("cannot merge: \(head.path)/run.json does not describe a tournament (\(Tournament.message(for: error)))")
        }
        let config = try head.config(G.Config.self)
        let format: TournamentSchedule.Format = options.mode == .gauntlet ? .gauntlet : .roundRobin
        let specs = try options.uniqueSpecs(texts)
        var records: [G.Record] = []
        for (g, value) in shards.records.enumerated() {
            guard case let .array(fields) = value, let r = G.record(fields: fields) else {
                throw CLIError("cannot merge: the record of game \(g) is not a \(G.name) tournament record")
            }
            records.append(r)
        }
        let sizes = G.tournamentSizes(agents: specs.count, format: format, options: options)
        let variantRules = try PlayedVariants<G.Config>.ofShard(head, base: config, command: "the tournament's")
        try folder.writeRunInfo(command: "tournament", seed: head.seed, config: config, extra: [
            ("mode", .string(sizes.mode)), ("agents", .array(specs.map { .string($0.text) })),
        ] + sizes.members + options.ratingOptions.parameters + (variantRules?.runInfo ?? [])
            + [("mergedFrom", .array(shards.map { .string($0.path) }))])
        try folder.write(shards.timingJSON, to: ShardFolder.timingFile)
        let seconds = shards.reduce(0) { $0 + $1.wallSeconds }
        try options.finish(G.self, specs: specs, config: config, format: format, records: records, rules: variantRules?.rules,
                           folder: folder,
                           progress: Progress(total: 0, label: "merge"), seconds: { seconds })
    }

    /// Fits the ratings on all the games' records and writes and prints the tournament's files.
    func finish<G: CommandGame>(_: G.Type, specs: [AgentSpec], config: G.Config, format: TournamentSchedule.Format,
                                records: [G.Record], rules: EpisodeRules<G.Config>? = nil, folder: ResultsFolder,
                                progress: Progress, seconds wall: () -> Double) throws {
        let play = G.tournamentPlay(specs, config: config, format: format, options: self, records: records, rules: rules)
        progress.status("bootstrap (\(ratingOptions.bootstrap) resamples)")
        let ratings = ratingOptions.rater(runSeed: game.seed).rate(play.outcomes)
        let seconds = wall()
        progress.finish()
        let names = specs.map(\.displayName)
        let report = TournamentReport(names: names, specs: specs.map(\.text), outcomes: play.outcomes, ratings: ratings,
                                      level: ratingOptions.level)
        try folder.write(play.records, to: "matches.jsonl")
        try folder.write(report.ratingsCSV, to: "ratings.csv")
        try folder.write(report.matrixCSV, to: "matrix.csv")
        for (name, text) in play.files { try folder.write(text, to: name) }
        let summary = JSONValue.object(play.summary + { if case let .object(m) = report.json { m } else { [] } }())
        try folder.write(summary.serialized() + "\n", to: "summary.json")
        try folder.write(RatingChart.svg(title: play.chartTitle, names: names, ratings: ratings, level: ratingOptions.level),
                         to: "ratings.svg")
        print(play.header)
        print("")
        print(report.rankingMarkdown)
        print(report.matrixMarkdown)
        for line in play.notes { print(line) }
        print("\(formatRate(Double(play.steps) / max(seconds, 1e-9))) steps/s, \(String(format: "%.2f", seconds)) s on \(workerCount) workers")
        print("results \(folder.path)")
    }

    func sprt(config: PongConfig) throws {
        let specs = try parseAgents([candidate ?? "", baseline ?? ""], config: config)
        let test = sprtOptions.test, maxPairs = sprtOptions.maxPairs
        let variantRules = try variantOptions.played(PongConfig.self, base: config, command: "the SPRT's")
        let folder = try resumeOptions.folder(output, command: "sprt", game: "pong", seed: game.seed)
        let journal = try RunJournal.open(folder, run: RunJournal.identity(
            subcommand: "tournament", seed: game.seed, config: config, shard: nil,
            parameters: [("mode", .string("sprt")), ("candidate", .string(specs[0].text)), ("baseline", .string(specs[1].text))]
                + sprtOptions.parameters + [("maxPairs", .number(maxPairs)),
                                            ("programs", .array(specs.map { $0.programRecord ?? .null }))]
                + (variantRules?.identity ?? [])),
            options: resumeOptions)
        if !journal.hasRunInfo {
            try folder.writeRunInfo(command: "tournament", seed: game.seed, config: config, extra: [
                ("mode", .string("sprt")), ("candidate", .string(specs[0].text)), ("baseline", .string(specs[1].text)),
            ] + sprtOptions.parameters + [("maxPairs", .number(maxPairs)), ("workers", .number(workerCount))]
                + (variantRules?.runInfo ?? []))
        }
        let have = try journal.records(in: 0 ..< 2 * maxPairs, what: "game") { value -> PongMatchResult? in
            guard case let .array(fields) = value else { return nil }
            return Pong.record(fields: fields)
        }
        journal.announce(recorded: have.count, of: 2 * maxPairs, unit: "games (at most)")
        let progress = Progress(total: maxPairs, label: "sprt")
        let outcome = try PongSPRT.run(config: config, candidate: specs[0], baseline: specs[1], test: test,
                                   maxPairs: maxPairs, seed: game.seed, batch: max(8, 4 * workerCount),
                                   runner: ParallelRunner(workers: workerCount), recorded: have, rules: variantRules?.rules.draw,
                                   progress: { state in
                                       progress.status(String(format: "%d pairs, LLR %.2f in [%.2f, %.2f]",
                                                              state.pairs, state.llr, test.lowerBound, test.upperBound))
                                   }, finished: { g, result in journal.append(g, .array(Pong.fields(result))) })
        progress.finish()
        let state = outcome.state
        let decision = state.decision ?? .inconclusive
        var jsonl = ""
        let lines = PongMatchRecord.Lines(config: config)
        for g in outcome.games { jsonl += lines.line(g, agents: specs, rules: variantRules?.rules) + "\n" }
        try folder.write(jsonl, to: "matches.jsonl")
        let e = state.estimate
        let summary = JSONValue.object([
            ("game", .string("pong")), ("mode", .string("sprt")), ("seed", .number(game.seed)),
            ("candidate", .string(specs[0].text)), ("baseline", .string(specs[1].text)),
        ] + sprtOptions.parameters + [
            ("lowerBound", .number(test.lowerBound)), ("upperBound", .number(test.upperBound)),
            ("pairs", .number(state.pairs)), ("pentanomial", .array(state.counts.map { .number($0) })),
            ("llr", .number(state.llr)), ("decision", .string(decision.rawValue)),
            ("score", .number(e.score)), ("elo", .number(e.elo)), ("elo95", .array([.number(e.low), .number(e.high)])),
        ])
        try folder.write(summary.serialized() + "\n", to: "summary.json")
        try journal.complete()
        print("sprt pong: \(specs[0].displayName) (candidate) vs \(specs[1].displayName) (baseline), seed \(game.seed)")
        print("  H0: elo = \(f(test.elo0))   H1: elo = \(f(test.elo1))   alpha \(test.alpha)  beta \(test.beta)   bounds [\(String(format: "%.3f", test.lowerBound)), \(String(format: "%.3f", test.upperBound))]")
        print("  pairs \(state.pairs)  pentanomial [\(state.counts.map(String.init).joined(separator: ", "))]  LLR \(String(format: "%.3f", state.llr))")
        print(String(format: "  score %.3f per game, elo %+.1f  95%% CI [%+.1f, %+.1f]", e.score, e.elo, e.low, e.high))
        print("  " + Self.fastchessLine(counts: state.counts, elo: e.elo, low: e.low, high: e.high, llr: state.llr, test: test))
        switch decision {
        case .acceptH1: print("  result: H1 accepted — the candidate is at least as good as the baseline (exit 0)")
        case .acceptH0: print("  result: H0 accepted — the candidate is worse than the baseline (exit 1)")
        case .inconclusive: print("  result: inconclusive after --max-pairs \(maxPairs) pairs (exit 2)")
        }
        print("  results \(folder.path)")
        switch decision {
        case .acceptH1: return
        case .acceptH0: throw ExitCode(1)
        case .inconclusive: throw ExitCode(2)
        }
    }

    func f(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
}

extension Tournament {
    /// The hypotheses and error rates of `--mode sprt`, with their ranges.
    struct SPRTOptions: ParsableArguments {
        @Option(help: "SPRT: Elo advantage of the candidate under H0 (worse).")
        var elo0: Double = -20

        @Option(help: "SPRT: Elo advantage of the candidate under H1 (at least as good).")
        var elo1: Double = 0

        @Option(help: "SPRT: chance of accepting H1 when H0 holds.")
        var alpha: Double = 0.05

        @Option(help: "SPRT: chance of accepting H0 when H1 holds.")
        var beta: Double = 0.05

        @Option(help: "SPRT: pairs played at most before the test is declared inconclusive.")
        var maxPairs: Int = 20_000

        func validate() throws {
            guard (1 ... 10_000_000).contains(maxPairs) else { throw ValidationError("--max-pairs \(maxPairs) is out of range; allowed: 1 ... 10000000") }
            guard alpha > 0, alpha < 0.5 else { throw ValidationError("--alpha \(alpha) is out of range; allowed: between 0 and 0.5 (exclusive)") }
            guard beta > 0, beta < 0.5 else { throw ValidationError("--beta \(beta) is out of range; allowed: between 0 and 0.5 (exclusive)") }
            guard elo0.isFinite, elo1.isFinite, elo0 < elo1, abs(elo0) <= 1000, abs(elo1) <= 1000 else {
                throw ValidationError("--elo0 \(elo0) and --elo1 \(elo1) are invalid; allowed: -1000 ≤ elo0 < elo1 ≤ 1000")
            }
        }

        /// The test these options define.
        var test: SPRT { SPRT(elo0: elo0, elo1: elo1, alpha: alpha, beta: beta) }

        /// The hypotheses and error rates, as written to run.json and summary.json.
        var parameters: [(String, JSONValue)] {
            [("elo0", .number(elo0)), ("elo1", .number(elo1)), ("alpha", .number(alpha)), ("beta", .number(beta))]
        }
    }
}

extension Tournament {
    /// The rating intervals: bootstrap resamples and confidence level (their
    /// ranges are checked by ``Tournament/validate()``, in its order of checks).
    struct RatingOptions: ParsableArguments {
        @Option(help: "Bootstrap resamples for the rating intervals.")
        var bootstrap: Int = 1000

        @Option(help: "Confidence level of the rating intervals.")
        var level: Double = 0.95

        /// The bootstrap that rates the games of a run with master seed `runSeed`.
        func rater(runSeed: UInt64) -> RatingBootstrap {
            RatingBootstrap(resamples: bootstrap, level: level, seed: Seeds.stream(runSeed, SeedStream.ratingBootstrap))
        }

        /// How the ratings were fitted and their intervals found, the bootstrap resampling `units` (pairs, seeds).
        func method(resampling units: String) -> String {
            "Ratings: Bradley–Terry (MM), Elo scale, mean 0; \(Int((level * 100).rounded()))% percentile bootstrap over \(units) (\(bootstrap) resamples)."
        }

        /// The options as run.json (and a shard's parameters) record them.
        var parameters: [(String, JSONValue)] { [("bootstrap", .number(bootstrap)), ("level", .number(level))] }
    }
}

extension Tournament {
    /// The one report line chess engine testers read (fastchess, OpenBench):
    /// `Elo: E +/- M, nElo: N +/- M, LLR: L (lower, upper) [elo0, elo1], Penta: [...]`.
    /// Elo and its margin are this run's (the 95% interval's half width);
    /// nElo is the normalised Elo of the pentanomial pair scores (mean pair
    /// score per game minus 1/2, over the per-game standard deviation √2·σ_pair,
    /// times 800 / ln 10), its margin 1.96 × (800 / ln 10) / √(2 × pairs).
    static func fastchessLine(counts: [Int], elo: Double, low: Double, high: Double, llr: Double, test: SPRT) -> String {
        let pairs = counts.reduce(0, +)
        var nElo = "n/a", nMargin = 0.0
        if pairs > 0 {
            let n = Double(pairs)
            let mean = counts.enumerated().reduce(0.0) { $0 + Double($1.element) * Double($1.offset) / 4 } / n
            let variance = counts.enumerated().reduce(0.0) { $0 + Double($1.element) * pow(Double($1.offset) / 4 - mean, 2) } / n
            let scale = 800 / log(10.0)
            // With every pair scoring alike there is no spread: nElo is undefined.
            if variance > 0 { nElo = String(format: "%.2f", (mean - 0.5) / (2.0.squareRoot() * variance.squareRoot()) * scale) }
            nMargin = 1.96 * scale / (2 * n).squareRoot()
        }
        return String(format: "Elo: %.2f +/- %.2f, nElo: %@ +/- %.2f, LLR: %.2f (%.2f, %.2f) [%.2f, %.2f], Penta: [%@]",
                      elo, (high - low) / 2, nElo, nMargin, llr, test.lowerBound, test.upperBound, test.elo0, test.elo1,
                      counts.map(String.init).joined(separator: ", "))
    }
}
