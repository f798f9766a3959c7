/// N Pong games stepped together, state stored as structure-of-arrays: the
/// ``VectorEnvironment`` for Pong.
///
/// The same game as ``PongGame``, bit for bit: each step loads one game's
/// ``PongState`` from the columns, runs ``PongPhysics/step(_:top:bottom:events:)``
/// (the code path ``PongGame`` uses) and stores it back; frames in which
/// nothing can touch take a short path over the columns they change (the
/// same arithmetic, see ``quietStep(_:bottom:top:)``). The columns are
/// allocated once in `init` and freed in `deinit`; stepping allocates
/// nothing.
///
/// ## Seats
/// Two seats per game: seat 0 is the bottom side, seat 1 the top side. Each
/// seat's actions and observation are its own egocentric ones (see
/// ``PongGame``), and each seat's reward is its own points won minus points
/// lost (zero-sum: the seats' rewards are negatives of each other).
///
/// ## Autoreset and seeds
/// As ``VectorEnvironment`` states, in the mode given at `init`.
public final class PongBatch: VectorEnvironment {
    public typealias Config = PongConfig
    public typealias Events = PongEvents
    public typealias SavedGame = PongGame.SavedGame

    public let physics: PongPhysics
    /// Number of games.
    public let count: Int
    /// The batch seed episode seeds derive from.
    public let seed: UInt64
    /// Global index of game 0 (for a slice of a larger batch).
    public let firstIndex: Int
    public let autoresetMode: AutoresetMode
    public let observationLayout: ObservationLayout

    // MARK: - Columns (one entry per game)

    let ballX, ballY, ballVX, ballVY, speed: UnsafeMutablePointer<Float>
    let bottomX, bottomY, topX, topY: UnsafeMutablePointer<Float>
    let scoreBottom, scoreTop, steps: UnsafeMutablePointer<Int32>
    let lastActionBottom, lastActionTop, end: UnsafeMutablePointer<UInt8>
    let serveRNG: UnsafeMutablePointer<Xoshiro256>
    /// Each game's sticky-action generator, one column per state word (so
    /// eight games' generators load into lanes, ``GeneratorLanes``).
    let sticky0, sticky1, sticky2, sticky3: UnsafeMutablePointer<UInt64>
    /// Episodes started so far by each game (the first is episode 0).
    let episodes: UnsafeMutablePointer<UInt64>
    /// Each game's restart stream (see ``VectorEnvironment``, "Seeds").
    let restarts: RestartStreams
    /// The summed events of eight games during a step of several frames.
    let laneEvents: UnsafeMutablePointer<PongEvents>
    /// Scratch of one eight-game block's sticky step (``drawKeeps(_:frames:_:)``,
    /// ``stickyFrames(_:bottom:top:oldB:oldT:frames:_:)``): per frame, the
    /// keep draws (bottom at `2f`, top at `2f + 1`) and the paddle moves.
    let frameKeeps: UnsafeMutablePointer<LaneInts>
    /// Per frame of a sticky step, the actions its draws give (bottom at
    /// `2f`, top at `2f + 1`).
    let frameActions: UnsafeMutablePointer<LaneInts>
    let frameMoves: UnsafeMutablePointer<LaneMoves>
    /// The block's sticky generators after the step's draws.
    let drawnGenerators: UnsafeMutablePointer<GeneratorLanes>
    /// The shifts of xoshiro256**'s two rotations, its result's by 7 bits
    /// and its last state word's by 45, each as a left and a right shift:
    /// (7, 57, 45, 19). Kept in memory, so that the rotations stay vector
    /// shifts (docs/throughput.md, "Constants the vectoriser lowers badly").
    let generatorRotations: UnsafeMutablePointer<UInt64>
    /// The ball heights inside which no paddle can be reached (``PongPhysics/quietBand``).
    let bandLow, bandHigh: Float
    /// Frames taken by the quiet path since `init` (tests check that the
    /// path carries the frames it should: a path that silently stopped being
    /// taken would still give the right games).
    public private(set) var quietFrames = 0
    /// Of ``quietFrames``, those taken by the band form of the quiet path
    /// (eight balls far from both paddles: the wall test alone).
    public private(set) var bandFrames = 0
    /// Of ``quietFrames``, those taken by the flat form of the quiet path
    /// (paddles that cannot move vertically: their heights' tests hoisted).
    public private(set) var flatFrames = 0
    /// Game frames whose sticky draws were made eight games at a time
    /// (``GeneratorLanes``), a whole step's draws in one pass.
    public private(set) var laneDrawFrames = 0

