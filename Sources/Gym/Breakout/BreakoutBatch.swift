/// N Breakout games stepped together, in buffers owned by the batch: the
/// ``VectorEnvironment`` for Breakout (one seat).
///
/// The same game as ``BreakoutGame``, bit for bit: each game is a
/// ``BreakoutCore`` (fixed size, no references) in one contiguous buffer and
/// its brick grid in a byte row of one contiguous buffer (``cellRows``), and a
/// step runs ``BreakoutPhysics/step(_:bricks:action:events:)`` — the code
/// path ``BreakoutGame`` uses — on them in place; without
/// sticky actions, the quiet frames of games with one ball in
/// play or waiting for a serve run eight games at a time in float lanes
/// (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``), a game whose
/// frames were all quiet there only finishes its step, such games of one
/// group finish theirs together unless one of them ends
/// (``finishQuietGroup(_:lanes:rewards:terminated:truncated:ends:events:)``)
/// while the group's other games step one by one, and the group's
/// observations are written in lanes too. Each
/// game's aim candidates (``BreakoutPhysics/aimColumns(_:)``) are kept and
/// recomputed only when its bricks change, so writing an observation does
/// not scan the wall; each game's grid lies in a byte row as long as its
/// observation, at the cells' place, so that eight games' observations
/// take their cell entries from their byte rows sixteen floats at a time
/// (with the zeros around them, written over after). The fields the lanes
/// read or write at every step are kept in columns (``Columns``), their
/// only copy, so that the lanes load and store eight games' values at
/// once; the rest of each game is its ``BreakoutCore``, and a game stepped
/// on its own is stepped on its core filled from the columns. Games under their own rules (``reset(_:seed:rules:)``, a
/// ``ruleContext``) run in the same lanes, each group reading its games'
/// rule values from ``PerGameRules/columns`` (``GameRuleColumns``).
/// Buffers are allocated once in `init` and freed in `deinit`; stepping
/// allocates nothing.
///
/// Autoreset and seeds: as ``VectorEnvironment`` states, in the mode given
/// at `init`.
public final class BreakoutBatch: GameBatch {
    public typealias Config = BreakoutConfig
    public typealias Events = BreakoutEvents
    public typealias SavedGame = BreakoutGame.SavedGame
    typealias Game = BreakoutGame
    typealias Physics = BreakoutPhysics
    typealias Lanes = SIMD8<Float>
    /// Each game's rule values loaded from the batch's rule columns (``GameRuleColumns``).
    typealias GameRules = GameRuleColumns<BreakoutRuleLanes<Lanes>>

    public let physics: BreakoutPhysics
    public let count: Int
    public let seed: UInt64
    public let firstIndex: Int
    public let autoresetMode: AutoresetMode
    public let observationLayout: ObservationLayout
    /// The context every episode started without explicit rules draws its
    /// rules from (``RuleContextVector``); nil: the batch's config.
    public let ruleContext: RuleContext<BreakoutConfig>?
    /// Brick cells per game.
    public let cellCount: Int
    /// Floats per game's observation.
    public let observationCount: Int

    /// `count` cores (0 in the fields ``columns`` holds).
    let cores: UnsafeMutablePointer<BreakoutCore>
    /// Each game's fields that the lanes read or write (``Columns``).
    let columns: Columns
    /// Each game's byte row (``observationCount`` bytes): its brick grid
    /// (``grid(_:)``) at ``BreakoutPhysics/cellStart``, 0 around it.
    let cellRows: UnsafeMutablePointer<UInt8>
    /// Episodes started so far by each game (the first is episode 0).
    let episodes: Column<UInt64>
    /// Each game's ``BreakoutPhysics/aimColumns(_:)`` of its current grid.
    let aim: UnsafeMutablePointer<UInt32>
    /// Each game's grid changes so far (``wallVersion(_:)``).
    let wallVersions: UnsafeMutablePointer<UInt32>
    /// The games `0 ..< laneGames` (the whole groups of eight, or none when
    /// the config's frames cannot run in lanes: sticky actions, which are
    /// not a rule value) run their quiet frames in lanes.
    let laneGames: Int
    /// Lane vectors for ``BreakoutPhysics/observeEight(_:cores:cellRows:aim:into:stride:scratch:_:)``.
    let laneScratch: UnsafeMutablePointer<SIMD8<Float>>
    /// Each game's restart stream (see ``VectorEnvironment``, "Seeds").
    let restarts: RestartStreams
    /// What the fast paths took so far (all games): how tests see that
    /// each path is used.
    var fastPath = FastPathCounts()
    /// Each game's rules (``rules(_:)``).
    let ruleTable: PerGameRules<BreakoutPhysics>

