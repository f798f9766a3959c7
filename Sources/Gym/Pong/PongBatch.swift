/// N Pong games stepped together, state stored as structure-of-arrays: the
/// ``VectorEnvironment`` for Pong.
///
/// The same game as ``PongGame``, bit for bit: games step eight at a time
/// through ``PongPhysics``'s kernels (PongKernels.swift) in lanes, and a
/// frame in which something touches, like every step of the last
/// `count % 8` games, loads the game's ``PongState`` from the columns, runs
/// ``PongPhysics``'s own frame or step (the code ``PongGame`` runs) and
/// stores it back. The columns are allocated once in `init` and freed in
/// `deinit`; stepping allocates nothing.
///
/// ## Seats
/// Two seats per game: seat 0 is the bottom side, seat 1 the top side. Each
/// seat's actions and observation are its own egocentric ones (see
/// ``PongGame``), and each seat's reward is its own points won minus points
/// lost (zero-sum: the seats' rewards are negatives of each other).
///
/// ## Autoreset and seeds
/// As ``VectorEnvironment`` states, in the mode given at `init`.
public final class PongBatch: GameBatch {
    public typealias Config = PongConfig
    public typealias Events = PongEvents
    public typealias SavedGame = PongGame.SavedGame
    typealias Game = PongGame
    typealias Physics = PongPhysics

    public let physics: PongPhysics
    /// Number of games.
    public let count: Int
    /// The batch seed episode seeds derive from.
    public let seed: UInt64
    /// Global index of game 0 (for a slice of a larger batch).
    public let firstIndex: Int
    public let autoresetMode: AutoresetMode
    public let observationLayout: ObservationLayout
    /// The context every episode started without explicit rules draws its
    /// rules from (``RuleContextVector``); nil: the batch's config.
    public let ruleContext: RuleContext<PongConfig>?

    // MARK: - Columns (one entry per game)

    let ballX, ballY, ballVX, ballVY, speed: Column<Float>
    let bottomX, bottomY, topX, topY: Column<Float>
    let scoreBottom, scoreTop, steps: Column<Int32>
    let lastActionBottom, lastActionTop, end: Column<UInt8>
    let serveRNG: Column<Xoshiro256>
    /// Each game's sticky-action generator.
    let stickyRNG: GeneratorColumns
    /// Episodes started so far by each game (the first is episode 0).
    let episodes: Column<UInt64>
    /// Each game's restart stream (see ``VectorEnvironment``, "Seeds").
    let restarts: RestartStreams
    /// The summed events of eight games during a step of several frames.
    let laneEvents: Column<PongEvents>
    /// Scratch of one eight-game block's sticky step (PongBatch+Sticky):
    /// per frame `f`, the actions its draws give (bottom at `2f`, top at
    /// `2f + 1`) and the paddle moves; the generators after the draws.
    let frameActions: Column<LaneInts>
    let frameMoves: Column<LaneMoves>
    let drawnGenerators: Column<GeneratorLanes>
    /// xoshiro256**'s rotations (``XoshiroWords/Rotations``), kept in
    /// memory so that they stay vector shifts (docs/throughput.md).
    let generatorRotations: Column<GeneratorLanes.Rotations>
    /// The ball heights inside which no paddle can be reached (``PongPhysics/quietBand``).
    let band: (low: Float, high: Float)
    /// Each game's rules (``rules(_:)``), and their values as the lanes
    /// read them (``PongRuleLanes``).
    let ruleTable: PerGameRules<PongPhysics>
    /// The frames each fast path took since `init` (tests check that every
    /// path carries the frames it should: a path that silently stopped
    /// being taken would still give the right games).
    var pathFrames = PathFrames()
    /// Frames taken by the quiet path (eight games at a time).
    public var quietFrames: Int { pathFrames.quiet }
    /// Of ``quietFrames``, those taken by the band form of the quiet path
    /// (eight balls far from both paddles: the wall test alone).
    public var bandFrames: Int { pathFrames.band }
    /// Of ``quietFrames``, those taken by the flat form of the quiet path
    /// (paddles that cannot move vertically: their heights' tests hoisted).
    public var flatFrames: Int { pathFrames.flat }
    /// Game frames whose sticky draws were made four games at a time
    /// (``GeneratorLanes``), a whole step's draws in one pass.
    public var laneDrawFrames: Int { pathFrames.laneDraws }