    /// Length of one seat's observation.
    public static let observationCount = PongPhysics.observationCount
    /// Two seats: 0 bottom, 1 top.
    public static let seatCount = 2
    public var seats: Int { Self.seatCount }
    public var config: PongConfig { physics.config }
    public var actionCount: Int { physics.config.verticalMovement ? 5 : 3 }

    /// A batch of `count` games, each starting its episode 0.
    /// - Parameters:
    ///   - count: number of games, at least 1.
    ///   - seed: the batch seed (see ``VectorEnvironment``, "Seeds").
    ///   - firstIndex: global index of game 0 when this batch is a slice.
    public init(config: PongConfig, count: Int, seed: UInt64, firstIndex: Int = 0,
                autoresetMode: AutoresetMode = .sameStep) {
        precondition(count >= 1, "a batch needs at least one game")
        physics = PongPhysics(config: config)
        self.count = count
        self.seed = seed
        self.firstIndex = firstIndex
        self.autoresetMode = autoresetMode
        observationLayout = PongPhysics.observationLayout
        (bandLow, bandHigh) = physics.quietBand
        func column<T>(_ value: T, _ n: Int = count) -> UnsafeMutablePointer<T> {
            let b = UnsafeMutablePointer<T>.allocate(capacity: n)
            b.initialize(repeating: value, count: n)
            return b
        }
        ballX = column(0); ballY = column(0); ballVX = column(0); ballVY = column(0); speed = column(0)
        bottomX = column(0); bottomY = column(0); topX = column(0); topY = column(0)
        scoreBottom = column(0); scoreTop = column(0); steps = column(0)
        lastActionBottom = column(0); lastActionTop = column(0); end = column(0)
        serveRNG = column(Xoshiro256(seed: 0))
        sticky0 = column(0); sticky1 = column(0); sticky2 = column(0); sticky3 = column(0)
        let frames = config.frameSkip
        frameKeeps = column(LaneInts(), 2 * frames)
        frameActions = column(LaneInts(), 2 * frames)
        frameMoves = column(LaneMoves(bx: .zero, by: .zero, tx: .zero, ty: .zero), frames)
        drawnGenerators = column(GeneratorLanes(), 2)
        generatorRotations = column(0, 4)
        generatorRotations[0] = 7; generatorRotations[1] = 57; generatorRotations[2] = 45; generatorRotations[3] = 19
        episodes = column(0)
        restarts = RestartStreams(count: count, batchSeed: seed, firstIndex: firstIndex)
        laneEvents = column(PongEvents(), Lanes.scalarCount)
        for i in 0 ..< count {
            store(physics.initialState(seed: restarts.draw(i)), i)
        }
    }

