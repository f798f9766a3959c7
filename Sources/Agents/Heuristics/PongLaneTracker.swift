import Gym

/// ``PongTracker`` for the games of a ``PongBatch``, eight at a time: it
/// reads each seat's motion entries from the batch's columns
/// (``PongBatch/forEachMotion(blockSeats:count:_:)``) instead of observation rows, and
/// runs the tracker's rule (``PongTracker/aim(ownX:ballX:ballY:vx:vy:)``) in
/// eight lanes. Game `g` makes exactly the moves of its own tracker started
/// with the same seed, bit for bit.
///
/// A skill without reaction delay, aim error or speed cap keeps no state, so
/// the move is taken in the lanes too; any other skill steers each game's
/// lane through its columns (``TrackerSteeringColumns``), as the row form
/// does. Games past the last whole eight of the batch are read one at a time.
///
/// Asked for every game in order (`rows.game(k) == k`, as the C ABI's
/// opponent and bench's seated tracker ask) with a stateless skill, seated
/// in one seat of every slot in order (slot `g` for game `g`), it reads the
/// blocks in order and stores each block's eight actions at once
/// (``actWhole(_:)``); otherwise it gathers the asked lanes row by row.
final class PongLaneTracker: StateReadingAgent {
    let rules: PongTracker
    let steering: TrackerSteeringColumns
    let batch: PongBatch
    let seating: AgentSeating
    let observationCount: Int
    /// Whether the skill keeps no state (no delay, no aim error, no speed cap).
    let plain: Bool
    /// Slots in whole blocks of eight (`batch.count` rounded down to 8).
    let laneSlots: Int
    /// Per seat and slot (`seat × batch.count + slot`): the agent game there, or -1.
    let gameAt: UnsafeMutablePointer<Int32>
    /// Per block and seat (`block × 2 + seat`): the lanes asked for in this call (bit `j`: slot `8 block + j`).
    let wanted: UnsafeMutablePointer<UInt8>
    /// The block-seats with lanes asked for in this call, in the order first asked.
    let touched: UnsafeMutablePointer<Int32>
    /// Whether game `g` is slot `g` of one seat for every game (``AgentSeating/oneSeat(_:slots:seats:)``).
    let inOrder: Bool
    /// With ``inOrder``: block `b`'s block-seat (`b × 2 + seat`), for every whole block.
    let wholeBlocks: UnsafeMutablePointer<Int32>
    /// Calls that took ``actWhole(_:)`` (read by tests: the whole path is taken where it applies).
    private(set) var wholeCalls = 0

    /// Whether the lane form is used instead of the row form (``TrackerBatch``):
    /// for a skill that keeps no state (no delay, aim error or speed cap),
    /// seated in one seat of every one of the batch's `games` (the C ABI's
    /// opponent), so every lane it computes is one of its games. In the slot
    /// engine's slots a roster of trackers only plays as one group
    /// (``PongTrackerSeats``); beside other agents, trackers read rows
    /// (docs/bench.md, "Agents seated").
    static func pays(for skill: TrackerSkill, seating: AgentSeating, games: Int) -> Bool {
        plain(skill) && seating.games == games && seating == .oneSeat(seating.seat(0), slots: games, seats: 2)
    }

    /// Whether `skill` keeps no state (no delay, no aim error, no speed cap).
    static func plain(_ skill: TrackerSkill) -> Bool {
        skill.reaction == 0 && skill.noise == 0 && skill.speed == 1
    }

    init(_ rules: PongTracker, batch: PongBatch, seating: AgentSeating, observationCount: Int) {
        precondition(seating.seatsPerGame == PongBatch.seatCount, "Pong has two seats")
        self.rules = rules
        self.batch = batch
        self.seating = seating
        self.observationCount = observationCount
        steering = TrackerSteeringColumns(skill: rules.skill, games: seating.games)
        let skill = rules.skill
        plain = Self.plain(skill)
        laneSlots = batch.count / 8 * 8
        let places = PongBatch.seatCount * batch.count, blockSeats = max(1, laneSlots / 8 * PongBatch.seatCount)
        gameAt = .allocate(capacity: places)
        gameAt.initialize(repeating: -1, count: places)
        for g in 0 ..< seating.games { gameAt[seating.seat(g) * batch.count + seating.slot(g)] = Int32(g) }
        wanted = .allocate(capacity: blockSeats)
        wanted.initialize(repeating: 0, count: blockSeats)
        touched = .allocate(capacity: blockSeats)
        touched.initialize(repeating: 0, count: blockSeats)
        let firstSeat = seating.games > 0 ? seating.seat(0) : 0
        inOrder = (0 ..< seating.games).allSatisfy { seating.slot($0) == $0 && seating.seat($0) == firstSeat }
        let blocks = max(1, laneSlots / 8)
        wholeBlocks = .allocate(capacity: blocks)
        for b in 0 ..< blocks { wholeBlocks[b] = Int32(b * PongBatch.seatCount + firstSeat) }
    }

