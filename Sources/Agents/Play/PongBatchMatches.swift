import Gym

/// Many whole two-player Pong games played on ``PongBatch``es: the batched
/// equivalent of calling ``PongMatch/play(config:seed:bottom:top:)`` once per
/// game, with exactly the same ``PongMatchResult`` for every game.
///
/// ## Why the results are ``PongMatch``'s, bit for bit
/// - The batch is the same game as ``PongGame`` bit for bit (``PongBatch``'s
///   tests), run here without auto-reset: a finished slot stays finished until
///   it is given its next game with ``PongBatch/reset(_:seed:)`` and that
///   game's seed, so every game starts from `initialState(seed:)` as
///   ``PongGame`` does.
/// - Every slot owns its agents (one instance per roster entry and side), reset
///   at the start of each game with `Seeds.agent(seed, seat: 0)` (bottom) and
///   `Seeds.agent(seed, seat: 1)` (top), as ``PongMatch`` resets its agents; an
///   agent's behaviour in a game depends only on that reset and the game's
///   observations, so which slot or worker plays a game does not matter.
/// - Agents act one observation row at a time (``Agent/act(_:)``, for a linear
///   agent the single-observation path), never on the batch as a whole.
/// - The bookkeeping (hits, receiver points, point speeds, in event order) is
///   ``PongMatch``'s, on the batch's per-game ``PongEvents``.
///
/// ## Paths
/// ``Path/automatic`` (the default) batches only where that was measured
/// faster (``batchIsFaster(_:)``) and otherwise plays the games one by one
/// with ``PongMatch``, as before; the tests pin both paths to the same results.
///
/// ## Work split (batched)
/// Worker `w` of `W` plays the games `w, w + W, w + 2W, …` (a fixed
/// assignment, no work stealing) on its own batch of up to `slots` games, its
/// own agents and buffers, allocated once: one dispatch in all. A slot whose
/// game ends takes the worker's next game; each result is written into the
/// slot of its game index. The results therefore do not depend on the number
/// of workers or slots.
public enum PongBatchMatches {
    /// One game to play: its seed and the roster indices of its two players.
    public struct Game: Equatable, Sendable {
        public var seed: UInt64
        public var bottom: Int
        public var top: Int
        public init(seed: UInt64, bottom: Int, top: Int) {
            self.seed = seed; self.bottom = bottom; self.top = top
        }
    }

    /// Games stepped together by one worker unless told otherwise: enough
    /// to fill the batch's lanes, few enough that every slot's agents and
    /// rows stay in cache.
    public static let defaultSlots = 16

    /// How the games are played; every path gives the same results.
    public enum Path: Sendable {
        /// ``batched`` where it was measured faster (see ``batchIsFaster(_:)``), else ``oneByOne``.
        case automatic
        /// On ``PongBatch``es, `slots` games per worker.
        case batched
        /// Each game alone by ``PongMatch/play(config:seed:bottom:top:)`` (the reference).
        case oneByOne
    }

    /// Whether the batch plays `config` faster than single games: when its
    /// frames can take ``PongBatch``'s eight-lane quiet path (one frame per
    /// step, no sticky actions). With frame skip or sticky actions every
    /// batched step is a full step plus the load and store of the game's
    /// columns, which is slower than a single game.
    public static func batchIsFaster(_ config: PongConfig) -> Bool {
        config.frameSkip == 1 && config.stickyActionProbability == 0
    }