    deinit {
        for b in [ballX, ballY, ballVX, ballVY, speed, bottomX, bottomY, topX, topY] { b.deallocate() }
        for b in [scoreBottom, scoreTop, steps] { b.deallocate() }
        for b in [lastActionBottom, lastActionTop, end] { b.deallocate() }
        for b in [sticky0, sticky1, sticky2, sticky3] { b.deallocate() }
        serveRNG.deallocate(); episodes.deallocate()
        laneEvents.deallocate()
        frameKeeps.deallocate(); frameActions.deallocate(); frameMoves.deallocate(); drawnGenerators.deallocate()
        generatorRotations.deallocate()
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
    /// game's episode counter and restart stream are kept.
    public func setState(_ state: PongState, _ i: Int) {
        precondition(i >= 0 && i < count, "game index out of range")
        store(state, i)
    }

    /// Game `i` as a saved game (state and config).
    public func snapshot(_ i: Int) -> PongGame.SavedGame {
        PongGame.SavedGame(config: config, state: state(i))
    }

    /// Restores game `i` from a saved game of the same config (its episode
    /// counter and restart stream are kept).
    /// - Throws: ``SnapshotError/corrupt(_:)`` when the snapshot's config is
    ///   not this batch's (a game cannot change rules inside a batch),
    ///   ``SnapshotError/impossible(field:value:allowed:)`` when the state
    ///   breaks one of Pong's invariants (``PongState/checkInvariants(_:)``).
    public func restore(_ snapshot: PongGame.SavedGame, into i: Int) throws(SnapshotError) {
        guard snapshot.config == config else {
            throw .corrupt("the snapshot's config (hash \(String(snapshot.config.configHash, radix: 16))) is not the batch's (hash \(String(config.configHash, radix: 16)))")
        }
        try snapshot.state.checkInvariants(config)
        setState(snapshot.state, i)
    }

    /// Draws game `i` as ``PongGame/render(into:)`` does.
    public func render(_ i: Int, into frame: inout GrayFrame) {
        var game = PongGame(config: config)
        game.state = state(i)
        game.render(into: &frame)
    }

    /// Starts a new episode of game `i` with seed `seed` (counted as an
    /// episode of that game); its later restarts draw from `seed`'s restart
    /// stream (see ``VectorEnvironment``, "Seeds").
    public func reset(_ i: Int, seed: UInt64) {
        precondition(i >= 0 && i < count, "game index out of range")
        episodes[i] &+= 1
        restarts.follow(i, resetSeed: seed)
        store(physics.initialState(seed: seed), i)
    }

    public func reset(mask: UnsafePointer<UInt8>, seeds: UnsafePointer<UInt64>?) {
        for i in 0 ..< count where mask[i] != 0 {
            if let seeds { reset(i, seed: seeds[i]) } else { store(nextEpisode(i), i) }
        }
    }

    /// Episodes started so far by game `i` (1 after `init`).
    public func episodesStarted(_ i: Int) -> UInt64 { episodes[i] &+ 1 }

    /// Writes every game's observation for `side` (`count × 12` floats).
    public func observe(_ side: PongSide, into out: UnsafeMutablePointer<Float>) {
        let n = Self.observationCount
        for i in 0 ..< count { physics.observe(load(i), side: side, into: out + i * n) }
    }

    /// Writes both seats' observations of every game (`count × 2 × 12`).
    public func observe(into out: UnsafeMutablePointer<Float>) {
        let n = Self.observationCount
        for i in 0 ..< count {
            let s = load(i)
            physics.observe(s, side: .bottom, into: out + 2 * i * n)
            physics.observe(s, side: .top, into: out + (2 * i + 1) * n)
        }
    }

    @inline(__always)
    func load(_ i: Int) -> PongState {
        PongState(ballX: ballX[i], ballY: ballY[i], ballVX: ballVX[i], ballVY: ballVY[i], speed: speed[i],
                  bottomX: bottomX[i], bottomY: bottomY[i], topX: topX[i], topY: topY[i],
                  scoreBottom: scoreBottom[i], scoreTop: scoreTop[i], steps: steps[i],
                  lastActionBottom: lastActionBottom[i], lastActionTop: lastActionTop[i],
                  end: Self.episodeEnd(end[i]),
                  serveRNG: serveRNG[i], stickyRNG: stickyGenerator(i))
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
        serveRNG[i] = s.serveRNG; setStickyGenerator(s.stickyRNG, i)
    }

    /// Game `i`'s sticky generator, from its four columns.
    @inline(__always)
    func stickyGenerator(_ i: Int) -> Xoshiro256 {
        Xoshiro256(words: sticky0[i], sticky1[i], sticky2[i], sticky3[i])
    }

    @inline(__always)
    func setStickyGenerator(_ g: Xoshiro256, _ i: Int) {
        sticky0[i] = g.s0; sticky1[i] = g.s1; sticky2[i] = g.s2; sticky3[i] = g.s3
    }

    /// The next episode's state of game `i` (an automatic restart).
    @inline(never)
    func nextEpisode(_ i: Int) -> PongState {
        episodes[i] &+= 1
        return physics.initialState(seed: restarts.draw(i))
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
        let s = PongFrame(x: ballX[i], y: ballY[i], vx: ballVX[i], vy: ballVY[i],
                          bx: bottomX[i], by: bottomY[i], tx: topX[i], ty: topY[i])
        let (next, clear) = physics.frame(s, physics.moves(bottom: Float(bottom), top: Float(top)), ExactFrame.self)
        guard (clear .& physics.inField(next.y)).isSet else { return false }
        ballX[i] = next.x; ballY[i] = next.y
        bottomX[i] = next.bx; bottomY[i] = next.by; topX[i] = next.tx; topY[i] = next.ty
        lastActionBottom[i] = UInt8(truncatingIfNeeded: bottom)
        lastActionTop[i] = UInt8(truncatingIfNeeded: top)
        steps[i] = nextSteps
        return true
    }

    /// One agent step of every game (see ``VectorEnvironment``): `actions`
    /// holds `count × 2` actions, game `i`'s bottom seat at `2i`, its top
    /// seat at `2i + 1`; actions outside the game's range act as stay.
    /// Every non-nil buffer of `out` must hold the sizes the output type
    /// states (rewards `count × 2`).
    /// - Complexity: O(count), no allocation.
    public func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<PongEvents>) {
        // Frames with no contact and no point take a short path over the
        // games' positions, eight games at a time (`quietLanes` for steps of
        // one frame, `framesLanes` for several frames or sticky actions) or
        // one at a time (`quietStep`); every other step or frame runs the
        // full `PongPhysics` code. Each kind of step has its own loop, so
        // that each loop's lane code is inlined whole.
        if physics.config.frameSkip == 1 && physics.config.stickyActionProbability == 0 {
            stepOneFrame(actions, out)
        } else {
            stepFrames(actions, out)
        }
    }

