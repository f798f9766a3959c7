import CBLAS
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
/// Each iteration plays `batchEpisodes` episodes in parallel with the
/// softmax policy (each episode's draws from its own seeded generator).
/// For an episode of `T` steps with normalised inputs `X` (`T × D`),
/// action probabilities `π` and discounted returns `G`, the advantage is
/// `A = G − V(X)` with the linear value `V(x) = u·x + c`, and
///
/// - policy gradient: `∇W = Δᵀ X`, `∇b = Σₜ Δₜ` with `Δₜₐ = Aₜ(1[a = aₜ] − πₜₐ)`:
///   one `cblas_sgemm` per episode;
/// - baseline gradient (of `−½(G − V)²`): `∇u = Xᵀ A`, `∇c = Σₜ Aₜ`: one `cblas_sgemv`.
///
/// Episode gradients are summed in episode order and divided by the steps
/// played; Adam ascends both. Seeds derive from the run seed, the iteration
/// and the episode index, so results do not depend on the number of workers.
public struct Reinforce<Task: TrainingTask>: PolicyTrainer {
    public let task: Task
    public let settings: ReinforceSettings
    public let seed: UInt64
    public private(set) var policy: LinearPolicy
    public private(set) var state: TrainerState

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
        let iterationSeed = Seeds.stream(seed, UInt64(state.iteration))
        let policy = self.policy
        let baseline = state.baseline
        let task = self.task
        let discount = settings.discount
        let d = policy.inputs, k = policy.outputs, p = policy.parameterCount
        let maxSteps = task.episodeSteps
        let (scale, shift) = policy.normalizer?.affine()
            ?? ([Float](repeating: 1, count: d), [Float](repeating: 0, count: d))
        let collect = policy.normalizer != nil

        let episodes = runner.map(count: settings.batchEpisodes, makeWorker: { _ in
            TrajectoryBuffers(env: task.makeEnvironment(centre: policy), policy: policy, steps: maxSteps)
        }, job: { w, i in
            let episodeSeed = Seeds.episode(runSeed: iterationSeed, index: i)
            task.reset(&w.env, seed: episodeSeed, index: i)
            var rng = Xoshiro256(seed: Seeds.stream(episodeSeed, 10))
            var statistics: ObservationStatistics? = collect ? ObservationStatistics(features: d) : nil
            var result = EpisodeResult()
            var t = 0
            // Play, recording normalised inputs, probabilities, actions, rewards.
            let (x, probs, raw) = (w.inputs, w.probabilities, w.raw)
            while t < maxSteps {
                w.env.observe(into: raw)
                if collect { statistics?.add(UnsafeBufferPointer(raw)) }
                for j in 0 ..< d { x[t * d + j] = raw[j] * scale[j] + shift[j] }
                let row = UnsafeMutableBufferPointer(rebasing: probs[t * k ..< (t + 1) * k])
                policy.logits(UnsafeBufferPointer(raw), into: row)
                let action = LinearPolicy.sample(row, rng: &rng)
                w.actions[t] = action
                let step = w.env.step(action)
                w.rewards[t] = step.reward
                result.steps += 1
                let r = Double(step.reward)
                result.totalReturn += r
                if r > 0 { result.gained += r } else if r < 0 { result.lost -= r }
                t += 1
                if step.isDone { break }
            }
            // Returns, advantages and Δ (written over the probabilities).
            var g: Float = 0
            for s in stride(from: t - 1, through: 0, by: -1) {
                g = w.rewards[s] + discount * g
                var v = baseline[d]
                for j in 0 ..< d { v += baseline[j] * x[s * d + j] }
                let advantage = g - v
                w.advantages[s] = advantage
                for a in 0 ..< k {
                    probs[s * k + a] = advantage * ((a == w.actions[s] ? 1 : 0) - probs[s * k + a])
                }
            }
            // Gradients on BLAS: ∇W = Δᵀ X (sgemm), ∇u = Xᵀ A (sgemv).
            var gradient = [Float](repeating: 0, count: p)
            var baselineGradient = [Float](repeating: 0, count: d + 1)
            gradient.withUnsafeMutableBufferPointer { gw in
                baselineGradient.withUnsafeMutableBufferPointer { gu in
                    guard t > 0, let db = probs.baseAddress, let xb = x.baseAddress, let ab = w.advantages.baseAddress,
                          let gwb = gw.baseAddress, let gub = gu.baseAddress else { return }
                    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(k), Int32(d), Int32(t),
                                1, db, Int32(k), xb, Int32(d), 0, gwb, Int32(d))
                    cblas_sgemv(CblasRowMajor, CblasTrans, Int32(t), Int32(d), 1, xb, Int32(d), ab, 1, 0, gub, 1)
                    for s in 0 ..< t {
                        for a in 0 ..< k { gwb[k * d + a] += db[s * k + a] }
                        gub[d] += ab[s]
                    }
                }
            }
            return EpisodeGradient(result: result, gradient: gradient, baselineGradient: baselineGradient,
                                   statistics: statistics)
        })

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

/// One REINFORCE worker's environment and trajectory storage, allocated
/// once for the longest episode (no allocation per step).
final class TrajectoryBuffers<Env: Environment> {
    var env: Env
    let raw: UnsafeMutableBufferPointer<Float>
    /// `steps × inputs`, normalised inputs.
    let inputs: UnsafeMutableBufferPointer<Float>
    /// `steps × outputs`: probabilities while playing, then Δ.
    let probabilities: UnsafeMutableBufferPointer<Float>
    let actions: UnsafeMutableBufferPointer<Int>
    let rewards: UnsafeMutableBufferPointer<Float>
    let advantages: UnsafeMutableBufferPointer<Float>

    init(env: Env, policy: LinearPolicy, steps: Int) {
        self.env = env
        raw = .allocate(capacity: policy.inputs)
        inputs = .allocate(capacity: steps * policy.inputs)
        probabilities = .allocate(capacity: steps * policy.outputs)
        actions = .allocate(capacity: steps)
        rewards = .allocate(capacity: steps)
        advantages = .allocate(capacity: steps)
        for b in [raw, inputs, probabilities, rewards, advantages] { b.initialize(repeating: 0) }
        actions.initialize(repeating: 0)
    }

    deinit {
        for b in [raw, inputs, probabilities, rewards, advantages] { b.deallocate() }
        actions.deallocate()
    }
}

/// One REINFORCE episode's contribution.
struct EpisodeGradient: Sendable {
    var result: EpisodeResult
    var gradient: [Float]
    var baselineGradient: [Float]
    var statistics: ObservationStatistics?
}
