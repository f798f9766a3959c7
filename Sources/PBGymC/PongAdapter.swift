import Foundation
import Gym

/// Pong behind ``GameAdapter``: single-agent (the caller plays
/// ``agentSide`` against a built-in opponent) or two-player (seat 0 the
/// bottom side, seat 1 the top).
final class PongAdapter: GameAdapter {
    let batch: PongBatch
    let config: PongConfig
    let twoPlayer: Bool
    let agentSide: PongSide
    let layout: ObservationLayout
    let count: Int
    /// The opponent of every game (nil: two-player).
    let opponents: Opponents?
    /// Whether each game keeps its opponent's observations of the episode.
    let keepHistory: Bool
    var history: [[Float]]
    var opponentSeeds: [UInt64]
    let n = PongBatch.observationCount
    // Scratch, allocated once (count entries; observations count × 12).
    var opponentObs: [Float]
    /// Single-agent play: both seats' actions, observations and rewards
    /// (seat 0 the bottom side, seat 1 the top), copied to the caller's one seat.
    var seatActions: [Int32] = [], seatObs: [Float] = [], seatRewards: [Float] = []
    var events: [PongEvents]
    /// Each game's ``PongBatch/episodesStarted(_:)`` as the opponent last
    /// saw it: a next-step restart inside the batch changes it, and the
    /// opponent then starts its new episode too.
    var started: [UInt64]
    /// Whether the opponent reads the batch's state instead of its rows
    /// (a built-in tracker, no history kept): its rows are never written.
    let opponentReadsState: Bool
    /// Single-agent play with the agent on top: the rows a step writes
    /// (``VectorStepOutput/observedRows``: seat 0's none, seat 1's all).
    var agentRows: [UInt8] = []
    /// Next-step mode: per game, 1 when its episode had ended by the last
    /// step or restore, so the batch restarts it in the next step
    /// (``startRestartedOpponents(terminated:truncated:)``).
    let restartDue: UnsafeMutablePointer<UInt8>

    init(config: PongConfig, count: Int, twoPlayer: Bool, agentSide: PongSide,
         opponentSpec: String, keepHistory: Bool, autoresetMode: AutoresetMode,
         context: RuleContext<PongConfig>? = nil) throws(ABIError) {
        self.config = config
        self.count = count
        self.twoPlayer = twoPlayer
        self.agentSide = twoPlayer ? .bottom : agentSide
        let batch = PongBatch(config: config, count: count, seed: 0, autoresetMode: autoresetMode, context: context)
        self.batch = batch
        started = (0 ..< count).map { batch.episodesStarted($0) }
        layout = batch.observationLayout
        opponents = twoPlayer ? nil : try Opponents(spec: opponentSpec, config: config, batch: batch,
                                                      side: self.agentSide.opponent,
                                                      rules: context == nil ? nil : { [unowned batch] in batch.rules($0) })
        self.keepHistory = keepHistory && !twoPlayer
        history = Array(repeating: [], count: self.keepHistory ? count : 0)
        opponentSeeds = Array(repeating: 0, count: count)
        opponentObs = Array(repeating: 0, count: twoPlayer ? 0 : count * PongBatch.observationCount)
        events = Array(repeating: PongEvents(), count: count)
        let columns = eventColumns.count
        eventsPrefixStride = EventRows.prefixStride(PongEvents.self, eventColumns)
            .flatMap { EventRows.copiesPrefix(stride: $0, columns: columns) ? $0 : nil }
        restartDue = .allocate(capacity: count)
        restartDue.initialize(repeating: 0, count: count)
        opponentReadsState = !self.keepHistory && !(opponents?.readsObservations ?? true)
        if opponentReadsState { agentRows = (0 ..< 2 * count).map { $0 < count ? 0 : 1 } }
        if !twoPlayer {
            seatActions = Array(repeating: 0, count: 2 * count)
            seatObs = Array(repeating: 0, count: 2 * count * n)
            seatRewards = Array(repeating: 0, count: 2 * count)
        }
    }

    deinit { restartDue.deallocate() }

