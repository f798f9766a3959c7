import Gym

/// Breakout as Agents plays it: one seat, records of whole episodes.
public enum Breakout: PlayableGame {
    public typealias Config = BreakoutConfig
    public typealias Vector = BreakoutBatch
    public typealias Record = BreakoutEpisode
    public typealias Tally = BreakoutEpisode

    public static var seats: Int { 1 }

    public static var noEvents: BreakoutEvents { BreakoutEvents() }

    public static func policyTarget(_ config: BreakoutConfig) -> PolicyTarget { .breakout(config) }

    /// A saved policy must be a Breakout policy of this layout and shape; a
    /// constant action must be one of Breakout's.
    public static func check(_ spec: AgentSpec, config: BreakoutConfig) throws(AgentSpecError) {
        try spec.checkPolicy(policyTarget(config))
        if case let .constant(action) = spec.kind, action >= BreakoutAction.count {
            throw .unusable(spec: spec.text, reason: "Breakout actions are 0 ... \(BreakoutAction.count - 1)")
        }
    }

    public static func makeTracker(config: BreakoutConfig, skill: TrackerSkill) -> BreakoutTracker {
        BreakoutTracker(config: config, skill: skill)
    }

    /// In a vector, the tracker reads the batch's state (``BreakoutStateTracker``:
    /// no observation row is written for it); without one, the rows.
    public static func makeBatchTracker(skill: TrackerSkill, context: AgentContext<Self>) -> any BatchAgent {
        let rules = makeTracker(config: context.config, skill: skill)
        guard let batch = context.vector else {
            return TrackerBatch(rules, games: context.games, observationCount: context.target.inputs)
        }
        return BreakoutStateTracker(rules, batch: batch, seating: context.seating,
                                    observationCount: context.target.inputs)
    }

    /// Trackers seated in every game of the context's vector play as
    /// groups (``BreakoutTrackerGroup``, one per aim's switches); elsewhere
    /// each is made alone.
    public static func makeBatchTrackers(skills: [TrackerSkill], context: AgentContext<Self>) -> [any BatchAgent] {
        guard !skills.isEmpty, let members = BreakoutGroupedTracker.make(skills, context: context) else {
            return skills.map { makeBatchTracker(skill: $0, context: context) }
        }
        return members
    }

    public static func beginRecord(_ vector: BreakoutBatch, _ i: Int, seed: UInt64) -> BreakoutEpisode {
        BreakoutEpisode(index: 0, seed: seed, score: 0, steps: 0, end: .none, levelsCleared: 0, livesLost: 0,
                        events: BreakoutEvents())
    }

    @inline(__always)
    public static func book(_ tally: inout BreakoutEpisode, _ events: BreakoutEvents) {
        tally.events.accumulate(events)
    }

    /// Every count zero: the books total them all.
    @inline(__always)
    public static func booksNothing(_ events: BreakoutEvents) -> Bool {
        withUnsafePointer(to: events) { booksNothing($0, count: 1) }
    }

    /// ``booksNothing(_:)`` of each, read as words: every field of
    /// ``BreakoutEvents`` is an `Int32` count and it holds nothing else (no
    /// padding; BreakoutEventsWordsTests checks the layout), so its words
    /// OR'd together are 0 exactly when every count is.
    @inline(__always)
    public static func booksNothing(_ events: UnsafePointer<BreakoutEvents>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(events), words = count &* (MemoryLayout<BreakoutEvents>.stride / 4)
        var any: Int32 = 0
        for k in 0 ..< words { any |= raw.load(fromByteOffset: k &* 4, as: Int32.self) }
        return any == 0
    }

    public static func endRecord(_ tally: BreakoutEpisode, _ vector: BreakoutBatch, _ i: Int) -> BreakoutEpisode {
        tally.completed(by: vector.state(i).core)
    }

    public static func playAlone(config: BreakoutConfig, seed: UInt64, agents: inout [any Agent]) -> BreakoutEpisode {
        var agent = agents[0]
        let record = BreakoutRun.play(config: config, seed: seed, index: 0, agent: &agent)
        agents[0] = agent
        return record
    }
}

// MARK: - Agents

