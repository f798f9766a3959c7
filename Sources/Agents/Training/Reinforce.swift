import Gym

/// Settings of ``Reinforce`` (ranges are checked by ``TrainConfig``).
public struct ReinforceSettings: Equatable, Sendable {
    /// Episodes per iteration (one gradient step per iteration).
    public var batchEpisodes: Int
    /// Reward discount per step, in [0, 1].
    public var discount: Float
    public var learningRate: Float
    public var weightDecay: Float
    public var baselineLearningRate: Float

    public init(batchEpisodes: Int, discount: Float, learningRate: Float, weightDecay: Float, baselineLearningRate: Float) {
        precondition(batchEpisodes >= 1, "batchEpisodes must be at least 1")
        self.batchEpisodes = batchEpisodes
        self.discount = discount
        self.learningRate = learningRate
        self.weightDecay = weightDecay
        self.baselineLearningRate = baselineLearningRate
    }
}

/// REINFORCE with a learned linear baseline (Williams, "Simple statistical
/// gradient-following algorithms for connectionist reinforcement
/// learning", 1992; Sutton & Barto, *Reinforcement Learning*, 2nd ed., §13.4).
///
/// Each iteration plays `batchEpisodes` episodes (a ``ReinforcePlan``) with
/// the softmax policy, each episode's draws from its own seeded generator,
/// recording every step in a ``Trajectory`` (rows of a ``TrajectoryStorage``
/// allocated once per worker, `maxSteps` rows per slot). By ``rolloutPath``
/// (default ``RolloutPath/automatic``) they are played either batched — each
/// worker steps ``slots`` episodes together on one batch
/// (``PongReinforceSlots``: Pong without frame skip or sticky actions,
/// ``TrainingTask/batchIsFaster``, README "Trainers"), each slot's learner sampling from its own
/// observation row — or one episode at a time on single environments
/// (``ReinforcePlan/playOneByOne(task:runner:)``, the reference, and the
/// path of every other task); both record the same trajectories and
/// gradients bit for bit.
/// For an episode of `T` steps with normalised inputs `X` (`T × D`),
/// action probabilities `π` and discounted returns `G`, the advantage is
/// `A = G − V(X)` with the linear value `V(x) = u·x + c`, and
///
/// - policy gradient: `∇W = Δᵀ X`, `∇b = Σₜ Δₜ` with `Δₜₐ = Aₜ(1[a = aₜ] − πₜₐ)`:
///   one `cblas_sgemm` per episode;
/// - baseline gradient (of `−½(G − V)²`): `∇u = Xᵀ A`, `∇c = Σₜ Aₜ`: one `cblas_sgemv`
///   (``Trajectory/finish(_:plan:)``, shared by both paths).
///
/// Episode gradients are summed in episode order and divided by the steps
/// played; Adam ascends both. Seeds derive from the run seed, the iteration
/// and the episode index, and every episode's gradient lands at its index,
/// so results do not depend on the number of workers or slots.
public struct Reinforce<Task: TrainingTask>: PolicyTrainer {
    public let task: Task
    public let settings: ReinforceSettings
    public let seed: UInt64
    public private(set) var policy: LinearPolicy
    public private(set) var state: TrainerState
    /// How episodes are played (every path gives the same results).
    public var rolloutPath: RolloutPath = .automatic
    /// Episodes each worker steps together on the batched path.
    public var slots = Rollout.defaultSlots

    /// A fresh run from a zero policy (uniform softmax) and a zero baseline.
    public init(task: Task, settings: ReinforceSettings, seed: UInt64, normalize: Bool, trainConfigHash: UInt64) {
        self.task = task
        self.settings = settings
        self.seed = seed
        let t = task.target
        policy = LinearPolicy(inputs: t.inputs, outputs: t.outputs, normalize: normalize)
        state = TrainerState(trainer: "reinforce", trainConfigHash: trainConfigHash,
                             optimizer: Adam(parameters: policy.parameterCount, learningRate: settings.learningRate,
                                             weightDecay: settings.weightDecay),
                             baseline: [Float](repeating: 0, count: t.inputs + 1),
                             baselineOptimizer: Adam(parameters: t.inputs + 1, learningRate: settings.baselineLearningRate))
    }

    /// Continues a run from a checkpoint's policy and state.
    public init(task: Task, settings: ReinforceSettings, seed: UInt64, policy: LinearPolicy, state: TrainerState) {
        precondition(state.baseline.count == policy.inputs + 1 && state.baselineOptimizer != nil,
                     "the state holds no baseline of the policy's size")
        self.task = task
        self.settings = settings
        self.seed = seed
        self.policy = policy
        self.state = state
    }

    public mutating func note(wallSeconds: Double, bestScore: Double?, bestIteration: Int) {
        state.note(wallSeconds: wallSeconds, bestScore: bestScore, bestIteration: bestIteration)
    }

    public mutating func iterate(runner: ParallelRunner) -> IterationReport {
        // Each episode's gradient is one sgemm over its steps; with more than
        // one OpenBLAS thread a long episode's product is split over threads
        // and its last bits change with their number.
        BLAS.useSingleThread()
        let plan = ReinforcePlan(episodes: settings.batchEpisodes, maxSteps: task.episodeSteps,
                                 seedBase: Seeds.stream(seed, UInt64(state.iteration)), discount: settings.discount,
                                 policy: policy, baseline: state.baseline)
        let d = policy.inputs, p = policy.parameterCount
        let episodes: [EpisodeGradient]
        if rolloutPath.tries(batchedFor: task) {
            guard let batched = task.playReinforceBatched(plan, runner: runner, slots: slots) else {
                preconditionFailure("\(Task.self) has no batched path")
            }
            episodes = batched
        } else {
            episodes = plan.playOneByOne(task: task, runner: runner)
        }

        // Sum in episode order, per step.
        let steps = episodes.reduce(0) { $0 + $1.result.steps }
        var gradient = [Float](repeating: 0, count: p)
        var baselineGradient = [Float](repeating: 0, count: d + 1)
        for e in episodes {
            for j in 0 ..< p { gradient[j] += e.gradient[j] }
            for j in 0 ... d { baselineGradient[j] += e.baselineGradient[j] }
        }
        let inv = 1 / Float(max(steps, 1))
        for j in 0 ..< p { gradient[j] *= inv }
        for j in 0 ... d { baselineGradient[j] *= inv }
        var theta = policy.parameters
        theta.withUnsafeMutableBufferPointer { th in
            gradient.withUnsafeBufferPointer { state.optimizer.ascend(th, gradient: $0) }
        }
        self.policy.setParameters(theta.withUnsafeBufferPointer { $0 })
        var u = state.baseline
        if var opt = state.baselineOptimizer {
            u.withUnsafeMutableBufferPointer { ub in
                baselineGradient.withUnsafeBufferPointer { opt.ascend(ub, gradient: $0) }
            }
            state.baselineOptimizer = opt
        }
        state.baseline = u
        if var normalizer = self.policy.normalizer {
            var merged = ObservationStatistics(features: d)
            for e in episodes { if let s = e.statistics { merged.add(s) } }
            normalizer.merge(merged)
            self.policy.setNormalizer(normalizer)
        }
        state.iteration += 1
        state.envSteps += steps
        let returns = episodes.map(\.result.totalReturn)
        return IterationReport(iteration: state.iteration, steps: steps, totalSteps: state.envSteps,
                               meanReturn: Statistics.mean(returns), minReturn: returns.min() ?? 0,
                               maxReturn: returns.max() ?? 0)
    }
}