    /// ``step(actions:into:)`` when a step is one frame without sticky actions.
    @inline(never)
    func stepOneFrame(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<PongEvents>) {
        // A local copy of the rules: its derived constants (and the
        // observation's reciprocals) stay in registers across the loop.
        let physics = self.physics
        let seen = out.seatsObserved(of: Self.seatCount)
        var i = 0
        var quietCount = 0, bandCount = 0, flatCount = 0
        let lanes = Lanes.scalarCount
        while i + lanes <= count {
            let (bottom, top) = laneActions(actions, i, out)
            var busy = quietLanes(i, bottom: bottom, top: top, band: &bandCount, flat: &flatCount, physics)
            quietCount &+= lanes &- busy.nonzeroBitCount
            while busy != 0 {
                let j = busy.trailingZeroBitCount
                busy &= busy - 1
                fullStep(i + j, bottom: Int(bottom[j]), top: Int(top[j]), out, seen)
            }
            observeBlock(i, out, seen, physics)
            i += lanes
        }
        while i < count {
            let bottom = Int(actions[2 * i]), top = Int(actions[2 * i + 1])
            if quietStep(i, bottom: bottom, top: top) {
                quietCount &+= 1
                quietOutputs(i, out)
            } else {
                fullStep(i, bottom: bottom, top: top, out, seen)
            }
            if let o = out.observations { writeObservations(i, into: o, seats: seen, physics) }
            i += 1
        }
        quietFrames &+= quietCount
        bandFrames &+= bandCount
        flatFrames &+= flatCount
    }

    /// ``step(actions:into:)`` when a step is several frames or has sticky actions.
    @inline(never)
    func stepFrames(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<PongEvents>) {
        let physics = self.physics
        let seen = out.seatsObserved(of: Self.seatCount)
        var i = 0
        var quietCount = 0, bandCount = 0, flatCount = 0, laneDrawCount = 0
        let lanes = Lanes.scalarCount
        while i + lanes <= count {
            let (bottom, top) = laneActions(actions, i, out)
            let (quiet, band, flat, laneDraws) = framesLanes(i, bottom: bottom, top: top, out, seen, physics)
            quietCount &+= quiet
            bandCount &+= band
            flatCount &+= flat
            laneDrawCount &+= laneDraws
            observeBlock(i, out, seen, physics)
            i += lanes
        }
        while i < count {
            fullStep(i, bottom: Int(actions[2 * i]), top: Int(actions[2 * i + 1]), out, seen)
            if let o = out.observations { writeObservations(i, into: o, seats: seen, physics) }
            i += 1
        }
        quietFrames &+= quietCount
        bandFrames &+= bandCount
        flatFrames &+= flatCount
        laneDrawFrames &+= laneDrawCount
    }