extension PolicyTarget {
    /// Breakout's observation (its length depends on `maxBalls` and the
    /// wall's size); 4 actions.
    public static func breakout(_ config: BreakoutConfig) -> PolicyTarget {
        PolicyTarget(game: BreakoutConfig.gameName, layoutVersion: BreakoutGame.observationLayoutVersion,
                     inputs: BreakoutPhysics.observationCount(for: config), outputs: BreakoutAction.count)
    }
}

// MARK: - Episodes and evaluation

/// The record of one Breakout episode.
public struct BreakoutEpisode: Equatable, Sendable {
    public var index: Int
    public var seed: UInt64
    public var score: Int
    /// Agent steps played.
    public var steps: Int
    public var end: EpisodeEnd
    public var levelsCleared: Int
    public var livesLost: Int
    /// Every event of the episode, totalled.
    public var events: BreakoutEvents
}

/// Plays whole Breakout episodes.
public enum BreakoutRun {
    /// Plays one episode from `seed` to its end. The agent is reset with
    /// `Seeds.agent(seed, seat: 0)` (as `gym-train render` does, so any episode
    /// can be watched again).
    public static func play<A: Agent>(config: BreakoutConfig, seed: UInt64, index: Int = 0, agent: inout A) -> BreakoutEpisode {
        var game = BreakoutGame(config: config, seed: seed)
        agent.reset(seed: Seeds.agent(seed, seat: 0))
        var total = BreakoutEvents()
        var events = BreakoutEvents()
        withUnsafeTemporaryAllocation(of: Float.self, capacity: game.observationCount) { buffer in
            while true {
                game.observe(into: buffer)
                let action = agent.act(UnsafeBufferPointer(buffer))
                let step = game.step(action, events: &events)
                total.accumulate(events)
                if step.isDone { break }
            }
        }
        return BreakoutEpisode(index: index, seed: seed, score: 0, steps: 0, end: .none, levelsCleared: 0,
                               livesLost: 0, events: total).completed(by: game.state.core)
    }
}

extension BreakoutEpisode {
    /// This record with the result of the episode that ended in `core`
    /// (its events already totalled).
    func completed(by core: BreakoutCore) -> BreakoutEpisode {
        var r = self
        r.score = Int(core.score); r.steps = Int(core.steps); r.end = core.end
        r.levelsCleared = Int(core.levelsCleared); r.livesLost = Int(events.livesLost)
        return r
    }
}

/// Summary of a Breakout evaluation.
public struct BreakoutEvalSummary: Equatable, Sendable {
    public var episodes: Int
    /// Mean score with its 95% interval (normal approximation, 1.96 standard errors).
    public var meanScore: Double, scoreLow: Double, scoreHigh: Double
    /// Episodes that cleared at least one wall, their share and its 95% Wilson interval.
    public var clearedAWall: Int
    public var clearRate: Double, clearRateLow: Double, clearRateHigh: Double
    /// Episodes that cleared every configured wall (ended `levels-cleared`).
    public var clearedAll: Int
    public var meanLevelsCleared: Double
    public var meanLivesLost: Double
    public var meanLength: Double
    public var totalSteps: Int
    /// Ends by reason.
    public var livesExhausted: Int, stepLimit: Int, watchdog: Int
    public var bricksBroken: Int, pushes: Int, paddleHits: Int

    public init(_ results: [BreakoutEpisode]) {
        episodes = results.count
        let scores = results.map { Double($0.score) }
        meanScore = Statistics.mean(scores)
        let half = episodes > 1 ? 1.96 * Statistics.standardDeviation(scores) / Double(episodes).squareRoot() : 0
        scoreLow = meanScore - half
        scoreHigh = meanScore + half
        clearedAWall = results.count { $0.levelsCleared > 0 }
        clearRate = episodes > 0 ? Double(clearedAWall) / Double(episodes) : 0
        let w = Statistics.wilson(successes: Double(clearedAWall), trials: Double(episodes))
        clearRateLow = w.low; clearRateHigh = w.high
        clearedAll = results.count { $0.end == .levelsCleared }
        meanLevelsCleared = Statistics.mean(results.map { Double($0.levelsCleared) })
        meanLivesLost = Statistics.mean(results.map { Double($0.livesLost) })
        meanLength = Statistics.mean(results.map { Double($0.steps) })
        totalSteps = results.reduce(0) { $0 + $1.steps }
        livesExhausted = results.count { $0.end == .livesExhausted }
        stepLimit = results.count { $0.end == .stepLimit }
        watchdog = results.count { $0.end == .watchdog }
        bricksBroken = results.reduce(0) { $0 + Int($1.events.bricksBroken) }
        pushes = results.reduce(0) { $0 + Int($1.events.pushes) }
        paddleHits = results.reduce(0) { $0 + Int($1.events.paddleHits) }
    }
}

