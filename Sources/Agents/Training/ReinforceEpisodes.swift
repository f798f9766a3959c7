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
    /// its action draws come from `Xoshiro256(seed: Seeds.agent(episodeSeed, seat: 0))`.
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
            (env: task.makeEnvironment(centre: plan.policy), storage: TrajectoryStorage(plan: plan, count: 1))
        }, job: { w, k in
            let seed = plan.episodeSeed(k)
            task.reset(&w.env, seed: seed, index: k)
            var episode = TrajectoryEpisode(plan: plan, seed: seed)
            let trajectory = w.storage[0], policy = plan.policy
            let raw = UnsafeMutableBufferPointer(start: trajectory.raw, count: policy.inputs)
            repeat {
                w.env.observe(into: raw)
                let step = w.env.step(trajectory.act(&episode, UnsafeBufferPointer(raw), policy: policy))
                if trajectory.record(&episode, reward: step.reward, done: step.isDone) { break }
            } while true
            return trajectory.finish(episode, plan: plan)
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
        rng = Xoshiro256(seed: Seeds.agent(seed, seat: 0))
        statistics = plan.collectStatistics ? ObservationStatistics(features: plan.policy.inputs) : nil
    }
}

/// Storage for `count` episodes' trajectories, allocated once for the
/// plan's longest episode (no allocation per step): trajectory `i` is
/// ``subscript(_:)``. Owned by one worker.
final class TrajectoryStorage {
    let count: Int
    let scale, shift: UnsafeMutableBufferPointer<Float>
    let raw, inputs, probabilities, rewards, advantages: UnsafeMutableBufferPointer<Float>
    let actions: UnsafeMutableBufferPointer<Int>
    let inputCount, outputCount, maxSteps: Int

    init(plan: ReinforcePlan, count: Int) {
        self.count = count
        let d = plan.policy.inputs, k = plan.policy.outputs, steps = plan.maxSteps
        (inputCount, outputCount, maxSteps) = (d, k, steps)
        func floats(_ n: Int) -> UnsafeMutableBufferPointer<Float> {
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: n)
            b.initialize(repeating: 0)
            return b
        }
        scale = floats(d); _ = scale.initialize(from: plan.scale)
        shift = floats(d); _ = shift.initialize(from: plan.shift)
        raw = floats(count * d)
        inputs = floats(count * steps * d)
        probabilities = floats(count * steps * k)
        rewards = floats(count * steps)
        advantages = floats(count * steps)
        actions = .allocate(capacity: count * steps)
        actions.initialize(repeating: 0)
    }

    deinit {
        for b in [scale, shift, raw, inputs, probabilities, rewards, advantages] { b.deallocate() }
        actions.deallocate()
    }

    /// Bytes of one trajectory of `plan` (its `maxSteps` rows).
    static func bytes(_ plan: ReinforcePlan) -> Int {
        let d = plan.policy.inputs, k = plan.policy.outputs
        return plan.maxSteps * ((d + k + 2) * MemoryLayout<Float>.stride + MemoryLayout<Int>.stride)
    }

    /// At most `wanted` trajectories, fewer when long episodes would make a
    /// worker's storage exceed 256 MiB (never fewer than one; the results do
    /// not depend on the number of slots).
    static func slots(_ plan: ReinforcePlan, wanted: Int) -> Int {
        max(1, min(wanted, (256 << 20) / max(bytes(plan), 1)))
    }

    /// Trajectory `i`'s rows (valid while the storage lives).
    subscript(_ i: Int) -> Trajectory {
        let d = inputCount, k = outputCount, n = maxSteps
        guard let raw = raw.baseAddress, let x = inputs.baseAddress, let p = probabilities.baseAddress,
              let r = rewards.baseAddress, let a = advantages.baseAddress, let actions = actions.baseAddress,
              let scale = scale.baseAddress, let shift = shift.baseAddress
        else { preconditionFailure("empty trajectory storage") }
        return Trajectory(inputCount: d, outputCount: k, maxSteps: n, scale: scale, shift: shift,
                          raw: raw + i * d, inputs: x + i * n * d, probabilities: p + i * n * k,
                          actions: actions + i * n, rewards: r + i * n, advantages: a + i * n)
    }
}

