import Gym

/// Every Pong tracker seated in every seat of a ``PongBatch``'s games (the
/// slot engine's seating, ``AgentSeating/everySeat(slots:seats:)``), played
/// together eight games at a time whatever their skills: a roster's trackers
/// (a tournament's ladder, a balance scenario's pair, a trainer's opponents)
/// are members (``PongSeatedTracker``) of one such group, and the first
/// member to act in a step computes the moves of every seat a member holds,
/// block by block, from the batch's state (``PongBatch/forEachMotion(blockSeats:count:_:)``):
/// no observation row is written for them, and a block's eight lanes serve
/// every tracker seated in it.
///
/// Each seat keeps its holder's skill and its steering in columns (place
/// `p = seat × slots + slot`, a game of a ``TrackerSteeringColumns`` whose
/// rings hold 32 targets: ``TrackerSkill/reactionRange`` is at most 30
/// steps of delay; every held seat steps with every step, so the rings
/// share one clock, ticked once per step). The rules are ``PongTracker``'s aim
/// (``PongTracker/aim(_:predicting:ownX:ballX:ballY:vx:vy:)``, each lane
/// predicting where its seat's holder does) and its
/// steering (``PongTracker/steer(_:own:target:incoming:halfPaddle:deadZone:)``),
/// one kernel for eight seats or one, so game `g` makes exactly the moves
/// of its own ``PongTracker`` started with the same seed, bit for bit.
/// Games past the last whole eight are played one at a time.
///
/// The step's moves go, by blocks of both seats of eight games, straight
/// into the actions buffer of the first member to act (each held game's
/// entry, no other); a later member acting on the same buffer finds its
/// rows written (only a game's holder writes its entry), and one given
/// another buffer copies them row by row.
final class PongTrackerSeats {
    let batch: PongBatch
    let slots: Int
    /// Slots in whole blocks of eight (`slots` rounded down to 8).
    let laneSlots: Int
    /// The aim's geometry (``PongTracker``'s).
    let field: TrackerField
    let halfPaddle: Float, deadZone: Float
    /// Places: `2 × slots`.
    let places: Int
    /// Ring length of each place's targets (a power of two above the longest delay).
    static let ring = 32

    /// Per agent game (`2 × slot + seat`): -1 where a member holds it, else 0 (a lane mask).
    let held: Column<Int32>
    /// Per place: the holder's `predict` (1 or 0, a float for the lanes).
    let predict: Column<Float>
    /// Per place: the holder's skill and its steering (one clock: ``TrackerSteeringColumns/sharedClock``).
    let steering: TrackerSteeringColumns
    /// Per block-seat (`block × 2 + seat`): the places a member holds there.
    let heldCount: Column<Int32>
    /// This step's action per agent game (a ``PongAction`` raw value; for
    /// the games held when the step's moves were computed).
    let moves: Column<Int32>
    /// Where the group stands in the step (``TrackerStepCounts``). In a
    /// column: a class's stored `var` is checked for exclusive access at
    /// every use.
    let steps: Column<TrackerStepCounts>
    /// How far ``blockSeats`` is current (``Listing``).
    let listing: Column<Listing>

    /// The blocks in ``blockSeats``, and whether a block-seat's first
    /// member came or its last left since they were listed (the list is
    /// then made again).
    struct Listing {
        var count = 0, stale = true
    }
    /// The blocks whose entries a step computes, those where a member holds
    /// a seat, in order (as block-seats of their bottom seat, `block × 2`).
    let blockSeats: Column<Int32>

    /// Whether a group fits `context`: every seat of every game of its vector.
    static func fits(_ context: AgentContext<Pong>) -> Bool {
        guard let batch = context.vector else { return false }
        return context.seating == .everySeat(slots: batch.count, seats: PongBatch.seatCount)
    }

    init(config: PongConfig, batch: PongBatch) {
        self.batch = batch
        slots = batch.count
        laneSlots = slots / 8 * 8
        let rules = PongTracker(config: config)
        field = rules.field
        halfPaddle = rules.halfPaddle
        deadZone = rules.field.deadZone
        places = PongBatch.seatCount * slots
        held = Column(repeating: 0, count: places); predict = Column(repeating: 0, count: places)
        steering = TrackerSteeringColumns(games: places, ring: Self.ring, sharedClock: true)
        heldCount = Column(repeating: 0, count: laneSlots / 8 * PongBatch.seatCount)
        moves = Column(repeating: 0, count: places)
        blockSeats = Column(repeating: 0, count: laneSlots / 8 * PongBatch.seatCount)
        steps = Column(repeating: TrackerStepCounts(), count: 1)
        listing = Column(repeating: Listing(), count: 1)
    }

    /// The place of agent game `g` (seat `g % 2` of slot `g / 2`).
    @inline(__always)
    func place(_ g: Int) -> Int { (g & 1) &* slots &+ g >> 1 }