/// Evaluates an agent over many Breakout episodes in parallel.
public enum BreakoutEvaluation {
    /// Plays `episodes` episodes; episode `i` uses seed `Seeds.episode(runSeed, i)`.
    /// Played by ``Matches``; the result is the same for any path and number
    /// of workers or slots.
    public static func run(config: BreakoutConfig, agent: AgentSpec, episodes: Int, runSeed: UInt64,
                           runner: ParallelRunner, path: RolloutPath = .automatic, slots: Int = Matches.defaultSlots,
                           progress: (@Sendable () -> Void)? = nil) throws(AgentFault) -> [BreakoutEpisode] {
        try Matches.play(Breakout.self, config: config, roster: [agent], count: episodes, slots: slots, path: path,
                     runner: runner, game: { index in
            SeatedGame(seed: Seeds.episode(runSeed: runSeed, index: index), seats: [0])
        }, progress: progress).enumerated().map { index, episode in
            var e = episode
            e.index = index
            return e
        }
    }
}

// MARK: - Training

/// Training Breakout: the return is the game's reward sum (its score) within
/// ``episodeSteps``; every episode starts from its seed alone (the index
/// does not matter). ES and REINFORCE episodes and evaluations are played
/// one by one on ``BreakoutGame``s or batched on ``BreakoutBatch``es through
/// the slot engine, with the same results; the automatic path batches them.
/// Under a variant set (``rules``) each episode plays the rules its seed
/// draws, on the slot engine only.
public struct BreakoutTask: GameTrainingTask {
    public typealias Game = Breakout

    public let config: BreakoutConfig
    public let episodeSteps: Int
    public let rules: TrainingRules<BreakoutConfig>?

    public init(config: BreakoutConfig, episodeSteps: Int, rules: TrainingRules<BreakoutConfig>? = nil) {
        precondition(episodeSteps >= 1, "episodeSteps must be at least 1")
        self.config = config
        self.episodeSteps = episodeSteps
        self.rules = rules
    }

    public var target: PolicyTarget { PolicyTarget.breakout(config).reading(features: rules?.featureCount ?? 0) }

    public func makeEnvironment(centre: LinearPolicy) -> BreakoutGame {
        precondition(rules == nil, "a task under a variant set plays on the slot engine only")
        return BreakoutGame(config: config)
    }

    public func seating(_ k: Int) -> (learner: Int, opponent: Int) { (0, 0) }

    public func makeOpponents(centre: LinearPolicy, context: AgentContext<Breakout>) -> [any BatchAgent] { [] }

    public func reset(_ env: inout BreakoutGame, seed: UInt64, index: Int) { env.reset(seed: seed) }
}

// MARK: - Duplicate format

/// Breakout's duplicate format: every agent plays the same episodes (seed
/// `k` = `Seeds.episode(runSeed: seed, index: k)`), and two agents are
/// compared seed by seed by score (higher wins, equal draws) — as duplicate
/// bridge compares tables that played the same deals, so the luck of the
/// seed cancels out.
public enum BreakoutDuplicate {
    /// Results by agent, then seed index (episodes played by ``Matches``,
    /// each as ``BreakoutRun/play(config:seed:index:agent:)`` plays it); the
    /// same for any path and number of workers. Specs must have passed
    /// ``Breakout/check(_:config:)``.
    public static func run(config: BreakoutConfig, agents: [AgentSpec], episodes: Int, seed: UInt64,
                           runner: ParallelRunner, path: RolloutPath = .automatic,
                           progress: (@Sendable () -> Void)? = nil) throws(AgentFault) -> [[BreakoutEpisode]] {
        let flat = try play(config: config, agents: agents, episodes: episodes, seed: seed,
                        games: 0 ..< agents.count * episodes, runner: runner, path: path, progress: progress)
        return (0 ..< agents.count).map { a in Array(flat[a * episodes ..< (a + 1) * episodes]) }
    }

