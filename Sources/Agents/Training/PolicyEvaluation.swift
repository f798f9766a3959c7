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
    /// and started by the task with index `i` (Pong: sides alternate), as a
    /// one-member ``RolloutPlan`` (batched where the task says that is
    /// faster; every path gives the same score). The result does not depend
    /// on the number of workers or slots.
    /// - Parameters:
    ///   - path: how the episodes are played (every path gives the same score).
    ///   - slots: episodes each worker steps together on the batched path
    ///     (nil: ``slots(episodes:)``).
    public static func run<Task: TrainingTask>(task: Task, policy: LinearPolicy, episodes: Int, steps: Int,
                                               seed: UInt64, runner: ParallelRunner, path: RolloutPath = .automatic,
                                               slots: Int? = nil) throws(AgentFault) -> PolicyScore {
        let plan = RolloutPlan(members: 1, episodes: episodes, maxSteps: steps, seedBase: seed,
                               collectStatistics: false, centre: policy) { _, _ in }
        let results = try Rollout.play(plan, task: task, path: path, slots: slots ?? Self.slots(episodes: episodes),
                                       runner: runner).episodes
        return PolicyScore(episodes: episodes, steps: results.reduce(0) { $0 + $1.steps },
                           meanReturn: Statistics.mean(results.map(\.totalReturn)),
                           gained: results.reduce(0) { $0 + $1.gained }, lost: results.reduce(0) { $0 + $1.lost })
    }

    /// Episodes a worker steps together in an evaluation of `episodes`:
    /// all of them, up to four times ``Rollout/defaultSlots``. Its episodes
    /// are one member's, each a job of its own, so with fewer slots a last
    /// partial round would step the idle slots' games until its longest
    /// episode ends; the score does not depend on the number of slots.
    public static func slots(episodes: Int) -> Int { Swift.max(1, Swift.min(episodes, 4 * Rollout.defaultSlots)) }
}
