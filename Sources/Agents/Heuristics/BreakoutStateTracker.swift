import Gym
import Synchronization

/// ``BreakoutTracker`` for the games of a ``BreakoutBatch``, reading each
/// game's state from the batch instead of an observation row: the entries
/// it needs before the wall (``BreakoutBatch/observeHeadEight(_:into:)``
/// for eight games, ``BreakoutBatch/observeHead(_:into:)`` for one) and
/// the wall's cell entries (``BreakoutBatch/writeCellEntries(_:into:)``),
/// whose column sums it keeps per game until the wall changes
/// (``BreakoutBatch/wallVersion(_:)``, ``KeptWall``). Each game steers
/// through its columns (``TrackerSteeringColumns``, each game's generator
/// drawn as its own tracker's), so game `g` makes exactly the moves of its
/// own tracker started with the same seed, bit for bit; no row is written
/// for it in the slot engine (``StateReadingAgent``).
///
/// Seated as the slot engine seats it (game `g` is batch game `g`, for
/// every game of the batch), the games of each whole group of eight that
/// a call asks for are played together, the rules in eight lanes
/// (``BreakoutTracker/moves(_:balls:asked:wall:_:)``, only the asked lanes
/// steering: ``MaskedSteeringLanes``); the games past the last whole eight,
/// and every game of any other seating, one at a time.
final class BreakoutStateTracker: StateReadingAgent {
    let rules: BreakoutTracker
    let steering: TrackerSteeringColumns
    let batch: BreakoutBatch
    let observationCount: Int
    /// Per game: the batch game (slot) it is.
    let slotOf: Column<Int32>
    /// Scratch: one game's entries before its wall, and its wall's cell entries.
    let head: Column<Float>
    let cells: Column<Float>
    /// Per game: its wall's column sums (`rules.cols` floats at `g × cols`),
    /// the candidates and whether they decide (``KeptWall``), the wall
    /// version they were kept at, and whether they were kept this episode.
    let sums: Column<Float>
    let candidates: Column<UInt32>
    let decided: Column<Bool>
    let versions: Column<UInt32>
    let kept: Column<Bool>
    /// Games in whole groups of eight played in lanes (0 unless seated as
    /// the slot engine seats it: see the type's doc).
    let laneGames: Int
    /// Per group of eight: the lanes asked for in this call (bit `j`: game `8 × group + j`).
    let wanted: Column<UInt8>
    /// The groups with lanes asked for in this call, in the order first asked.
    let touched: Column<Int32>
    /// Scratch: a group's entries before the wall, in lanes.
    let laneHead: Column<SIMD8<Float>>
    /// The batch's games' wall versions (``BreakoutBatch/wallVersionColumn``).
    let batchVersions: UnsafePointer<UInt32>

    /// Games acted for by any instance, process-wide (one add per
    /// ``act(_:)``): tests check that the commands take this path.
    static let gamesActed = Atomic<Int>(0)
    /// Of those, the games acted for in lanes (tests check that the slot
    /// engine's games take the lanes).
    static let gamesInLanes = Atomic<Int>(0)

    /// Every game steered with `rules.skill`.
    convenience init(_ rules: BreakoutTracker, batch: BreakoutBatch, seating: AgentSeating, observationCount: Int) {
        self.init(rules, batch: batch, seating: seating, observationCount: observationCount,
                  steering: TrackerSteeringColumns(skill: rules.skill, games: seating.games))
    }

    /// Each game steered with the skill it starts with (``start(_:skill:seed:)``,
    /// a ``BreakoutTrackerGroup``'s), its delay at most `longestReaction`
    /// steps; `rules` give the aim (its skill's `predict` and `aim`, every game's).
    convenience init(_ rules: BreakoutTracker, batch: BreakoutBatch, seating: AgentSeating, observationCount: Int,
                     longestReaction: Int) {
        self.init(rules, batch: batch, seating: seating, observationCount: observationCount,
                  steering: TrackerSteeringColumns(games: seating.games,
                                                   ring: TrackerSteering.ringLength(reaction: longestReaction)))
    }