    /// The games `games` of the tournament, in game order: game `g` is agent
    /// `g / episodes` on common seed `g % episodes` (its `index`), a function
    /// of (seed, g) alone, so any slice (a shard) plays what the whole run plays.
    public static func play(config: BreakoutConfig, agents: [AgentSpec], episodes: Int, seed: UInt64,
                            games: Range<Int>, runner: ParallelRunner, path: RolloutPath = .automatic,
                            progress: (@Sendable () -> Void)? = nil,
                            rules: (@Sendable (UInt64) -> BreakoutConfig?)? = nil) throws(AgentFault) -> [BreakoutEpisode] {
        try play(config: config, agents: agents, episodes: episodes, seed: seed, games: Array(games), runner: runner,
                 path: path, progress: progress, rules: rules)
    }

    /// The games listed in `games` (global indices, any subset: a shard, or
    /// what a resumed run has not recorded yet), in the list's order;
    /// `finished` gets each game's global index and episode as soon as it
    /// ends, from worker threads; `rules` gives the rules of the episode
    /// seeded `s` (nil, or a nil result: `config`).
    public static func play(config: BreakoutConfig, agents: [AgentSpec], episodes: Int, seed: UInt64,
                            games: [Int], runner: ParallelRunner, path: RolloutPath = .automatic,
                            progress: (@Sendable () -> Void)? = nil,
                            rules: (@Sendable (UInt64) -> BreakoutConfig?)? = nil,
                            finished: (@Sendable (Int, BreakoutEpisode) -> Void)? = nil) throws(AgentFault)
        -> [BreakoutEpisode] {
        @Sendable func numbered(_ offset: Int, _ episode: BreakoutEpisode) -> BreakoutEpisode {
            var e = episode
            e.index = games[offset] % episodes
            return e
        }
        var sink: (@Sendable (Int, BreakoutEpisode) -> Void)?
        if let finished { sink = { offset, e in finished(games[offset], numbered(offset, e)) } }
        let seat: @Sendable (Int) -> SeatedGame = { offset in
            let job = games[offset]
            return SeatedGame(seed: Seeds.episode(runSeed: seed, index: job % episodes), seats: [job / episodes])
        }
        let flat = try Matches.play(Breakout.self, config: config, roster: agents, count: games.count,
                                path: path, runner: runner, game: seat, progress: progress, rules: rules, finished: sink)
        return flat.enumerated().map { numbered($0, $1) }
    }

    /// Every pair of agents compared on each common seed (one game per unit).
    public static func outcomes(_ results: [[BreakoutEpisode]]) -> PairwiseOutcomes {
        var outcomes = PairwiseOutcomes(agentCount: results.count, gamesPerUnit: 1)
        for i in 0 ..< results.count {
            for j in i + 1 ..< results.count {
                var units: [Double] = [], w = 0, d = 0, l = 0
                for (x, y) in zip(results[i], results[j]) {
                    if x.score > y.score { units.append(1); w += 1 } else if x.score == y.score { units.append(0.5); d += 1 } else { units.append(0); l += 1 }
                }
                outcomes.add(a: i, b: j, unitScores: units, wins: w, draws: d, losses: l)
            }
        }
        return outcomes
    }
}

// MARK: - Episode records

/// One Breakout episode of a duplicate tournament as a self-contained JSON
/// line: the effective config, the seed and the agent's spec are enough to
/// replay it exactly (the agent is seeded from the episode seed, stream 10).
///
/// Keys: `game` ("breakout"), `agent` (spec), `episode` (seed index), `seed`,
/// `score`, `steps`, `end`, `bricksBroken`, `ballsLost`, `livesLost`,
/// `levelsCleared`, `pushes`, `configHash` (hex), `config` (under `rules`:
/// the base the rules apply to); after `agent`, only for an external agent,
/// `program`: its name, agent file and the file's SHA-256
/// (``AgentSpec/programRecord``); last, only for an episode played under a
/// variant set, `rules` (``RecordedRules``).
public struct BreakoutEpisodeRecord: Equatable, Sendable {
    public var agent: String
    public var episode: Int
    public var config: BreakoutConfig
    public var result: BreakoutEpisode
    /// What the record keeps of an external agent; nil for a built-in one.
    public var program: JSONValue?
    /// The episode's rules under a variant set (nil: it played `config`).
    public var rules: RecordedRules?
    /// The rules the episode played: `config`, or `config` with `rules`.
    public var played: BreakoutConfig

