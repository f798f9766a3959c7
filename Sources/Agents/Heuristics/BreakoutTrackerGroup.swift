import Gym
import Synchronization

/// Every Breakout tracker of a roster seated in every game of a
/// ``BreakoutBatch`` (the slot engine's seating, ``AgentSeating/everySeat(slots:seats:)``),
/// played together eight games at a time whatever their skills, as Pong's
/// trackers are (``PongTrackerSeats``): a roster's trackers (a balance
/// scenario set's, a ladder's) are members (``BreakoutGroupedTracker``) of
/// one such group, and the first member to act in a step computes the move
/// of every game a member holds, block by block, in one
/// ``BreakoutStateTracker`` whose games each steer with their holder's
/// skill (``BreakoutStateTracker/start(_:skill:seed:)``): a block's eight
/// lanes serve every tracker seated in it, so game `g` makes exactly the
/// moves of its own ``BreakoutTracker`` started with the same seed, bit for
/// bit. The aim's switches (`predict`, `aim`) are the rules' own, so a
/// group's members share them (``partition(_:)``: one group per pair).
///
/// The step's moves go into the actions buffer of the first member to act
/// (each held game's entry, no other); a later member acting on the same
/// buffer finds its rows written, and one given another buffer copies them
/// row by row.
final class BreakoutTrackerGroup: SteppedTrackerGroup {
    /// The rules, walls and steering of every game.
    let tracker: BreakoutStateTracker
    /// Per block of eight games: the lanes a member holds (bit `j`: game `8 × block + j`).
    let heldLanes: Column<UInt8>
    /// Per game: whether a member holds it.
    let held: Column<Bool>
    /// This step's action per game (for the games held when the step's moves were computed).
    let moves: Column<Int32>
    /// Where the group stands in the step (``TrackerStepCounts``). In a
    /// column: a class's stored `var` is checked for exclusive access at
    /// every use.
    let steps: Column<TrackerStepCounts>
    /// The counts not yet added to the process-wide ones (``publish()``).
    let tallies: Column<Tallies>

    /// What a group counts between two ``publish()`` calls.
    struct Tallies {
        /// Rows acted for, rows found written by the step's one write,
        /// games whose moves were computed in lanes.
        var acted = 0, foundWritten = 0, inLanes = 0
    }

    /// Rows any group found written by its step's one write, process-wide
    /// (added whenever a group's last held game ends: ``publish()``): tests
    /// check that the commands take this path.
    static let rowsFoundWritten = Atomic<Int>(0)

    /// Whether a group fits `context`: every game of its vector.
    static func fits(_ context: AgentContext<Breakout>) -> Bool {
        guard let batch = context.vector else { return false }
        return context.seating == .everySeat(slots: batch.count, seats: Breakout.seats)
    }

    /// A group for `context`'s games (``fits(_:)``) whose members' skills
    /// are `skills` (one `predict` and one `aim` for all).
    init(skills: [TrackerSkill], context: AgentContext<Breakout>, batch: BreakoutBatch) {
        precondition(!skills.isEmpty && Self.fits(context), "a group seats every game of its vector")
        let rules = Breakout.makeTracker(config: context.config, skill: skills[0])
        tracker = BreakoutStateTracker(rules, batch: batch, seating: context.seating,
                                       observationCount: context.target.inputs,
                                       longestReaction: skills.map(\.reaction).max() ?? 0)
        let games = tracker.games
        heldLanes = Column(repeating: 0, count: max(1, tracker.laneGames / 8))
        held = Column(repeating: false, count: games)
        moves = Column(repeating: 0, count: games)
        steps = Column(repeating: TrackerStepCounts(), count: 1)
        tallies = Column(repeating: Tallies(), count: 1)
    }

    var games: Int { tracker.games }

    /// A member with `skill` starts game `g`'s episode with `seed`, between
    /// steps (every held game's move of the last one taken).
    func start(_ g: Int, skill: TrackerSkill, seed: UInt64) {
        precondition(g >= 0 && g < games, "game \(g) is not one of the batch's games")
        precondition(step.pointee.toAct == 0, "a tracker group's games change hands between steps, not within one")
        if !held[g] { hold(g, true) }
        tracker.start(g, skill: skill, seed: seed)
    }

    /// Game `g`'s episode is over: it is free (between steps, as for ``start(_:skill:seed:)``).
    func end(_ g: Int) {
        precondition(g >= 0 && g < games, "game \(g) is not one of the batch's games")
        precondition(step.pointee.toAct == 0, "a tracker group's games change hands between steps, not within one")
        if held[g] { hold(g, false) }
    }

