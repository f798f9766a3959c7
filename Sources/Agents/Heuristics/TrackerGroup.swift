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

/// Where a ``SteppedTrackerGroup`` stands in a step.
struct TrackerStepCounts {
    /// The games (or seats) members hold.
    var held = 0
    /// The rows still to take their move of this step (0: between steps).
    var toAct = 0
    /// The address of the actions buffer the step's moves were written to.
    var movesAddress = 0
    /// Rows found written there (read by tests: members share the one write).
    var foundWritten = 0
}

/// A ``TrackerGroup`` whose first member to act in a step computes every
/// held game's move (``computeAll(into:)``) into that member's actions
/// buffer and into ``stepMoves``, so that the members' calls of a step share
/// one write (``actSharingTheStep(_:)``).
protocol SteppedTrackerGroup: TrackerGroup {
    /// Where the group stands in the step (``TrackerStepCounts``).
    var step: UnsafeMutablePointer<TrackerStepCounts> { get }
    /// This step's action per game (for the games held when it was computed).
    var stepMoves: UnsafeMutablePointer<Int32> { get }
    /// Called as a step's first rows arrive, before its moves are computed.
    func beginStep()
    /// Every held game's move of this step into ``stepMoves`` and into
    /// `actions` (each held game's entry, no other).
    func computeAll(into actions: UnsafeMutablePointer<Int32>)
    /// Whether `g` is one of the group's games and a member holds it.
    func holds(_ g: Int) -> Bool
}

extension SteppedTrackerGroup {
    /// The actions of `rows` (a member's games): every held game's move is
    /// computed once per step, by the first member to ask for one, so every
    /// member must act on all its held games each step (as the slot engine
    /// does): the step's rows are counted against the held games, and a row
    /// of a game no member holds is a precondition failure (where the rows
    /// were written with the step's moves, an assertion: checking them
    /// would cost what the write saves). Returns whether the rows were
    /// found written by the step's one write (else they were copied).
    @inline(__always) @discardableResult
    func actSharingTheStep(_ rows: AgentRows) -> Bool {
        guard rows.count > 0 else { return false }
        let step = self.step, actions = rows.actions, address = Int(bitPattern: actions)
        if startsStep(rows.count) {
            computeAll(into: actions)
            step.pointee.movesAddress = address
        }
        if address == step.pointee.movesAddress {
            assert(allHeld(rows), "a row of a game no member of the tracker group holds")
            step.pointee.foundWritten &+= rows.count
            return true
        }
        for k in 0 ..< rows.count {
            let g = rows.game(k)
            precondition(holds(g), "game \(g) is not a held game of the tracker group")
            actions[g] = stepMoves[g]
        }
        return false
    }

    /// Counts `count` rows against the step's held games; true where they
    /// are the step's first (``beginStep()`` called then).
    @inline(__always)
    func startsStep(_ count: Int) -> Bool {
        let step = self.step
        let starts = step.pointee.toAct == 0
        if starts {
            step.pointee.toAct = step.pointee.held
            beginStep()
        }
        precondition(count <= step.pointee.toAct, "a tracker group's games acted twice in a step, or were skipped in one")
        step.pointee.toAct &-= count
        return starts
    }

    /// Whether every row's game is a held one.
    func allHeld(_ rows: AgentRows) -> Bool { (0 ..< rows.count).allSatisfy { holds(rows.game($0)) } }
}