    private init(_ rules: BreakoutTracker, batch: BreakoutBatch, seating: AgentSeating, observationCount: Int,
                 steering: TrackerSteeringColumns) {
        precondition(seating.slots.allSatisfy { $0 >= 0 && Int($0) < batch.count }, "every game is one of the batch's")
        self.rules = rules
        self.batch = batch
        self.observationCount = observationCount
        let games = seating.games
        self.steering = steering
        slotOf = Column(repeating: 0, count: games)
        for g in 0 ..< games { slotOf[g] = seating.slots[g] }
        head = Column(repeating: 0, count: rules.bricksStart)
        cells = Column(repeating: 0, count: batch.cellCount)
        sums = Column(repeating: 0, count: games * rules.cols)
        candidates = Column(repeating: 0, count: games); decided = Column(repeating: false, count: games)
        versions = Column(repeating: 0, count: games); kept = Column(repeating: false, count: games)
        let everyGame = games == batch.count && (0 ..< games).allSatisfy { seating.slot($0) == $0 }
        laneGames = everyGame ? games & ~7 : 0
        wanted = Column(repeating: 0, count: max(1, laneGames / 8))
        touched = Column(repeating: 0, count: max(1, laneGames / 8))
        laneHead = Column(repeating: SIMD8(), count: rules.bricksStart)
        batchVersions = batch.wallVersionColumn
    }

    var games: Int { steering.games }

    func start(game: Int, seed: UInt64) {
        steering.reset(game, seed: seed)
        kept[game] = false
    }

    /// Game `g`'s episode starts, steered with `skill` (its `predict` and
    /// `aim` must be ``rules``'s).
    func start(_ g: Int, skill: TrackerSkill, seed: UInt64) {
        precondition(skill.predict == rules.skill.predict && skill.aim == rules.skill.aim,
                     "a game's tracker aims as the rules do")
        steering.reset(g, skill: skill, seed: seed)
        kept[g] = false
    }

    func end(game _: Int) {}

    func act(_ rows: AgentRows) {
        var groups = 0, inLanes = 0
        for k in 0 ..< rows.count {
            let g = rows.game(k)
            guard g < laneGames else {
                actAlone(g, rows.actions)
                continue
            }
            let group = g >> 3
            if wanted[group] == 0 { touched[groups] = Int32(group); groups += 1 }
            wanted[group] |= 1 << UInt8(g & 7)
            inLanes += 1
        }
        for t in 0 ..< groups {
            let group = Int(touched[t])
            actEight(group << 3, lanes: wanted[group], rows.actions)
            wanted[group] = 0
        }
        Self.gamesActed.add(rows.count, ordering: .relaxed)
        Self.gamesInLanes.add(inLanes, ordering: .relaxed)
    }

    /// Game `g` alone (its entries from ``BreakoutBatch/observeHead(_:into:)``).
    func actAlone(_ g: Int, _ actions: UnsafeMutablePointer<Int32>) { actions[g] = move(g) }

    /// Game `g`'s action, played alone.
    func move(_ g: Int) -> Int32 {
        let slot = Int(slotOf[g])
        batch.observeHead(slot, into: head.base)
        var cursor = steering.cursor(g)
        return Int32(truncatingIfNeeded: rules.decide(UnsafePointer(head.base), wall: wall(g, slot: slot), &cursor))
    }

    /// The games `i ..< i + 8` (batch games `i ..< i + 8`) whose bits are
    /// set in `lanes` (bit `j`: game `i + j`), in lanes; each asked game's
    /// action into `actions`, no other entry changed.
    func actEight(_ i: Int, lanes: UInt8, _ actions: UnsafeMutablePointer<Int32>) {
        let asked = Self.mask(lanes)
        let out = UnsafeMutableRawPointer(actions + i)
        let old = out.loadUnaligned(as: SIMD8<Int32>.self)
        out.storeBytes(of: old.replacing(with: movesEight(i, asked: asked), where: asked), as: SIMD8<Int32>.self)
    }

