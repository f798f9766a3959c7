import Gym
import Synchronization

/// ``BreakoutTracker`` for the games of a ``BreakoutBatch``, reading each
/// game's state from the batch instead of an observation row: the entries
/// it needs before the wall (``BreakoutBatch/observeHead(_:into:)``) and the
/// wall's cell entries the batch keeps (``BreakoutBatch/cellEntries(_:)``),
/// whose column sums it keeps per game until the wall changes
/// (``BreakoutBatch/wallVersion(_:)``, ``KeptWall``). Each game steers
/// through its columns (``TrackerSteeringColumns``, each game's generator
/// drawn as its own tracker's), so game `g` makes exactly the moves of its
/// own tracker started with the same seed, bit for bit; no row is written
/// for it in the slot engine (``StateReadingAgent``).
final class BreakoutStateTracker: StateReadingAgent {
    let rules: BreakoutTracker
    let steering: TrackerSteeringColumns
    let batch: BreakoutBatch
    let observationCount: Int
    /// Per game: the batch game (slot) it is.
    let slotOf: Column<Int32>
    /// Scratch: one game's entries before its wall.
    let head: Column<Float>
    /// Per game: its wall's column sums (`rules.cols` floats at `g × cols`),
    /// the candidates and whether they decide (``KeptWall``), the wall
    /// version they were kept at, and whether they were kept this episode.
    let sums: Column<Float>
    let candidates: Column<UInt32>
    let decided: Column<Bool>
    let versions: Column<UInt32>
    let kept: Column<Bool>

    /// Games acted for by any instance, process-wide (one add per
    /// ``act(_:)``): tests check that the commands take this path.
    static let gamesActed = Atomic<Int>(0)

    init(_ rules: BreakoutTracker, batch: BreakoutBatch, seating: AgentSeating, observationCount: Int) {
        precondition(seating.slots.allSatisfy { $0 >= 0 && Int($0) < batch.count }, "every game is one of the batch's")
        self.rules = rules
        self.batch = batch
        self.observationCount = observationCount
        let games = seating.games
        steering = TrackerSteeringColumns(skill: rules.skill, games: games)
        slotOf = Column(repeating: 0, count: games)
        for g in 0 ..< games { slotOf[g] = seating.slots[g] }
        head = Column(repeating: 0, count: rules.bricksStart)
        sums = Column(repeating: 0, count: games * rules.cols)
        candidates = Column(repeating: 0, count: games); decided = Column(repeating: false, count: games)
        versions = Column(repeating: 0, count: games); kept = Column(repeating: false, count: games)
    }

    var games: Int { steering.games }

    func start(game: Int, seed: UInt64) {
        steering.reset(game, seed: seed)
        kept[game] = false
    }

    func end(game _: Int) {}

    func act(_ rows: AgentRows) {
        for k in 0 ..< rows.count {
            let g = rows.game(k), slot = Int(slotOf[g])
            batch.observeHead(slot, into: head.base)
            var cursor = steering.cursor(g)
            rows.setAction(k, Int32(truncatingIfNeeded: rules.decide(UnsafePointer(head.base), wall: wall(g, slot: slot),
                                                                     &cursor)))
        }
        Self.gamesActed.add(rows.count, ordering: .relaxed)
    }

    func act(observationRows rows: AgentRows) { rules.act(rows, steering, observationCount) }

    /// Game `g`'s wall (in batch game `slot`), its column sums kept again
    /// when the wall changed since they were last kept.
    @inline(__always)
    func wall(_ g: Int, slot: Int) -> KeptWall {
        let cols = rules.cols, sum = sums.base + g * cols
        let version = batch.wallVersion(slot)
        if !kept[g] || versions[g] != version {
            rules.sumColumns(batch.cellEntries(slot), into: sum)
            (candidates[g], decided[g]) = KeptWall.candidates(sum, columns: cols)
            versions[g] = version
            kept[g] = true
        }
        return KeptWall(sums: sum, candidates: candidates[g], decided: decided[g])
    }
}
