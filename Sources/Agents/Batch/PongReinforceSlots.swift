import Gym

/// A ``PongTask``'s ``Reinforce`` episodes on a ``PongBatch``: the batched
/// equivalent of ``ReinforcePlan/playOneByOne(task:runner:)`` on
/// ``PongEnvironments``, with exactly its gradients, results and statistics.
///
/// Worker `w` plays episodes `w, w + W, …`; each of its slots plays one
/// episode at a time and takes the worker's next when it ends, recording in
/// its own ``Trajectory`` (a ``TrajectoryStorage`` allocated once, `maxSteps` rows per slot). Why the results
/// are the reference's, bit for bit:
/// - The batch is ``PongGame`` bit for bit, run without auto-reset; episode
///   `k` is set up as in ``PongRolloutSlots`` (``PongTask/reset(_:seed:index:)``
///   and ``PongVersus/reset(seed:)``): the learner plays the bottom when `k`
///   is even, against opponent `(k / 2) % count` reset with
///   `Seeds.stream(seed, 11)`; the learner samples from its own generator
///   `Seeds.stream(seed, 10)`.
/// - The learner acts on its own egocentric observation row through
///   ``Trajectory/act(_:_:policy:)`` (one row at a time, as the reference), the
///   opponent on the other row; the learner's reward is the bottom's,
///   negated on top, and the episode stops at the plan's step limit or the
///   game's end (``Trajectory/record(_:reward:done:)``).
/// - Each episode's gradient is computed by ``Trajectory/finish(_:plan:)`` and
///   written at its index, so the sum in episode order is the reference's.
final class PongReinforceSlots {
    let plan: ReinforcePlan
    let batch: PongBatch
    let slots: Int
    let opponentCount: Int
    /// Opponent `o` of slot `i` at `i × opponentCount + o`.
    let opponents: SlotAgents
    /// One trajectory per slot.
    let storage: TrajectoryStorage
    /// Per slot: the running episode (valid while `index[i] >= 0`).
    let running: UnsafeMutableBufferPointer<TrajectoryEpisode>
    /// Per slot: the episode's index (−1 when idle).
    let index: UnsafeMutableBufferPointer<Int>
    let bottomObs, topObs, rewards: UnsafeMutableBufferPointer<Float>
    let bottomActions, topActions: UnsafeMutableBufferPointer<Int32>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>
    /// Per slot: 1 when the learner plays the bottom, and its opponent's position in `opponents`.
    let learnerIsBottom: UnsafeMutableBufferPointer<UInt8>
    let opponent: UnsafeMutableBufferPointer<Int>
    var queue: StrideTo<Int>.Iterator
    /// Slots with an episode.
    var active = 0
    let out: UnsafeMutablePointer<EpisodeGradient?>

    /// - Parameters:
    ///   - episodes: this worker's episodes, in the order it plays them.
    ///   - out: the plan's results (initialised), written at this worker's episodes only.
    init(task: PongTask, plan: ReinforcePlan, slots: Int, episodes: StrideTo<Int>,
         out: UnsafeMutablePointer<EpisodeGradient?>) {
        self.plan = plan
        self.slots = slots
        self.out = out
        queue = episodes.makeIterator()
        opponentCount = task.opponents.count
        let config = task.config
        batch = PongBatch(config: config, count: slots, seed: 0, agentSide: .bottom, autoReset: .off)
        opponents = SlotAgents((0 ..< slots).flatMap { _ in
            task.opponents.map { opponent -> any Agent in
                switch opponent {
                case let .agent(spec): spec.makePongAgent(config: config)
                case .selfPlay: LinearAgent(policy: plan.policy)
                }
            }
        })
        storage = TrajectoryStorage(plan: plan, count: slots)
        func column<T>(_ n: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
            b.initialize(repeating: value)
            return b
        }
        running = column(slots, TrajectoryEpisode(plan: plan, seed: 0))
        index = column(slots, -1)
        let n = PongBatch.observationCount
        bottomObs = column(slots * n, 0); topObs = column(slots * n, 0); rewards = column(slots, 0)
        bottomActions = column(slots, 0); topActions = column(slots, 0)
        terminated = column(slots, 0); truncated = column(slots, 0)
        learnerIsBottom = column(slots, 1); opponent = column(slots, 0)
    }

    deinit {
        running.baseAddress?.deinitialize(count: slots); running.deallocate()
        index.deallocate()
        bottomObs.deallocate(); topObs.deallocate(); rewards.deallocate()
        bottomActions.deallocate(); topActions.deallocate()
        terminated.deallocate(); truncated.deallocate()
        learnerIsBottom.deallocate(); opponent.deallocate()
    }

