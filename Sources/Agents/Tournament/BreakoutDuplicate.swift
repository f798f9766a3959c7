import Gym

/// Breakout's duplicate format: every agent plays the same episodes (seed
/// `k` = `Seeds.episode(runSeed: seed, index: k)`), and two agents are
/// compared seed by seed by score (higher wins, equal draws) — as duplicate
/// bridge compares tables that played the same deals, so the luck of the
/// seed cancels out.
public enum BreakoutDuplicate {
    /// Results by agent, then seed index (episodes played by ``Matches``,
    /// each as ``BreakoutRun/play(config:seed:index:agent:)`` plays it); the
    /// same for any path and number of workers. Specs must have passed
    /// ``AgentSpec/check(breakout:)``.
    public static func run(config: BreakoutConfig, agents: [AgentSpec], episodes: Int, seed: UInt64,
                           runner: ParallelRunner, path: RolloutPath = .automatic,
                           progress: (@Sendable () -> Void)? = nil) -> [[BreakoutEpisode]] {
        let flat = Matches.play(Breakout.self, config: config, roster: agents, count: agents.count * episodes,
                                path: path, runner: runner, game: { job in
            SeatedGame(seed: Seeds.episode(runSeed: seed, index: job % episodes), seats: [job / episodes])
        }, progress: progress)
        return (0 ..< agents.count).map { a in
            (0 ..< episodes).map { k in
                var e = flat[a * episodes + k]
                e.index = k
                return e
            }
        }
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