    /// - Parameter played: the rules the episode played under `rules` (`config` without them).
    public init(agent: String, episode: Int, config: BreakoutConfig, result: BreakoutEpisode, program: JSONValue? = nil,
                rules: RecordedRules? = nil, played: BreakoutConfig? = nil) {
        self.agent = agent; self.episode = episode; self.config = config; self.result = result; self.program = program
        self.rules = rules; self.played = played ?? config
    }

    public var line: String {
        let e = result.events
        return JSONValue.object([
            ("game", .string("breakout")), ("agent", .string(agent)),
        ] + (program.map { [("program", $0)] } ?? []) + [
            ("episode", .number(episode)), ("seed", .number(result.seed)), ("score", .number(result.score)), ("steps", .number(result.steps)),
            ("end", .string(result.end.description)), ("bricksBroken", .number(Int(e.bricksBroken))),
            ("ballsLost", .number(Int(e.ballsLost))), ("livesLost", .number(Int(e.livesLost))),
            ("levelsCleared", .number(Int(e.levelsCleared))), ("pushes", .number(Int(e.pushes))),
            ("configHash", .string(String(config.configHash, radix: 16))), ("config", config.json),
        ] + (rules.map { [("rules", $0.json)] } ?? [])).serialized(pretty: false)
    }

    /// Decodes a record line (`source` names it in errors).
    public static func decode(_ line: String, source: String) throws(ReplayError) -> BreakoutEpisodeRecord {
        let record = try RecordLine(line, source: source)
        guard record["game"] == .string("breakout") else {
            throw .unsupported(source: source, message: "not a breakout record (\"game\" must be \"breakout\")")
        }
        let agent = try record.string("agent", expected: "an agent spec")
        let seed = try record.seed()
        let config = try record.config(BreakoutConfig.self)
        let rules = try record.rules()
        let played = try rules?.config(on: config, seed: seed, source: source) ?? config
        let end = try record.end(try? record.string("end"))
        var events = BreakoutEvents()
        events.ballsLost = Int32(clamping: (try? record.int("ballsLost")) ?? 0)
        events.livesLost = Int32(clamping: (try? record.int("livesLost")) ?? 0)
        events.levelsCleared = Int32(clamping: (try? record.int("levelsCleared")) ?? 0)
        events.pushes = Int32(clamping: (try? record.int("pushes")) ?? 0)
        return BreakoutEpisodeRecord(agent: agent, episode: (try? record.int("episode")) ?? 0, config: config,
                                     result: BreakoutEpisode(index: (try? record.int("episode")) ?? 0, seed: seed,
                                                             score: try record.int("score"), steps: try record.int("steps"),
                                                             end: end, levelsCleared: Int(events.levelsCleared),
                                                             livesLost: Int(events.livesLost), events: events),
                                     program: record["program"], rules: rules, played: played)
    }

    /// Plays the recorded episode again (by ``Matches``, the agent batched):
    /// under `rules` the game plays `played` and the agent is made for
    /// `config`, as the tournament made it.
    /// - Throws: ``AgentSpecError`` for a spec that cannot play, ``AgentFault`` when the agent faults.
    public func replay() throws -> BreakoutEpisode {
        let spec = try AgentSpec.parse(agent)
        try Breakout.check(spec, config: config)
        let seed = result.seed, played = self.played
        var perGame: (@Sendable (UInt64) -> BreakoutConfig?)?
        if rules != nil { perGame = { _ in played } }
        var episode = try Matches.play(Breakout.self, config: config, roster: [spec], count: 1, slots: 1,
                                       runner: ParallelRunner(workers: 1),
                                       game: { _ in SeatedGame(seed: seed, seats: [0]) },
                                       rules: perGame)[0]
        episode.index = self.episode
        return episode
    }
}

