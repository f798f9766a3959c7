import Gym

/// ``PongTracker`` for many games (``BatchAgent``): one tracker's geometry
/// and rules, each game's steering in ``TrackerSteeringColumns``. Game `g`
/// makes exactly the moves of its own tracker started with the same seed,
/// bit for bit.
final class PongTrackerBatch: BatchAgent {
    let rules: PongTracker
    let steering: TrackerSteeringColumns
    let observationCount: Int

    init(_ rules: PongTracker, games: Int, observationCount: Int) {
        self.rules = rules
        steering = TrackerSteeringColumns(skill: rules.skill, games: games)
        self.observationCount = observationCount
    }

    var games: Int { steering.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}
    func act(_ rows: AgentRows) { actTrackers(rules, steering, rows, observationCount) }
}

/// ``BreakoutTracker`` for many games, as ``PongTrackerBatch``.
final class BreakoutTrackerBatch: BatchAgent {
    let rules: BreakoutTracker
    let steering: TrackerSteeringColumns
    let observationCount: Int

    init(_ rules: BreakoutTracker, games: Int, observationCount: Int) {
        self.rules = rules
        steering = TrackerSteeringColumns(skill: rules.skill, games: games)
        self.observationCount = observationCount
    }

    var games: Int { steering.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}
    func act(_ rows: AgentRows) { actTrackers(rules, steering, rows, observationCount) }
}

/// A tracker's target rules, generic over its steering (``TrackerSteerer``).
protocol TrackerRules {
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int
}

extension PongTracker: TrackerRules {}
extension BreakoutTracker: TrackerRules {}

/// Every row's action by `rules`, game `g` steered by its columns (inlined
/// into each concrete batch, so the rules are specialised for its tracker).
@inline(__always)
func actTrackers<R: TrackerRules>(_ rules: R, _ steering: TrackerSteeringColumns, _ rows: AgentRows, _ n: Int) {
    for k in 0 ..< rows.count {
        var cursor = steering.cursor(rows.game(k))
        rows.setAction(k, Int32(truncatingIfNeeded: rules.decide(rows.observation(k, length: n), &cursor)))
    }
}
