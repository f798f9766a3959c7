import Gym

/// A training task whose episodes the slot engine can play: the game, and
/// how episode `k` of an iteration is seated.
public protocol GameTrainingTask: TrainingTask {
    associatedtype Game: PlayableGame
    var config: Game.Config { get }
    /// The rules its episodes play under a variant set (nil: `config`'s, no context features).
    var rules: TrainingRules<Game.Config>? { get }
    /// Episode `k`'s seating: the learner's seat, and (in a two-seat game)
    /// the index in ``makeOpponents(centre:context:)`` of the player in the other seat.
    func seating(_ k: Int) -> (learner: Int, opponent: Int)
    /// The opponents (none in a one-seat game), batched agents for
    /// `context`'s games; `centre` is the iteration's policy (the self-play
    /// opponent). The opponent of an episode seeded `s` is started with
    /// `Seeds.agent(s, seat: 1)` whichever seat it plays.
    func makeOpponents(centre: LinearPolicy, context: AgentContext<Game>) throws(AgentFault) -> [any BatchAgent]
}

extension GameTrainingTask {
    /// None: every episode plays `config`.
    public var rules: TrainingRules<Game.Config>? { nil }

    /// Always: opponents act batched (``BatchAgent``) on the slot engine
    /// only; both paths give the same results.
    public var batchIsFaster: Bool { true }

    /// The plan on the slot engine (see ``RolloutWork``).
    public func playBatched(_ plan: RolloutPlan, runner: ParallelRunner, slots: Int) throws(AgentFault)
        -> RolloutResults? {
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
        try SlotEngine<Game>.run(config: config, jobs: plan.jobs, slots: slots, runner: runner) {
            (n, vector) throws(AgentFault) in
            try RolloutWork(task: self, plan: plan, slots: n, vector: vector, episodesOut: sharedEpisodes,
                            statisticsOut: sharedStatistics)
        }
        return RolloutResults(episodes: Array(episodes), statistics: Array(statistics))
    }

    /// The iteration's episodes on the slot engine (see ``ReinforceWork``), at
    /// most `slots` per worker (fewer for very long episodes:
    /// ``TrajectoryStorage/slots(_:wanted:)``).
    public func playReinforceBatched(_ plan: ReinforcePlan, runner: ParallelRunner,
                                     slots: Int) throws(AgentFault) -> [EpisodeGradient]? {
        precondition(slots >= 1, "slots must be at least 1")
        let count = plan.episodes
        let results = UnsafeMutableBufferPointer<EpisodeGradient?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.baseAddress?.deinitialize(count: count)
            results.deallocate()
        }
        let shared = SlotPointer(base: results.baseAddress)
        try SlotEngine<Game>.run(config: config, jobs: count, slots: TrajectoryStorage.slots(plan, wanted: slots),
                                 runner: runner) { (n, vector) throws(AgentFault) in
            try ReinforceWork(task: self, plan: plan, slots: n, vector: vector, out: shared)
        }
        return (0 ..< count).map { k in
            guard let gradient = results[k] else { preconditionFailure("episode \(k) was not played") }
            return gradient
        }
    }
}

/// The seats of a learner's slots: per slot, the learner's seat and its
/// opponent, seated per episode as the task seats it. Each opponent is one
/// batched agent playing every seat of every slot (``SlotAgents``); per
/// step each acts once over the seats it holds.
///
/// With a visible context (``TrainingRules``) the learner's row is its
/// seat's observation followed by the context features of the rules its
/// slot's game plays (written once per episode, at its start), copied into
/// the seats' own rows.
final class LearnerSeats<Game: PlayableGame> {
    let slots: Int, seats: Int
    /// Floats per observation row of the slot engine (the game's).
    let observationCount: Int
    /// The learner's row: the game's observation, then `features.count` context features.
    let width: Int
    let features: ContextFeatures?
    /// Per slot, the learner's row when context features follow its view (else unused).
    let rows: Column<Float>
    let opponents: SlotAgents<Game>
    /// Per slot, the learner's seat (a column: a class's stored `var` is
    /// checked for exclusive access at every use).
    let learnerSeat: Column<Int>

    init<Task: GameTrainingTask>(task: Task, centre: LinearPolicy, slots: Int, vector: Game.Vector)
        throws(AgentFault) where Task.Game == Game {
        self.slots = slots
        seats = Game.seats
        observationCount = vector.observationLayout.count
        features = task.rules.flatMap { $0.context.visible ? $0.context.features : nil }
        width = observationCount + (features?.count ?? 0)
        precondition(width == centre.inputs, "the learner reads the game's observation and its context features")
        rows = Column(repeating: 0, count: features == nil ? 1 : slots * width)
        let context = AgentContext<Game>(config: task.config, seating: .everySeat(slots: slots, seats: seats),
                                         vector: vector)
        let list = try task.makeOpponents(centre: centre, context: context)
        precondition(seats == 1 || !list.isEmpty, "a two-seat game needs an opponent")
        opponents = SlotAgents(list, slots: slots)
        learnerSeat = Column(repeating: 0, count: slots)
    }

