import Gym

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
    /// Played by ``Matches`` (batched where ``Breakout/batchIsFaster(_:)``);
    /// the result is the same for any path and number of workers or slots.
    public static func run(config: BreakoutConfig, agent: AgentSpec, episodes: Int, runSeed: UInt64,
                           runner: ParallelRunner, path: RolloutPath = .automatic, slots: Int = Matches.defaultSlots,
                           progress: (@Sendable () -> Void)? = nil) -> [BreakoutEpisode] {
        Matches.play(Breakout.self, config: config, roster: [agent], count: episodes, slots: slots, path: path,
                     runner: runner, game: { index in
            SeatedGame(seed: Seeds.episode(runSeed: runSeed, index: index), seats: [0])
        }, progress: progress).enumerated().map { index, episode in
            var e = episode
            e.index = index
            return e
        }
    }
}