    var seats: Int { twoPlayer ? 2 : 1 }
    var actionCount: Int { batch.actionCount }
    let eventNames = ["hits_bottom", "hits_top", "points_bottom", "points_top", "wall_bounces", "contacts"]
    /// ``PongEvents``'s field of each of ``eventNames``, in order.
    let eventColumns: [WritableKeyPath<PongEvents, Int32>] = [\.hitsBottom, \.hitsTop, \.pointsBottom, \.pointsTop,
                                                              \.wallBounces, \.contacts]
    /// ``PongEvents``'s stride when the events rows are its leading fields
    /// and ``EventRows/copyPrefix(_:stride:count:columns:into:)`` copies them;
    /// nil: each step copies them column by column.
    var eventsPrefixStride: Int?
    var scoreNames: [String] { twoPlayer ? ["score_bottom", "score_top"] : ["score", "opponent_score"] }
    var configJSON: JSONValue { config.json }
    var renderSize: PixelObservation {
        PixelObservation(width: max(1, Int(config.fieldWidth / 2)), height: max(1, Int(config.fieldHeight / 2))) ?? .atari
    }

    func reset(_ i: Int, stream runSeed: UInt64) throws(ABIError) {
        batch.reset(i, stream: runSeed)
        try startOpponent(i)
        refreshOpponentObservation(i)
    }

    func resetNext(mask: UnsafePointer<UInt8>) throws(ABIError) {
        batch.reset(mask: mask, seeds: nil)
        for i in 0 ..< count where mask[i] != 0 {
            try startOpponent(i)
            refreshOpponentObservation(i)
        }
    }

    func restartStream(_ i: Int) -> RestartStream { batch.restartStream(i) }
    func setRestartStream(_ stream: RestartStream, _ i: Int) { batch.setRestartStream(stream, i) }
    func ended(_ i: Int) -> Bool { batch.state(i).end != .none }

    /// The opponent of game `i` starts the game's current episode: reset
    /// from the episode's seed (every episode comes from the game's restart
    /// stream: the session never resets with a bare seed), history cleared.
    func startOpponent(_ i: Int) throws(ABIError) {
        started[i] = batch.episodesStarted(i)
        guard let opponents else { return }
        let s = Opponents.seed(episodeSeed: batch.restartStream(i).lastEpisodeSeed ?? 0, side: agentSide.opponent)
        opponentSeeds[i] = s
        try opponents.start(i, seed: s)
        if keepHistory { history[i].removeAll(keepingCapacity: true) }
    }

    func refreshOpponentObservation(_ i: Int) {
        guard !twoPlayer, !opponentReadsState else { return }
        opponentObs.withUnsafeMutableBufferPointer { o in
            guard let base = o.baseAddress else { return }
            batch.observe(i, side: agentSide.opponent, into: base + i * n)
        }
    }

    func observe(into out: UnsafeMutablePointer<Float>) {
        for i in 0 ..< count { observe(i, into: out + i * seats * n) }
    }

    func observe(_ i: Int, into out: UnsafeMutablePointer<Float>) {
        if twoPlayer {
            batch.observe(i, side: .bottom, into: out)
            batch.observe(i, side: .top, into: out + n)
        } else {
            batch.observe(i, side: agentSide, into: out)
        }
    }

    func render(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        let side: PongSide = twoPlayer ? (seat == 0 ? .bottom : .top) : agentSide
        batch.render(i, size: size, rotated: side == .top, into: out)
    }

    /// Pong draws every picture whole: nothing is kept.
    func preparePixels() throws(ABIError) {}

    func renderObservation(_ i: Int, seat: Int, size: PixelObservation, into out: UnsafeMutablePointer<UInt8>) {
        render(i, seat: seat, size: size, into: out)
    }

