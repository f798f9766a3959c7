/// N Pong games stepped together, state stored as structure-of-arrays.
///
/// The same game as ``PongGame``, bit for bit: each step loads one game's
/// ``PongState`` from the columns, runs ``PongPhysics/step(_:bottom:top:events:)``
/// (the code path ``PongGame`` uses) and stores it back. The columns are
/// `UnsafeMutableBufferPointer`s allocated once in `init` and freed in
/// `deinit`; stepping allocates nothing.
///
/// ## Seats
/// The batch has an *agent* side (``agentSide``, bottom by default) and an
/// *opponent* side. ``step(agent:opponent:into:)`` takes one action per game
/// for each (the opponent's buffer is the "built-in opponent": fill it from
/// any policy, e.g. a tracker over ``PongBatchOutput/opponentObservations``,
/// or a constant); for two-player play give both sides' chosen actions and ask
/// for both observations. Rewards are the agent side's (the opponent's is the
/// negation: Pong is zero-sum).
///
/// ## Auto-reset (same-step)
/// With ``AutoReset/sameStep`` (the default) a game that ends in a step is
/// reset within that same step: the step's reward, flags, end reason and
/// events describe the step that ended the episode; the observation written
/// to `observations` is the *first observation of the new episode*, and the
/// final observation of the finished episode goes to `finalObservations`
/// (slot `i` written only when game `i` ended in this step; left untouched
/// otherwise). This is Gymnasium's `SAME_STEP` autoreset mode.
/// With ``AutoReset/off`` a finished game stays finished (stepping it is a
/// no-op repeating its flags, as ``PongGame`` does) until ``reset(_:seed:)``.
///
/// ## Seeds
/// Game `i` of a batch with `seed` and `firstIndex` plays its episode `e`
/// (0, 1, 2, … counted per game) with
/// ``episodeSeed(batchSeed:game:episode:)`` of `(seed, firstIndex + i, e)`:
/// a pure function, so a batch split into slices (`firstIndex`) replays
/// exactly the games of one big batch, whatever the number of workers.
/// ``reset(_:seed:)`` overrides a game's seed explicitly (an explicit seed
/// queue is the caller's: e.g. evaluation hands out `Seeds.episode` seeds).
public final class PongBatch {
    /// How finished games restart.
    public enum AutoReset: Sendable {
        /// Reset in the step that ended the episode (see the type's doc).
        case sameStep
        /// Leave finished games finished until ``PongBatch/reset(_:seed:)``.
        case off
    }

    public let physics: PongPhysics
    /// Number of games.
    public let count: Int
    /// The batch seed episode seeds derive from.
    public let seed: UInt64
    /// Global index of game 0 (for a slice of a larger batch).
    public let firstIndex: Int
    /// The side whose actions, observations and rewards are the agent's.
    public let agentSide: PongSide
    public let autoReset: AutoReset

    // MARK: - Columns (one entry per game)

    let ballX, ballY, ballVX, ballVY, speed: UnsafeMutablePointer<Float>
    let bottomX, bottomY, topX, topY: UnsafeMutablePointer<Float>
    let scoreBottom, scoreTop, steps: UnsafeMutablePointer<Int32>
    let lastActionBottom, lastActionTop, end: UnsafeMutablePointer<UInt8>
    let serveRNG, stickyRNG: UnsafeMutablePointer<Xoshiro256>
    /// Episodes started so far by each game (the first is episode 0).
    let episodes: UnsafeMutablePointer<UInt64>

    /// Length of one game's observation.
    public static let observationCount = PongPhysics.observationCount
    public var config: PongConfig { physics.config }
    public var actionCount: Int { physics.config.verticalMovement ? 5 : 3 }

    /// A batch of `count` games, each starting its episode 0.
    /// - Parameters:
    ///   - count: number of games, at least 1.
    ///   - seed: the batch seed (see the type's doc, "Seeds").
    ///   - firstIndex: global index of game 0 when this batch is a slice.
    public init(config: PongConfig, count: Int, seed: UInt64, firstIndex: Int = 0,
                agentSide: PongSide = .bottom, autoReset: AutoReset = .sameStep) {
        precondition(count >= 1, "a batch needs at least one game")
        physics = PongPhysics(config: config)
        self.count = count
        self.seed = seed
        self.firstIndex = firstIndex
        self.agentSide = agentSide
        self.autoReset = autoReset
        func column<T>(_ value: T) -> UnsafeMutablePointer<T> {
            let b = UnsafeMutablePointer<T>.allocate(capacity: count)
            b.initialize(repeating: value, count: count)
            return b
        }
        ballX = column(0); ballY = column(0); ballVX = column(0); ballVY = column(0); speed = column(0)
        bottomX = column(0); bottomY = column(0); topX = column(0); topY = column(0)
        scoreBottom = column(0); scoreTop = column(0); steps = column(0)
        lastActionBottom = column(0); lastActionTop = column(0); end = column(0)
        serveRNG = column(Xoshiro256(seed: 0)); stickyRNG = column(Xoshiro256(seed: 0))
        episodes = column(0)
        for i in 0 ..< count {
            store(physics.initialState(seed: Self.episodeSeed(batchSeed: seed, game: firstIndex + i, episode: 0)), i)
        }
    }