    /// Seats episode `k` (seeded `seed`, just reset in slot `i` of `vector`)
    /// and starts its opponent.
    func seat<Task: GameTrainingTask>(_ i: Int, task: Task, episode k: Int, seed: UInt64, vector: Game.Vector)
        throws(AgentFault) where Task.Game == Game {
        let (learner, o) = task.seating(k)
        learnerSeat[i] = learner
        if let features {
            features.write(of: vector.rules(i), into: rows.base + i * width + observationCount)
        }
        guard seats > 1 else { return }
        try opponents.start(o, slot: i, seat: 1 - learner, seed: Seeds.agent(seed, seat: 1))
    }

    /// Slot `i`'s episode is over: its opponent's too.
    func end(slot i: Int) throws(AgentFault) { try opponents.end(slot: i) }

    /// The learner's row of slot `i`: its own seat's view in the slot
    /// engine's `observations`, followed by the context features when visible.
    @inline(__always)
    func learnerRow(_ i: Int, _ observations: UnsafePointer<Float>) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(start: learnerRowStart(i, observations), count: width)
    }

    /// Where ``learnerRow(_:_:)`` starts (its `width` floats).
    @inline(__always)
    func learnerRowStart(_ i: Int, _ observations: UnsafePointer<Float>) -> UnsafePointer<Float> {
        let view = observations + (i &* seats &+ learnerSeat[i]) &* observationCount
        guard features != nil else { return view }
        let row = rows.base + i &* width
        row.update(from: view, count: observationCount)
        return UnsafePointer(row)
    }

    /// Sets the learner's action of slot `i`.
    @inline(__always)
    func setLearner(_ i: Int, _ action: Int, actions: UnsafeMutablePointer<Int32>) {
        setLearner(i, Int32(clamping: action), actions: actions)
    }

    /// Sets the learner's action of slot `i`, as stored.
    @inline(__always)
    func setLearner(_ i: Int, _ action: Int32, actions: UnsafeMutablePointer<Int32>) {
        actions[i &* seats &+ learnerSeat[i]] = action
    }

    /// Every seated opponent's action (one call per opponent agent).
    @inline(__always)
    func actOpponents(observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>) throws(AgentFault) {
        guard seats > 1 else { return }
        try opponents.act(observations: observations, stride: observationCount, actions: actions)
    }
}

/// The slot engine's work for a ``RolloutPlan``: the batched equivalent of
/// ``Rollout/playOneByOne(_:task:runner:)``, with exactly its results
/// (fitness, steps, observation statistics).
///
/// Slot `i` plays one job of the plan at a time, episode after episode, with
/// its own greedy ``LinearPolicy`` given the job's member's parameters when
/// the job starts (greedy play draws nothing, so there is no generator to
/// reset); each episode is seated as the task seats it. Each learner acts on
/// its own observation row with its own policy, eight slots at a time
/// (``GreedySlots``: the plain loop's sums, lane by lane); an episode stops
/// at the plan's step limit or the game's end. Each episode's result is
/// written at its index of the plan's results, each job's statistics at its
/// member's.
final class RolloutWork<Task: GameTrainingTask>: SlotWork {
    typealias Game = Task.Game
    let task: Task
    let plan: RolloutPlan
    let seats: LearnerSeats<Game>
    /// Per slot, its member's policy (set when a job starts), and the same
    /// policies as the step reads them.
    var learners: [LinearPolicy]
    let greedy: GreedySlots
    /// Per slot: its member, current episode and end episode.
    var member, episode, end: [Int]
    /// Per slot, its episode's books so far (a column, read and written every step).
    let running: Column<EpisodeResult>
    var statistics: [ObservationStatistics]
    let episodesOut: SlotPointer<EpisodeResult>
    let statisticsOut: SlotPointer<ObservationStatistics?>

    init(task: Task, plan: RolloutPlan, slots: Int, vector: Game.Vector, episodesOut: SlotPointer<EpisodeResult>,
         statisticsOut: SlotPointer<ObservationStatistics?>) throws(AgentFault) {
        self.task = task
        self.plan = plan
        seats = try LearnerSeats(task: task, centre: plan.centre, slots: slots, vector: vector)
        learners = [LinearPolicy](repeating: plan.centre, count: slots)
        greedy = GreedySlots(slots: slots, policy: plan.centre)
        member = [Int](repeating: 0, count: slots); episode = member; end = member
        running = Column(repeating: EpisodeResult(), count: slots)
        statistics = [ObservationStatistics](
            repeating: ObservationStatistics(features: plan.collectStatistics ? plan.centre.inputs : 0), count: slots)
        self.episodesOut = episodesOut
        self.statisticsOut = statisticsOut
    }

    func take(_ job: Int, slot i: Int) {
        let j = plan.job(job)
        member[i] = j.member; episode[i] = j.first; end[i] = j.end
        plan.parameters(j.member, &learners[i])
        greedy.load(i, learners[i])
        if plan.collectStatistics { statistics[i] = ObservationStatistics(features: plan.centre.inputs) }
    }

    func nextEpisode(slot i: Int) -> UInt64? {
        episode[i] < end[i] ? plan.episodeSeed(episode[i]) : nil
    }