    /// Length of one seat's observation.
    public static let observationCount = PongPhysics.observationCount
    /// Two seats: 0 bottom, 1 top.
    public static let seatCount = 2
    public var seats: Int { Self.seatCount }
    public var config: PongConfig { physics.config }
    public var actionCount: Int { physics.config.verticalMovement ? 5 : 3 }

    /// A batch of `count` games whose episodes play the rules `context`
    /// draws from their seeds (``RuleContextVector``; `context.base` is `config`).
    public init(config: PongConfig, count: Int, seed: UInt64, firstIndex: Int = 0,
                autoresetMode: AutoresetMode = .sameStep, context: RuleContext<PongConfig>?) {
        precondition(count >= 1, "a batch needs at least one game")
        precondition(context.map { $0.base == config } ?? true, "a rule context's base must be the batch's config")
        ruleContext = context
        physics = PongPhysics(config: config)
        self.count = count
        self.seed = seed
        self.firstIndex = firstIndex
        self.autoresetMode = autoresetMode
        observationLayout = PongPhysics.observationLayout
        band = physics.quietBand
        func column<T>(_ value: T, _ n: Int = count) -> Column<T> { Column(repeating: value, count: n) }
        ballX = column(0); ballY = column(0); ballVX = column(0); ballVY = column(0); speed = column(0)
        bottomX = column(0); bottomY = column(0); topX = column(0); topY = column(0)
        scoreBottom = column(0); scoreTop = column(0); steps = column(0)
        lastActionBottom = column(0); lastActionTop = column(0); end = column(0)
        serveRNG = column(Xoshiro256(seed: 0))
        stickyRNG = GeneratorColumns(count: count)
        let frames = config.frameSkip
        frameActions = column(LaneInts(), 2 * frames)
        frameMoves = column(LaneMoves(bx: .zero, by: .zero, tx: .zero, ty: .zero), frames)
        drawnGenerators = column(GeneratorLanes(.zero, .zero, .zero, .zero), 2)
        generatorRotations = column(.standard, 1)
        episodes = column(0)
        restarts = RestartStreams(count: count, batchSeed: seed, firstIndex: firstIndex)
        laneEvents = column(PongEvents(), Lanes.scalarCount)
        ruleTable = PerGameRules(physics, count: count, drawn: context != nil)
        startFirstEpisodes()
    }

    @inline(__always)
    func withGames<R>(_ body: GameColumns<R>) -> R { body(ruleTable, restarts, episodes) }

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

    /// Writes side `side`'s observation of game `i` under its rules (12 floats).
    public func observe(_ i: Int, side: PongSide, into out: UnsafeMutablePointer<Float>) {
        precondition(i >= 0 && i < count, "game index out of range")
        physics(i).observe(load(i), side: side, into: out)
    }

    /// Writes both seats' observations of every game (`count × 2 × 12`).
    public func observe(into out: UnsafeMutablePointer<Float>) {
        for i in 0 ..< count { writeObservations(i, into: out, seats: 2, physics(i)) }
    }

    @inline(__always)
    func load(_ i: Int) -> PongState {
        PongState(ballX: ballX[i], ballY: ballY[i], ballVX: ballVX[i], ballVY: ballVY[i], speed: speed[i],
                  bottomX: bottomX[i], bottomY: bottomY[i], topX: topX[i], topY: topY[i],
                  scoreBottom: scoreBottom[i], scoreTop: scoreTop[i], steps: steps[i],
                  lastActionBottom: lastActionBottom[i], lastActionTop: lastActionTop[i],
                  end: EpisodeEnd(rawValue: end[i]) ?? .none,
                  serveRNG: serveRNG[i], stickyRNG: stickyRNG[i])
    }

    @inline(__always)
    func store(_ s: PongState, _ i: Int) {
        ballX[i] = s.ballX; ballY[i] = s.ballY; ballVX[i] = s.ballVX; ballVY[i] = s.ballVY; speed[i] = s.speed
        bottomX[i] = s.bottomX; bottomY[i] = s.bottomY; topX[i] = s.topX; topY[i] = s.topY
        scoreBottom[i] = s.scoreBottom; scoreTop[i] = s.scoreTop; steps[i] = s.steps
        lastActionBottom[i] = s.lastActionBottom; lastActionTop[i] = s.lastActionTop; end[i] = s.end.rawValue
        serveRNG[i] = s.serveRNG; stickyRNG[i] = s.stickyRNG
    }

