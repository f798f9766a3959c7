/// Trackers of a roster seated together in every game (or every seat) of a
/// vector, whose moves one object computes for all of them
/// (``PongTrackerSeats``, ``BreakoutTrackerGroup``); each tracker of the
/// roster is a member (``GroupedTracker``) that keeps only its skill.
protocol TrackerGroup: AnyObject {
    /// The agent games of every member (the vector's games, or its seats).
    var games: Int { get }
    /// A member with `skill` starts game `g`'s episode with `seed`.
    func start(_ g: Int, skill: TrackerSkill, seed: UInt64)
    /// Game `g`'s episode is over.
    func end(_ g: Int)
    /// A member's actions (``BatchAgent/act(_:)``).
    func act(_ rows: AgentRows)
    /// A member's actions from its observation rows (``StateReadingAgent/act(observationRows:)``).
    func act(observationRows rows: AgentRows)
}

/// One tracker of a roster seated through a ``TrackerGroup``: its skill and
/// the group it plays in; its games are the group's.
final class GroupedTracker<Group: TrackerGroup>: StateReadingAgent {
    let skill: TrackerSkill
    let group: Group

    init(skill: TrackerSkill, group: Group) {
        self.skill = skill
        self.group = group
    }

    var games: Int { group.games }
    func start(game: Int, seed: UInt64) { group.start(game, skill: skill, seed: seed) }
    func end(game: Int) { group.end(game) }
    func act(_ rows: AgentRows) { group.act(rows) }
    func act(observationRows rows: AgentRows) { group.act(observationRows: rows) }
}
