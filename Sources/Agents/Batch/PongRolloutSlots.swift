import Gym

/// A ``PongTask``'s episodes on a ``PongBatch``: the batched equivalent of
/// ``Rollout/playOneByOne(_:task:runner:)`` on ``PongEnvironments``, with
/// exactly its results (fitness, steps, observation statistics).
///
/// ## Why the results are the reference's, bit for bit
/// - The batch is ``PongGame`` bit for bit, run without auto-reset: slot `i`
///   starts each episode with ``PongBatch/reset(_:seed:)`` and the episode's
///   seed, as ``PongVersus/reset(seed:)`` does.
/// - Episode `k` is set up as ``PongTask/reset(_:seed:index:)`` sets it up:
///   the learner plays the bottom when `k` is even and the top when odd,
///   against opponent `(k / 2) % count`; the opponent (one instance per slot
///   and list entry, the self-play one a greedy ``LinearAgent`` of the plan's
///   centre) is reset with `Seeds.stream(seed, 11)` as ``PongVersus``
///   resets it, the learner with `Seeds.stream(seed, 10)`.
/// - Both act on their own egocentric observation row, one row at a time
///   (``LinearAgent/act(_:)``, the single-observation path; never one sgemm
///   over the slots). The learner's reward is the bottom's, negated on top,
///   as ``PongVersus/step(_:)`` computes it; an episode stops at the plan's
///   step limit or the game's end.
/// - Results and statistics are booked by ``RolloutSlots`` in each job's
///   order and written at their indices (see ``RolloutPlan``, "Jobs").
final class PongRolloutSlots {
    let book: RolloutSlots
    let batch: PongBatch
    let slots: Int
    let opponentCount: Int
    /// Opponent `o` of slot `i` at `i × opponentCount + o`.
    let opponents: SlotAgents
    let bottomObs, topObs, rewards: UnsafeMutableBufferPointer<Float>
    let bottomActions, topActions, learnerActions: UnsafeMutableBufferPointer<Int32>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>
    /// Per slot: 1 when the learner plays the bottom, and its opponent's position in `opponents`.
    let learnerIsBottom: UnsafeMutableBufferPointer<UInt8>
    let opponent: UnsafeMutableBufferPointer<Int>

    init(task: PongTask, book: RolloutSlots) {
        self.book = book
        slots = book.slots
        opponentCount = task.opponents.count
        let config = task.config
        batch = PongBatch(config: config, count: slots, seed: 0, agentSide: .bottom, autoReset: .off)
        let centre = book.plan.centre
        opponents = SlotAgents((0 ..< slots).flatMap { _ in
            task.opponents.map { opponent -> any Agent in
                switch opponent {
                case let .agent(spec): spec.makePongAgent(config: config)
                case .selfPlay: LinearAgent(policy: centre)
                }
            }
        })
        func column<T>(_ n: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
            b.initialize(repeating: value)
            return b
        }
        let n = PongBatch.observationCount
        bottomObs = column(slots * n, 0); topObs = column(slots * n, 0); rewards = column(slots, 0)
        bottomActions = column(slots, 0); topActions = column(slots, 0); learnerActions = column(slots, 0)
        terminated = column(slots, 0); truncated = column(slots, 0)
        learnerIsBottom = column(slots, 1); opponent = column(slots, 0)
    }

    deinit {
        bottomObs.deallocate(); topObs.deallocate(); rewards.deallocate()
        bottomActions.deallocate(); topActions.deallocate(); learnerActions.deallocate()
        terminated.deallocate(); truncated.deallocate()
        learnerIsBottom.deallocate(); opponent.deallocate()
    }