/// One episode's trajectory rows in a ``TrajectoryStorage``, and the
/// per-episode REINFORCE math shared by every rollout path: ``act(_:_:policy:)``
/// samples and records a step, ``record(_:reward:done:)`` books its reward,
/// ``finish(_:plan:)`` computes returns, advantages and the episode's gradients.
///
/// For an episode of `T` steps with normalised inputs `X` (`T × D`),
/// action probabilities `π` and discounted returns `G`, the advantage is
/// `A = G − V(X)`, and
/// - policy gradient: `∇W = Δᵀ X`, `∇b = Σₜ Δₜ` with `Δₜₐ = Aₜ(1[a = aₜ] − πₜₐ)`: one ``ExactProduct``;
/// - baseline gradient (of `−½(G − V)²`): `∇u = Xᵀ A`, `∇c = Σₜ Aₜ`: one ``ExactProduct``.
struct Trajectory {
    let inputCount, outputCount, maxSteps: Int
    /// Normalisation `x = raw × scale + shift` (`inputCount` each).
    let scale, shift: UnsafeMutablePointer<Float>
    /// Scratch for one raw observation (`inputCount` floats).
    let raw: UnsafeMutablePointer<Float>
    /// `maxSteps × inputCount`, normalised inputs.
    let inputs: UnsafeMutablePointer<Float>
    /// `maxSteps × outputCount`: probabilities while playing, then Δ.
    let probabilities: UnsafeMutablePointer<Float>
    let actions: UnsafeMutablePointer<Int>
    let rewards, advantages: UnsafeMutablePointer<Float>

    /// Step `episode.steps`: adds the raw observation to the statistics,
    /// records its normalised inputs and `policy`'s probabilities, and
    /// samples the action from the episode's generator.
    @inline(__always)
    func act(_ episode: inout TrajectoryEpisode, _ raw: UnsafeBufferPointer<Float>, policy: LinearPolicy) -> Int {
        let d = inputCount, k = outputCount, t = episode.steps
        if episode.statistics != nil { episode.statistics?.add(raw) }
        for j in 0 ..< d { inputs[t * d + j] = raw[j] * scale[j] + shift[j] }
        let row = UnsafeMutableBufferPointer(start: probabilities + t * k, count: k)
        policy.logits(raw, into: row)
        let action = LinearPolicy.sample(row, rng: &episode.rng)
        actions[t] = action
        return action
    }

    /// Books the reward of the step just acted; returns whether the episode
    /// is over (the game ended or `maxSteps` is reached).
    @inline(__always)
    func record(_ episode: inout TrajectoryEpisode, reward: Float, done: Bool) -> Bool {
        rewards[episode.steps] = reward
        episode.result.add(reward: reward)
        episode.steps += 1
        return done || episode.steps >= maxSteps
    }

    /// Returns, advantages, Δ (written over the probabilities) and the
    /// episode's gradients on BLAS.
    func finish(_ episode: TrajectoryEpisode, plan: ReinforcePlan) -> EpisodeGradient {
        let d = inputCount, k = outputCount, t = episode.steps
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
        // ∇W = Δᵀ X, ∇u = Xᵀ A: exact products, the same bits on every CPU.
        var gradient = [Float](repeating: 0, count: plan.policy.parameterCount)
        var baselineGradient = [Float](repeating: 0, count: d + 1)
        gradient.withUnsafeMutableBufferPointer { gw in
            baselineGradient.withUnsafeMutableBufferPointer { gu in
                guard t > 0, let gwb = gw.baseAddress, let gub = gu.baseAddress else { return }
                ExactProduct.multiply(m: k, n: d, k: t, a: probs, lda: k, transposeA: true,
                                      b: x, ldb: d, transposeB: false, into: gwb, ldc: d)
                ExactProduct.multiply(m: d, n: 1, k: t, a: x, lda: d, transposeA: true,
                                      b: advantages, ldb: 1, transposeB: false, into: gub, ldc: 1)
                for s in 0 ..< t {
                    for a in 0 ..< k { gwb[k * d + a] += probs[s * k + a] }
                    gub[d] += advantages[s]
                }
            }
        }
        return EpisodeGradient(result: episode.result, gradient: gradient, baselineGradient: baselineGradient,
                               statistics: episode.statistics)
    }
}