    func start(_ i: Int, seed: UInt64) { store(physics(i).initialState(seed: seed), i) }

    // MARK: - Stepping

    /// One agent step of every game (see ``VectorEnvironment``): `actions`
    /// holds `count × 2` actions, game `i`'s bottom seat at `2i`, its top
    /// seat at `2i + 1`; actions outside the game's range act as stay.
    /// Every non-nil buffer of `out` must hold the sizes the output type
    /// states (rewards `count × 2`).
    /// - Complexity: O(count), no allocation.
    public func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<PongEvents>) {
        // Eight games at a time: quiet frames (no contact, no point) in
        // lanes, `quietLanes` for steps of one frame, `framesLanes` for
        // several frames or sticky actions; every other frame, and every
        // step of the last `count % 8` games, runs the full `PongPhysics`
        // code. Each kind of step has its own loop, so that each loop's
        // lane code is inlined whole.
        let oneFrame = physics.config.frameSkip == 1 && physics.config.stickyActionProbability == 0
        if ruleTable.perGame {
            // Games under their own rules, or that may restart within the
            // step into rules of their own (a rule context): each group's
            // rule values loaded into its lanes (the same kernels), so that
            // an observation after a restart reads the game's new rules.
            let rules = GameRules(ruleTable)
            if oneFrame { stepOneFrame(actions, out, rules) } else { stepFrames(actions, out, rules) }
        } else {
            let rules = UniformRules()
            if oneFrame { stepOneFrame(actions, out, rules) } else { stepFrames(actions, out, rules) }
        }
    }

    /// ``step(actions:into:)`` when a step is one frame without sticky actions.
    @inline(never)
    func stepOneFrame<R: RuleSource>(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<PongEvents>, _ rules: R)
        where R.Values: PongRuleValues, R.Values.L == Lanes {
        stepBlocks(actions, out, rules) { i, bottom, top, seen, counts, p, k in
            Lane8.forEachLane(in: quietLanes(i, bottom: bottom, top: top, &counts, p, k)) { j in
                fullStep(i + j, bottom: Int(bottom[j]), top: Int(top[j]), out, seen)
            }
        }
    }

    /// ``step(actions:into:)`` when a step is several frames or has sticky actions.
    @inline(never)
    func stepFrames<R: RuleSource>(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<PongEvents>, _ rules: R)
        where R.Values: PongRuleValues, R.Values.L == Lanes {
        stepBlocks(actions, out, rules) { i, bottom, top, seen, counts, p, k in
            framesLanes(i, bottom: bottom, top: top, out, seen, &counts, p, k)
        }
    }

    /// The step's loop: each block of eight games through `block` (its
    /// actions given, the outputs of a quiet step stored for it, its rule
    /// values from `rules`), then its observations; the last `count % 8`
    /// games through ``fullStep(_:bottom:top:_:_:)``.
    @inline(__always)
    func stepBlocks<R: RuleSource>(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<PongEvents>, _ rules: R,
                                   _ block: (Int, LaneInts, LaneInts, Int, inout PathFrames, PongPhysics, R.Values) -> Void)
        where R.Values: PongRuleValues, R.Values.L == Lanes {
        // A local copy of the rules: its derived constants (and the
        // observation's reciprocals) stay in registers across the loop.
        let physics = self.physics
        let seen = out.seatsObserved(of: Self.seatCount)
        var counts = PathFrames()
        var i = 0
        while i + Lanes.scalarCount <= count {
            let (bottom, top) = laneActions(actions, i, out)
            block(i, bottom, top, seen, &counts, physics, rules.lanes(i))
            if let o = out.observations, seen > 0 {
                // The rules after the step: a game that restarted in it may
                // play others now.
                let k = rules.lanes(i)
                let n = Self.observationCount, rows = out.observedRows
                if rows.map({ Lane8.anySet($0, i) }) ?? true {
                    observeRows(i, side: .bottom, into: o, stride: seen * n, physics, k)
                }
                if seen > 1, rows.map({ Lane8.anySet($0 + count, i) }) ?? true {
                    observeRows(i, side: .top, into: o + n, stride: seen * n, physics, k)
                }
            }
            i += Lanes.scalarCount
        }
        while i < count {
            fullStep(i, bottom: Int(actions[2 * i]), top: Int(actions[2 * i + 1]), out, seen)
            if let o = out.observations { writeObservations(i, into: o, seats: seen, self.physics(i), rows: out.observedRows) }
            i += 1
        }
        pathFrames.add(counts)
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

    /// Game `i`'s step through ``PongPhysics/step(_:top:bottom:events:)`` on
    /// the loaded state, with the batch's autoreset; writes every output but
    /// the observations (out of line: most steps are quiet).
    @inline(never)
    func fullStep(_ i: Int, bottom: Int, top: Int, _ out: VectorStepOutput<PongEvents>, _ seen: Int) {
        var events = PongEvents()
        if end[i] != EpisodeEnd.none.rawValue, autoresetMode != .nextStep {
            // A finished game's step changes nothing (``PongPhysics/step(_:top:bottom:events:)``): its outputs alone.
            finishStep(i, events: events, out, seen)
            return
        }
        var s = load(i)
        if s.end != .none, autoresetMode == .nextStep {
            // The step after the end: the new episode, this step's actions ignored.
            nextEpisode(i)
            writeOutputs(i, events: events, end: .none, out)
            return
        }
        _ = physics(i).step(&s, top: top, bottom: bottom, events: &events)
        store(s, i)
        finishStep(i, events: events, out, seen)
    }

    /// The outputs of game `i`'s step from its events and its end (as
    /// ``PongPhysics/step(_:top:bottom:events:)`` returns them), then a
    /// same-step restart if it ended.
    @inline(never)
    func finishStep(_ i: Int, events: PongEvents, _ out: VectorStepOutput<PongEvents>, _ seen: Int) {
        let e = EpisodeEnd(rawValue: end[i]) ?? .none
        writeOutputs(i, events: events, end: e, out)
        if e != .none, autoresetMode == .sameStep {
            if let f = out.finalObservations { writeObservations(i, into: f, seats: seen, physics(i)) }
            nextEpisode(i)
        }
    }

    /// Game `i`'s rewards (each seat's points won minus lost), flags, end
    /// and events.
    @inline(__always)
    func writeOutputs(_ i: Int, events: PongEvents, end e: EpisodeEnd, _ out: VectorStepOutput<PongEvents>) {
        out.rewards[2 * i] = Float(events.pointsBottom - events.pointsTop)
        out.rewards[2 * i + 1] = Float(events.pointsTop - events.pointsBottom)
        out.terminated[i] = e != .none && !e.isTruncation ? 1 : 0
        out.truncated[i] = e.isTruncation ? 1 : 0
        if let o = out.ends { o[i] = e.rawValue }
        if let o = out.events { o[i] = events }
    }

    /// Writes game `i`'s first `seats` seats' observations from its current
    /// state; with `rows`, only the rows it asks for (``VectorStepOutput/observedRows``).
    @inline(__always)
    func writeObservations(_ i: Int, into o: UnsafeMutablePointer<Float>, seats: Int, _ physics: PongPhysics,
                           rows: UnsafePointer<UInt8>? = nil) {
        let s = load(i), n = Self.observationCount
        for seat in 0 ..< min(seats, Self.seatCount) where rows.map({ $0[seat * count + i] != 0 }) ?? true {
            physics.observe(s, side: seat == 0 ? .bottom : .top, into: o + (i * seats + seat) * n)
        }
    }
}

/// The frames each of ``PongBatch``'s fast paths took.
struct PathFrames {
    /// Frames on the quiet path, of those on its band and its flat forms,
    /// and frames whose sticky draws were made lane-wise.
    var quiet = 0, band = 0, flat = 0, laneDraws = 0

    /// Counts `frames` quiet frames, of the band form and the flat form when those hold.
    @inline(__always)
    mutating func addQuiet(_ frames: Int, band isBand: Bool, flat isFlat: Bool) {
        quiet &+= frames
        if isBand { band &+= frames }
        if isFlat { flat &+= frames }
    }

    @inline(__always)
    mutating func add(_ o: PathFrames) {
        quiet &+= o.quiet; band &+= o.band; flat &+= o.flat; laneDraws &+= o.laneDraws
    }
}