    /// Plays games `0 ..< count`, game `g` described by `game(g)`, between
    /// agents of `roster` (every `linear` spec must have passed
    /// ``AgentSpec/check(pong:)``).
    /// - Parameters:
    ///   - slots: games each worker steps together on the batched path, at least 1.
    ///   - progress: called after each finished game, from worker threads.
    /// - Returns: game `g`'s result at index `g`.
    public static func play(config: PongConfig, roster: [AgentSpec], count: Int, slots: Int = defaultSlots,
                            path: Path = .automatic, runner: ParallelRunner, game: @Sendable (Int) -> Game,
                            progress: (@Sendable () -> Void)? = nil) -> [PongMatchResult] {
        precondition(slots >= 1, "slots must be at least 1")
        guard count > 0 else { return [] }
        if path == .oneByOne || (path == .automatic && !batchIsFaster(config)) {
            return runner.map(count: count, makeWorker: { _ in
                (roster.map { $0.makePongAgent(config: config) }, roster.map { $0.makePongAgent(config: config) })
            }, job: { players, g in
                let spec = game(g)
                return PongMatch.play(config: config, seed: spec.seed, bottom: &players.0[spec.bottom],
                                      top: &players.1[spec.top])
            }, progress: progress)
        }
        let results = UnsafeMutableBufferPointer<PongMatchResult>.allocate(capacity: count)
        defer { results.deallocate() }
        let shared = SlotPointer(base: results.baseAddress)
        runner.forEachWorker(jobs: count) { _, mine in
            guard let base = shared.base else { return }
            let player = PongMatchSlots(config: config, roster: roster, slots: min(slots, mine.count))
            player.play(mine, game: game, into: base, progress: progress)
        }
        let out = Array(results)
        results.baseAddress?.deinitialize(count: count)
        return out
    }
}

/// One worker's slots: a ``PongBatch`` without auto-reset, every slot's agents
/// and the step buffers, all allocated once. Everything the step loop touches
/// is an unsafe buffer owned here (no runtime exclusivity or uniqueness checks
/// per step); the object is used by one worker only.
final class PongMatchSlots {
    let batch: PongBatch
    let slots: Int
    let rosterCount: Int
    /// Agents of slot `i`: roster entry `r` at `i × rosterCount + r`, one buffer per side.
    let bottomAgents, topAgents: SlotAgents
    let bottomObs, topObs, rewards: UnsafeMutableBufferPointer<Float>
    let bottomActions, topActions: UnsafeMutableBufferPointer<Int32>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>
    let events: UnsafeMutableBufferPointer<PongEvents>
    /// Per slot: the game index it plays (−1 when idle), its players' agent
    /// positions in `bottomAgents` / `topAgents`, the running record and the
    /// side the next serve heads to.
    let gameIndex, bottomAgent, topAgent: UnsafeMutableBufferPointer<Int>
    let records: UnsafeMutableBufferPointer<PongMatchResult>
    let receivers: UnsafeMutableBufferPointer<PongSide>

    static let emptyRecord = PongMatchResult(seed: 0, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                                             hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0)

    init(config: PongConfig, roster: [AgentSpec], slots: Int) {
        self.slots = slots
        rosterCount = roster.count
        batch = PongBatch(config: config, count: slots, seed: 0, agentSide: .bottom, autoReset: .off)
        func agents() -> SlotAgents {
            SlotAgents((0 ..< slots).flatMap { _ in roster.map { $0.makePongAgent(config: config) } })
        }
        bottomAgents = agents(); topAgents = agents()
        let n = PongBatch.observationCount
        bottomObs = .column(slots * n, 0); topObs = .column(slots * n, 0); rewards = .column(slots, 0)
        bottomActions = .column(slots, 0); topActions = .column(slots, 0)
        terminated = .column(slots, 0); truncated = .column(slots, 0)
        events = .column(slots, PongEvents())
        gameIndex = .column(slots, -1); bottomAgent = .column(slots, 0); topAgent = .column(slots, 0)
        records = .column(slots, Self.emptyRecord)
        receivers = .column(slots, .bottom)
    }

    deinit {
        bottomObs.deallocate(); topObs.deallocate(); rewards.deallocate()
        bottomActions.deallocate(); topActions.deallocate()
        terminated.deallocate(); truncated.deallocate(); events.deallocate()
        gameIndex.deallocate(); bottomAgent.deallocate(); topAgent.deallocate()
        records.deallocate(); receivers.deallocate()
    }

