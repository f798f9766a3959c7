import CBLAS
import Gym

/// What one ``Reinforce`` iteration's episodes need: the policy sampled
/// (softmax of its logits), the baseline, and how episode `k` is seeded.
/// Every path (``ReinforcePlan/playOneByOne(task:runner:)``, or a task's
/// ``TrainingTask/playReinforceBatched(_:runner:slots:)``) gives each episode
/// exactly the same ``EpisodeGradient``.
public struct ReinforcePlan: Sendable {
    /// Episodes of the iteration.
    public var episodes: Int
    /// Agent steps after which an episode stops.
    public var maxSteps: Int
    /// Episode `k`'s seed is `Seeds.episode(runSeed: seedBase, index: k)`;
    /// its action draws come from `Xoshiro256(seed: Seeds.stream(episodeSeed, 10))`.
    public var seedBase: UInt64
    /// Reward discount per step, in [0, 1].
    public var discount: Float
    /// The policy played (its normaliser, if any, is folded into its logits).
    public var policy: LinearPolicy
    /// The linear value `V(x) = u·x + c` on normalised inputs: `inputs + 1` floats (`u`, then `c`).
    public var baseline: [Float]
    /// Normalisation `x = raw × scale + shift` (identity without a normaliser).
    public var scale: [Float], shift: [Float]
    /// Gather each episode's raw observations (when the policy has a normaliser).
    public var collectStatistics: Bool

    public init(episodes: Int, maxSteps: Int, seedBase: UInt64, discount: Float, policy: LinearPolicy,
                baseline: [Float]) {
        precondition(episodes >= 1 && maxSteps >= 1, "a plan needs episodes and steps")
        precondition(baseline.count == policy.inputs + 1, "the baseline has inputs + 1 values")
        self.episodes = episodes
        self.maxSteps = maxSteps
        self.seedBase = seedBase
        self.discount = discount
        self.policy = policy
        self.baseline = baseline
        let d = policy.inputs
        (scale, shift) = policy.normalizer?.affine()
            ?? ([Float](repeating: 1, count: d), [Float](repeating: 0, count: d))
        collectStatistics = policy.normalizer != nil
    }

    /// Episode `k`'s seed.
    @inline(__always)
    public func episodeSeed(_ k: Int) -> UInt64 { Seeds.episode(runSeed: seedBase, index: k) }

    /// The reference: episode after episode on one worker's single
    /// environment (started by ``TrainingTask/reset(_:seed:index:)``).
    public func playOneByOne<Task: TrainingTask>(task: Task, runner: ParallelRunner) -> [EpisodeGradient] {
        let plan = self
        return runner.map(count: episodes, makeWorker: { _ in
            (env: task.makeEnvironment(centre: plan.policy), trajectory: Trajectory(plan: plan))
        }, job: { w, k in
            let seed = plan.episodeSeed(k)
            task.reset(&w.env, seed: seed, index: k)
            var episode = TrajectoryEpisode(plan: plan, seed: seed)
            let raw = w.trajectory.raw
            repeat {
                w.env.observe(into: raw)
                let step = w.env.step(w.trajectory.act(&episode, UnsafeBufferPointer(raw)))
                if w.trajectory.record(&episode, reward: step.reward, done: step.isDone) { break }
            } while true
            return w.trajectory.finish(episode)
        })
    }
}

/// One REINFORCE episode's contribution.
public struct EpisodeGradient: Sendable {
    public var result: EpisodeResult
    /// `∇W` (`outputs × inputs`, row-major) then `∇b`: the policy's parameter layout.
    public var gradient: [Float]
    /// `∇u` then `∇c`.
    public var baselineGradient: [Float]
    /// The episode's raw observations (nil unless the plan collects statistics).
    public var statistics: ObservationStatistics?
}

/// The running state of one episode being recorded in a ``Trajectory``.
struct TrajectoryEpisode {
    /// Steps recorded so far.
    var steps = 0
    var result = EpisodeResult()
    /// The episode's action generator.
    var rng: Xoshiro256
    var statistics: ObservationStatistics?

    init(plan: ReinforcePlan, seed: UInt64) {
        rng = Xoshiro256(seed: Seeds.stream(seed, 10))
        statistics = plan.collectStatistics ? ObservationStatistics(features: plan.policy.inputs) : nil
    }
}

