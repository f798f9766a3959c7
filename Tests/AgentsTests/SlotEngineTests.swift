import Testing
import Gym
@testable import Agents

/// The slot engine's per-step books: steps in which nothing the books count
/// happened are not recorded for a work that books events alone (eight
/// quiet slots passed over at once), and a slot with nothing left to play
/// keeps action 0.
@Suite struct SlotEngineTests {
    /// Two trackers on every Pong game; counts what the engine records and
    /// checks that no idle slot is ever stepped with an action but 0.
    final class ProbeWork: SlotWork {
        typealias Game = Pong
        let players: SlotAgents<Pong>
        var jobs: OneEpisodeJobs
        let booksEventsOnly: Bool
        var recorded = 0, quietRecorded = 0, finished = 0, idleActions = 0

        init(config: PongConfig, slots: Int, vector: PongBatch, booksEventsOnly: Bool) throws {
            players = try SlotAgents(try ["tracker", "tracker:reaction=3,noise=1,speed=0.7"].map { try AgentSpec.parse($0) },
                                     config: config, vector: vector, slots: slots, freeSeatsNeedRows: false)
            jobs = OneEpisodeJobs(slots: slots)
            self.booksEventsOnly = booksEventsOnly
        }

        func take(_ job: Int, slot i: Int) { jobs.take(job, slot: i) }
        func nextEpisode(slot i: Int) -> UInt64? { jobs.start(slot: i).map { Seeds.episode(runSeed: 3, index: $0) } }
        func started(slot i: Int, vector _: PongBatch, seed: UInt64) throws(AgentFault) {
            for s in 0 ..< 2 { try players.start(s, slot: i, seat: s, seed: Seeds.agent(seed, seat: s)) }
        }
        func act(busy: UnsafePointer<UInt8>, observations: UnsafePointer<Float>, actions: UnsafeMutablePointer<Int32>)
            throws(AgentFault) {
            for i in 0 ..< players.slots where busy[i] == 0 && (actions[2 * i] != 0 || actions[2 * i + 1] != 0) {
                idleActions += 1
            }
            try players.act(observations: observations, stride: PongBatch.observationCount, actions: actions)
        }
        func record(slot _: Int, rewards _: UnsafePointer<Float>, events: PongEvents, ended: Bool) -> Bool {
            recorded += 1
            if !ended && Pong.booksNothing(events) { quietRecorded += 1 }
            return ended
        }
        func finished(slot i: Int, vector _: PongBatch) throws(AgentFault) {
            try players.end(slot: i)
            finished += 1
        }
        var observedRows: UnsafePointer<UInt8>? { players.observedRows }
    }

    @Test func quietStepsAreNotRecordedAndIdleSlotsActZero() throws {
        for (label, config) in PongConfig.shortPlainAndSticky() {
            func run(booksEventsOnly: Bool) throws -> (work: ProbeWork, passedOver: Int) {
                // One block of eight lanes and three alone; slots fall idle one by one at the end.
                let engine = SlotEngine<Pong>(config: config, slots: 11)
                let work = try ProbeWork(config: config, slots: 11, vector: engine.vector, booksEventsOnly: booksEventsOnly)
                try engine.run(work, jobs: WorkerJobs(worker: 0, workers: 1, count: 30))
                #expect((0 ..< 22).allSatisfy { engine.actions[$0] == 0 }, "\(label): an idle slot's action is not 0")
                return (work, engine.passedOver[0])
            }
            let (skipping, passedOver) = try run(booksEventsOnly: true), (every, passedNone) = try run(booksEventsOnly: false)
            // Blocks of eight quiet slots are passed over at once, only where quiet steps are not recorded.
            #expect(passedOver > 0 && passedNone == 0, "\(label): \(passedOver) blocks passed over, \(passedNone) without skipping")
            #expect(skipping.finished == 30 && every.finished == 30, "\(label)")
            #expect(skipping.quietRecorded == 0, "\(label): a quiet step was recorded")
            #expect(every.quietRecorded > 0 && skipping.recorded == every.recorded - every.quietRecorded, "\(label)")
            #expect(skipping.idleActions == 0 && every.idleActions == 0, "\(label): an idle slot acted")
        }
    }

    /// What ``PlayableGame/booksNothing(_:)`` lets the engine skip leaves the
    /// books as they are, and every event the books count makes a step booked
    /// (alone, and among eight: ``PlayableGame/booksNothing(_:count:)``).
    @Test func eventsThatBookNothingLeaveTheBooks() {
        let start = Pong.Tally(record: PongMatchResult(seed: 1, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                                                       hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0),
                               receiver: .top)
        var quiet = PongEvents()
        quiet.wallBounces = 2; quiet.contacts = 3; quiet.pointSpeed = 1.5
        #expect(Pong.booksNothing(quiet) && Pong.booksNothing(PongEvents()))
        var tally = start
        Pong.book(&tally, quiet)
        #expect(tally.record == start.record && tally.receiver == start.receiver)
        let counted: [WritableKeyPath<PongEvents, Int32>] = [\.hitsBottom, \.hitsTop, \.pointsBottom, \.pointsTop]
        for field in counted {
            var events = quiet
            events[keyPath: field] = 1
            var booked = start
            Pong.book(&booked, events)
            #expect(!Pong.booksNothing(events) && booked.record != start.record, "\(field)")
            // Eight steps' events book nothing only where none of them books anything.
            for k in 0 ..< 8 {
                var eight = [PongEvents](repeating: quiet, count: 8)
                eight[k] = events
                #expect(!Pong.booksNothing(eight, count: 8) && Pong.booksNothing(eight, count: k), "\(field) at \(k)")
            }
        }
        #expect(Pong.booksNothing([PongEvents](repeating: quiet, count: 8), count: 8))
        #expect(Breakout.booksNothing(BreakoutEvents()))
        let breakoutFields: [WritableKeyPath<BreakoutEvents, Int32>] = [
            \.points, \.brickHits, \.brokenNormal, \.brokenTough, \.brokenExplosive, \.brokenExtraBall, \.brokenSpeedUp,
            \.paddleHits, \.ballsLost, \.livesLost, \.levelsCleared, \.pushes, \.ballsReleased, \.speedUps,
        ]
        for field in breakoutFields {
            var events = BreakoutEvents()
            events[keyPath: field] = 1
            var total = BreakoutEvents()
            total.accumulate(events)
            #expect(!Breakout.booksNothing(events) && total != BreakoutEvents(), "\(field)")
        }
    }
}
