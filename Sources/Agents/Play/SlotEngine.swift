import Gym

/// What one kind of work does in the slot engine's slots (a match roster, an
/// ES plan, a REINFORCE plan): the engine owns the vector environment, the
/// buffers and the refill loop; the work owns the players and the books.
///
/// A worker's jobs are taken in order; a job holds one or more episodes,
/// played in order in the slot that took it.
protocol SlotWork: AnyObject, SendableMetatype {
    associatedtype Game: PlayableGame
    /// Slot `i` takes job `job`.
    func take(_ job: Int, slot i: Int)
    /// The seed of slot `i`'s job's next episode, or nil when the job is done.
    func nextEpisode(slot i: Int) -> UInt64?
    /// Slot `i`'s game was just reset with the episode's seed: reset the players.
    func started(slot i: Int, vector: Game.Vector, seed: UInt64)
    /// Slot `i`'s actions (one per seat) from its observation rows (one per seat).
    func act(slot i: Int, observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>)
    /// Books one step of slot `i` (its rewards, one per seat); true when its
    /// episode is over (the game ended, or the work's step limit).
    func record(slot i: Int, rewards: UnsafePointer<Float>, events: Game.Vector.Events, ended: Bool) -> Bool
    /// Slot `i`'s episode is over: write its result.
    func finished(slot i: Int, vector: Game.Vector)
}

/// The one slot engine: one worker's `slots` games on one vector
/// environment (autoreset disabled), every buffer allocated once. Each slot
/// plays its work's episodes one after another; a slot whose episode ends is
/// reset with the next episode's seed (of its job, or of the worker's next
/// job), so every episode starts from its seed alone, as on the reference
/// path, and the results do not depend on the number of workers or slots.
/// A slot with nothing left stays idle (action 0; its game keeps being
/// stepped with no effect on any result). Used by one worker only.
final class SlotEngine<Game: PlayableGame> {
    let vector: Game.Vector
    let slots: Int, seats: Int, observationCount: Int
    let observations, rewards: UnsafeMutableBufferPointer<Float>
    let actions: UnsafeMutableBufferPointer<Int32>
    let terminated, truncated, busy: UnsafeMutableBufferPointer<UInt8>
    let events: UnsafeMutableBufferPointer<Game.Vector.Events>

    init(config: Game.Config, slots: Int) {
        precondition(slots >= 1, "slots must be at least 1")
        vector = Game.makeVector(config: config, count: slots)
        self.slots = slots
        seats = vector.seats
        observationCount = vector.observationLayout.count
        observations = .column(slots * seats * observationCount, 0)
        rewards = .column(slots * seats, 0)
        actions = .column(slots * seats, 0)
        terminated = .column(slots, 0); truncated = .column(slots, 0); busy = .column(slots, 0)
        events = .column(slots, Game.noEvents)
    }

    deinit {
        observations.deallocate(); rewards.deallocate(); actions.deallocate()
        terminated.deallocate(); truncated.deallocate(); busy.deallocate()
        events.baseAddress?.deinitialize(count: slots); events.deallocate()
    }

    /// Plays `jobs` (this worker's, in order) with `work` to the end.
    func run<Work: SlotWork>(_ work: Work, jobs: WorkerJobs) where Work.Game == Game {
        guard let obs = observations.baseAddress, let act = actions.baseAddress, let rew = rewards.baseAddress,
              let term = terminated.baseAddress, let trunc = truncated.baseAddress, let ev = events.baseAddress,
              let live = busy.baseAddress
        else { return }
        let vector = self.vector, seats = self.seats, rowLength = seats * observationCount
        var queue = jobs.makeIterator()
        var hasJob = [Bool](repeating: false, count: slots)
        /// Gives slot `i` its next episode; false when nothing is left.
        func refill(_ i: Int) -> Bool {
            while true {
                if hasJob[i], let seed = work.nextEpisode(slot: i) {
                    vector.reset(i, seed: seed)
                    work.started(slot: i, vector: vector, seed: seed)
                    return true
                }
                guard let job = queue.next() else { hasJob[i] = false; return false }
                work.take(job, slot: i)
                hasJob[i] = true
            }
        }
        var active = 0
        for i in 0 ..< slots where refill(i) { live[i] = 1; active += 1 }
        vector.observe(into: obs)
        let out = VectorStepOutput(observations: obs, rewards: rew, terminated: term, truncated: trunc, events: ev)
        while active > 0 {
            for i in 0 ..< slots {
                if live[i] != 0 {
                    work.act(slot: i, observations: obs + i * rowLength, actions: act + i * seats)
                } else {
                    (act + i * seats).update(repeating: 0, count: seats)
                }
            }
            vector.step(actions: act, into: out)
            var restarted = false
            for i in 0 ..< slots where live[i] != 0 {
                guard work.record(slot: i, rewards: rew + i * seats, events: ev[i], ended: term[i] | trunc[i] != 0)
                else { continue }
                work.finished(slot: i, vector: vector)
                if refill(i) { restarted = true } else { live[i] = 0; active -= 1 }
            }
            if restarted { vector.observe(into: obs) }
        }
    }

    /// Runs `count` jobs over `runner`'s workers, each with its own engine of
    /// at most `slots` games and its own `makeWork` (one dispatch in all).
    static func run<Work: SlotWork>(config: Game.Config, jobs count: Int, slots: Int, runner: ParallelRunner,
                                    makeWork: @Sendable (_ slots: Int) -> Work) where Work.Game == Game {
        precondition(slots >= 1, "slots must be at least 1")
        runner.forEachWorker(jobs: count) { _, jobs in
            let n = Swift.min(slots, jobs.count)
            SlotEngine(config: config, slots: n).run(makeWork(n), jobs: jobs)
        }
    }
}