    public var config: BreakoutConfig { physics.config }
    public var actionCount: Int { BreakoutAction.count }
    /// One seat.
    public var seats: Int { 1 }

    /// A batch of `count` games whose episodes play the rules `context`
    /// draws from their seeds (``RuleContextVector``; `context.base` is `config`).
    public init(config: BreakoutConfig, count: Int, seed: UInt64, firstIndex: Int = 0,
                autoresetMode: AutoresetMode = .sameStep, context: RuleContext<BreakoutConfig>?) {
        precondition(count >= 1, "a batch needs at least one game")
        precondition(context.map { $0.base == config } ?? true, "a rule context's base must be the batch's config")
        ruleContext = context
        physics = BreakoutPhysics(config: config)
        self.count = count
        self.seed = seed
        self.firstIndex = firstIndex
        self.autoresetMode = autoresetMode
        observationLayout = physics.observationLayout
        cellCount = physics.cellCount
        observationCount = physics.observationCount
        let blank = physics.initialState(seed: 0).core
        // On a cache-line boundary: with BreakoutCore's stride a whole
        // number of lines, every game's core starts a line.
        cores = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<BreakoutCore>.stride,
                                                 alignment: Self.coreAlignment)
            .bindMemory(to: BreakoutCore.self, capacity: count)
        cores.initialize(repeating: blank, count: count)
        columns = Columns(count: count)
        cellRows = .allocate(capacity: count * observationCount)
        cellRows.initialize(repeating: 0, count: count * observationCount)
        episodes = Column(repeating: 0, count: count)
        aim = .allocate(capacity: count)
        aim.initialize(repeating: 0, count: count)
        wallVersions = .allocate(capacity: count)
        wallVersions.initialize(repeating: 0, count: count)
        laneGames = !(config.stickyActionProbability > 0) ? count & ~7 : 0
        laneScratch = .allocate(capacity: BreakoutPhysics.laneScratchCount)
        laneScratch.initialize(repeating: SIMD8(), count: BreakoutPhysics.laneScratchCount)
        restarts = RestartStreams(count: count, batchSeed: seed, firstIndex: firstIndex)
        ruleTable = PerGameRules(physics, count: count, drawn: context != nil)
        startFirstEpisodes()
    }

    @inline(__always)
    func withGames<R>(_ body: GameColumns<R>) -> R { body(ruleTable, restarts, episodes) }

    deinit {
        UnsafeMutableRawPointer(cores).deallocate(); cellRows.deallocate(); aim.deallocate()
        wallVersions.deallocate(); laneScratch.deallocate()
    }

    /// The alignment of the cores' buffer (bytes): a cache line.
    static let coreAlignment = 64

    @inline(__always)
    func grid(_ i: Int) -> UnsafeMutablePointer<UInt8> { cellRows + (i &* observationCount &+ physics.cellStart) }

    func start(_ i: Int, seed: UInt64) {
        physics(i).reset(&cores[i], bricks: grid(i), seed: seed)
        columns.take(cores + i, i)
        bricksChanged(i)
    }

    /// Game `i`'s whole core (its columns' fields filled in).
    @inline(__always)
    func load(_ i: Int) -> BreakoutCore {
        var c = cores[i]
        withUnsafeMutablePointer(to: &c) { columns.fill($0, i) }
        return c
    }

    /// Recomputes what the batch keeps of game `i`'s grid (its aim
    /// candidates): after every change of the grid.
    func bricksChanged(_ i: Int) { bricksChanged(i, physics(i)) }

    /// ``bricksChanged(_:)`` for game `i` playing `physics`.
    func bricksChanged(_ i: Int, _ physics: BreakoutPhysics) {
        aim[i] = physics.aimColumns(grid(i))
        wallVersions[i] &+= 1
    }

    // MARK: - One game (snapshots)

    /// Game `i`'s full state as a value.
    public func state(_ i: Int) -> BreakoutState {
        precondition(i >= 0 && i < count, "game index out of range")
        return BreakoutState(core: load(i), bricks: Array(UnsafeBufferPointer(start: grid(i), count: cellCount)))
    }

    /// Writes `state` as game `i`'s (a restored snapshot's).
    func store(_ state: BreakoutState, _ i: Int) {
        cores[i] = state.core
        columns.take(cores + i, i)
        let g = grid(i)
        for k in 0 ..< cellCount { g[k] = state.bricks[k] }
        bricksChanged(i)
    }

    /// Writes game `i`'s observation (`observationCount` floats).
    public func observe(_ i: Int, into out: UnsafeMutablePointer<Float>) {
        precondition(i >= 0 && i < count, "game index out of range")
        var c = load(i)
        physics(i).observe(&c, bricks: grid(i), aimColumns: aim[i], into: out)
    }

    /// Writes every game's observation (`count × observationCount` floats).
    public func observe(into out: UnsafeMutablePointer<Float>) {
        let whole = count & ~7
        if ruleTable.ownCount == 0 {
            observeGroups(whole, into: out, UniformRules())
        } else {
            observeGroups(whole, into: out, GameRules(ruleTable))
        }
        fastPath.laneObservations &+= whole
        var i = whole
        while i < count {
            observeOne(i, into: out)
            i += 1
        }
    }

    /// Writes the observations of the games `0 ..< whole` (whole groups of
    /// eight) into their rows of `out`, group by group (``observeGroup(_:into:_:)``).
    func observeGroups<R: RuleSource>(_ whole: Int, into out: UnsafeMutablePointer<Float>, _ rules: R)
        where R.Values: BreakoutRuleValues, R.Values.L == Lanes {
        var i = 0
        while i < whole {
            observeGroup(i, into: out, rules.lanes(i))
            i += 8
        }
    }

    /// Writes the observations of the eight games `i ..< i + 8`, whose rule
    /// values are `rules`, into their rows of `out` (the batch's
    /// observation buffer), in lanes, from their columns and cores.
    @inline(__always)
    func observeGroup<K: BreakoutRuleValues>(_ i: Int, into out: UnsafeMutablePointer<Float>, _ rules: K)
        where K.L == Lanes {
        let n = observationCount
        physics.observeEight(columns.group(i), cores: cores + i, cellRows: cellRows + i * n, aim: aim + i, into: out + i * n,
                             stride: n, scratch: laneScratch, rules)
    }

    /// Writes game `i`'s observation into its row of `out` (the batch's
    /// observation buffer).
    @inline(__always)
    func observeOne(_ i: Int, into out: UnsafeMutablePointer<Float>) {
        var c = load(i)
        physics(i).observe(&c, bricks: grid(i), aimColumns: aim[i], into: out + i * observationCount)
    }

    // MARK: - Stepping

    /// One agent step of every game (see ``VectorEnvironment``): `count`
    /// actions, out-of-range actions act as noop.
    /// - Complexity: O(count × (balls + cells)), no allocation.
    public func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<BreakoutEvents>) {
        step(actions: actions, into: out, scores: nil)
    }

    /// ``step(actions:into:)`` when some game plays its own rules, or may
    /// restart within the step into rules of its own (a batch with a rule
    /// context): each group's rule values loaded into its lanes (the same
    /// kernels), so that a game's observation after a restart reads its new rules.
    @inline(never)
    func stepUnderOwnRules(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<BreakoutEvents>,
                           scores: UnsafeMutablePointer<Int32>? = nil) {
        stepGroups(actions, out, GameRules(ruleTable), scores: scores)
    }

    /// ``step(actions:into:)`` with each group's rule values from `rules`
    /// (and, when `scores` is given, ``step(actions:into:scores:)``).
    @inline(__always)
    func stepGroups<R: RuleSource>(_ actions: UnsafePointer<Int32>, _ out: VectorStepOutput<BreakoutEvents>,
                                   _ rules: R, scores: UnsafeMutablePointer<Int32>? = nil)
        where R.Values: BreakoutRuleValues, R.Values.L == Lanes {
        let physics = self.physics
        // Under the batch's rules, every game plays its physics for the
        // whole step (a game's rules change only when it restarts, after
        // its step), so the games' physics are not read from the table.
        let uniform = R.self == UniformRules.self
        let observed = out.seatsObserved(of: 1) > 0
        // Checked once per batch step, not per game.
        let finals = observed ? out.finalObservations : nil
        let ends = out.ends, eventsOut = out.events
        let rewards = out.rewards, terminated = out.terminated, truncated = out.truncated
        // The fast paths' frame counts, kept in locals for the whole batch
        // step and added to the properties once.
        var counts = FastPathCounts()
        var events = BreakoutEvents()
        // Quiet frames eight games at a time in lanes where they apply (one
        // ball or a serve pending, no gravity, no sticky actions): each
        // group's `runs` holds the frames each of its games ran there (−1:
        // none, see ``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``).
        let whole = count & ~7
        let groups = laneGames
        let frames = physics.config.frameSkip, skip = Float(frames)
        // Observations are written group by group as each group's eight
        // games finish their step (each game's is independent of the
        // others'), then for the games after the last whole group; a group
        // none of whose rows is needed (``VectorStepOutput/observedRows``)
        // is skipped whole, as is a game past the groups whose row is not.
        let observations = observed ? out.observations : nil
        let needed = out.observedRows
        var i = 0
        while i < groups {
            let k = rules.lanes(i)
            let runs = physics.quietLanes(columns.group(i), cores: cores + i, actions: actions + i, frames: frames,
                                          serveFrames: &counts.laneServes, k)
            // The games that ran every frame in lanes finish their steps
            // together unless one of them ends; the others step on their own.
            let fullLanes = runs .== skip
            let full = UInt32(Lane8.bits(fullLanes))
            var others: UInt32 = 0xFF
            if full != 0, finishQuietGroup(i, lanes: fullLanes, rewards: rewards, terminated: terminated,
                                           truncated: truncated, ends: ends, events: eventsOut) {
                let finished = full.nonzeroBitCount
                counts.lanes &+= finished &* frames
                others = 0xFF & ~full
                if others == 0 { counts.groups &+= 8 } else { counts.laneFinishes &+= finished }
            }
            var left = others
            while left != 0 {
                let g = left.trailingZeroBitCount
                left &= left &- 1
                stepGame(i &+ g, uniform ? physics : self.physics(i &+ g), action: actions[i &+ g], run: runs[g],
                         out: out, finals: finals, counts: &counts, events: &events)
            }
            if let scores { writeScoreAndLives(i, 8, into: scores); counts.scoresInStep &+= 8 }
            if let o = observations, needed.map({ Lane8.anySet($0, i) }) ?? true {
                // The rule values are read again: a game that ended and
                // restarted may play other rules now.
                observeGroup(i, into: o, rules.lanes(i))
                counts.laneObservations &+= 8
            }
            i &+= 8
        }
        while i < count {
            stepGame(i, uniform ? physics : self.physics(i), action: actions[i], run: -1, out: out, finals: finals,
                     counts: &counts, events: &events)
            if let scores { writeScoreAndLives(i, 1, into: scores); counts.scoresInStep &+= 1 }
            i &+= 1
            if i & 7 == 0, i <= whole, let o = observations, needed.map({ Lane8.anySet($0, i &- 8) }) ?? true {
                observeGroup(i &- 8, into: o, rules.lanes(i &- 8))
                counts.laneObservations &+= 8
            }
        }
        if let o = observations {
            for g in whole ..< count where needed.map({ $0[g] != 0 }) ?? true { observeOne(g, into: o) }
        }
        fastPath &+= counts
    }

    /// One agent step of game `i`, playing `physics`, within
    /// ``step(actions:into:)`` and its outputs (`out`'s rows `i`; the final observation to `finals` when
    /// the step ends the episode and restarts it): `run` is the frames it
    /// already ran this step in lanes
    /// (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``), or −1.
    @inline(__always)
    func stepGame(_ i: Int, _ physics: BreakoutPhysics, action: Int32, run: Float,
                  out: VectorStepOutput<BreakoutEvents>, finals: UnsafeMutablePointer<Float>?,
                  counts: inout FastPathCounts, events: inout BreakoutEvents) {
        let frames = physics.config.frameSkip
        let r: StepResult
        if autoresetMode == .nextStep, columns.group(i).pointee.end[i & 7] != EpisodeEnd.none.rawValue {
            // The step after the end: the new episode, this step's action ignored.
            nextEpisode(i)
            events = BreakoutEvents()
            r = StepResult(reward: 0, terminated: false, truncated: false, end: .none)
        } else {
            // The game's core, filled from its columns for the step, its
            // fields moved back before a restart starts the next episode.
            let s = cores + i
            columns.fill(s, i)
            if run == Float(frames) {
                // Every frame ran quietly in lanes: no event, only the step's end.
                counts.lanes &+= frames
                events = BreakoutEvents()
                r = physics.finishStep(&s.pointee, events: BreakoutEvents())
            } else {
                r = step(i, physics, action: Int(action), events: &events, counts: &counts, laneRun: Int(run))
            }
            if r.isDone, autoresetMode == .sameStep {
                if let f = finals {
                    physics.observe(s, bricks: grid(i), aimColumns: aim[i], into: f + i * observationCount)
                }
                columns.take(s, i)
                nextEpisode(i)
            } else {
                columns.take(s, i)
            }
        }
        out.rewards[i] = r.reward
        out.terminated[i] = r.terminated ? 1 : 0
        out.truncated[i] = r.truncated ? 1 : 0
        if let e = out.ends { e[i] = r.end.rawValue }
        if let e = out.events { e[i] = events }
    }

    /// Counts of what the fast paths took, kept by the batch
    /// (``fastPath``) and by each step call (added to it at the end):
    /// - `lanes`: frames run eight games at a time in lanes by
    ///   ``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)`` (no sticky actions);
    /// - `runs`: quiet frames of the groups' games run one game at a time
    ///   (``BreakoutPhysics/quietRun(_:action:frames:severalBalls:)``), and
    ///   `ballRuns` those of them with several balls in play;
    /// - `laneServes`: of those, frames of games waiting for a serve;
    /// - `groups`: game steps finished eight at a time by
    ///   ``finishQuietGroup(_:lanes:rewards:terminated:truncated:ends:events:)``
    ///   (every frame of the eight games ran in lanes);
    /// - `laneFinishes`: game steps finished together by that function in
    ///   groups where some game did not run every frame in lanes;
    /// - `laneObservations`: observations written eight games at a time
    ///   (``BreakoutPhysics/observeEight(_:cores:cellRows:aim:into:stride:scratch:_:)``);
    /// - `scoresInStep`: games whose score and lives were written within
    ///   their step (``step(actions:into:scores:)``), not in a pass after it.
    struct FastPathCounts {
        var lanes = 0, runs = 0, ballRuns = 0, laneServes = 0, groups = 0, laneFinishes = 0
        var laneObservations = 0, scoresInStep = 0

        static func &+= (a: inout FastPathCounts, b: FastPathCounts) {
            a.lanes &+= b.lanes; a.runs &+= b.runs; a.ballRuns &+= b.ballRuns
            a.laneServes &+= b.laneServes
            a.groups &+= b.groups; a.laneFinishes &+= b.laneFinishes
            a.laneObservations &+= b.laneObservations; a.scoresInStep &+= b.scoresInStep
        }
    }

    /// One agent step of game `i` under `physics` (its own), its core filled
    /// from its columns (``Columns/fill(_:_:)``): ``BreakoutPhysics/step(_:bricks:action:events:)``,
    /// the first `laneRun` frames (0 ... frame skip, or −1 for none) having
    /// run already in lanes (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``).
    /// A game of a group (``laneGames``) runs its quiet frames on its own
    /// (``BreakoutPhysics/quietRun(_:action:frames:severalBalls:)``): the
    /// first ones when it ran none in lanes, and those after each frame
    /// that is not quiet, which takes the tick. Refreshes the game's aim
    /// candidates when a brick changed (only a brick hit changes the grid,
    /// and a new wall comes only with a hit that clears the last brick).
    @inline(__always)
    func step(_ i: Int, _ physics: BreakoutPhysics, action: Int, events: inout BreakoutEvents,
              counts: inout FastPathCounts, laneRun: Int = -1) -> StepResult {
        let s = cores + i
        let r: StepResult
        if i < laneGames, s.pointee.end == .none {
            // Lanes run only without sticky actions: every frame's action
            // is `action`, recorded as the frames' (the game runs one at least).
            events = BreakoutEvents()
            s.pointee.lastAction = UInt8(truncatingIfNeeded: action)
            let frames = physics.config.frameSkip
            var f = max(laneRun, 0)
            counts.lanes &+= f
            // Quiet frames first unless the lanes stopped at a frame that is not.
            var quiet = laneRun < 0
            while f < frames {
                if quiet {
                    let k = physics.quietRun(&s.pointee, action: action, frames: frames - f,
                                             severalBalls: &counts.ballRuns)
                    counts.runs &+= k
                    f += k
                    guard f < frames else { break }
                }
                physics.tick(&s.pointee, bricks: grid(i), action: action, events: &events)
                f += 1
                guard s.pointee.end == .none else { break }
                quiet = true
            }
            r = physics.finishStep(&s.pointee, events: events)
        } else {
            r = physics.step(&s.pointee, bricks: grid(i), action: action, events: &events)
        }
        if events.brickHits > 0 { bricksChanged(i, physics) }
        return r
    }
}