    deinit {
        for b in [ballX, ballY, ballVX, ballVY, speed, bottomX, bottomY, topX, topY] { b.deallocate() }
        for b in [scoreBottom, scoreTop, steps] { b.deallocate() }
        for b in [lastActionBottom, lastActionTop, end] { b.deallocate() }
        serveRNG.deallocate(); stickyRNG.deallocate(); episodes.deallocate()
    }

    /// The seed of episode `episode` of global game `game` in a batch seeded
    /// with `batchSeed` (``Seeds/batchEpisode(batchSeed:game:episode:)``).
    @inlinable
    public static func episodeSeed(batchSeed: UInt64, game: Int, episode: UInt64) -> UInt64 {
        Seeds.batchEpisode(batchSeed: batchSeed, game: game, episode: episode)
    }

    // MARK: - One game's state (snapshots)

    /// Game `i`'s full state as a value (a snapshot of that game alone).
    public func state(_ i: Int) -> PongState {
        precondition(i >= 0 && i < count, "game index out of range")
        return load(i)
    }

    /// Replaces game `i`'s state (restore a snapshot into the batch). The
    /// episode counter of the game is kept.
    public func setState(_ state: PongState, _ i: Int) {
        precondition(i >= 0 && i < count, "game index out of range")
        store(state, i)
    }

    /// Game `i` as a saved game (state and config).
    public func snapshot(_ i: Int) -> PongGame.SavedGame {
        PongGame.SavedGame(config: config, state: state(i))
    }

    /// Restores game `i` from a saved game of the same config.
    /// - Throws: ``SnapshotError/corrupt(_:)`` when the snapshot's config is
    ///   not this batch's (a game cannot change rules inside a batch).
    public func restore(_ snapshot: PongGame.SavedGame, into i: Int) throws(SnapshotError) {
        guard snapshot.config == config else {
            throw .corrupt("the snapshot's config (hash \(String(snapshot.config.configHash, radix: 16))) is not the batch's (hash \(String(config.configHash, radix: 16)))")
        }
        setState(snapshot.state, i)
    }

    /// Starts a new episode of game `i` with an explicit seed (counted as an
    /// episode of that game).
    public func reset(_ i: Int, seed: UInt64) {
        precondition(i >= 0 && i < count, "game index out of range")
        episodes[i] &+= 1
        store(physics.initialState(seed: seed), i)
    }

    /// Episodes started so far by game `i` (1 after `init`).
    public func episodesStarted(_ i: Int) -> UInt64 { episodes[i] &+ 1 }

    /// Writes every game's observation for `side` (`count × 12` floats).
    public func observe(_ side: PongSide, into out: UnsafeMutablePointer<Float>) {
        let n = Self.observationCount
        for i in 0 ..< count { physics.observe(load(i), side: side, into: out + i * n) }
    }

    @inline(__always)
    func load(_ i: Int) -> PongState {
        PongState(ballX: ballX[i], ballY: ballY[i], ballVX: ballVX[i], ballVY: ballVY[i], speed: speed[i],
                  bottomX: bottomX[i], bottomY: bottomY[i], topX: topX[i], topY: topY[i],
                  scoreBottom: scoreBottom[i], scoreTop: scoreTop[i], steps: steps[i],
                  lastActionBottom: lastActionBottom[i], lastActionTop: lastActionTop[i],
                  end: Self.episodeEnd(end[i]),
                  serveRNG: serveRNG[i], stickyRNG: stickyRNG[i])
    }

    /// The end reason stored as `raw` (inline, so a load whose end is not
    /// used, as by the observation, costs nothing).
    @inline(__always)
    static func episodeEnd(_ raw: UInt8) -> EpisodeEnd {
        switch raw {
        case EpisodeEnd.gameOver.rawValue: .gameOver
        case EpisodeEnd.livesExhausted.rawValue: .livesExhausted
        case EpisodeEnd.levelsCleared.rawValue: .levelsCleared
        case EpisodeEnd.stepLimit.rawValue: .stepLimit
        case EpisodeEnd.watchdog.rawValue: .watchdog
        default: .none
        }
    }

