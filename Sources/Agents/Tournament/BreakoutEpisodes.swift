import Gym

/// The record of one Breakout episode played by one agent.
public struct BreakoutEpisodeResult: Equatable, Sendable {
    public var seed: UInt64
    public var score: Int
    public var steps: Int
    public var end: EpisodeEnd
    /// Every step's events, summed.
    public var events: BreakoutEvents
}

/// Plays whole Breakout episodes.
public enum BreakoutEpisodes {
    /// Plays one episode from `seed` to its end; the agent is reset with
    /// `Seeds.stream(seed, 10)` (as a Pong bottom player is).
    public static func play<A: Agent>(config: BreakoutConfig, seed: UInt64, agent: inout A) -> BreakoutEpisodeResult {
        var game = BreakoutGame(config: config, seed: seed)
        agent.reset(seed: Seeds.stream(seed, 10))
        var total = BreakoutEvents()
        var events = BreakoutEvents()
        var observation = [Float](repeating: 0, count: game.observationCount)
        observation.withUnsafeMutableBufferPointer { buffer in
            while true {
                game.observe(into: buffer)
                let action = agent.act(UnsafeBufferPointer(buffer))
                let step = game.step(action, events: &events)
                total.accumulate(events)
                if step.isDone { break }
            }
        }
        return BreakoutEpisodeResult(seed: seed, score: Int(game.state.core.score), steps: Int(game.state.core.steps),
                                     end: game.state.core.end, events: total)
    }
}

/// Breakout's duplicate format: every agent plays the same episodes (seed
/// `k` = `Seeds.episode(runSeed: seed, index: k)`), and two agents are
/// compared seed by seed by score (higher wins, equal draws) — as duplicate
/// bridge compares tables that played the same deals, so the luck of the
/// seed cancels out.
public enum BreakoutDuplicate {
    /// Results by agent, then seed index; the same for any number of workers.
    public static func run(config: BreakoutConfig, agents: [AgentSpec], episodes: Int, seed: UInt64,
                           runner: ParallelRunner, progress: (@Sendable () -> Void)? = nil) -> [[BreakoutEpisodeResult]] {
        let flat = runner.map(count: agents.count * episodes, makeWorker: { _ in
            agents.map { $0.makeBreakoutAgent(config: config) }
        }, job: { players, job in
            let a = job / episodes, k = job % episodes
            return BreakoutEpisodes.play(config: config, seed: Seeds.episode(runSeed: seed, index: k), agent: &players[a])
        }, progress: progress)
        return (0 ..< agents.count).map { a in Array(flat[a * episodes ..< (a + 1) * episodes]) }
    }

    /// Every pair of agents compared on each common seed (one game per unit).
    public static func outcomes(_ results: [[BreakoutEpisodeResult]]) -> PairwiseOutcomes {
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
