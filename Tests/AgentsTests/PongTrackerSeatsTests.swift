import Testing
import Gym
@testable import Agents

/// Pong's trackers in the slot engine play as one group
/// (``PongTrackerSeats``): every tracker of a roster is a member, their
/// seats need no observation rows, and every skill plays as its own
/// per-game tracker, in the lanes and in the games past the last eight.
@Suite struct PongTrackerSeatsTests {
    static let skills = ["tracker", "tracker:reaction=3", "tracker:noise=0.7", "tracker:speed=0.6",
                         "tracker:predict=false", "tracker:reaction=2,noise=1.5,speed=0.8,predict=false",
                         "tracker:reaction=30,noise=4,speed=0.05"]

    /// The slot engine's agents of a roster of trackers only are members of
    /// one group, and the seats they hold need no rows; with another kind in
    /// the roster (whose seats need rows anyway), each tracker reads rows.
    @Test func aRosterOfTrackersSharesOneGroup() throws {
        var config = PongConfig()
        config.maxScore = 2
        let slots = 19
        let vector = Pong.makeVector(config: config, count: slots)
        let roster = try Self.skills.map { try AgentSpec.parse($0) }
        let agents = try SlotAgents<Pong>(roster, config: config, vector: vector, slots: slots)
        let members = agents.agents.compactMap { $0 as? PongSeatedTracker }
        #expect(members.count == Self.skills.count, "every tracker is a member")
        #expect(members.allSatisfy { $0.seats === members.first?.seats }, "one group")
        // Slot 0 (in the lanes) and slot 17 (past them): trackers in both seats; slot 3: one seat.
        try agents.start(0, slot: 0, seat: 0, seed: 1)
        try agents.start(6, slot: 0, seat: 1, seed: 2)
        try agents.start(3, slot: 17, seat: 0, seed: 3)
        try agents.start(5, slot: 17, seat: 1, seed: 4)
        try agents.start(2, slot: 3, seat: 1, seed: 5)
        let rows = try #require(agents.observedRows)
        #expect(rows[0] == 0 && rows[slots] == 0 && rows[17] == 0 && rows[slots + 17] == 0 && rows[slots + 3] == 0)
        #expect(rows[3] == 1, "a free seat's row is written")
        // A step: the first member writes every held seat's move into the
        // engine's buffer, and every member finds its rows written there.
        let group = try #require(members.first?.seats)
        let observations = [Float](repeating: 0, count: 2 * slots * PongBatch.observationCount)
        var actions = [Int32](repeating: -1, count: 2 * slots)
        try observations.withUnsafeBufferPointer { o in
            try actions.withUnsafeMutableBufferPointer { a in
                try agents.act(observations: o.baseAddress!, stride: PongBatch.observationCount, actions: a.baseAddress!)
            }
        }
        #expect(group.step.pointee.foundWritten == 5, "the held seats' rows were written by the step's one write")
        for g in 0 ..< 2 * slots {
            let heldSeat = [0, 1, 34, 35, 7].contains(g)
            #expect(heldSeat == (actions[g] != -1), "game \(g): \(actions[g])")
        }
        // A member comes to a block no member held (slots 8 ..< 16): the
        // next step computes that block too.
        try agents.start(1, slot: 9, seat: 0, seed: 6)
        actions = [Int32](repeating: -1, count: 2 * slots)
        try observations.withUnsafeBufferPointer { o in
            try actions.withUnsafeMutableBufferPointer { a in
                try agents.act(observations: o.baseAddress!, stride: PongBatch.observationCount, actions: a.baseAddress!)
            }
        }
        for g in 0 ..< 2 * slots {
            let heldSeat = [0, 1, 34, 35, 7, 18].contains(g)
            #expect(heldSeat == (actions[g] != -1), "game \(g) in the second step: \(actions[g])")
        }
        let mixed = try SlotAgents<Pong>(roster + [AgentSpec.parse("random")], config: config, vector: vector,
                                         slots: slots)
        #expect(!mixed.agents.contains { $0 is PongSeatedTracker } && mixed.agents.allSatisfy(\.readsObservations))
        // Outside the slot engine's seating, each tracker is made alone.
        let alone = Pong.makeBatchTrackers(skills: [TrackerSkill(), TrackerSkill(noise: 1)], context: AgentContext(
            config: config, seating: .oneSeat(1, slots: slots, seats: 2), vector: vector))
        #expect(!alone.contains { $0 is PongSeatedTracker })
    }