    /// Games `i ..< i + 8`'s actions (bottom and top seats), after storing
    /// the outputs of a quiet step (zeros) for all eight: the games that are
    /// not quiet overwrite theirs.
    @inline(__always)
    func laneActions(_ actions: UnsafePointer<Int32>, _ i: Int, _ out: VectorStepOutput<PongEvents>)
        -> (bottom: LaneInts, top: LaneInts) {
        let pair = UnsafeRawPointer(actions + 2 * i).loadUnaligned(as: SIMD16<Int32>.self)
        UnsafeMutableRawPointer(out.rewards + 2 * i).storeBytes(of: SIMD16<Float>(repeating: 0), as: SIMD16<Float>.self)
        Lane8.store(.zero, out.terminated, i)
        Lane8.store(.zero, out.truncated, i)
        if let e = out.ends { Lane8.store(.zero, e, i) }
        if let e = out.events { for j in 0 ..< Lanes.scalarCount { e[i + j] = PongEvents() } }
        return (pair.evenHalf, pair.oddHalf)
    }

    /// Games `i ..< i + 8`'s observations of the first `seen` seats.
    @inline(__always)
    func observeBlock(_ i: Int, _ out: VectorStepOutput<PongEvents>, _ seen: Int, _ physics: PongPhysics) {
        guard let o = out.observations, seen > 0 else { return }
        let n = Self.observationCount
        observeRows(i, side: .bottom, into: o, stride: seen * n, physics)
        if seen > 1 { observeRows(i, side: .top, into: o + n, stride: seen * n, physics) }
    }

    /// The outputs of game `i`'s quiet step.
    @inline(__always)
    func quietOutputs(_ i: Int, _ out: VectorStepOutput<PongEvents>) {
        out.rewards[2 * i] = 0
        out.rewards[2 * i + 1] = 0
        out.terminated[i] = 0
        out.truncated[i] = 0
        if let e = out.ends { e[i] = EpisodeEnd.none.rawValue }
        if let e = out.events { e[i] = PongEvents() }
    }

    /// Game `i`'s step through ``PongPhysics/step(_:top:bottom:events:)`` on
    /// the loaded state, with the batch's autoreset; writes every output but
    /// the observations (out of line: most steps are quiet).
    @inline(never)
    func fullStep(_ i: Int, bottom: Int, top: Int, _ out: VectorStepOutput<PongEvents>, _ seen: Int) {
        var events = PongEvents()
        var s = load(i)
        let r: StepResult
        if s.end != .none, autoresetMode == .nextStep {
            // The step after the end: the new episode, this step's actions ignored.
            s = nextEpisode(i)
            r = StepResult(reward: 0, terminated: false, truncated: false, end: .none)
        } else {
            r = physics.step(&s, top: top, bottom: bottom, events: &events)
            if r.isDone, autoresetMode == .sameStep {
                if let f = out.finalObservations { writeObservations(s, i, into: f, seats: seen, physics) }
                s = nextEpisode(i)
            }
        }
        store(s, i)
        out.rewards[2 * i] = r.reward
        out.rewards[2 * i + 1] = Float(events.pointsTop - events.pointsBottom)
        out.terminated[i] = r.terminated ? 1 : 0
        out.truncated[i] = r.truncated ? 1 : 0
        if let e = out.ends { e[i] = r.end.rawValue }
        if let e = out.events { e[i] = events }
    }

    /// Writes game `i`'s first `seats` seats' observations from its current state.
    @inline(__always)
    func writeObservations(_ i: Int, into o: UnsafeMutablePointer<Float>, seats: Int, _ physics: PongPhysics) {
        writeObservations(load(i), i, into: o, seats: seats, physics)
    }

    /// Writes the first `seats` seats' observations of `s` as game `i`'s.
    @inline(__always)
    func writeObservations(_ s: PongState, _ i: Int, into o: UnsafeMutablePointer<Float>, seats: Int,
                           _ physics: PongPhysics) {
        let n = Self.observationCount
        if seats > 0 { physics.observe(s, side: .bottom, into: o + i * seats * n) }
        if seats > 1 { physics.observe(s, side: .top, into: o + (i * seats + 1) * n) }
    }
}
