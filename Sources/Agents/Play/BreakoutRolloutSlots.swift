import Gym

/// A ``BreakoutTask``'s episodes on a ``BreakoutBatch``: the batched
/// equivalent of ``Rollout/playOneByOne(_:task:runner:)`` on ``BreakoutGame``s,
/// with exactly its results. The batch is ``BreakoutGame`` bit for bit, run
/// without auto-reset: slot `i` starts each episode with
/// ``BreakoutBatch/reset(_:seed:)`` and the episode's seed; its greedy
/// learner acts on the slot's observation row alone
/// (``LinearPolicy/greedyAction(_:)``, never one sgemm over the slots: from 32
/// inputs sgemm's last bits depend on the batch); an episode stops at the
/// plan's step limit or the game's end. ``RolloutSlots`` books the results.
final class BreakoutRolloutSlots {
    let book: RolloutSlots
    let batch: BreakoutBatch
    let slots: Int
    let observations, rewards: UnsafeMutableBufferPointer<Float>
    let actions: UnsafeMutableBufferPointer<Int32>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>

    init(config: BreakoutConfig, book: RolloutSlots) {
        self.book = book
        slots = book.slots
        batch = BreakoutBatch(config: config, count: slots, seed: 0, autoReset: .off)
        observations = .column(slots * batch.observationCount, 0); rewards = .column(slots, 0)
        actions = .column(slots, 0); terminated = .column(slots, 0); truncated = .column(slots, 0)
    }

    deinit {
        observations.deallocate(); rewards.deallocate(); actions.deallocate()
        terminated.deallocate(); truncated.deallocate()
    }

    /// Starts slot `i`'s current episode and writes its observation row.
    func start(_ i: Int) {
        let (seed, _) = book.startEpisode(i)
        batch.reset(i, seed: seed)
        batch.observe(i, into: observations.baseAddress.unsafelyUnwrapped + i * batch.observationCount)
    }

    /// Plays the worker's jobs to the end.
    func play() {
        guard let obs = observations.baseAddress, let act = actions.baseAddress, let rew = rewards.baseAddress,
              let term = terminated.baseAddress, let trunc = truncated.baseAddress
        else { return }
        let book = self.book
        for i in 0 ..< slots where book.takeJob(i) { start(i) }
        let n = batch.observationCount
        let out = BreakoutBatchOutput(observations: obs, rewards: rew, terminated: term, truncated: trunc)
        while book.active > 0 {
            for i in 0 ..< slots {
                guard book.member[i] >= 0 else { act[i] = 0; continue }
                act[i] = Int32(clamping: book.act(i, UnsafeBufferPointer(start: obs + i * n, count: n)))
            }
            batch.step(actions: act, into: out)
            for i in 0 ..< slots where book.member[i] >= 0 {
                guard book.record(i, reward: rew[i], done: term[i] | trunc[i] != 0) else { continue }
                if book.finishEpisode(i) { start(i) }
            }
        }
    }
}

extension BreakoutTask {
    /// False: ``BreakoutBatch`` runs the same per-game step as
    /// ``BreakoutGame`` (no lane path), and the learners act one row at a
    /// time on their own policies (70 × 4 weights each), so batching saves
    /// nothing and the slots' policies and statistics crowd the cache. The
    /// batched path stays available (``RolloutPath/batched``) and tested.
    public var batchIsFaster: Bool { false }

    /// The plan on ``BreakoutBatch``es (see ``BreakoutRolloutSlots``).
    public func playBatched(_ plan: RolloutPlan, runner: ParallelRunner, slots: Int) -> RolloutResults? {
        RolloutSlots.run(plan, slots: slots, runner: runner) { book in
            BreakoutRolloutSlots(config: config, book: book).play()
        }
    }
}