/// Storage for one episode's trajectory, allocated once for the plan's
/// longest episode (no allocation per step), and the per-episode REINFORCE
/// math shared by every rollout path: ``act(_:_:)`` samples and records a
/// step, ``record(_:reward:done:)`` books its reward, ``finish(_:)``
/// computes returns, advantages and the episode's gradients.
///
/// For an episode of `T` steps with normalised inputs `X` (`T × D`),
/// action probabilities `π` and discounted returns `G`, the advantage is
/// `A = G − V(X)`, and
/// - policy gradient: `∇W = Δᵀ X`, `∇b = Σₜ Δₜ` with `Δₜₐ = Aₜ(1[a = aₜ] − πₜₐ)`: one `cblas_sgemm`;
/// - baseline gradient (of `−½(G − V)²`): `∇u = Xᵀ A`, `∇c = Σₜ Aₜ`: one `cblas_sgemv`.
final class Trajectory {
    let plan: ReinforcePlan
    /// Scratch for one raw observation (`inputs` floats).
    let raw: UnsafeMutableBufferPointer<Float>
    /// `maxSteps × inputs`, normalised inputs.
    let inputs: UnsafeMutableBufferPointer<Float>
    /// `maxSteps × outputs`: probabilities while playing, then Δ.
    let probabilities: UnsafeMutableBufferPointer<Float>
    let actions: UnsafeMutableBufferPointer<Int>
    let rewards: UnsafeMutableBufferPointer<Float>
    let advantages: UnsafeMutableBufferPointer<Float>

    init(plan: ReinforcePlan) {
        self.plan = plan
        let steps = plan.maxSteps
        raw = .allocate(capacity: plan.policy.inputs)
        inputs = .allocate(capacity: steps * plan.policy.inputs)
        probabilities = .allocate(capacity: steps * plan.policy.outputs)
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

    /// Step `episode.steps`: adds the raw observation to the statistics,
    /// records its normalised inputs and the policy's probabilities, and
    /// samples the action from the episode's generator.
    @inline(__always)
    func act(_ episode: inout TrajectoryEpisode, _ raw: UnsafeBufferPointer<Float>) -> Int {
        let d = plan.policy.inputs, k = plan.policy.outputs, t = episode.steps
        if plan.collectStatistics { episode.statistics?.add(raw) }
        plan.scale.withUnsafeBufferPointer { scale in
            plan.shift.withUnsafeBufferPointer { shift in
                for j in 0 ..< d { inputs[t * d + j] = raw[j] * scale[j] + shift[j] }
            }
        }
        let row = UnsafeMutableBufferPointer(rebasing: probabilities[t * k ..< (t + 1) * k])
        plan.policy.logits(raw, into: row)
        let action = LinearPolicy.sample(row, rng: &episode.rng)
        actions[t] = action
        return action
    }

    /// Books the reward of the step just acted; returns whether the episode
    /// is over (the game ended or the plan's step limit is reached).
    @inline(__always)
    func record(_ episode: inout TrajectoryEpisode, reward: Float, done: Bool) -> Bool {
        rewards[episode.steps] = reward
        episode.result.steps += 1
        let r = Double(reward)
        episode.result.totalReturn += r
        if r > 0 { episode.result.gained += r } else if r < 0 { episode.result.lost -= r }
        episode.steps += 1
        return done || episode.steps >= plan.maxSteps
    }

    /// Returns, advantages, Δ (written over the probabilities) and the
    /// episode's gradients on BLAS.
    func finish(_ episode: TrajectoryEpisode) -> EpisodeGradient {
        let d = plan.policy.inputs, k = plan.policy.outputs, t = episode.steps
        let discount = plan.discount
        let (x, probs) = (inputs, probabilities)
        plan.baseline.withUnsafeBufferPointer { baseline in
            var g: Float = 0
            for s in stride(from: t - 1, through: 0, by: -1) {
                g = rewards[s] + discount * g
                var v = baseline[d]
                for j in 0 ..< d { v += baseline[j] * x[s * d + j] }
                let advantage = g - v
                advantages[s] = advantage
                for a in 0 ..< k {
                    probs[s * k + a] = advantage * ((a == actions[s] ? 1 : 0) - probs[s * k + a])
                }
            }
        }
        // ∇W = Δᵀ X (sgemm), ∇u = Xᵀ A (sgemv).
        var gradient = [Float](repeating: 0, count: plan.policy.parameterCount)
        var baselineGradient = [Float](repeating: 0, count: d + 1)
        gradient.withUnsafeMutableBufferPointer { gw in
            baselineGradient.withUnsafeMutableBufferPointer { gu in
                guard t > 0, let db = probs.baseAddress, let xb = x.baseAddress, let ab = advantages.baseAddress,
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
        return EpisodeGradient(result: episode.result, gradient: gradient, baselineGradient: baselineGradient,
                               statistics: episode.statistics)
    }
}