    deinit { gameAt.deallocate(); wanted.deallocate(); touched.deallocate(); wholeBlocks.deallocate() }

    var games: Int { seating.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}

    func act(observationRows rows: AgentRows) { rules.act(rows, steering, observationCount) }

    func act(_ rows: AgentRows) {
        if plain, inOrder, rows.count == games, Self.inOrder(rows.games, count: rows.count) {
            actWhole(rows.actions)
            return
        }
        var blocks = 0
        for k in 0 ..< rows.count {
            let g = rows.game(k)
            let slot = seating.slot(g), seat = seating.seat(g)
            guard slot < laneSlots else {
                actAlone(g, slot: slot, seat: seat, rows.actions)
                continue
            }
            let w = (slot >> 3) << 1 | seat
            if wanted[w] == 0 { touched[blocks] = Int32(w); blocks += 1 }
            wanted[w] |= 1 << UInt8(slot & 7)
        }
        guard blocks > 0 else { return }
        let rules = self.rules, steering = self.steering, plain = self.plain, wanted = self.wanted
        let deadZone = rules.field.deadZone, halfPaddle = rules.halfPaddle, count = batch.count, gameAt = self.gameAt
        let actions = rows.actions, touched = self.touched
        batch.forEachMotion(blockSeats: touched, count: blocks) { t, f in
            let w = Int(touched[t])
            var lanes = wanted[w]
            wanted[w] = 0
            let places = gameAt + (w & 1) * count + (w >> 1) << 3
            let aim = rules.aim(ownX: f.ownX, ballX: f.ballX, ballY: f.ballY, vx: f.vx, vy: f.vy)
            if plain {
                let moves = PongTracker.actions(TrackerSteering.direction(toward: aim.target, from: aim.own,
                                                                          deadZone: deadZone))
                while lanes != 0 {
                    let j = lanes.trailingZeroBitCount
                    lanes &= lanes &- 1
                    actions[Int(places[j])] = moves[j]
                }
                return
            }
            while lanes != 0 {
                let j = lanes.trailingZeroBitCount
                lanes &= lanes &- 1
                let g = Int(places[j])
                var cursor = steering.cursor(g)
                let direction = PongTracker.steer(&cursor, own: aim.own[j], target: aim.target[j],
                                                  incoming: LaneFlag(aim.incoming[j]), halfPaddle: halfPaddle,
                                                  deadZone: deadZone)
                actions[g] = Int32(PongTracker.action(TrackerSteering.move(direction)))
            }
        }
    }

    /// Every game, a stateless skill seated ``inOrder``: block `b`'s eight
    /// actions go to `actions[8b ..< 8b + 8]` in one store; games past the
    /// last whole block alone.
    func actWhole(_ actions: UnsafeMutablePointer<Int32>) {
        wholeCalls &+= 1
        let rules = self.rules, deadZone = rules.field.deadZone, out = UnsafeMutableRawPointer(actions)
        let stride = MemoryLayout<SIMD8<Int32>>.size
        if laneSlots > 0 {
            batch.forEachMotion(blockSeats: wholeBlocks, count: laneSlots / 8) { b, f in
                let aim = rules.aim(ownX: f.ownX, ballX: f.ballX, ballY: f.ballY, vx: f.vx, vy: f.vy)
                let direction = TrackerSteering.direction(toward: aim.target, from: aim.own, deadZone: deadZone)
                out.storeBytes(of: PongTracker.actions(direction), toByteOffset: b * stride, as: SIMD8<Int32>.self)
            }
        }
        guard laneSlots < games else { return }
        let seat = seating.seat(0)
        for g in laneSlots ..< games { actAlone(g, slot: g, seat: seat, actions) }
    }

    /// Whether `games[k] == k` for every `k < count`, eight at a time.
    static func inOrder(_ games: UnsafePointer<Int32>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(games)
        var expected = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        var k = 0
        while k + 8 <= count {
            if any(raw.loadUnaligned(fromByteOffset: k * MemoryLayout<Int32>.size, as: SIMD8<Int32>.self) .!= expected) { return false }
            expected &+= 8
            k += 8
        }
        while k < count {
            guard games[k] == Int32(k) else { return false }
            k += 1
        }
        return true
    }

    /// Game `g` (seat `seat` of slot `slot`, past the lanes) alone.
    func actAlone(_ g: Int, slot: Int, seat: Int, _ actions: UnsafeMutablePointer<Int32>) {
        let f = batch.motion(slot, side: seat == 0 ? .bottom : .top)
        let aim = rules.aim(ownX: f.ownX, ballX: f.ballX, ballY: f.ballY, vx: f.vx, vy: f.vy)
        var cursor = steering.cursor(g)
        let direction = PongTracker.steer(&cursor, own: aim.own, target: aim.target, incoming: aim.incoming,
                                          halfPaddle: rules.halfPaddle, deadZone: rules.field.deadZone)
        actions[g] = Int32(PongTracker.action(TrackerSteering.move(direction)))
    }
}
