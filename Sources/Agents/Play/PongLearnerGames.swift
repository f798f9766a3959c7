import Gym

/// A trainer's Pong games on one ``PongBatch``: in each slot a learner plays
/// one side against an opponent of a ``PongTask``'s list, episode `k` set up
/// exactly as ``PongTask/reset(_:seed:index:)`` and ``PongVersus`` set it up:
/// - the learner plays the bottom when `k` is even and the top when odd
///   (observations are egocentric, so one policy plays both sides);
/// - the opponent is entry `(k / 2) % count` of the list (one instance per
///   slot and entry; the self-play one a greedy ``LinearAgent`` of the
///   iteration's policy), reset with `Seeds.agent(seed, seat: 1)`;
/// - the learner's reward is the bottom's, negated on top, as
///   ``PongVersus/step(_:)`` computes it.
/// The batch runs without auto-reset: a finished slot waits for its next
/// ``start(_:seed:episode:)``. The trainers' slot engines (``PongRolloutSlots``
/// for ES, ``PongReinforceSlots`` for REINFORCE) choose the learners' actions
/// and book the results; this class owns the game side. Buffers are
/// allocated once per call (nothing per step); one worker uses it.
final class PongLearnerGames {
    let batch: PongBatch
    let slots: Int
    let opponentCount: Int
    /// Opponent `o` of slot `i` at `i × opponentCount + o`.
    let opponents: SlotAgents
    let bottomObs, topObs, rewards: UnsafeMutableBufferPointer<Float>
    let bottomActions, topActions: UnsafeMutableBufferPointer<Int32>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>
    /// Per slot: 1 when the learner plays the bottom, and its opponent's position in `opponents`.
    let learnerIsBottom: UnsafeMutableBufferPointer<UInt8>
    let opponent: UnsafeMutableBufferPointer<Int>

    /// - Parameter centre: the iteration's policy (the self-play opponent).
    init(task: PongTask, centre: LinearPolicy, slots: Int) {
        self.slots = slots
        opponentCount = task.opponents.count
        let config = task.config
        batch = PongBatch(config: config, count: slots, seed: 0, agentSide: .bottom, autoReset: .off)
        opponents = SlotAgents((0 ..< slots).flatMap { _ in
            task.opponents.map { opponent -> any Agent in
                switch opponent {
                case let .agent(spec): spec.makePongAgent(config: config)
                case .selfPlay: LinearAgent(policy: centre)
                }
            }
        })
        let n = PongBatch.observationCount
        bottomObs = .column(slots * n, 0); topObs = .column(slots * n, 0); rewards = .column(slots, 0)
        bottomActions = .column(slots, 0); topActions = .column(slots, 0)
        terminated = .column(slots, 0); truncated = .column(slots, 0)
        learnerIsBottom = .column(slots, 1); opponent = .column(slots, 0)
    }

    deinit {
        bottomObs.deallocate(); topObs.deallocate(); rewards.deallocate()
        bottomActions.deallocate(); topActions.deallocate()
        terminated.deallocate(); truncated.deallocate()
        learnerIsBottom.deallocate(); opponent.deallocate()
    }

    /// Starts episode `k` (seeded `seed`) in slot `i` and writes both
    /// observation rows.
    func start(_ i: Int, seed: UInt64, episode k: Int) {
        learnerIsBottom[i] = k % 2 == 0 ? 1 : 0
        opponent[i] = i * opponentCount + (k / 2) % opponentCount
        batch.reset(i, seed: seed)
        opponents.reset(opponent[i], seed: Seeds.agent(seed, seat: 1))
        let state = batch.state(i)
        let n = PongBatch.observationCount
        batch.physics.observe(state, side: .bottom, into: bottomObs.baseAddress.unsafelyUnwrapped + i * n)
        batch.physics.observe(state, side: .top, into: topObs.baseAddress.unsafelyUnwrapped + i * n)
    }

    /// The learner's observation row in slot `i` (its own side's view).
    @inline(__always)
    func learnerRow(_ i: Int) -> UnsafeBufferPointer<Float> {
        let rows = learnerIsBottom[i] != 0 ? bottomObs : topObs
        return UnsafeBufferPointer(start: rows.baseAddress.unsafelyUnwrapped + i * PongBatch.observationCount,
                                   count: PongBatch.observationCount)
    }

    /// Slot `i`'s actions for the next step: the learner's, and its
    /// opponent's on the other side's observation row.
    @inline(__always)
    func setActions(_ i: Int, learner: Int32) {
        let n = PongBatch.observationCount
        if learnerIsBottom[i] != 0 {
            bottomActions[i] = learner
            topActions[i] = Int32(clamping: opponents.act(opponent[i], UnsafeBufferPointer(
                start: topObs.baseAddress.unsafelyUnwrapped + i * n, count: n)))
        } else {
            topActions[i] = learner
            bottomActions[i] = Int32(clamping: opponents.act(opponent[i], UnsafeBufferPointer(
                start: bottomObs.baseAddress.unsafelyUnwrapped + i * n, count: n)))
        }
    }

    /// An idle slot's actions: the slot has no episode left to play (its game
    /// may still be running when the last episode was cut at the step limit;
    /// it keeps being stepped, with no effect on any result).
    @inline(__always)
    func setIdle(_ i: Int) {
        bottomActions[i] = 0
        topActions[i] = 0
    }

    /// One step of every slot.
    func step() {
        guard let bObs = bottomObs.baseAddress, let tObs = topObs.baseAddress,
              let bAct = bottomActions.baseAddress, let tAct = topActions.baseAddress,
              let rew = rewards.baseAddress, let term = terminated.baseAddress, let trunc = truncated.baseAddress
        else { return }
        batch.step(agent: bAct, opponent: tAct, into: PongBatchOutput(
            observations: bObs, opponentObservations: tObs, rewards: rew, terminated: term, truncated: trunc))
    }

    /// The learner's reward in slot `i` from the last step.
    @inline(__always)
    func learnerReward(_ i: Int) -> Float { learnerIsBottom[i] != 0 ? rewards[i] : -rewards[i] }

    /// Whether slot `i`'s game ended in the last step.
    @inline(__always)
    func ended(_ i: Int) -> Bool { terminated[i] | truncated[i] != 0 }
}