    /// Both seats aimed together (``PongTracker/aim(_:bottom:top:predicting:)``,
    /// one crossing for the seat the ball comes toward) aim as each seat
    /// alone, bit for bit: seeded entries of eight games, the top seat's
    /// view the bottom's mirrored, each seat predicting or not, balls near
    /// and far past the walls' period (the remainder taken lane by lane),
    /// and balls that move along the field (`vy` ±0).
    @Test func bothSeatsAimAsEachSeatAlone() {
        let field = TrackerField(PongConfig())
        var rng = Xoshiro256(seed: 77)
        func lanes(_ draw: () -> Float) -> SIMD8<Float> { SIMD8((0 ..< 8).map { _ in draw() }) }
        for round in 0 ..< 400 {
            let ownX = lanes { rng.nextSigned() }, oppX = lanes { rng.nextSigned() }
            let ballX = lanes { rng.nextSigned() }, ballY = lanes { rng.nextSigned() }
            let vx = lanes { rng.nextSigned() * (round % 4 == 0 ? 1 : 0.5) }
            // Slow balls reach far past the walls' period; some move along the field.
            let vy = lanes {
                switch rng.below(8) {
                case 0: return 0
                case 1: return -0.0
                case 2: return rng.nextSigned() * 1e-3
                default: return rng.nextSigned() * 0.5
                }
            }
            let predicts = (lanes { Float(rng.below(2)) } .> 0, lanes { Float(rng.below(2)) } .> 0)
            let both = PongTracker.aim(field, bottom: (ownX, ballX, ballY, vx, vy), top: (-oppX, -ballX, -ballY, -vx, -vy),
                                       predicting: predicts)
            let bottom = PongTracker.aim(field, predicting: predicts.0, ownX: ownX, ballX: ballX, ballY: ballY, vx: vx,
                                         vy: vy)
            let top = PongTracker.aim(field, predicting: predicts.1, ownX: -oppX, ballX: -ballX, ballY: -ballY, vx: -vx,
                                      vy: -vy)
            for (name, got, expected) in [("bottom", both.bottom, bottom), ("top", both.top, top)] {
                for j in 0 ..< 8 {
                    #expect(got.own[j].bitPattern == expected.own[j].bitPattern
                        && got.target[j].bitPattern == expected.target[j].bitPattern
                        && got.incoming[j] == expected.incoming[j], "round \(round), \(name) seat, lane \(j)")
                }
            }
        }
    }

    /// A round robin of every skill (self-play included) on the slot engine
    /// gives each game's record as played alone by per-game trackers, with
    /// 19 slots (two blocks of eight lanes and three games alone) and 8.
    @Test func everySkillPlaysAsItsPerGameTracker() throws {
        var short = PongConfig()
        short.maxScore = 2
        short.maxSteps = 2500
        var skipped = short
        skipped.frameSkip = 3
        skipped.stickyActionProbability = 0.25
        let roster = try Self.skills.map { try AgentSpec.parse($0) }
        for (name, config) in [("short", short), ("frame skip + sticky", skipped)] {
            let count = roster.count * roster.count
            let expected = MatchesTests.reference(Pong.self, config: config, roster: roster, count: count)
            for slots in [19, 8] {
                let got = try Matches.playBatched(Pong.self, config: config, roster: roster, count: count, slots: slots,
                                                  runner: ParallelRunner(workers: 1)) { g in
                    MatchesTests.game(g, rosterCount: roster.count, seats: 2)
                }
                for g in 0 ..< count where got[g] != expected[g] {
                    Issue.record("\(name), slots \(slots): game \(g) differs: \(got[g]) vs \(expected[g])")
                }
            }
        }
    }
}
