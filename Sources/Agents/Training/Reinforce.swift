import Gym

/// REINFORCE with a learned linear baseline (Williams, "Simple statistical
/// gradient-following algorithms for connectionist reinforcement
/// learning", 1992; Sutton & Barto, *Reinforcement Learning*, 2nd ed., §13.4).
///
/// Each iteration plays `batchEpisodes` episodes (a ``ReinforcePlan``) with
/// the softmax policy, each episode's draws from its own seeded generator,
/// recording every step in a ``Trajectory`` (rows of a ``TrajectoryStorage``
/// allocated once per worker, `maxSteps` rows per slot). By ``rolloutPath``
/// (default ``RolloutPath/automatic``) they are played either batched — each
/// worker steps ``slots`` episodes together on one batch through the slot
/// engine (``ReinforceWork``; chosen where ``TrainingTask/batchIsFaster``,
/// docs/training.md "Trainers"), each slot's learner sampling from its own
/// observation row — or one episode at a time on single environments
/// (``ReinforcePlan/playOneByOne(task:runner:)``, the reference, and the
/// path of every other task); both record the same trajectories and
/// gradients bit for bit.
/// For an episode of `T` steps with normalised inputs `X` (`T × D`),
/// action probabilities `π` and discounted returns `G`, the advantage is
/// `A = G − V(X)` with the linear value `V(x) = u·x + c`, and
///
/// - policy gradient: `∇W = Δᵀ X`, `∇b = Σₜ Δₜ` with `Δₜₐ = Aₜ(1[a = aₜ] − πₜₐ)`:
///   one ``ExactProduct`` per episode (the same bits on every CPU);
/// - baseline gradient (of `−½(G − V)²`): `∇u = Xᵀ A`, `∇c = Σₜ Aₜ`: one exact product
///   (``Trajectory/finish(_:plan:)``, shared by both paths).
///
/// Episode gradients are summed in episode order and divided by the steps
/// played; Adam ascends both. Seeds derive from the run seed, the iteration
/// and the episode index, and every episode's gradient lands at its index,
/// so results do not depend on the number of workers or slots.
public struct Reinforce<Task: TrainingTask>: LinearPolicyTrainer {
    public var core: TrainerCore<Task>

    public init(core: TrainerCore<Task>) {
        precondition(core.settings.batchEpisodes >= 1, "batchEpisodes must be at least 1")
        precondition(core.state.baseline.count == core.policy.inputs + 1 && core.state.baselineOptimizer != nil,
                     "the state holds no baseline of the policy's size")
        self.core = core
    }

    /// A fresh run's state: a zero baseline (with a zero policy: a uniform softmax).
    public static func freshState(policy: LinearPolicy, settings: TrainerSettings, trainConfigHash: UInt64) -> TrainerState {
        TrainerState(trainer: "reinforce", trainConfigHash: trainConfigHash,
                     optimizer: Adam(parameters: policy.parameterCount, learningRate: settings.learningRate,
                                     weightDecay: settings.weightDecay),
                     baseline: [Float](repeating: 0, count: policy.inputs + 1),
                     baselineOptimizer: Adam(parameters: policy.inputs + 1, learningRate: settings.baselineLearningRate))
    }

    public mutating func iterate(runner: ParallelRunner) throws(AgentFault) -> IterationReport {
        // Each episode's gradient is an exact product (no bit depends on
        // OpenBLAS's threads); the episodes' own workers are the parallelism.
        BLAS.useSingleThread()
        let plan = ReinforcePlan(episodes: settings.batchEpisodes, maxSteps: task.episodeSteps,
                                 seedBase: Seeds.stream(seed, UInt64(state.iteration)), discount: settings.discount,
                                 policy: policy, baseline: state.baseline)
        let d = policy.inputs, p = policy.parameterCount
        let episodes: [EpisodeGradient]
        if rolloutPath.tries(batchedFor: task) {
            guard let batched = try task.playReinforceBatched(plan, runner: runner, slots: slots) else {
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
        gradient.withUnsafeMutableBufferPointer {
            settings.maskIgnoredInputs($0, inputs: policy.inputs, outputs: policy.outputs)
        }
        for j in 0 ... d { baselineGradient[j] *= inv }
        var theta = policy.parameters
        theta.withUnsafeMutableBufferPointer { th in
            gradient.withUnsafeBufferPointer { core.state.optimizer.ascend(th, gradient: $0) }
        }
        core.policy.setParameters(theta.withUnsafeBufferPointer { $0 })
        var u = state.baseline
        if var opt = state.baselineOptimizer {
            u.withUnsafeMutableBufferPointer { ub in
                baselineGradient.withUnsafeBufferPointer { opt.ascend(ub, gradient: $0) }
            }
            core.state.baselineOptimizer = opt
        }
        core.state.baseline = u
        if var normalizer = policy.normalizer {
            var merged = ObservationStatistics(features: d)
            for e in episodes { if let s = e.statistics { merged.add(s) } }
            normalizer.merge(merged)
            core.policy.setNormalizer(normalizer)
        }
        return core.finishIteration(steps: steps, returns: episodes.map(\.result.totalReturn))
    }
}
