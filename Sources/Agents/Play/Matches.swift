import Gym

/// One episode to play: its seed and, per seat, the roster index of its player.
public struct SeatedGame: Equatable, Sendable {
    public var seed: UInt64
    /// Roster index of the player in each seat (Pong: bottom, top; Breakout: the player).
    public var seats: [Int]
    public init(seed: UInt64, seats: [Int]) {
        self.seed = seed; self.seats = seats
    }
}

/// Whole episodes between agents of a roster, on the slot engine or one by
/// one; every path gives the same record for every episode.
///
/// ## Why the paths agree, bit for bit
/// - The vector environment is the single game bit for bit, run with
///   autoreset disabled: every episode starts from its seed alone.
/// - Each roster entry is one batched agent per worker (``BatchAgent``)
///   playing every seat of every slot as its own game, started at each
///   episode with `Seeds.agent(seed, seat: s)`, as the reference path resets
///   its players; an agent's action for a game depends only on that start
///   and the game's observations, so which slot, worker or batch plays an
///   episode does not matter.
/// - The books are the game's (``PlayableGame/book(_:_:)``), in event order.
public enum Matches {
    /// Episodes stepped together by one worker unless told otherwise: enough
    /// to fill the batch's lanes, few enough that every slot's players and
    /// rows stay in cache.
    public static let defaultSlots = 16

    /// Plays episodes `0 ..< count`, episode `g` described by `game(g)`,
    /// between agents of `roster` (specs checked for `config`).
    /// - Parameters:
    ///   - path: ``RolloutPath/oneByOne`` plays the reference path (per-game
    ///     agents, ``PlayableGame/playAlone(config:seed:agents:)``; for tests);
    ///     every other path is the slot engine, where agents act batched.
    ///   - slots: episodes each worker steps together on the batched path, at least 1.
    ///   - progress: called after each finished episode, from worker threads.
    ///   - rules: the rules of the episode seeded `s` (nil, or a nil result: `config`), e.g.
    ///     ``EpisodeRules/draw`` of a variant set.
    ///   - finished: called with each finished episode's index and record, from
    ///     worker threads in no fixed order (a run's journal appends them there).
    /// - Returns: episode `g`'s record at index `g`.
    /// - Throws: the first ``AgentFault`` of an agent (the run stops).
    public static func play<G: PlayableGame>(_: G.Type, config: G.Config, roster: [AgentSpec], count: Int,
                                             slots: Int = defaultSlots, path: RolloutPath = .automatic,
                                             runner: ParallelRunner, game: @escaping @Sendable (Int) -> SeatedGame,
                                             progress: (@Sendable () -> Void)? = nil,
                                             rules: (@Sendable (UInt64) -> G.Config?)? = nil,
                                             finished: (@Sendable (Int, G.Record) -> Void)? = nil) throws(AgentFault) -> [G.Record] {
        precondition(slots >= 1, "slots must be at least 1")
        var report: (@Sendable (Int, G.Record) -> Void)?
        if progress != nil || finished != nil {
            report = { g, record in
                finished?(g, record)
                progress?()
            }
        }
        if path == .oneByOne {
            return playOneByOne(G.self, config: config, roster: roster, count: count, runner: runner, game: game,
                                finished: report, rules: rules)
        }
        return try playBatched(G.self, config: config, roster: roster, count: count, slots: slots, runner: runner,
                           game: game, finished: report, rules: rules)
    }

    /// The reference: each episode alone (``PlayableGame/playAlone(config:seed:agents:)``).
    static func playOneByOne<G: PlayableGame>(_: G.Type, config: G.Config, roster: [AgentSpec], count: Int,
                                              runner: ParallelRunner, game: @escaping @Sendable (Int) -> SeatedGame,
                                              finished: (@Sendable (Int, G.Record) -> Void)? = nil,
                                              rules: (@Sendable (UInt64) -> G.Config?)? = nil) -> [G.Record] {
        runner.map(count: count, makeWorker: { _ in
            (0 ..< G.seats).map { _ in roster.map { G.makeAgent($0, config: config) } }
        }, job: { players, g in
            let spec = game(g)
            var seated = (0 ..< G.seats).map { s in players[s][spec.seats[s]] }
            let record = G.playAlone(config: rules?(spec.seed) ?? config, seed: spec.seed, agents: &seated)
            for s in 0 ..< G.seats { players[s][spec.seats[s]] = seated[s] }
            finished?(g, record)
            return record
        })
    }

