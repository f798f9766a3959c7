import Gym

/// ``PongTracker`` for the games of a ``PongBatch``, eight at a time: it
/// reads each seat's observation entries from the batch's columns
/// (``PongBatch/forEachObservation(blockSeats:count:_:)``) instead of observation rows, and
/// runs the tracker's rule (``PongTracker/aim(ownX:ballX:ballY:vx:vy:)``) in
/// eight lanes. Game `g` makes exactly the moves of its own tracker started
/// with the same seed, bit for bit.
///
/// A skill without reaction delay, aim error or speed cap keeps no state, so
/// the move is taken in the lanes too; any other skill steers each game's
/// lane through its columns (``TrackerSteeringColumns``), as the row form
/// does. Games past the last whole eight of the batch are read one at a time.
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
    }

    deinit { gameAt.deallocate(); wanted.deallocate(); touched.deallocate() }

    var games: Int { seating.games }
    func start(game: Int, seed: UInt64) { steering.reset(game, seed: seed) }
    func end(game _: Int) {}

    func act(observationRows rows: AgentRows) { rules.act(rows, steering, observationCount) }

    func act(_ rows: AgentRows) {
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
        batch.forEachObservation(blockSeats: touched, count: blocks) { t, f in
            let w = Int(touched[t])
            var lanes = wanted[w]
            wanted[w] = 0
            let places = gameAt + (w & 1) * count + (w >> 1) << 3
            let aim = rules.aim(ownX: f.f0, ballX: f.f4, ballY: f.f5, vx: f.f6, vy: f.f7)
            if plain {
                let direction = TrackerSteering.direction(toward: aim.target, from: aim.own, deadZone: deadZone)
                while lanes != 0 {
                    let j = lanes.trailingZeroBitCount
                    lanes &= lanes &- 1
                    actions[Int(places[j])] = Int32(PongTracker.action(TrackerSteering.move(direction[j])))
                }
                return
            }
            while lanes != 0 {
                let j = lanes.trailingZeroBitCount
                lanes &= lanes &- 1
                let g = Int(places[j])
                var cursor = steering.cursor(g)
                cursor.track(incoming: aim.incoming[j], halfWidth: halfPaddle)
                actions[g] = Int32(PongTracker.action(cursor.move(toward: aim.target[j] + cursor.aimOffset,
                                                                  from: aim.own[j], deadZone: deadZone)))
            }
        }
    }

    /// Game `g` (seat `seat` of slot `slot`, past the lanes) alone.
    func actAlone(_ g: Int, slot: Int, seat: Int, _ actions: UnsafeMutablePointer<Int32>) {
        let f = batch.observation(slot, side: seat == 0 ? .bottom : .top)
        let aim = rules.aim(ownX: f.f0, ballX: f.f4, ballY: f.f5, vx: f.f6, vy: f.f7)
        var cursor = steering.cursor(g)
        actions[g] = Int32(steer(&cursor, own: aim.own, target: aim.target, incoming: aim.incoming.isSet))
    }

    /// The tracker's steering of one game (as ``PongTracker/decide(_:_:)``).
    @inline(__always)
    func steer(_ cursor: inout TrackerSteeringColumns.Cursor, own: Float, target: Float, incoming: Bool) -> Int {
        cursor.track(incoming: incoming, halfWidth: rules.halfPaddle)
        return PongTracker.action(cursor.move(toward: target + cursor.aimOffset, from: own,
                                              deadZone: rules.field.deadZone))
    }
}
