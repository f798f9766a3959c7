import Gym

/// Episodes a trainer plays with linear agents: `members` greedy policies
/// (an ES population, or one policy being evaluated), each playing the same
/// `episodes` episodes. Episode `k` is seeded
/// `Seeds.episode(runSeed: seedBase, index: k)`, started by the task with
/// index `k` (``TrainingTask/reset(_:seed:index:)``; Pong: side and opponent)
/// and its learner reset with `Seeds.agent(episodeSeed, seat: 0)`; it stops after
/// `maxSteps` agent steps or when the game ends (``Rollout/play(_:agent:maxSteps:observation:statistics:)``).
///
/// ## Jobs
/// The plan is cut into jobs, each played by one worker (in one batch slot
/// on the batched path): without statistics job `j` is episode `j % episodes`
/// of member `j / episodes`; with statistics a job is a member's whole list of
/// episodes in order, so every observation of a member goes into one
/// ``ObservationStatistics`` in step order (its `Double` sums are then the
/// same whichever path, worker or slot played it). Every result is written at
/// its own index, so the results do not depend on the number of workers or
/// slots.
public struct RolloutPlan: Sendable {
    /// Number of policies played (ES: the population; evaluation: 1).
    public var members: Int
    /// Episodes each member plays (the same seeds for every member).
    public var episodes: Int
    /// Agent steps after which an episode stops.
    public var maxSteps: Int
    /// Episode `k`'s seed is `Seeds.episode(runSeed: seedBase, index: k)`.
    public var seedBase: UInt64
    /// Gather every observation each member saw (see "Jobs").
    public var collectStatistics: Bool
    /// The policy of the iteration: the learner's shape and normaliser, and
    /// the self-play opponent of a ``PongTask``.
    public var centre: LinearPolicy
    /// Gives a learner member `m`'s parameters (called when a job of member
    /// `m` starts, on a copy of ``centre``; must depend only on `m`).
    public var parameters: @Sendable (_ member: Int, _ policy: inout LinearPolicy) -> Void

    public init(members: Int, episodes: Int, maxSteps: Int, seedBase: UInt64, collectStatistics: Bool,
                centre: LinearPolicy,
                parameters: @escaping @Sendable (_ member: Int, _ policy: inout LinearPolicy) -> Void) {
        precondition(members >= 1 && episodes >= 1 && maxSteps >= 1, "a plan needs members, episodes and steps")
        self.members = members
        self.episodes = episodes
        self.maxSteps = maxSteps
        self.seedBase = seedBase
        self.collectStatistics = collectStatistics
        self.centre = centre
        self.parameters = parameters
    }

    /// Number of jobs (see "Jobs").
    public var jobs: Int { collectStatistics ? members : members * episodes }

    /// Job `j`'s member and its episodes `first ..< end`.
    @inline(__always)
    public func job(_ j: Int) -> (member: Int, first: Int, end: Int) {
        if collectStatistics { return (j, 0, episodes) }
        let k = j % episodes
        return (j / episodes, k, k + 1)
    }

    /// Episode `k`'s seed.
    @inline(__always)
    public func episodeSeed(_ k: Int) -> UInt64 { Seeds.episode(runSeed: seedBase, index: k) }
}

/// What a ``RolloutPlan`` gave.
public struct RolloutResults: Equatable, Sendable {
    /// Episode `k` of member `m` at `m × episodes + k`.
    public var episodes: [EpisodeResult]
    /// Member `m`'s observations (nil unless the plan collects statistics).
    public var statistics: [ObservationStatistics?]
}

/// How episodes are played (training, evaluation, matches); every path
/// gives the same results.
public enum RolloutPath: Sendable {
    /// ``batched`` where the task has a batched path (``TrainingTask/batchIsFaster``:
    /// every game's task, whose agents act batched there only), else ``oneByOne``;
    /// matches (``Matches``) always batch.
    case automatic
    /// On the slot engine (``TrainingTask/playBatched(_:runner:slots:)``). A
    /// task without a batched path stops with a precondition failure: a
    /// forced batched run never falls back to the reference silently.
    case batched
    /// Each episode on a single environment by ``Rollout/play(_:agent:maxSteps:observation:statistics:)``
    /// (the reference, with per-game agents; tests compare the batched path with it).
    case oneByOne

    /// Whether `task`'s episodes go to its batched path.
    public func tries<Task: TrainingTask>(batchedFor task: Task) -> Bool {
        self == .batched || (self == .automatic && task.batchIsFaster)
    }
}

extension Rollout {
    /// Episodes stepped together by one worker on the batched path unless
    /// told otherwise.
    public static let defaultSlots = 16

    /// Plays `plan` on `task` by `path` (see ``RolloutPath``).
    /// - Parameter slots: episodes each worker steps together on the batched path, at least 1.
    public static func play<Task: TrainingTask>(_ plan: RolloutPlan, task: Task, path: RolloutPath = .automatic,
                                                slots: Int = defaultSlots, runner: ParallelRunner) throws(AgentFault)
        -> RolloutResults {
        precondition(slots >= 1, "slots must be at least 1")
        if path.tries(batchedFor: task) {
            guard let results = try task.playBatched(plan, runner: runner, slots: slots) else {
                preconditionFailure("\(Task.self) has no batched path")
            }
            return results
        }
        return playOneByOne(plan, task: task, runner: runner)
    }

    /// The reference: each job on one worker's single environment, episode
    /// after episode, by ``play(_:agent:maxSteps:observation:statistics:)``.
    public static func playOneByOne<Task: TrainingTask>(_ plan: RolloutPlan, task: Task,
                                                        runner: ParallelRunner) -> RolloutResults {
        let jobs = runner.map(count: plan.jobs, makeWorker: { _ in
            RolloutWorker(env: task.makeEnvironment(centre: plan.centre), agent: LinearAgent(policy: plan.centre),
                          observation: [Float](repeating: 0, count: plan.centre.inputs))
        }, job: { worker, j in
            let (member, first, end) = plan.job(j)
            plan.parameters(member, &worker.agent.policy)
            var statistics: ObservationStatistics? =
                plan.collectStatistics ? ObservationStatistics(features: plan.centre.inputs) : nil
            var results: [EpisodeResult] = []
            for k in first ..< end {
                let episodeSeed = plan.episodeSeed(k)
                task.reset(&worker.env, seed: episodeSeed, index: k)
                worker.agent.reset(seed: Seeds.agent(episodeSeed, seat: 0))
                results.append(worker.observation.withUnsafeMutableBufferPointer { obs in
                    play(&worker.env, agent: &worker.agent, maxSteps: plan.maxSteps, observation: obs,
                         statistics: &statistics)
                })
            }
            return (results, statistics)
        })
        var out = RolloutResults(episodes: [], statistics: [ObservationStatistics?](repeating: nil, count: plan.members))
        out.episodes.reserveCapacity(plan.members * plan.episodes)
        for (j, job) in jobs.enumerated() {
            out.episodes += job.0
            if plan.collectStatistics { out.statistics[plan.job(j).member] = job.1 }
        }
        return out
    }
}

/// One worker's environment, agent and observation scratch (reused across
/// the jobs the worker runs).
struct RolloutWorker<Env: Environment> {
    var env: Env
    var agent: LinearAgent
    var observation: [Float]
}
