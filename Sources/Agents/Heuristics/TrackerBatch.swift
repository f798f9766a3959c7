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

    init(_ rules: Rules, games: Int, observationCount: Int) {
        self.rules = rules
        steering = TrackerSteeringColumns(skill: rules.skill, games: games)
        self.observationCount = observationCount
    }

    var games: Int { steering.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}
    func act(_ rows: AgentRows) { rules.act(rows, steering, observationCount) }
}

/// A tracker's target rules, generic over its steering (``TrackerSteerer``).
protocol TrackerRules {
    var skill: TrackerSkill { get }
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int
    /// Every row's action, game `g` steered by its columns (each tracker's
    /// witness is this extension's body specialised for it: the generic
    /// ``TrackerBatch`` makes one call per step, never one per row).
    func act(_ rows: AgentRows, _ steering: TrackerSteeringColumns, _ n: Int)
}

extension TrackerRules {
    func act(_ rows: AgentRows, _ steering: TrackerSteeringColumns, _ n: Int) {
        for k in 0 ..< rows.count {
            var cursor = steering.cursor(rows.game(k))
            rows.setAction(k, Int32(truncatingIfNeeded: decide(rows.observation(k, length: n), &cursor)))
        }
    }
}

extension PongTracker: TrackerRules {}
extension BreakoutTracker: TrackerRules {}