    func step(actions: UnsafePointer<Int32>, observations: UnsafeMutablePointer<Float>?,
              rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
              truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>,
              events eventOut: UnsafeMutablePointer<Int32>?) throws(ABIError) {
        let count = self.count, n = self.n
        try events.withUnsafeMutableBufferPointer { (ev) throws(ABIError) in
            let evp = eventOut == nil ? nil : ev.baseAddress
            if twoPlayer {
                // The caller's layout is the contract's: seat 0 bottom, seat 1 top.
                let out = VectorStepOutput(observations: observations, rewards: rewards, terminated: terminated,
                                           truncated: truncated, ends: ends, events: evp)
                batch.step(actions: actions, into: out)
            } else if let opponents, opponentReadsState {
                try stepAgainstStateReader(opponents, actions: actions, observations: observations, rewards: rewards,
                                           terminated: terminated, truncated: truncated, ends: ends, events: evp)
            } else if let opponents {
                let agent = agentSide == .bottom ? 0 : 1, opponent = 1 - agent
                try opponentObs.withUnsafeMutableBufferPointer { (oo) throws(ABIError) in
                    try seatActions.withUnsafeMutableBufferPointer { (sa) throws(ABIError) in
                        try seatObs.withUnsafeMutableBufferPointer { (so) throws(ABIError) in
                            try seatRewards.withUnsafeMutableBufferPointer { (sr) throws(ABIError) in
                                guard let oo = oo.baseAddress, let sa = sa.baseAddress, let so = so.baseAddress,
                                      let sr = sr.baseAddress else { return }
                                if keepHistory {
                                    for i in 0 ..< count {
                                        history[i].append(contentsOf: UnsafeBufferPointer(start: oo + i * n, count: n))
                                    }
                                }
                                try opponents.actAll(observations: oo, stride: n)
                                for i in 0 ..< count {
                                    sa[2 * i + agent] = actions[i]
                                    sa[2 * i + opponent] = opponents.actions[i]
                                }
                                let out = VectorStepOutput(observations: so, rewards: sr, terminated: terminated,
                                                           truncated: truncated, ends: ends, events: evp)
                                batch.step(actions: sa, into: out)
                                try startRestartedOpponents(terminated: terminated, truncated: truncated)
                                for i in 0 ..< count {
                                    rewards[i] = sr[2 * i + agent]
                                    if let o = observations { (o + i * n).update(from: so + (2 * i + agent) * n, count: n) }
                                    (oo + i * n).update(from: so + (2 * i + opponent) * n, count: n)
                                }
                            }
                        }
                    }
                }
            }
            if let e = eventOut, let ev = ev.baseAddress {
                if let stride = eventsPrefixStride {
                    EventRows.copyPrefix(UnsafeRawPointer(ev), stride: stride, count: count, columns: eventColumns.count,
                                         into: e)
                } else {
                    EventRows.copy(ev, count: count, eventColumns, into: e)
                }
            }
        }
    }

    /// Single-agent step against an opponent reading the batch's state: it
    /// acts with no rows, and only the agent's rows are written (straight
    /// into the caller's buffer when the agent plays seat 0).
    func stepAgainstStateReader(_ opponents: Opponents, actions: UnsafePointer<Int32>,
                                observations: UnsafeMutablePointer<Float>?, rewards: UnsafeMutablePointer<Float>,
                                terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>,
                                ends: UnsafeMutablePointer<UInt8>, events: UnsafeMutablePointer<PongEvents>?)
        throws(ABIError) {
        let count = self.count, n = self.n
        let agent = agentSide == .bottom ? 0 : 1
        try seatActions.withUnsafeMutableBufferPointer { (sa) throws(ABIError) in
            try seatObs.withUnsafeMutableBufferPointer { (so) throws(ABIError) in
                try seatRewards.withUnsafeMutableBufferPointer { (sr) throws(ABIError) in
                    try agentRows.withUnsafeBufferPointer { (rows) throws(ABIError) in
                        guard let sa = sa.baseAddress, let so = so.baseAddress, let sr = sr.baseAddress else { return }
                        try opponents.actAll(observations: so, stride: n)
                        opponents.actions.withUnsafeBufferPointer { oa in
                            guard let oa = oa.baseAddress else { return }
                            SeatColumns.interleave(agent: actions, opponent: oa, agentSeat: agent, count: count, into: sa)
                        }
                        let out = agent == 0
                            ? VectorStepOutput(observations: observations, rewards: sr, terminated: terminated,
                                               truncated: truncated, ends: ends, events: events, observedSeats: 1)
                            : VectorStepOutput(observations: observations == nil ? nil : so, rewards: sr,
                                               terminated: terminated, truncated: truncated, ends: ends, events: events,
                                               observedRows: rows.baseAddress)
                        batch.step(actions: sa, into: out)
                        try startRestartedOpponents(terminated: terminated, truncated: truncated)
                        SeatColumns.column(sr, seat: agent, count: count, into: rewards)
                        if agent == 1, let o = observations {
                            for i in 0 ..< count { (o + i * n).update(from: so + (2 * i + 1) * n, count: n) }
                        }
                    }
                }
            }
        }
    }