    /// A member comes to (`true`) or leaves game `g`.
    private func hold(_ g: Int, _ now: Bool) {
        held[g] = now
        step.pointee.held += now ? 1 : -1
        if step.pointee.held == 0 { publish() }
        guard g < tracker.laneGames else { return }
        let bit = UInt8(1) << UInt8(g & 7)
        heldLanes[g >> 3] = now ? heldLanes[g >> 3] | bit : heldLanes[g >> 3] & ~bit
    }

    /// A member's actions (``SteppedTrackerGroup/actSharingTheStep(_:)``).
    func act(_ rows: AgentRows) {
        tallies.base.pointee.acted &+= rows.count
        if actSharingTheStep(rows) { tallies.base.pointee.foundWritten &+= rows.count }
    }

    var step: UnsafeMutablePointer<TrackerStepCounts> { steps.base }
    var stepMoves: UnsafeMutablePointer<Int32> { moves.base }
    func holds(_ g: Int) -> Bool { g >= 0 && g < games && held[g] }

    /// The actions of `rows` from their observation rows (``StateReadingAgent/act(observationRows:)``;
    /// counted against the held games as ``act(_:)``'s, each game stepped once a step).
    func act(observationRows rows: AgentRows) {
        guard rows.count > 0 else { return }
        if startsStep(rows.count) { step.pointee.movesAddress = 0 }
        for k in 0 ..< rows.count {
            let g = rows.game(k)
            precondition(holds(g), "game \(g) is not a held game of the tracker group")
        }
        tracker.act(observationRows: rows)
    }

    func beginStep() {}

    /// Every held game's move of this step, from the batch's current state,
    /// into ``moves`` and into `actions` (each held game's entry, no other).
    func computeAll(into actions: UnsafeMutablePointer<Int32>) {
        var inLanes = 0
        for b in 0 ..< tracker.laneGames / 8 where heldLanes[b] != 0 {
            let lanes = heldLanes[b], i = b << 3
            tracker.actEight(i, lanes: lanes, moves.base)
            let asked = BreakoutStateTracker.mask(lanes)
            let out = UnsafeMutableRawPointer(actions + i)
            let old = out.loadUnaligned(as: SIMD8<Int32>.self)
            out.storeBytes(of: old.replacing(with: UnsafeRawPointer(moves.base + i).loadUnaligned(as: SIMD8<Int32>.self),
                                             where: asked), as: SIMD8<Int32>.self)
            inLanes &+= lanes.nonzeroBitCount
        }
        for g in tracker.laneGames ..< games where held[g] {
            moves[g] = tracker.move(g)
            actions[g] = moves[g]
        }
        tallies.base.pointee.inLanes &+= inLanes
    }

    /// Adds the counts kept since the last call to the process-wide ones
    /// (``BreakoutStateTracker/gamesActed``, ``rowsFoundWritten``,
    /// ``BreakoutStateTracker/gamesInLanes``): whenever no game is held
    /// (a run's last episode ended), not at every step, where an atomic
    /// add per member would cost as much as a block's moves.
    func publish() {
        let t = tallies.base.pointee
        BreakoutStateTracker.gamesActed.add(t.acted, ordering: .relaxed)
        Self.rowsFoundWritten.add(t.foundWritten, ordering: .relaxed)
        BreakoutStateTracker.gamesInLanes.add(t.inLanes, ordering: .relaxed)
        tallies.base.pointee = Tallies()
    }

    /// `skills`' indices by the group they play in: one per (`predict`, `aim`) pair, in order of first use.
    static func partition(_ skills: [TrackerSkill]) -> [[Int]] {
        var parts: [[Int]] = []
        for (k, skill) in skills.enumerated() {
            if let p = parts.firstIndex(where: { skills[$0[0]].predict == skill.predict && skills[$0[0]].aim == skill.aim }) {
                parts[p].append(k)
            } else {
                parts.append([k])
            }
        }
        return parts
    }
}

/// One tracker of a roster seated through a ``BreakoutTrackerGroup``.
typealias BreakoutGroupedTracker = GroupedTracker<BreakoutTrackerGroup>

extension GroupedTracker where Group == BreakoutTrackerGroup {
    /// The trackers of `skills` for `context`'s games, in order, members of
    /// new groups (``BreakoutTrackerGroup/partition(_:)``); nil where a
    /// group does not fit (``BreakoutTrackerGroup/fits(_:)``).
    static func make(_ skills: [TrackerSkill], context: AgentContext<Breakout>) -> [BreakoutGroupedTracker]? {
        guard let batch = context.vector, BreakoutTrackerGroup.fits(context) else { return nil }
        var made = [BreakoutGroupedTracker?](repeating: nil, count: skills.count)
        for part in BreakoutTrackerGroup.partition(skills) {
            let group = BreakoutTrackerGroup(skills: part.map { skills[$0] }, context: context, batch: batch)
            for k in part { made[k] = BreakoutGroupedTracker(skill: skills[k], group: group) }
        }
        return made.compactMap { $0 }
    }
}