    /// Gives slot `i` the worker's next episode and starts it (as
    /// ``PongTask/reset(_:seed:index:)`` and ``PongVersus/reset(seed:)``);
    /// false (slot idle) when none is left.
    func start(_ i: Int) -> Bool {
        guard let k = queue.next() else {
            if index[i] >= 0 { active -= 1 }
            index[i] = -1
            return false
        }
        if index[i] < 0 { active += 1 }
        index[i] = k
        let seed = plan.episodeSeed(k)
        running[i] = TrajectoryEpisode(plan: plan, seed: seed)
        learnerIsBottom[i] = k % 2 == 0 ? 1 : 0
        opponent[i] = i * opponentCount + (k / 2) % opponentCount
        batch.reset(i, seed: seed)
        opponents.reset(opponent[i], seed: Seeds.stream(seed, 11))
        let state = batch.state(i)
        let n = PongBatch.observationCount
        batch.physics.observe(state, side: .bottom, into: bottomObs.baseAddress.unsafelyUnwrapped + i * n)
        batch.physics.observe(state, side: .top, into: topObs.baseAddress.unsafelyUnwrapped + i * n)
        return true
    }

    /// Plays the worker's episodes to the end.
    func play() {
        guard let bObs = bottomObs.baseAddress, let tObs = topObs.baseAddress,
              let bAct = bottomActions.baseAddress, let tAct = topActions.baseAddress,
              let rew = rewards.baseAddress, let term = terminated.baseAddress, let trunc = truncated.baseAddress,
              let bottom = learnerIsBottom.baseAddress, let who = opponent.baseAddress,
              let episode = running.baseAddress, let k = index.baseAddress
        else { return }
        let opponents = self.opponents, policy = plan.policy
        let trajectories = (0 ..< slots).map { storage[$0] }
        for i in 0 ..< slots { _ = start(i) }
        let n = PongBatch.observationCount
        let output = PongBatchOutput(observations: bObs, opponentObservations: tObs, rewards: rew,
                                     terminated: term, truncated: trunc)
        while active > 0 {
            for i in 0 ..< slots {
                guard k[i] >= 0 else { bAct[i] = 0; tAct[i] = 0; continue }
                let own = UnsafeBufferPointer(start: (bottom[i] != 0 ? bObs : tObs) + i * n, count: n)
                let other = UnsafeBufferPointer(start: (bottom[i] != 0 ? tObs : bObs) + i * n, count: n)
                let learner = Int32(clamping: trajectories[i].act(&episode[i], own, policy: policy))
                let rival = Int32(clamping: opponents.act(who[i], other))
                if bottom[i] != 0 { bAct[i] = learner; tAct[i] = rival } else { tAct[i] = learner; bAct[i] = rival }
            }
            batch.step(agent: bAct, opponent: tAct, into: output)
            for i in 0 ..< slots where k[i] >= 0 {
                let reward = bottom[i] != 0 ? rew[i] : -rew[i]
                guard trajectories[i].record(&episode[i], reward: reward, done: term[i] | trunc[i] != 0) else {
                    continue
                }
                out[k[i]] = trajectories[i].finish(episode[i], plan: plan)
                _ = start(i)
            }
        }
    }
}

extension PongTask {
    /// The iteration's episodes on ``PongBatch``es (see ``PongReinforceSlots``),
    /// at most `slots` per worker (fewer for very long episodes: ``TrajectoryStorage/slots(_:wanted:)``).
    public func playReinforceBatched(_ plan: ReinforcePlan, runner: ParallelRunner,
                                     slots: Int) -> [EpisodeGradient]? {
        precondition(slots >= 1, "slots must be at least 1")
        let count = plan.episodes
        let workers = min(runner.workers, count)
        let results = UnsafeMutableBufferPointer<EpisodeGradient?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.baseAddress?.deinitialize(count: count)
            results.deallocate()
        }
        let shared = SlotPointer(base: results.baseAddress)
        ParallelRunner(workers: workers).forEachWorker { w in
            guard let out = shared.base else { return }
            let episodes = (count - w + workers - 1) / workers
            PongReinforceSlots(task: self, plan: plan,
                               slots: TrajectoryStorage.slots(plan, wanted: min(slots, episodes)),
                               episodes: stride(from: w, to: count, by: workers), out: out).play()
        }
        return results.compactMap { $0 }
    }
}