    /// A member with `skill` starts game `g`'s episode with `seed` (``TrackerSteering/reset(seed:)``),
    /// between steps (every held seat's move of the last one taken).
    func start(_ g: Int, skill: TrackerSkill, seed: UInt64) {
        precondition(g >= 0 && g < places, "game \(g) is not one of the batch's seats")
        precondition(step.pointee.toAct == 0, "a tracker group's seats change hands between steps, not within one")
        let p = place(g)
        if held[g] == 0 {
            step.pointee.held += 1
            if g >> 1 < laneSlots { countHolder(g, 1) }
        }
        held[g] = -1
        predict[p] = skill.predict ? 1 : 0
        steering.reset(p, skill: skill, seed: seed)
    }

    /// Game `g`'s episode is over: its seat is free (between steps, as for ``start(_:skill:seed:)``).
    func end(_ g: Int) {
        precondition(step.pointee.toAct == 0, "a tracker group's seats change hands between steps, not within one")
        precondition(g >= 0 && g < places, "game \(g) is not one of the batch's seats")
        if held[g] != 0 {
            step.pointee.held -= 1
            if g >> 1 < laneSlots { countHolder(g, -1) }
        }
        held[g] = 0
    }

    /// A member comes to (`change` 1) or leaves (-1) agent game `g`'s seat,
    /// in a block: the blocks are listed again where its block-seat's first
    /// member came or its last left.
    private func countHolder(_ g: Int, _ change: Int32) {
        let w = blockSeat(g), before = heldCount[w]
        heldCount[w] = before + change
        if before == 0 || before + change == 0 { listing.base.pointee.stale = true }
    }

    /// The block-seat (`block × 2 + seat`) of agent game `g`.
    @inline(__always)
    func blockSeat(_ g: Int) -> Int { (g >> 4) << 1 | g & 1 }

    /// A member's actions (``SteppedTrackerGroup/actSharingTheStep(_:)``).
    func act(_ rows: AgentRows) { actSharingTheStep(rows) }

    /// The actions of `rows` from their observation rows (``StateReadingAgent/act(observationRows:)``;
    /// counted against the held seats as ``act(_:)``'s, each game stepped once a step).
    func act(observationRows rows: AgentRows) {
        guard rows.count > 0 else { return }
        if startsStep(rows.count) { step.pointee.movesAddress = 0 }
        for k in 0 ..< rows.count {
            let g = rows.game(k), o = rows.observation(k, length: PongBatch.observationCount)
            precondition(g >= 0 && g < places && held[g] != 0, "game \(g) is not a held seat of the tracker group")
            rows.actions[g] = Self.action(steer(place(g), o[0], o[4], o[5], o[6], o[7]))
        }
    }

    /// A step's clock: the delay rings move on.
    func beginStep() { steering.tick() }

    /// Every held seat's move of this step, from the batch's current state,
    /// into ``moves`` and into `actions` (each held game's entry, no other).
    ///
    /// A block's bottom-seat entries serve both its seats: the top seat's
    /// entries 0 and 4–7 are the negations of the bottom's 2 and 4–7, bit
    /// for bit (the observation mirrors a seat's view by multiplying by −1,
    /// an exact negation, and its clamps are symmetric), so each block's
    /// entries are computed once; its two seats' moves are interleaved into
    /// game order (game `2 × slot + seat`) and stored where held.
    func computeAll(into actions: UnsafeMutablePointer<Int32>) {
        if listing.base.pointee.stale { listBlocks() }
        let count = listing.base.pointee.count
        if count > 0 {
            batch.forEachMotion(blockSeats: blockSeats.base, count: count) { k, f in
                steerBlock(Int(blockSeats[k]) >> 1, f, into: actions)
            }
        }
        for slot in laneSlots ..< slots {
            for s in 0 ..< PongBatch.seatCount where held[2 * slot + s] != 0 {
                let f = batch.motion(slot, side: s == 0 ? .bottom : .top), g = 2 * slot + s
                moves[g] = Self.action(steer(place(g), f.ownX, f.ballX, f.ballY, f.vx, f.vy))
                actions[g] = moves[g]
            }
        }
    }

    /// Lists in ``blockSeats`` the blocks where a member holds a seat.
    private func listBlocks() {
        var count = 0
        for b in 0 ..< laneSlots / 8 where heldCount[2 * b] | heldCount[2 * b + 1] != 0 {
            blockSeats[count] = Int32(2 * b)
            count += 1
        }
        listing.base.pointee = Listing(count: count, stale: false)
    }

    /// Both seats' actions of eight games in game order: lane `2j` is
    /// `bottom`'s lane `j`, lane `2j + 1` `top`'s.
    @inline(__always)
    static func interleave(_ bottom: SIMD8<Int32>, _ top: SIMD8<Int32>) -> SIMD16<Int32> {
        SIMD16(bottom[0], top[0], bottom[1], top[1], bottom[2], top[2], bottom[3], top[3],
               bottom[4], top[4], bottom[5], top[5], bottom[6], top[6], bottom[7], top[7])
    }