    func rules(slot _: Int, seed: UInt64) -> Game.Config? { task.rules?.rules(episodeSeed: seed) }

    func started(slot i: Int, vector: Game.Vector, seed: UInt64) throws(AgentFault) {
        running[i] = EpisodeResult()
        try seats.seat(i, task: task, episode: episode[i], seed: seed, vector: vector)
    }

    @inline(__always)
    func act(busy: UnsafePointer<UInt8>, observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>)
        throws(AgentFault) {
        let seats = self.seats
        if plan.collectStatistics {
            for i in 0 ..< seats.slots where busy[i] != 0 { statistics[i].add(seats.learnerRow(i, observations)) }
        }
        greedy.act(acting: busy, row: { i in seats.learnerRowStart(i, observations) }) { i, action in
            seats.setLearner(i, action, actions: actions)
        }
        try seats.actOpponents(observations: observations, actions: actions)
    }

    @inline(__always)
    func record(slot i: Int, rewards: UnsafePointer<Float>, events: Game.Vector.Events, ended: Bool) -> Bool {
        running[i].add(reward: rewards[seats.learnerSeat[i]])
        return ended || running[i].steps >= plan.maxSteps
    }

    var observedRows: UnsafePointer<UInt8>? { seats.opponents.observedRows }

    func finished(slot i: Int, vector: Game.Vector) throws(AgentFault) {
        try seats.end(slot: i)
        guard let e = episodesOut.base, let s = statisticsOut.base else { return }
        let m = member[i]
        e[m * plan.episodes + episode[i]] = running[i]
        episode[i] += 1
        if episode[i] == end[i], plan.collectStatistics { s[m] = statistics[i] }
    }
}

/// The slot engine's work for a ``ReinforcePlan``: the batched equivalent of
/// ``ReinforcePlan/playOneByOne(task:runner:)``, with exactly its gradients,
/// results and statistics. Job `k` is episode `k`, recorded in the slot's own
/// ``Trajectory`` (a ``TrajectoryStorage`` allocated once, `maxSteps` rows
/// per slot); the learner samples from its own generator
/// (`Seeds.agent(seed, seat: 0)`) on its own observation row, one row at a
/// time as the reference; each episode's gradient is computed by
/// ``Trajectory/finish(_:plan:)`` and written at its index, so the sum in
/// episode order is the reference's.
final class ReinforceWork<Task: GameTrainingTask>: SlotWork {
    typealias Game = Task.Game
    let task: Task
    let plan: ReinforcePlan
    let seats: LearnerSeats<Game>
    let storage: TrajectoryStorage
    let trajectories: [Trajectory]
    var running: [TrajectoryEpisode]
    var jobs: OneEpisodeJobs
    let out: SlotPointer<EpisodeGradient?>

    init(task: Task, plan: ReinforcePlan, slots: Int, vector: Game.Vector, out: SlotPointer<EpisodeGradient?>)
        throws(AgentFault) {
        self.task = task
        self.plan = plan
        seats = try LearnerSeats(task: task, centre: plan.policy, slots: slots, vector: vector)
        let storage = TrajectoryStorage(plan: plan, count: slots)
        self.storage = storage
        trajectories = (0 ..< slots).map { storage[$0] }
        running = [TrajectoryEpisode](repeating: TrajectoryEpisode(plan: plan, seed: 0), count: slots)
        jobs = OneEpisodeJobs(slots: slots)
        self.out = out
    }

    func take(_ job: Int, slot i: Int) { jobs.take(job, slot: i) }

    func nextEpisode(slot i: Int) -> UInt64? { jobs.start(slot: i).map(plan.episodeSeed) }

    func rules(slot _: Int, seed: UInt64) -> Game.Config? { task.rules?.rules(episodeSeed: seed) }

    func started(slot i: Int, vector: Game.Vector, seed: UInt64) throws(AgentFault) {
        running[i] = TrajectoryEpisode(plan: plan, seed: seed)
        try seats.seat(i, task: task, episode: jobs.job[i], seed: seed, vector: vector)
    }

    @inline(__always)
    func act(busy: UnsafePointer<UInt8>, observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>)
        throws(AgentFault) {
        for i in 0 ..< seats.slots where busy[i] != 0 {
            let learner = trajectories[i].act(&running[i], seats.learnerRow(i, observations), policy: plan.policy)
            seats.setLearner(i, learner, actions: actions)
        }
        try seats.actOpponents(observations: observations, actions: actions)
    }

    @inline(__always)
    func record(slot i: Int, rewards: UnsafePointer<Float>, events: Game.Vector.Events, ended: Bool) -> Bool {
        trajectories[i].record(&running[i], reward: rewards[seats.learnerSeat[i]], done: ended)
    }

    var observedRows: UnsafePointer<UInt8>? { seats.opponents.observedRows }

    func finished(slot i: Int, vector: Game.Vector) throws(AgentFault) {
        try seats.end(slot: i)
        out.base?[jobs.job[i]] = trajectories[i].finish(running[i], plan: plan)
    }
}
