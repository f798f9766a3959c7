import Gym

/// The greedy policy's score on a task, over episodes played in parallel.
public struct PolicyScore: Equatable, Sendable {
    public var episodes: Int
    public var steps: Int
    /// Mean episode return (Breakout: score per episode).
    public var meanReturn: Double
    /// Rewards gained and lost in total (Pong: points won and lost).
    public var gained: Double, lost: Double
    /// `gained / (gained + lost)` (Pong: share of points won; 0.5 when none).
    public var share: Double { gained + lost > 0 ? gained / (gained + lost) : 0.5 }
}

/// Evaluates a policy on a task (the trainers' periodic evaluation).
public enum PolicyEvaluation {
    /// Plays `episodes` episodes of up to `steps` agent steps each with the
    /// greedy `policy`; episode `i` is seeded `Seeds.episode(runSeed: seed, index: i)`
    /// and started by the task with index `i` (Pong: sides alternate). The
    /// result does not depend on the number of workers.
    public static func run<Task: TrainingTask>(task: Task, policy: LinearPolicy, episodes: Int, steps: Int,
                                               seed: UInt64, runner: ParallelRunner) -> PolicyScore {
        let results = runner.map(count: episodes, makeWorker: { _ in
            (task.makeEnvironment(centre: policy), LinearAgent(policy: policy),
             [Float](repeating: 0, count: policy.inputs))
        }, job: { worker, i in
            let episodeSeed = Seeds.episode(runSeed: seed, index: i)
            task.reset(&worker.0, seed: episodeSeed, index: i)
            worker.1.reset(seed: Seeds.stream(episodeSeed, 10))
            var none: ObservationStatistics?
            return worker.2.withUnsafeMutableBufferPointer { obs in
                Rollout.play(&worker.0, agent: &worker.1, maxSteps: steps, observation: obs, statistics: &none)
            }
        })
        return PolicyScore(episodes: episodes, steps: results.reduce(0) { $0 + $1.steps },
                           meanReturn: Statistics.mean(results.map(\.totalReturn)),
                           gained: results.reduce(0) { $0 + $1.gained }, lost: results.reduce(0) { $0 + $1.lost })
    }
}
