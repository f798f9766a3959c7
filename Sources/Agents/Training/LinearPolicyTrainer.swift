import Gym

/// What a linear-policy trainer holds between iterations: the task, its
/// settings and seed, the policy and the state a checkpoint saves, and how
/// episodes are played.
public struct TrainerCore<Task: TrainingTask> {
    public let task: Task
    public let settings: TrainerSettings
    public let seed: UInt64
    public internal(set) var policy: LinearPolicy
    public internal(set) var state: TrainerState
    /// How episodes are played (every path gives the same results).
    public var rolloutPath: RolloutPath = .automatic
    /// Episodes each worker steps together on the batched path.
    public var slots = Rollout.defaultSlots

    init(task: Task, settings: TrainerSettings, seed: UInt64, policy: LinearPolicy, state: TrainerState) {
        self.task = task
        self.settings = settings
        self.seed = seed
        self.policy = policy
        self.state = state
    }

    /// Closes the iteration just played: counts it and its `steps`, and
    /// reports the mean, min and max of `returns`.
    mutating func finishIteration(steps: Int, returns: [Double]) -> IterationReport {
        state.iteration += 1
        state.envSteps += steps
        return IterationReport(iteration: state.iteration, steps: steps, totalSteps: state.envSteps,
                               meanReturn: Statistics.mean(returns), minReturn: returns.min() ?? 0,
                               maxReturn: returns.max() ?? 0)
    }
}

/// A trainer of a ``LinearPolicy`` built on a ``TrainerCore`` (evolution
/// strategies, REINFORCE): started fresh or continued from a checkpoint the
/// same way, whichever it is.
public protocol LinearPolicyTrainer: PolicyTrainer {
    associatedtype Task: TrainingTask
    /// Everything the trainer holds between iterations.
    var core: TrainerCore<Task> { get set }
    /// The trainer on `core`; traps when its settings or state do not suit this trainer.
    init(core: TrainerCore<Task>)
    /// The state of a fresh run of `policy`: no iteration done, optimisers at rest.
    static func freshState(policy: LinearPolicy, settings: TrainerSettings, trainConfigHash: UInt64) -> TrainerState
}

extension LinearPolicyTrainer {
    /// A fresh run from a zero policy.
    public init(task: Task, settings: TrainerSettings, seed: UInt64, normalize: Bool, trainConfigHash: UInt64) {
        let t = task.target
        let policy = LinearPolicy(inputs: t.inputs, outputs: t.outputs, normalize: normalize)
        self.init(task: task, settings: settings, seed: seed, policy: policy,
                  state: Self.freshState(policy: policy, settings: settings, trainConfigHash: trainConfigHash))
    }

    /// Continues a run from a checkpoint's policy and state.
    public init(task: Task, settings: TrainerSettings, seed: UInt64, policy: LinearPolicy, state: TrainerState) {
        self.init(core: TrainerCore(task: task, settings: settings, seed: seed, policy: policy, state: state))
    }

    public var task: Task { core.task }
    public var settings: TrainerSettings { core.settings }
    public var seed: UInt64 { core.seed }
    public var policy: LinearPolicy { core.policy }
    public var state: TrainerState { core.state }
    /// How episodes are played (every path gives the same results).
    public var rolloutPath: RolloutPath {
        get { core.rolloutPath }
        set { core.rolloutPath = newValue }
    }
    /// Episodes each worker steps together on the batched path.
    public var slots: Int {
        get { core.slots }
        set { core.slots = newValue }
    }

    /// Records the wall time and evaluation bests kept in the state.
    public mutating func note(wallSeconds: Double, bestScore: Double?, bestIteration: Int) {
        core.state.note(wallSeconds: wallSeconds, bestScore: bestScore, bestIteration: bestIteration)
    }
}