    /// Block `b`'s moves (both seats of games `8b ..< 8b + 8`, each seat's
    /// places steered in lanes where a member holds one there; both seats
    /// aimed together, ``PongTracker/aim(_:bottom:top:predicting:)``) from its
    /// bottom seat's motion entries `f`, into ``moves`` and into
    /// `actions` where held (one unit compiled whole, the kernels inlined
    /// into it; docs/throughput.md, "the lane code").
    @inline(never)
    func steerBlock(_ b: Int, _ f: borrowing PongMotion<SIMD8<Float>>, into actions: UnsafeMutablePointer<Int32>) {
        let p = b << 3, q = slots &+ p
        let aims = PongTracker.aim(field, bottom: (f.ownX, f.ballX, f.ballY, f.vx, f.vy),
                                   top: (-f.oppX, -f.ballX, -f.ballY, -f.vx, -f.vy),
                                   predicting: (SIMD8(loading: predict.base + p) .> 0,
                                                SIMD8(loading: predict.base + q) .> 0))
        let bottom = heldCount[2 * b] != 0 ? PongTracker.actions(steerMoves(p, aims.bottom)) : .zero
        let top = heldCount[2 * b + 1] != 0 ? PongTracker.actions(steerMoves(q, aims.top)) : .zero
        let both = Self.interleave(bottom, top), stride = MemoryLayout<SIMD16<Int32>>.size
        UnsafeMutableRawPointer(moves.base).storeBytes(of: both, toByteOffset: b * stride, as: SIMD16<Int32>.self)
        // Held lanes are all ones: the select as bits (a mask's select
        // of sixteen lanes is taken lane by lane).
        let out = UnsafeMutableRawPointer(actions)
        let mask = UnsafeRawPointer(held.base).loadUnaligned(fromByteOffset: b * stride, as: SIMD16<Int32>.self)
        let old = out.loadUnaligned(fromByteOffset: b * stride, as: SIMD16<Int32>.self)
        out.storeBytes(of: both & mask | old & ~mask, toByteOffset: b * stride, as: SIMD16<Int32>.self)
    }

    /// The action of one place's steering direction.
    @inline(__always)
    static func action(_ direction: Float) -> Int32 { Int32(PongTracker.action(TrackerSteering.move(direction))) }

    /// The steering directions (``TrackerSteering/direction(toward:from:deadZone:)``,
    /// 0 where the speed cap holds a seat still) of places `p ..< p + L.laneCount`
    /// (one game, or one seat of eight games) from their observation entries 0, 4, 5, 6, 7.
    @inline(__always)
    func steer<L: TrackerLane>(_ p: Int, _ ownX: L, _ ballX: L, _ ballY: L, _ vx: L, _ vy: L) -> L {
        let moves = steerMoves(p, ownX, ballX, ballY, vx, vy)
        return L.sign(plus: moves.right, minus: moves.left)
    }

    /// ``steer(_:_:_:_:_:_:)`` as its two moves (``PongTracker/steerMoves(_:own:target:incoming:halfPaddle:deadZone:)``;
    /// inlined whole, so that both seats of ``steerBlock(_:_:into:)`` are one unit).
    @inline(always)
    func steerMoves<L: TrackerLane>(_ p: Int, _ ownX: L, _ ballX: L, _ ballY: L, _ vx: L, _ vy: L)
        -> (left: L.Condition, right: L.Condition) {
        steerMoves(p, PongTracker.aim(field, predicting: L(loading: predict.base + p) .> 0, ownX: ownX, ballX: ballX,
                                      ballY: ballY, vx: vx, vy: vy))
    }

    /// The moves of places `p ..< p + L.laneCount` toward their aims
    /// (``PongTracker/steerMoves(_:own:target:incoming:halfPaddle:deadZone:)``).
    @inline(always)
    func steerMoves<L: TrackerLane>(_ p: Int, _ aim: (own: L, target: L, incoming: L.Condition))
        -> (left: L.Condition, right: L.Condition) {
        var lanes = TrackerSteeringColumns.Lanes<L>(steering, p)
        return PongTracker.steerMoves(&lanes, own: aim.own, target: aim.target, incoming: aim.incoming,
                                      halfPaddle: halfPaddle, deadZone: deadZone)
    }
}

/// One tracker of a roster seated through a ``PongTrackerSeats`` group;
/// its games are the group's seats.
typealias PongSeatedTracker = GroupedTracker<PongTrackerSeats>

extension PongTrackerSeats: SteppedTrackerGroup {
    var games: Int { places }
    var step: UnsafeMutablePointer<TrackerStepCounts> { steps.base }
    var stepMoves: UnsafeMutablePointer<Int32> { moves.base }
    func holds(_ g: Int) -> Bool { g >= 0 && g < places && held[g] != 0 }
}

extension GroupedTracker where Group == PongTrackerSeats {
    /// The group it plays in.
    var seats: PongTrackerSeats { group }

    /// The trackers of `skills` for `context`'s games, members of one new
    /// group; nil where a group does not fit (``PongTrackerSeats/fits(_:)``).
    static func make(_ skills: [TrackerSkill], context: AgentContext<Pong>) -> [PongSeatedTracker]? {
        guard let batch = context.vector, PongTrackerSeats.fits(context) else { return nil }
        let seats = PongTrackerSeats(config: context.config, batch: batch)
        return skills.map { PongSeatedTracker(skill: $0, group: seats) }
    }
}
