import Gym

/// A tracker for many games (``BatchAgent``) acting on observation rows:
/// one tracker's geometry and rules (``PongTracker``, ``BreakoutTracker``),
/// each game's steering in ``TrackerSteeringColumns``. Game `g` makes
/// exactly the moves of its own tracker started with the same seed, bit for
/// bit. (Pong in a vector: ``PongLaneTracker``, which reads the batch's state.)
final class TrackerBatch<Rules: TrackerRules>: BatchAgent {
    let rules: Rules
    let steering: TrackerSteeringColumns
    let observationCount: Int
    /// Rows whose moves the rules took in lanes (``TrackerRules/act(_:_:_:)``'s
    /// count; read by tests: Pong's rows take the lane form).
    private(set) var rowsInLanes = 0

    init(_ rules: Rules, games: Int, observationCount: Int) {
        self.rules = rules
        steering = TrackerSteeringColumns(skill: rules.skill, games: games)
        self.observationCount = observationCount
    }

    var games: Int { steering.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}
    func act(_ rows: AgentRows) { rowsInLanes &+= rules.act(rows, steering, observationCount) }
}

/// A tracker's target rules, generic over its steering (``TrackerSteerer``).
protocol TrackerRules {
    var skill: TrackerSkill { get }
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int
    /// Every row's action, game `g` steered by its columns (each tracker's
    /// witness is specialised for it: the generic ``TrackerBatch`` makes one
    /// call per step, never one per row); returns how many rows' moves it
    /// took in lanes (``PongTracker``'s form), 0 row by row.
    @discardableResult
    func act(_ rows: AgentRows, _ steering: TrackerSteeringColumns, _ n: Int) -> Int
}

extension TrackerRules {
    /// Row by row, each with ``decide(_:_:)`` (the reference form).
    @inline(__always)
    func actRowByRow(_ rows: AgentRows, _ steering: TrackerSteeringColumns, _ n: Int) {
        for k in 0 ..< rows.count {
            var cursor = steering.cursor(rows.game(k))
            rows.setAction(k, Int32(truncatingIfNeeded: decide(rows.observation(k, length: n), &cursor)))
        }
    }
}

extension BreakoutTracker: TrackerRules {
    @discardableResult
    func act(_ rows: AgentRows, _ steering: TrackerSteeringColumns, _ n: Int) -> Int {
        actRowByRow(rows, steering, n)
        return 0
    }
}
