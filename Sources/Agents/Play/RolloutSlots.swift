import Gym

/// One worker's learners and bookkeeping on the batched rollout path (shared
/// by ``PongRolloutSlots`` and ``BreakoutRolloutSlots``, which own the batch):
/// slot `i` plays one job of a ``RolloutPlan`` at a time, episode after
/// episode, with its own greedy ``LinearPolicy`` given the job's member's
/// parameters when the job starts (greedy play draws nothing, so there is no
/// generator to reset); a slot whose job is done takes the worker's next job.
/// Each episode's result is written at its index of the plan's results, each
/// job's statistics at its member's. Buffers are allocated once per call
/// (nothing per step); the object is used by one worker only.
final class RolloutSlots {
    let plan: RolloutPlan
    let slots: Int
    /// One greedy learner per slot.
    let learners: UnsafeMutableBufferPointer<LinearPolicy>
    /// Per slot: its member (−1 when idle), current episode and end episode.
    let member, episode, end: UnsafeMutableBufferPointer<Int>
    /// Per slot: the running episode's result.
    let running: UnsafeMutableBufferPointer<EpisodeResult>
    /// Per slot: the job's statistics (used when the plan collects them).
    let statistics: UnsafeMutableBufferPointer<ObservationStatistics>
    var queue: StrideTo<Int>.Iterator
    /// Slots with a job.
    private(set) var active = 0
    let episodesOut: UnsafeMutablePointer<EpisodeResult>
    let statisticsOut: UnsafeMutablePointer<ObservationStatistics?>

    /// - Parameters:
    ///   - jobs: this worker's jobs, in the order it plays them.
    ///   - episodesOut, statisticsOut: the plan's results (initialised), written at each job's indices only.
    init(plan: RolloutPlan, slots: Int, jobs: WorkerJobs, episodesOut: UnsafeMutablePointer<EpisodeResult>,
         statisticsOut: UnsafeMutablePointer<ObservationStatistics?>) {
        self.plan = plan
        self.slots = slots
        self.episodesOut = episodesOut
        self.statisticsOut = statisticsOut
        queue = jobs.makeIterator()
        learners = .column(slots, plan.centre)
        member = .column(slots, -1); episode = .column(slots, 0); end = .column(slots, 0)
        running = .column(slots, EpisodeResult())
        statistics = .column(slots, ObservationStatistics(features: plan.collectStatistics ? plan.centre.inputs : 0))
    }

    deinit {
        for b in [member, episode, end] { b.deallocate() }
        learners.baseAddress?.deinitialize(count: slots); learners.deallocate()
        running.deallocate()
        statistics.baseAddress?.deinitialize(count: slots); statistics.deallocate()
    }

    /// Gives slot `i` the worker's next job; false (slot idle) when none is left.
    func takeJob(_ i: Int) -> Bool {
        guard let j = queue.next() else {
            if member[i] >= 0 { active -= 1 }
            member[i] = -1
            return false
        }
        if member[i] < 0 { active += 1 }
        let job = plan.job(j)
        member[i] = job.member
        episode[i] = job.first
        end[i] = job.end
        plan.parameters(job.member, &learners[i])
        if plan.collectStatistics { statistics[i] = ObservationStatistics(features: plan.centre.inputs) }
        return true
    }

    /// Starts slot `i`'s current episode on the learner's side; returns its
    /// seed (the game resets its environment and opponent with it).
    func startEpisode(_ i: Int) -> (seed: UInt64, index: Int) {
        let seed = plan.episodeSeed(episode[i])
        running[i] = EpisodeResult()
        return (seed, episode[i])
    }

    /// The learner of slot `i` acts on its observation row (added to the
    /// job's statistics first, as ``Rollout/play(_:agent:maxSteps:observation:statistics:)`` does).
    @inline(__always)
    func act(_ i: Int, _ observation: UnsafeBufferPointer<Float>) -> Int {
        if plan.collectStatistics { statistics[i].add(observation) }
        return learners[i].greedyAction(observation)
    }

    /// The learners of slots `i` and `j` act on their observation rows:
    /// exactly `act(i, x)` then `act(j, y)` (both greedy), their sums run
    /// side by side (``LinearPolicy/greedyActions(_:_:_:_:)``).
    @inline(__always)
    func act(_ i: Int, _ x: UnsafeBufferPointer<Float>, _ j: Int, _ y: UnsafeBufferPointer<Float>) -> (Int, Int) {
        if plan.collectStatistics {
            statistics[i].add(x)
            statistics[j].add(y)
        }
        return LinearPolicy.greedyActions(learners[i], x.baseAddress.unsafelyUnwrapped,
                                          learners[j], y.baseAddress.unsafelyUnwrapped)
    }

    /// Books one step's reward of slot `i` (the learner's, as `Rollout.play`
    /// books it); returns whether the episode is over (the game ended or the
    /// plan's step limit is reached).
    @inline(__always)
    func record(_ i: Int, reward: Float, done: Bool) -> Bool {
        running[i].add(reward: reward)
        return done || running[i].steps >= plan.maxSteps
    }

    /// Writes slot `i`'s finished episode and moves it on: true when it has
    /// an episode to start (of its job or of the next job), false when idle.
    func finishEpisode(_ i: Int) -> Bool {
        let m = member[i]
        episodesOut[m * plan.episodes + episode[i]] = running[i]
        episode[i] += 1
        if episode[i] < end[i] { return true }
        if plan.collectStatistics { statisticsOut[m] = statistics[i] }
        return takeJob(i)
    }

    /// Runs `plan` over `runner`'s workers, each with its own `makeSlots`
    /// engine (worker `w` plays jobs `w, w + W, …`; one dispatch in all).
    static func run(_ plan: RolloutPlan, slots: Int, runner: ParallelRunner,
                    play: @Sendable (RolloutSlots) -> Void) -> RolloutResults {
        precondition(slots >= 1, "slots must be at least 1")
        let count = plan.jobs
        let episodes = UnsafeMutableBufferPointer<EpisodeResult>.allocate(capacity: plan.members * plan.episodes)
        episodes.initialize(repeating: EpisodeResult())
        let statistics = UnsafeMutableBufferPointer<ObservationStatistics?>.allocate(capacity: plan.members)
        statistics.initialize(repeating: nil)
        defer {
            episodes.deallocate()
            statistics.baseAddress?.deinitialize(count: plan.members)
            statistics.deallocate()
        }
        let sharedEpisodes = SlotPointer(base: episodes.baseAddress)
        let sharedStatistics = SlotPointer(base: statistics.baseAddress)
        runner.forEachWorker(jobs: count) { _, jobs in
            guard let e = sharedEpisodes.base, let s = sharedStatistics.base else { return }
            play(RolloutSlots(plan: plan, slots: min(slots, jobs.count), jobs: jobs,
                              episodesOut: e, statisticsOut: s))
        }
        return RolloutResults(episodes: Array(episodes), statistics: Array(statistics))
    }
}
