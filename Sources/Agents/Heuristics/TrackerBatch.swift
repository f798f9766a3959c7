import Gym

/// A heuristic tracker for many games (``BatchAgent``): one tracker's
/// geometry and rules (``PongTracker``, ``BreakoutTracker``), each game's
/// steering in ``TrackerSteeringColumns``. Game `g` makes exactly the moves
/// of its own tracker started with the same seed, bit for bit.
final class TrackerBatch<Rules: TrackerRules>: BatchAgent {
    let rules: Rules
    let steering: TrackerSteeringColumns
    let observationCount: Int

    init(rules: Rules, skill: TrackerSkill, games: Int, observationCount: Int) {
        self.rules = rules
        steering = TrackerSteeringColumns(skill: skill, games: games)
        self.observationCount = observationCount
    }

    var games: Int { steering.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}

    func act(_ rows: AgentRows) {
        let n = observationCount
        for k in 0 ..< rows.count {
            var cursor = steering.cursor(rows.game(k))
            rows.setAction(k, Int32(truncatingIfNeeded: rules.decide(rows.observation(k, length: n), &cursor)))
        }
    }
}

/// A tracker's target rules, generic over its steering (``TrackerSteerer``).
protocol TrackerRules {
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int
}

extension PongTracker: TrackerRules {}
extension BreakoutTracker: TrackerRules {}

/// ``PongTracker`` for many games.
typealias PongTrackerBatch = TrackerBatch<PongTracker>
/// ``BreakoutTracker`` for many games.
typealias BreakoutTrackerBatch = TrackerBatch<BreakoutTracker>