// MARK: - Balance

/// Runs a Breakout balance scenario set: each scenario's agent plays its
/// episodes alone, and each metric is the mean over episodes of a
/// per-episode value (episodes are independent, so the episode is the unit):
/// | metric | per-episode value |
/// |---|---|
/// | `score` | points scored |
/// | `bricksPerLife` | bricks broken per life used (lives lost, plus the life in play when the episode ended otherwise) |
/// | `ballsLost` | balls that left the field |
/// | `episodeLength` | agent steps |
/// | `levelClearRate` | 1 if at least one wall was cleared, else 0 |
/// | `pushes` | push actions that fired |
/// | `specialActivations` | special bricks broken (tough, explosive, extra-ball, speed-up) |
/// | `watchdogRate` | 1 if the watchdog truncated the episode |
/// | `truncationRate` | 1 if the step limit truncated it |
public enum BreakoutBalance {
    public static func run(_ set: BalanceScenarioSet, config: BreakoutConfig, runner: ParallelRunner,
                           progress: (@Sendable () -> Void)? = nil) throws(AgentFault) -> [BalanceScenarioResult] {
        // Every scenario's episodes in one run (``BalanceGames``), each as
        // ``BreakoutDuplicate/run(config:agents:episodes:seed:runner:path:progress:)`` plays it.
        var games: [(seed: UInt64, seats: [AgentSpec])] = []
        for (s, scenario) in set.scenarios.enumerated() {
            for k in 0 ..< scenario.games {
                games.append((Seeds.episode(runSeed: set.scenarioSeed(s), index: k), [scenario.a]))
            }
        }
        let records = try BalanceGames.play(Breakout.self, config: config, games: games, runner: runner, progress: progress)
        var out: [BalanceScenarioResult] = []
        var first = 0
        for scenario in set.scenarios {
            let episodes = (0 ..< scenario.games).map { k in
                var e = records[first + k]
                e.index = k
                return e
            }
            first += scenario.games
            out.append(BalanceScenarioResult(name: scenario.name, a: scenario.a.text, b: nil, games: scenario.games,
                                             metrics: metrics(episodes)))
        }
        return out
    }

    public static func metrics(_ episodes: [BreakoutEpisode]) -> [BalanceMetric] {
        func values(_ f: (BreakoutEpisode) -> Double) -> [Double] { episodes.map(f) }
        return [
            .mean("score", values { Double($0.score) }),
            .mean("bricksPerLife", values {
                Double($0.events.bricksBroken) / Double(Int($0.events.livesLost) + ($0.end == .livesExhausted ? 0 : 1))
            }),
            .mean("ballsLost", values { Double($0.events.ballsLost) }),
            .mean("episodeLength", values { Double($0.steps) }),
            .mean("levelClearRate", values { $0.events.levelsCleared > 0 ? 1 : 0 }),
            .mean("pushes", values { Double($0.events.pushes) }),
            .mean("specialActivations", values {
                let e = $0.events
                return Double(e.brokenTough + e.brokenExplosive + e.brokenExtraBall + e.brokenSpeedUp)
            }),
            .mean("watchdogRate", values { $0.end == .watchdog ? 1 : 0 }),
            .mean("truncationRate", values { $0.end == .stepLimit ? 1 : 0 }),
        ]
    }
}

// MARK: - Training setup

extension Breakout: TrainableGame {
    /// The policy plays alone; the score is the mean score per episode.
    public static func trainingSetup(_ config: TrainConfig, game: BreakoutConfig, evalGame: BreakoutConfig,
                                     rules: TrainingRules<BreakoutConfig>?) throws(TrainingSetupError)
        -> TrainingSetup<BreakoutTask> {
        TrainingSetup(task: BreakoutTask(config: game, episodeSteps: config.episodeSteps, rules: rules),
                      evaluationTasks: [BreakoutTask(config: evalGame, episodeSteps: config.evalSteps, rules: rules?.fixed)],
                      scoreName: "score per episode",
                      score: { $0.first?.meanReturn ?? 0 })
    }
}