    /// The batched path: the slot engine, `slots` episodes per worker.
    static func playBatched<G: PlayableGame>(_: G.Type, config: G.Config, roster: [AgentSpec], count: Int,
                                             slots: Int, runner: ParallelRunner,
                                             game: @escaping @Sendable (Int) -> SeatedGame,
                                             finished: (@Sendable (Int, G.Record) -> Void)? = nil,
                                             rules: (@Sendable (UInt64) -> G.Config?)? = nil) throws(AgentFault) -> [G.Record] {
        guard count > 0 else { return [] }
        let results = UnsafeMutableBufferPointer<G.Record?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.baseAddress?.deinitialize(count: count)
            results.deallocate()
        }
        let shared = SlotPointer(base: results.baseAddress)
        try SlotEngine<G>.run(config: config, jobs: count, slots: slots, runner: runner) {
            (n, vector) throws(AgentFault) in
            try MatchWork<G>(config: config, roster: roster, slots: n, vector: vector, game: game, results: shared,
                             finished: finished, rules: rules)
        }
        return (0 ..< count).map { g in
            guard let record = results[g] else { preconditionFailure("episode \(g) was not played") }
            return record
        }
    }
}

/// The slot engine's work for ``Matches``: job `g` is episode `g`.
final class MatchWork<G: PlayableGame>: SlotWork {
    typealias Game = G
    let seats: Int, rosterCount: Int, observationCount: Int
    /// Roster entry `r` is agent `r`, playing every seat of every slot.
    let players: SlotAgents<G>
    var jobs: OneEpisodeJobs
    /// Per slot: the running episode's seating (roster index per seat).
    var seating: [Int]
    /// Per slot: the running episode's books (each slot's written when it
    /// starts an episode, before its first step is booked).
    let tallies: Column<G.Tally>
    let game: @Sendable (Int) -> SeatedGame
    let results: SlotPointer<G.Record?>
    let finished: (@Sendable (Int, G.Record) -> Void)?
    let episodeRules: (@Sendable (UInt64) -> G.Config?)?

    init(config: G.Config, roster: [AgentSpec], slots: Int, vector: G.Vector,
         game: @escaping @Sendable (Int) -> SeatedGame, results: SlotPointer<G.Record?>,
         finished: (@Sendable (Int, G.Record) -> Void)?, rules: (@Sendable (UInt64) -> G.Config?)? = nil) throws(AgentFault) {
        seats = G.seats
        rosterCount = roster.count
        observationCount = G.policyTarget(config).inputs
        // Every seat of a busy slot is a roster agent's: a free seat's row is read by nobody.
        players = try SlotAgents(roster, config: config, vector: vector, slots: slots, freeSeatsNeedRows: false)
        jobs = OneEpisodeJobs(slots: slots)
        seating = [Int](repeating: 0, count: slots * G.seats)
        tallies = Column(repeating: G.beginRecord(vector, 0, seed: 0), count: slots)
        self.game = game
        self.results = results
        self.finished = finished
        episodeRules = rules
    }

    func take(_ job: Int, slot i: Int) { jobs.take(job, slot: i) }

    func nextEpisode(slot i: Int) -> UInt64? {
        guard let job = jobs.start(slot: i) else { return nil }
        let spec = game(job)
        precondition(spec.seats.count == seats && spec.seats.allSatisfy { $0 >= 0 && $0 < rosterCount },
                     "every seat's player must be a roster index")
        for s in 0 ..< seats { seating[i * seats + s] = spec.seats[s] }
        return spec.seed
    }

    func rules(slot _: Int, seed: UInt64) -> G.Config? { episodeRules?(seed) }

    func started(slot i: Int, vector: G.Vector, seed: UInt64) throws(AgentFault) {
        for s in 0 ..< seats { try players.start(seating[i * seats + s], slot: i, seat: s, seed: Seeds.agent(seed, seat: s)) }
        tallies[i] = G.beginRecord(vector, i, seed: seed)
    }

    @inline(__always)
    func act(busy _: UnsafePointer<UInt8>, observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>)
        throws(AgentFault) {
        try players.act(observations: observations, stride: observationCount, actions: actions)
    }

    @inline(__always)
    func record(slot i: Int, rewards: UnsafePointer<Float>, events: G.Vector.Events, ended: Bool) -> Bool {
        G.book(&tallies[i], events)
        return ended
    }

    /// A step that did not end books only its events.
    var booksEventsOnly: Bool { true }

    var observedRows: UnsafePointer<UInt8>? { players.observedRows }

    func finished(slot i: Int, vector: G.Vector) throws(AgentFault) {
        try players.end(slot: i)
        guard let base = results.base else { return }
        let job = jobs.job[i], record = G.endRecord(tallies[i], vector, i)
        base[job] = record
        finished?(job, record)
    }
}
