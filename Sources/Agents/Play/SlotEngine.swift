import Gym
import Synchronization

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
    /// The rules of slot `i`'s episode seeded `seed` (asked just before its
    /// reset); nil (the default): the engine's config.
    func rules(slot i: Int, seed: UInt64) -> Game.Config?
    /// Slot `i`'s game was just reset with the episode's seed: start the players.
    func started(slot i: Int, vector: Game.Vector, seed: UInt64) throws(AgentFault)
    /// The actions of every busy slot (`busy[i]` non-zero; slot `i`'s seat
    /// `s` at `actions[i × seats + s]`) from the observation rows (seat
    /// `g`'s at `observations + g × observationCount`); each agent acts once
    /// over all the seats it holds (``SlotAgents``).
    func act(busy: UnsafePointer<UInt8>, observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>)
        throws(AgentFault)
    /// Books one step of slot `i` (its rewards, one per seat); true when its
    /// episode is over (the game ended, or the work's step limit).
    func record(slot i: Int, rewards: UnsafePointer<Float>, events: Game.Vector.Events, ended: Bool) -> Bool
    /// Whether ``record(slot:rewards:events:ended:)`` books the step's events
    /// alone: for a step that did not end, with events that book nothing
    /// (``PlayableGame/booksNothing(_:)``), it changes nothing and returns
    /// false, so the engine skips the call. False (the default): every step
    /// of a busy slot is recorded.
    var booksEventsOnly: Bool { get }
    /// Slot `i`'s episode is over: end its players' episode and write its result.
    func finished(slot i: Int, vector: Game.Vector) throws(AgentFault)
    /// Which observation rows the players read (``VectorStepOutput/observedRows``:
    /// seat `s` of slot `i` at `s × slots + i`, 0 where only a ``StateReadingAgent``
    /// sits); nil: every row. Read by every step.
    var observedRows: UnsafePointer<UInt8>? { get }
}

extension SlotWork {
    func rules(slot _: Int, seed _: UInt64) -> Game.Config? { nil }
    var booksEventsOnly: Bool { false }
}

/// The one slot engine: one worker's `slots` games on one vector
/// environment (autoreset disabled), every buffer allocated once. Each slot
/// plays its work's episodes one after another; a slot whose episode ends is
/// reset with the next episode's seed (of its job, or of the worker's next
/// job) and the rules the work gives it (``SlotWork/rules(slot:seed:)``: a
/// training episode under a variant set draws them from its seed), so every
/// episode starts from its seed and rules alone, as on the reference path,
/// and the results do not depend on the number of workers or slots.
/// A slot with nothing left stays idle (its actions set to 0 once, as no
/// player acts there; its game keeps being stepped with no effect on any
/// result). Used by one worker only.
///
/// An agent's fault (``AgentFault``) stops the run: ``run(_:jobs:)`` throws
/// it, and the workers of ``run(config:jobs:slots:runner:makeWork:)`` stop
/// at their next step.
final class SlotEngine<Game: PlayableGame> {
    let vector: Game.Vector
    let slots: Int, seats: Int, observationCount: Int
    let observations, rewards: Column<Float>
    let actions: Column<Int32>
    let terminated, truncated, busy: Column<UInt8>
    let events: Column<Game.Vector.Events>
    /// Each step's scratch: the slots whose step is recorded, in slot order.
    let due: Column<Int>
    /// `passedOver[0]`: the blocks of eight slots whose step was passed over
    /// at once (read by tests).
    let passedOver: Column<Int>
    /// Whether steps skip the observation rows no player reads (the work's
    /// ``SlotWork/observedRows``); tests turn it off to check that skipping
    /// never changes a result.
    var skipsRows = true

    init(config: Game.Config, slots: Int) {
        precondition(slots >= 1, "slots must be at least 1")
        vector = Game.makeVector(config: config, count: slots)
        self.slots = slots
        seats = vector.seats
        observationCount = vector.observationLayout.count
        observations = Column(repeating: 0, count: slots * seats * observationCount)
        rewards = Column(repeating: 0, count: slots * seats)
        actions = Column(repeating: 0, count: slots * seats)
        terminated = Column(repeating: 0, count: slots)
        truncated = Column(repeating: 0, count: slots)
        busy = Column(repeating: 0, count: slots)
        events = Column(repeating: Game.noEvents, count: slots)
        due = Column(repeating: 0, count: slots)
        passedOver = Column(repeating: 0, count: 1)
    }

