import Gym

/// A ``PongTask``'s episodes on a ``PongBatch``: the batched equivalent of
/// ``Rollout/playOneByOne(_:task:runner:)`` on ``PongEnvironments``, with
/// exactly its results (fitness, steps, observation statistics).
///
/// ## Why the results are the reference's, bit for bit
/// - The games are ``PongLearnerGames``: ``PongGame`` bit for bit, each
///   episode set up (side, opponent, seeds) as ``PongTask/reset(_:seed:index:)``
///   and ``PongVersus`` set it up; the greedy learner draws nothing, so
///   the reference's learner reset has nothing to match.
/// - Both sides act on their own egocentric observation row, one row at a
///   time (``LinearPolicy/greedyAction(_:)``, the single-observation path; never one
///   sgemm over the slots); an episode stops at the plan's step limit or the
///   game's end.
/// - Results and statistics are booked by ``RolloutSlots`` in each job's
///   order and written at their indices (see ``RolloutPlan``, "Jobs").
final class PongRolloutSlots {
    let book: RolloutSlots
    let games: PongLearnerGames
    /// Per slot: the learner's action for the next step.
    let learnerActions: UnsafeMutableBufferPointer<Int32>

    init(task: PongTask, book: RolloutSlots) {
        self.book = book
        games = PongLearnerGames(task: task, centre: book.plan.centre, slots: book.slots)
        learnerActions = .column(book.slots, 0)
    }

    deinit { learnerActions.deallocate() }

    /// Starts slot `i`'s current episode.
    func start(_ i: Int) {
        let (seed, k) = book.startEpisode(i)
        games.start(i, seed: seed, episode: k)
    }

    /// Plays the worker's jobs to the end.
    func play() {
        let book = self.book, games = self.games, slots = book.slots
        guard let learner = learnerActions.baseAddress else { return }
        for i in 0 ..< slots where book.takeJob(i) { start(i) }
        while book.active > 0 {
            // Learners first, two slots at a time where both play.
            var i = 0
            while i < slots {
                guard book.member[i] >= 0 else { i += 1; continue }
                if i + 1 < slots, book.member[i + 1] >= 0 {
                    let (a, b) = book.act(i, games.learnerRow(i), i + 1, games.learnerRow(i + 1))
                    learner[i] = Int32(clamping: a)
                    learner[i + 1] = Int32(clamping: b)
                    i += 2
                } else {
                    learner[i] = Int32(clamping: book.act(i, games.learnerRow(i)))
                    i += 1
                }
            }
            for i in 0 ..< slots {
                if book.member[i] >= 0 { games.setActions(i, learner: learner[i]) } else { games.setIdle(i) }
            }
            games.step()
            for i in 0 ..< slots where book.member[i] >= 0 {
                guard book.record(i, reward: games.learnerReward(i), done: games.ended(i)) else { continue }
                if book.finishEpisode(i) { start(i) }
            }
        }
    }
}

extension PongTask {
    /// Whether ``playBatched(_:runner:slots:)`` is faster for this config:
    /// as for ``PongBatchMatches/batchIsFaster(_:)``, when the batch can take
    /// its eight-lane quiet path (one frame per step, no sticky actions).
    /// With frame skip or sticky actions the batch has no lane path and
    /// gains nothing. The same flag routes ``Reinforce``
    /// (``playReinforceBatched(_:runner:slots:)``) and the trainers' evaluation.
    public var batchIsFaster: Bool { PongBatchMatches.batchIsFaster(config) }

    /// The plan on ``PongBatch``es (see ``PongRolloutSlots``).
    public func playBatched(_ plan: RolloutPlan, runner: ParallelRunner, slots: Int) -> RolloutResults? {
        RolloutSlots.run(plan, slots: slots, runner: runner) { book in
            PongRolloutSlots(task: self, book: book).play()
        }
    }
}