    /// The lanes of `lanes`' set bits (bit `j`: lane `j`). (Integer lanes
    /// are compared with a vector, not a scalar: the scalar form is taken
    /// lane by lane.)
    @inline(__always)
    static func mask(_ lanes: UInt8) -> SIMDMask<SIMD8<Int32>> {
        SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128) & SIMD8(repeating: Int32(lanes)) .!= SIMD8<Int32>()
    }

    /// The actions of the games `i ..< i + 8` (batch games `i ..< i + 8`)
    /// in the lanes `asked`, played in lanes (the other lanes' entries are
    /// not actions; their games' steering is left as it was).
    @inline(__always)
    func movesEight(_ i: Int, asked: SIMDMask<SIMD8<Int32>>) -> SIMD8<Int32> {
        let most = batch.observeHeadEight(i, into: laneHead.base)
        var steering = MaskedSteeringLanes(steering, i)
        let m = rules.moves(UnsafePointer(laneHead.base), balls: most, asked: asked,
                            wall: KeptWalls(tracker: self, first: i), &steering)
        let none = SIMD8<Int32>(repeating: Int32(BreakoutAction.noop.rawValue))
        return none.replacing(with: Int32(BreakoutAction.right.rawValue), where: m.right)
            .replacing(with: Int32(BreakoutAction.left.rawValue), where: m.left)
            .replacing(with: Int32(BreakoutAction.push.rawValue), where: m.push)
    }

    func act(observationRows rows: AgentRows) { rules.act(rows, steering, observationCount) }

    /// Game `g`'s wall (in batch game `slot`), its column sums kept again
    /// when the wall changed since they were last kept.
    @inline(__always)
    func wall(_ g: Int, slot: Int) -> KeptWall {
        if !kept[g] || versions[g] != batchVersions[slot] { keep(g, slot: slot) }
        return KeptWall(sums: sums.base + g * rules.cols, candidates: candidates[g], decided: decided[g])
    }

    /// Keeps game `g`'s column sums (in batch game `slot`) of its wall as it is now.
    @inline(never)
    func keep(_ g: Int, slot: Int) {
        let cols = rules.cols, sum = sums.base + g * cols
        batch.writeCellEntries(slot, into: cells.base)
        rules.sumColumns(cells.base, into: sum)
        (candidates[g], decided[g]) = KeptWall.candidates(sum, columns: cols)
        versions[g] = batchVersions[slot]
        kept[g] = true
    }
}

/// The walls of eight of a ``BreakoutStateTracker``'s games (`first ..<
/// first + 8`, batch games `first ..< first + 8`), each kept per game
/// (``BreakoutStateTracker/wall(_:slot:)``), lane `j` game `first + j`:
/// the aim columns and the shifts computed in lanes (``KeptWall/nearest(lanes:to:guess:_:)``),
/// a lane whose candidates do not decide taking its own scan.
/// It lives within a call on the tracker, so it holds it without counting
/// a reference.
struct KeptWalls: BreakoutTrackerWalls {
    unowned(unsafe) let tracker: BreakoutStateTracker
    let first: Int

    @inline(__always)
    func aimShifts(_ rules: BreakoutTracker, from x: SIMD8<Float>, halfW: SIMD8<Float>,
                   where lanes: SIMDMask<SIMD8<Int32>>) -> SIMD8<Float> {
        let guess = KeptWall.guess(rules, x)
        // The columns read in place, not through the tracker at every lane.
        let kept = tracker.kept.base, versions = tracker.versions.base, now = tracker.batchVersions
        let sums = tracker.sums.base, candidates = tracker.candidates.base, decided = tracker.decided.base
        let cols = rules.cols, inLanes = cols <= KeptWall.laneColumns
        // The walls to keep again, and below the lanes to scan, found in
        // lanes first (both are rare), each then taken alone.
        let stale = lanes .& (.!Self.flags(kept + first) .| (Self.words(versions + first) .!= Self.words(now + first)))
        if any(stale) {
            for j in 0 ..< 8 where stale[j] { tracker.keep(first &+ j, slot: first &+ j) }
        }
        var column = SIMD8<Float>(repeating: -1)
        if inLanes {
            column = KeptWall.nearest(lanes: Self.words(candidates + first), to: x, guess: guess, rules)
        }
        // Lanes the candidates do not decide (see KeptWall) take the scan.
        let near = KeptWall.magnitude(x) .<= KeptWall.nearRange
        let scan = inLanes ? lanes .& .!(Self.flags(decided + first) .& near) : lanes
        if any(scan) {
            for j in 0 ..< 8 where scan[j] {
                let g = first &+ j
                let wall = KeptWall(sums: sums + g &* cols, candidates: candidates[g], decided: decided[g])
                column[j] = Float(wall.column(rules, from: x[j], guess: guess[j]))
            }
        }
        return rules.aimShift(from: x, halfW: halfW, toward: column.replacing(with: -1, where: .!lanes))
    }

    /// Eight games' entries of a column of words.
    @inline(__always)
    static func words(_ column: UnsafePointer<UInt32>) -> SIMD8<UInt32> {
        UnsafeRawPointer(column).loadUnaligned(as: SIMD8<UInt32>.self)
    }

    /// Eight games' entries of a column of flags, as lanes (integer lanes
    /// compared with a vector: see ``BreakoutStateTracker/mask(_:)``).
    @inline(__always)
    static func flags(_ column: UnsafePointer<Bool>) -> SIMDMask<SIMD8<Int32>> {
        SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(column).loadUnaligned(as: SIMD8<UInt8>.self)) .!= SIMD8<Int32>()
    }
}