    /// Starts game `g` in slot `i`: the game's first state, both agents reset
    /// and the slot's observation rows written (as ``PongMatch/play(config:seed:bottom:top:)``).
    func start(_ i: Int, game g: Int, _ game: PongBatchMatches.Game) {
        precondition(game.bottom >= 0 && game.bottom < rosterCount && game.top >= 0 && game.top < rosterCount,
                     "a game's players must be roster indices")
        batch.reset(i, seed: game.seed)
        gameIndex[i] = g
        bottomAgent[i] = i * rosterCount + game.bottom
        topAgent[i] = i * rosterCount + game.top
        bottomAgents.reset(bottomAgent[i], seed: Seeds.agent(game.seed, seat: 0))
        topAgents.reset(topAgent[i], seed: Seeds.agent(game.seed, seat: 1))
        let state = batch.state(i)
        records[i] = Self.emptyRecord
        records[i].seed = game.seed
        receivers[i] = state.ballVY < 0 ? .bottom : .top
        let n = PongBatch.observationCount
        batch.physics.observe(state, side: .bottom, into: bottomObs.baseAddress.unsafelyUnwrapped + i * n)
        batch.physics.observe(state, side: .top, into: topObs.baseAddress.unsafelyUnwrapped + i * n)
    }

    /// Plays the games `mine` (in order, refilling slots as games end) and
    /// writes game `g`'s result to `results[g]` (uninitialised memory).
    func play(_ mine: WorkerJobs, game: (Int) -> PongBatchMatches.Game,
              into results: UnsafeMutablePointer<PongMatchResult>, progress: (@Sendable () -> Void)?) {
        guard let bObs = bottomObs.baseAddress, let tObs = topObs.baseAddress,
              let bAct = bottomActions.baseAddress, let tAct = topActions.baseAddress,
              let rew = rewards.baseAddress, let term = terminated.baseAddress, let trunc = truncated.baseAddress,
              let ev = events.baseAddress,
              let index = gameIndex.baseAddress, let bWho = bottomAgent.baseAddress, let tWho = topAgent.baseAddress
        else { return }
        let bAgents = bottomAgents, tAgents = topAgents
        var queue = mine.makeIterator()
        var active = 0
        for i in 0 ..< slots {
            guard let g = queue.next() else { break }
            start(i, game: g, game(g))
            active += 1
        }
        let n = PongBatch.observationCount
        let out = PongBatchOutput(observations: bObs, opponentObservations: tObs, rewards: rew,
                                  terminated: term, truncated: trunc, events: ev)
        while active > 0 {
            for i in 0 ..< slots {
                guard index[i] >= 0 else { bAct[i] = 0; tAct[i] = 0; continue }
                let b = bAgents.act(bWho[i], UnsafeBufferPointer(start: bObs + i * n, count: n))
                let t = tAgents.act(tWho[i], UnsafeBufferPointer(start: tObs + i * n, count: n))
                bAct[i] = Int32(clamping: b)
                tAct[i] = Int32(clamping: t)
            }
            batch.step(agent: bAct, opponent: tAct, into: out)
            for i in 0 ..< slots where index[i] >= 0 {
                record(i, ev[i])
                guard term[i] | trunc[i] != 0 else { continue }
                let state = batch.state(i)
                records[i].scoreBottom = Int(state.scoreBottom)
                records[i].scoreTop = Int(state.scoreTop)
                records[i].steps = Int(state.steps)
                records[i].end = state.end
                (results + index[i]).initialize(to: records[i])
                progress?()
                if let g = queue.next() {
                    start(i, game: g, game(g))
                } else {
                    index[i] = -1
                    active -= 1
                }
            }
        }
    }

    /// ``PongMatch``'s bookkeeping of one step's events in slot `i`.
    @inline(__always)
    func record(_ i: Int, _ events: PongEvents) {
        records[i].hitsBottom += Int(events.hitsBottom)
        records[i].hitsTop += Int(events.hitsTop)
        // With frameSkip > 1 several points can fall in one step; the serve
        // after each heads to its scorer.
        for _ in 0 ..< Int(events.pointsBottom) {
            if receivers[i] == .bottom { records[i].receiverPoints += 1 }
            receivers[i] = .bottom
            records[i].pointSpeedSum += Double(events.pointSpeed)
        }
        for _ in 0 ..< Int(events.pointsTop) {
            if receivers[i] == .top { records[i].receiverPoints += 1 }
            receivers[i] = .top
            records[i].pointSpeedSum += Double(events.pointSpeed)
        }
    }
}
