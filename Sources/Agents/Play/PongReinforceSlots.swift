import Gym

/// A ``PongTask``'s ``Reinforce`` episodes on a ``PongBatch``: the batched
/// equivalent of ``ReinforcePlan/playOneByOne(task:runner:)`` on
/// ``PongEnvironments``, with exactly its gradients, results and statistics.
///
/// Worker `w` plays episodes `w, w + W, …`; each of its slots plays one
/// episode at a time and takes the worker's next when it ends, recording in
/// its own ``Trajectory`` (a ``TrajectoryStorage`` allocated once, `maxSteps` rows per slot). Why the results
/// are the reference's, bit for bit:
/// - The games are ``PongLearnerGames`` (episode `k` set up as
///   ``PongTask/reset(_:seed:index:)`` and ``PongVersus`` set it up); the
///   learner samples from its own generator `Seeds.agent(seed, seat: 0)`.
/// - The learner acts on its own egocentric observation row through
///   ``Trajectory/act(_:_:policy:)`` (one row at a time, as the reference);
///   the episode stops at the plan's step limit or the game's end
///   (``Trajectory/record(_:reward:done:)``).
/// - Each episode's gradient is computed by ``Trajectory/finish(_:plan:)`` and
///   written at its index, so the sum in episode order is the reference's.
final class PongReinforceSlots {
    let plan: ReinforcePlan
    let games: PongLearnerGames
    let slots: Int
    /// One trajectory per slot.
    let storage: TrajectoryStorage
    /// Per slot: the running episode (valid while `index[i] >= 0`).
    let running: UnsafeMutableBufferPointer<TrajectoryEpisode>
    /// Per slot: the episode's index (−1 when idle).
    let index: UnsafeMutableBufferPointer<Int>
    var queue: StrideTo<Int>.Iterator
    /// Slots with an episode.
    var active = 0
    let out: UnsafeMutablePointer<EpisodeGradient?>

    /// - Parameters:
    ///   - episodes: this worker's episodes, in the order it plays them.
    ///   - out: the plan's results (initialised), written at this worker's episodes only.
    init(task: PongTask, plan: ReinforcePlan, slots: Int, episodes: WorkerJobs,
         out: UnsafeMutablePointer<EpisodeGradient?>) {
        self.plan = plan
        self.slots = slots
        self.out = out
        queue = episodes.makeIterator()
        games = PongLearnerGames(task: task, centre: plan.policy, slots: slots)
        storage = TrajectoryStorage(plan: plan, count: slots)
        running = .column(slots, TrajectoryEpisode(plan: plan, seed: 0))
        index = .column(slots, -1)
    }

    deinit {
        running.baseAddress?.deinitialize(count: slots); running.deallocate()
        index.deallocate()
    }

    /// Gives slot `i` the worker's next episode and starts it; false (slot
    /// idle) when none is left.
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
        games.start(i, seed: seed, episode: k)
        return true
    }

    /// Plays the worker's episodes to the end.
    func play() {
        guard let episode = running.baseAddress, let k = index.baseAddress else { return }
        let games = self.games, policy = plan.policy
        let trajectories = (0 ..< slots).map { storage[$0] }
        for i in 0 ..< slots { _ = start(i) }
        while active > 0 {
            for i in 0 ..< slots {
                guard k[i] >= 0 else { games.setIdle(i); continue }
                let learner = trajectories[i].act(&episode[i], games.learnerRow(i), policy: policy)
                games.setActions(i, learner: Int32(clamping: learner))
            }
            games.step()
            for i in 0 ..< slots where k[i] >= 0 {
                guard trajectories[i].record(&episode[i], reward: games.learnerReward(i), done: games.ended(i)) else {
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
        let results = UnsafeMutableBufferPointer<EpisodeGradient?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.baseAddress?.deinitialize(count: count)
            results.deallocate()
        }
        let shared = SlotPointer(base: results.baseAddress)
        runner.forEachWorker(jobs: count) { _, episodes in
            guard let out = shared.base else { return }
            PongReinforceSlots(task: self, plan: plan,
                               slots: TrajectoryStorage.slots(plan, wanted: min(slots, episodes.count)),
                               episodes: episodes, out: out).play()
        }
        return (0 ..< count).map { k in
            guard let gradient = results[k] else { preconditionFailure("episode \(k) was not played") }
            return gradient
        }
    }
}