    /// Starts slot `i`'s current episode (as ``PongTask/reset(_:seed:index:)``
    /// and ``PongVersus/reset(seed:)``) and writes its observation rows.
    func start(_ i: Int) {
        let (seed, k) = book.startEpisode(i)
        learnerIsBottom[i] = k % 2 == 0 ? 1 : 0
        opponent[i] = i * opponentCount + (k / 2) % opponentCount
        batch.reset(i, seed: seed)
        opponents.reset(opponent[i], seed: Seeds.stream(seed, 11))
        let state = batch.state(i)
        let n = PongBatch.observationCount
        batch.physics.observe(state, side: .bottom, into: bottomObs.baseAddress.unsafelyUnwrapped + i * n)
        batch.physics.observe(state, side: .top, into: topObs.baseAddress.unsafelyUnwrapped + i * n)
    }

    /// Plays the worker's jobs to the end.
    func play() {
        guard let bObs = bottomObs.baseAddress, let tObs = topObs.baseAddress,
              let bAct = bottomActions.baseAddress, let tAct = topActions.baseAddress,
              let rew = rewards.baseAddress, let term = terminated.baseAddress, let trunc = truncated.baseAddress,
              let bottom = learnerIsBottom.baseAddress, let who = opponent.baseAddress,
              let learner = learnerActions.baseAddress
        else { return }
        let book = self.book, opponents = self.opponents
        for i in 0 ..< slots where book.takeJob(i) { start(i) }
        let n = PongBatch.observationCount
        let out = PongBatchOutput(observations: bObs, opponentObservations: tObs, rewards: rew,
                                  terminated: term, truncated: trunc)
        @inline(__always) func learnerRow(_ i: Int) -> UnsafeBufferPointer<Float> {
            UnsafeBufferPointer(start: (bottom[i] != 0 ? bObs : tObs) + i * n, count: n)
        }
        while book.active > 0 {
            // Learners first, two slots at a time where both play.
            var i = 0
            while i < slots {
                guard book.member[i] >= 0 else { i += 1; continue }
                if i + 1 < slots, book.member[i + 1] >= 0 {
                    let (a, b) = book.act(i, learnerRow(i), i + 1, learnerRow(i + 1))
                    learner[i] = Int32(clamping: a)
                    learner[i + 1] = Int32(clamping: b)
                    i += 2
                } else {
                    learner[i] = Int32(clamping: book.act(i, learnerRow(i)))
                    i += 1
                }
            }
            for i in 0 ..< slots {
                guard book.member[i] >= 0 else { bAct[i] = 0; tAct[i] = 0; continue }
                if bottom[i] != 0 {
                    bAct[i] = learner[i]
                    tAct[i] = Int32(clamping: opponents.act(who[i], UnsafeBufferPointer(start: tObs + i * n, count: n)))
                } else {
                    tAct[i] = learner[i]
                    bAct[i] = Int32(clamping: opponents.act(who[i], UnsafeBufferPointer(start: bObs + i * n, count: n)))
                }
            }
            batch.step(agent: bAct, opponent: tAct, into: out)
            for i in 0 ..< slots where book.member[i] >= 0 {
                let reward = bottom[i] != 0 ? rew[i] : -rew[i]
                guard book.record(i, reward: reward, done: term[i] | trunc[i] != 0) else { continue }
                if book.finishEpisode(i) { start(i) }
            }
        }
    }
}

extension PongTask {
    /// Whether ``playBatched(_:runner:slots:)`` is faster for this config:
    /// as for ``PongBatchMatches/batchIsFaster(_:)``, when the batch can take
    /// its eight-lane quiet path (one frame per step, no sticky actions).
    /// Measured (release, one worker, ES with `Configs/train.json`'s
    /// settings): classic against tracker and random 4.5 → 2.7 s for 100
    /// iterations, self-play 3.4 → 2.2 s for 60; the `ale` preset (frame skip
    /// 4, sticky actions) 2.24 s one by one against 2.30 s batched for 30.
    public var batchIsFaster: Bool { PongBatchMatches.batchIsFaster(config) }

    /// The plan on ``PongBatch``es (see ``PongRolloutSlots``).
    public func playBatched(_ plan: RolloutPlan, runner: ParallelRunner, slots: Int) -> RolloutResults? {
        RolloutSlots.run(plan, slots: slots, runner: runner) { book in
            PongRolloutSlots(task: self, book: book).play()
        }
    }
}