    @inline(__always)
    func store(_ s: PongState, _ i: Int) {
        ballX[i] = s.ballX; ballY[i] = s.ballY; ballVX[i] = s.ballVX; ballVY[i] = s.ballVY; speed[i] = s.speed
        bottomX[i] = s.bottomX; bottomY[i] = s.bottomY; topX[i] = s.topX; topY[i] = s.topY
        scoreBottom[i] = s.scoreBottom; scoreTop[i] = s.scoreTop; steps[i] = s.steps
        lastActionBottom[i] = s.lastActionBottom; lastActionTop[i] = s.lastActionTop; end[i] = s.end.rawValue
        serveRNG[i] = s.serveRNG; stickyRNG[i] = s.stickyRNG
    }

    /// The next episode's state of game `i` (same-step auto-reset).
    @inline(never)
    func nextEpisode(_ i: Int) -> PongState {
        episodes[i] &+= 1
        return physics.initialState(seed: Self.episodeSeed(batchSeed: seed, game: firstIndex + i, episode: episodes[i]))
    }

    // MARK: - Stepping

    /// The step of game `i` when it is one frame (no frame skip, no sticky
    /// actions) in which nothing happens: the game is running, the step
    /// limit is not reached, the frame takes ``PongPhysics``'s fast path (no
    /// contact possible) and no point is scored. Then
    /// ``PongPhysics/step(_:top:bottom:events:)`` would change only the
    /// ball's position, the paddles, the last actions and the step counter,
    /// with exactly this arithmetic (the same functions `tick` uses), so the
    /// result is bit-identical; the tests compare against ``PongGame`` step
    /// by step.
    /// - Returns: whether the step was taken (otherwise nothing changed).
    @inline(__always)
    func quietStep(_ i: Int, bottom: Int, top: Int) -> Bool {
        guard end[i] == EpisodeEnd.none.rawValue else { return false }
        let nextSteps = steps[i] &+ 1
        let maxSteps = physics.config.maxSteps
        if maxSteps > 0, Int(nextSteps) >= maxSteps { return false }
        let bx0 = bottomX[i], by0 = bottomY[i], tx0 = topX[i], ty0 = topY[i]
        let (bx1, by1, tx1, ty1) = physics.paddleTargets(bx0, by0, tx0, ty0, bottom: bottom, top: top)
        let x = ballX[i], y = ballY[i], vx = ballVX[i], vy = ballVY[i]
        let y1 = y + vy
        guard PongPhysics.all(physics.frameIsClear(x, y, vx, vy, bx0, by0, bx1, by1, tx0, ty0, tx1, ty1),
                              !(y1 > physics.height), !(y1 < 0), true) else { return false }
        ballX[i] = x + vx; ballY[i] = y1
        bottomX[i] = bx1; bottomY[i] = by1; topX[i] = tx1; topY[i] = ty1
        lastActionBottom[i] = UInt8(truncatingIfNeeded: bottom)
        lastActionTop[i] = UInt8(truncatingIfNeeded: top)
        steps[i] = nextSteps
        return true
    }

    /// One agent step of every game (see the type's doc for seats and
    /// auto-reset). Actions outside the game's range act as stay.
    /// - Parameters:
    ///   - agent: `count` actions of the agent side.
    ///   - opponent: `count` actions of the opponent side.
    ///   - out: where results go; every non-nil buffer must hold `count`
    ///     entries (observations `count × 12`).
    /// - Complexity: O(count), no allocation.
    public func step(agent: UnsafePointer<Int32>, opponent: UnsafePointer<Int32>, into out: PongBatchOutput) {
        // A local copy of the rules: its derived constants (and the
        // observation's reciprocals) stay in registers across the loop.
        let physics = self.physics
        let agentIsBottom = agentSide == .bottom
        let sign: Float = agentIsBottom ? 1 : -1
        // Frames with no contact and no point take a short path over the
        // columns they change (`quietLanes`, eight games at a time, and
        // `quietStep`); every other step runs the full `PongPhysics.step`.
        let quiet = physics.config.frameSkip == 1 && physics.config.stickyActionProbability == 0
        var i = 0
        if quiet {
            let lanes = Lanes.scalarCount
            while i + lanes <= count {
                let a = UnsafeRawPointer(agent + i).loadUnaligned(as: LaneInts.self)
                let o = UnsafeRawPointer(opponent + i).loadUnaligned(as: LaneInts.self)
                let bottom = agentIsBottom ? a : o, top = agentIsBottom ? o : a
                // Outputs of a quiet step for every lane; the others' are overwritten below.
                UnsafeMutableRawPointer(out.rewards + i).storeBytes(of: Lanes(repeating: 0 * sign), as: Lanes.self)
                UnsafeMutableRawPointer(out.terminated + i).storeBytes(of: LaneBytes.zero, as: LaneBytes.self)
                UnsafeMutableRawPointer(out.truncated + i).storeBytes(of: LaneBytes.zero, as: LaneBytes.self)
                if let e = out.ends { UnsafeMutableRawPointer(e + i).storeBytes(of: LaneBytes.zero, as: LaneBytes.self) }
                if let e = out.events { for j in 0 ..< lanes { e[i + j] = PongEvents() } }
                var busy = quietLanes(i, bottom: bottom, top: top, physics)
                while busy != 0 {
                    let j = busy.trailingZeroBitCount
                    busy &= busy - 1
                    fullStep(i + j, bottom: Int(bottom[j]), top: Int(top[j]), sign: sign, out)
                }
                if let o = out.observations { observeLanes(i, side: agentSide, into: o, physics) }
                if let o = out.opponentObservations { observeLanes(i, side: agentSide.opponent, into: o, physics) }
                i += lanes
            }
        }
        while i < count {
            let a = Int(agent[i]), o = Int(opponent[i])
            let bottom = agentIsBottom ? a : o, top = agentIsBottom ? o : a
            if quiet, quietStep(i, bottom: bottom, top: top) {
                out.rewards[i] = 0 * sign
                out.terminated[i] = 0
                out.truncated[i] = 0
                if let e = out.ends { e[i] = EpisodeEnd.none.rawValue }
                if let e = out.events { e[i] = PongEvents() }
            } else {
                fullStep(i, bottom: bottom, top: top, sign: sign, out)
            }
            writeObservations(i, out, physics)
            i += 1
        }
    }