    /// Plays `jobs` (this worker's, in order) with `work` to the end, or
    /// until an agent faults or `stop` is set (by another worker's fault).
    func run<Work: SlotWork>(_ work: Work, jobs: WorkerJobs, stop: FaultStop? = nil) throws(AgentFault)
        where Work.Game == Game {
        let obs = observations.base, act = actions.base, rew = rewards.base
        let term = terminated.base, trunc = truncated.base, ev = events.base, live = busy.base, due = self.due.base
        let passed = passedOver.base
        let vector = self.vector, seats = self.seats
        var queue = jobs.makeIterator()
        var hasJob = [Bool](repeating: false, count: slots)
        /// Gives slot `i` its next episode; false when nothing is left.
        func refill(_ i: Int) throws(AgentFault) -> Bool {
            while true {
                if hasJob[i], let seed = work.nextEpisode(slot: i) {
                    if let rules = work.rules(slot: i, seed: seed) {
                        vector.reset(i, seed: seed, rules: rules)
                    } else {
                        vector.reset(i, seed: seed)
                    }
                    try work.started(slot: i, vector: vector, seed: seed)
                    return true
                }
                guard let job = queue.next() else { hasJob[i] = false; return false }
                work.take(job, slot: i)
                hasJob[i] = true
            }
        }
        var active = 0
        act.update(repeating: 0, count: slots * seats)
        for i in 0 ..< slots where try refill(i) { live[i] = 1; active += 1 }
        vector.observe(into: obs)
        let out = VectorStepOutput(observations: obs, rewards: rew, terminated: term, truncated: trunc, events: ev,
                                   observedRows: skipsRows ? work.observedRows : nil)
        let skipsQuietSteps = work.booksEventsOnly
        while active > 0 {
            if let stop, stop.stopped { return }
            try work.act(busy: live, observations: obs, actions: act)
            vector.step(actions: act, into: out)
            // The busy slots to record, listed in one pass over the flags (a
            // quiet step of a work that books events alone is not recorded,
            // and eight slots none of which ended or booked anything are
            // passed over at once); then each is recorded, in slot order.
            var dueCount = 0, i = 0
            while i < slots {
                if skipsQuietSteps, i + 8 <= slots, Self.noneEnded(term + i, trunc + i),
                   Game.booksNothing(ev + i, count: 8) {
                    passed[0] &+= 1
                    i &+= 8
                    continue
                }
                for i in i ..< Swift.min(i + 8, slots) {
                    due[dueCount] = i
                    // As bits, not branches: which slots booked something is data.
                    let busy = live[i] != 0 ? 1 : 0, ended = term[i] | trunc[i] != 0 ? 1 : 0
                    let booked = skipsQuietSteps && Game.booksNothing(ev[i]) ? 0 : 1
                    dueCount &+= busy & (ended | booked)
                }
                i = Swift.min(i + 8, slots)
            }
            var restarted = false
            for k in 0 ..< dueCount {
                let i = due[k]
                guard work.record(slot: i, rewards: rew + i * seats, events: ev[i], ended: term[i] | trunc[i] != 0)
                else { continue }
                try work.finished(slot: i, vector: vector)
                if try refill(i) {
                    restarted = true
                } else {
                    live[i] = 0
                    active -= 1
                    (act + i * seats).update(repeating: 0, count: seats)
                }
            }
            if restarted { vector.observe(into: obs) }
        }
    }

    /// Whether none of eight slots' games ended in the step (their
    /// terminated and truncated flags, eight bytes each, all zero).
    @inline(__always)
    static func noneEnded(_ term: UnsafePointer<UInt8>, _ trunc: UnsafePointer<UInt8>) -> Bool {
        UnsafeRawPointer(term).loadUnaligned(as: UInt64.self) | UnsafeRawPointer(trunc).loadUnaligned(as: UInt64.self) == 0
    }

    /// Runs `count` jobs over `runner`'s workers, each with its own engine of
    /// at most `slots` games and its own `makeWork` (given the engine's slots
    /// and vector; one dispatch in all).
    /// - Throws: the first ``AgentFault`` of any worker (the others stop at their next step).
    static func run<Work: SlotWork>(config: Game.Config, jobs count: Int, slots: Int, runner: ParallelRunner,
                                    makeWork: @Sendable (_ slots: Int, _ vector: Game.Vector) throws(AgentFault) -> Work)
        throws(AgentFault) where Work.Game == Game {
        precondition(slots >= 1, "slots must be at least 1")
        let stop = FaultStop()
        runner.forEachWorker(jobs: count) { _, jobs in
            let n = Swift.min(slots, jobs.count)
            let engine = SlotEngine(config: config, slots: n)
            do throws(AgentFault) {
                try engine.run(makeWork(n, engine.vector), jobs: jobs, stop: stop)
            } catch { stop.record(error) }
        }
        if let error = stop.fault { throw error }
    }
}

/// The first agent fault of a run over several workers, and the flag that
/// tells the other workers to stop.
final class FaultStop: Sendable {
    private let flag = Atomic<Bool>(false)
    private let first = Mutex<AgentFault?>(nil)

    /// Whether a worker faulted.
    var stopped: Bool { flag.load(ordering: .relaxed) }
    /// The first fault recorded, if any.
    var fault: AgentFault? { first.withLock { $0 } }

    /// Records `error` (the first one is kept) and stops every worker.
    func record(_ error: AgentFault) {
        first.withLock { if $0 == nil { $0 = error } }
        flag.store(true, ordering: .relaxed)
    }
}