    /// Next-step mode: the opponents of the games that restarted in this
    /// step start their new episodes. Only games that had ended before it
    /// restart (``restartDue``: those that ended in the step before, or were
    /// restored ended), so only theirs are asked; this step's ended games
    /// are due next.
    func startRestartedOpponents(terminated: UnsafePointer<UInt8>, truncated: UnsafePointer<UInt8>) throws(ABIError) {
        guard batch.autoresetMode == .nextStep else { return }
        let due = restartDue
        // Eight games' flags at a time: a step seldom has any due.
        var i = 0
        while i < count {
            if i &+ 8 <= count, UnsafeRawPointer(due).loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 {
                i &+= 8
                continue
            }
            if due[i] != 0 && batch.episodesStarted(i) != started[i] { try startOpponent(i) }
            i &+= 1
        }
        for i in 0 ..< count { due[i] = terminated[i] | truncated[i] }
    }

    /// Read from the batch's score columns, not its whole state; the agent's side first.
    func writeScores(into out: UnsafeMutablePointer<Int32>) { batch.writeScores(into: out, topFirst: agentSide == .top) }

    func statusLine(_ i: Int) -> String {
        let s = batch.state(i)
        return "pong  bottom \(s.scoreBottom) - top \(s.scoreTop)  step \(s.steps)\(s.end == .none ? "" : "  (\(s.end))")"
    }

    func payload(_ i: Int) throws(ABIError) -> GamePayload {
        guard twoPlayer || keepHistory else {
            throw ABIError(.invalidArgument, "snapshot: the opponent's state is not kept (create with \"opponent_history\": true to snapshot single-agent Pong)")
        }
        let json: Data
        do { json = try batch.snapshot(i).encoded() } catch {
            throw ABIError(.invalidArgument, "snapshot: cannot encode game \(i): \(error)")
        }
        return GamePayload(json: Array(json), opponentSeed: twoPlayer ? 0 : opponentSeeds[i],
                           history: keepHistory ? history[i] : [])
    }

    func restore(_ p: GamePayload, into i: Int) throws(ABIError) {
        let saved: PongGame.SavedGame
        do { saved = try PongGame.SavedGame.decode(Data(p.json)) } catch {
            throw ABIError(.badSnapshot, "snapshot: \(error.description)")
        }
        // Decoding checked the state against Pong's invariants.
        if !twoPlayer {
            guard keepHistory || p.history.isEmpty else {
                throw ABIError(.badSnapshot, "snapshot: holds an opponent history, but this environment keeps none (opponent_history false)")
            }
            guard p.history.count % n == 0 else {
                throw ABIError(.badSnapshot, "snapshot: opponent history of \(p.history.count) floats is not whole observations of \(n)")
            }
            for (k, v) in p.history.enumerated() where !(v >= layout.lower[k % n] && v <= layout.upper[k % n]) {
                throw ABIError(.badSnapshot, "snapshot: opponent history value \(v) at \(k) is outside the observation bounds")
            }
        }
        do { try batch.restore(saved, into: i) } catch { throw ABIError(.badSnapshot, "snapshot: \(error.description)") }
        guard let opponents else { return }
        // Rebuild the opponent: same seed, same observations in the same order
        // (each in game i's row of the opponents' observations, as a step shows it).
        opponentSeeds[i] = p.opponentSeed
        try opponents.start(i, seed: p.opponentSeed)
        let n = self.n
        try opponentObs.withUnsafeMutableBufferPointer { (oo) throws(ABIError) in
            guard let base = oo.baseAddress else { return }
            for k in 0 ..< p.history.count / n {
                for j in 0 ..< n { base[i * n + j] = p.history[k * n + j] }
                try opponents.replay(i, observations: base, stride: n)
            }
        }
        if keepHistory { history[i] = p.history }
        started[i] = batch.episodesStarted(i)
        restartDue[i] = ended(i) ? 1 : 0
        refreshOpponentObservation(i)
    }
}