    /// Game `i`'s step through ``PongPhysics/step(_:top:bottom:events:)`` on
    /// the loaded state, with same-step auto-reset; writes every output but
    /// the observations.
    @inline(__always)
    func fullStep(_ i: Int, bottom: Int, top: Int, sign: Float, _ out: PongBatchOutput) {
        let n = Self.observationCount
        var events = PongEvents()
        var s = load(i)
        let r = physics.step(&s, top: top, bottom: bottom, events: &events)
        if r.isDone && autoReset == .sameStep {
            if let f = out.finalObservations { physics.observe(s, side: agentSide, into: f + i * n) }
            if let f = out.finalOpponentObservations { physics.observe(s, side: agentSide.opponent, into: f + i * n) }
            s = nextEpisode(i)
        }
        store(s, i)
        out.rewards[i] = r.reward * sign
        out.terminated[i] = r.terminated ? 1 : 0
        out.truncated[i] = r.truncated ? 1 : 0
        if let e = out.ends { e[i] = r.end.rawValue }
        if let e = out.events { e[i] = events }
    }

    /// Writes game `i`'s requested observations from its current state.
    @inline(__always)
    func writeObservations(_ i: Int, _ out: PongBatchOutput, _ physics: PongPhysics) {
        let n = Self.observationCount
        if let o = out.observations { physics.observe(load(i), side: agentSide, into: o + i * n) }
        if let o = out.opponentObservations { physics.observe(load(i), side: agentSide.opponent, into: o + i * n) }
    }
}

/// Caller-owned buffers a ``PongBatch`` step writes into (plain contiguous
/// memory a C caller can own). Every buffer holds one entry per game;
/// observation buffers `count × 12` floats, game `i` at `i × 12`.
@frozen
public struct PongBatchOutput {
    /// The agent side's observations (after auto-reset: the new episode's).
    public var observations: UnsafeMutablePointer<Float>?
    /// The opponent side's observations (two-player play, or an opponent policy).
    public var opponentObservations: UnsafeMutablePointer<Float>?
    /// The agent side's reward this step (points won minus points lost).
    public var rewards: UnsafeMutablePointer<Float>
    /// 1 when the game ended by its rules this step, else 0.
    public var terminated: UnsafeMutablePointer<UInt8>
    /// 1 when the step limit ended the game this step, else 0.
    public var truncated: UnsafeMutablePointer<UInt8>
    /// ``EpisodeEnd`` raw values (0 while running).
    public var ends: UnsafeMutablePointer<UInt8>?
    /// What happened in each game this step.
    public var events: UnsafeMutablePointer<PongEvents>?
    /// Same-step auto-reset: the agent side's last observation of a game that
    /// ended this step (slot written only then).
    public var finalObservations: UnsafeMutablePointer<Float>?
    /// Same for the opponent side.
    public var finalOpponentObservations: UnsafeMutablePointer<Float>?

    @inlinable
    public init(observations: UnsafeMutablePointer<Float>?, opponentObservations: UnsafeMutablePointer<Float>? = nil,
                rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
                truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>? = nil,
                events: UnsafeMutablePointer<PongEvents>? = nil,
                finalObservations: UnsafeMutablePointer<Float>? = nil,
                finalOpponentObservations: UnsafeMutablePointer<Float>? = nil) {
        self.observations = observations
        self.opponentObservations = opponentObservations
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated
        self.ends = ends
        self.events = events
        self.finalObservations = finalObservations
        self.finalOpponentObservations = finalOpponentObservations
    }
}
