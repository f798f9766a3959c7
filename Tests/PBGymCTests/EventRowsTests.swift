@testable import PBGymC
@testable import Gym
import Testing

/// The events rows: Breakout's batch writes the caller's rows itself
/// (``BreakoutAdapter/eventsInPlace``), and they equal the rows copied
/// column by column from the batch's own events (``EventRows/copy(_:count:_:into:)``);
/// Pong's rows are copied as its events' leading fields, one vector per game
/// (``EventRows/copyPrefix(_:stride:count:columns:into:)``).
@Suite struct EventRowsTests {
    @Test func breakoutEventsAreWrittenInPlace() {
        let adapter = BreakoutAdapter(config: BreakoutConfig(), count: 3, observationSize: .atari, autoresetMode: .nextStep)
        #expect(adapter.eventsInPlace, "BreakoutEvents is laid out as an events row")
        #expect(adapter.eventColumns.count == adapter.eventNames.count)
    }

    @Test func pongEventRowsAreCopiedAsPrefixes() throws {
        let adapter = try PongAdapter(config: PongConfig(), count: 3, twoPlayer: true, agentSide: .bottom,
                                      opponentSpec: "tracker", keepHistory: false, autoresetMode: .nextStep)
        #expect(adapter.eventsPrefixStride == MemoryLayout<PongEvents>.stride, "the rows are PongEvents' leading fields")
        #expect(adapter.eventColumns.count == adapter.eventNames.count)
    }

    /// The vector copy of leading fields equals the column copy, for every
    /// count (the last game's row on its own), and writes nothing past the rows.
    @Test(arguments: [0, 1, 2, 3, 8, 17])
    func prefixCopyEqualsColumnCopy(count: Int) throws {
        let columns: [WritableKeyPath<PongEvents, Int32>] = [\.hitsBottom, \.hitsTop, \.pointsBottom, \.pointsTop,
                                                             \.wallBounces, \.contacts]
        let stride = try #require(EventRows.prefixStride(PongEvents.self, columns))
        #expect(EventRows.copiesPrefix(stride: stride, columns: columns.count))
        var rng = Xoshiro256(seed: UInt64(count) &+ 3)
        let events = (0 ..< count).map { _ in
            var e = PongEvents()
            for c in columns { e[keyPath: c] = Int32(truncatingIfNeeded: rng.next()) }
            e.pointSpeed = Float(rng.next() % 1000)
            return e
        }
        var wide = [Int32](repeating: 99, count: count * columns.count + 1), plain = wide
        events.withUnsafeBufferPointer { ev in
            guard let p = ev.baseAddress else { return }
            EventRows.copyPrefix(UnsafeRawPointer(p), stride: stride, count: count, columns: columns.count, into: &wide)
            EventRows.copy(p, count: count, columns, into: &plain)
        }
        #expect(wide == plain, "\(count) games")
        #expect(wide.last == 99, "nothing written past the rows")
    }

    @Test(arguments: [1, 8, 17])
    func breakoutEventRowsInPlaceEqualCopiedRows(count: Int) throws {
        var config = BreakoutConfig()
        config.lives = 1
        config.maxSteps = 300
        let inPlace = BreakoutAdapter(config: config, count: count, observationSize: .atari, autoresetMode: .nextStep)
        let copied = BreakoutAdapter(config: config, count: count, observationSize: .atari, autoresetMode: .nextStep)
        copied.eventsInPlace = false
        for i in 0 ..< count { inPlace.reset(i, stream: UInt64(i) &+ 7); copied.reset(i, stream: UInt64(i) &+ 7) }
        var rng = Xoshiro256(seed: 11)
        var actions = [Int32](repeating: 0, count: count)
        var a = Outputs(adapter: inPlace, count: count), b = Outputs(adapter: copied, count: count)
        var eventful = 0
        for step in 0 ..< 600 {
            for i in 0 ..< count { actions[i] = Int32(truncatingIfNeeded: rng.next() % UInt64(inPlace.actionCount)) }
            a.step(inPlace, actions)
            b.step(copied, actions)
            #expect(a == b, "step \(step)")
            guard a == b else { return }
            eventful += a.events.contains { $0 != 0 } ? 1 : 0
        }
        #expect(eventful > 0, "some step had an event")
    }

    /// The session steps its games through `any GameAdapter` with a scores
    /// buffer: Breakout's adapter has its batch write every game's score and
    /// lives within the step (``BreakoutBatch/step(actions:into:scores:)``),
    /// equal to the pass after it that the protocol's default makes.
    @Test(arguments: [1, 9, 17])
    func breakoutScoresAreWrittenWithinTheStep(count: Int) throws {
        let adapter = BreakoutAdapter(config: BreakoutConfig(), count: count, observationSize: .atari,
                                      autoresetMode: .nextStep)
        for i in 0 ..< count { adapter.reset(i, stream: UInt64(i) &+ 3) }
        let games: any GameAdapter = adapter
        var rng = Xoshiro256(seed: 5)
        var actions = [Int32](repeating: 0, count: count), scores = [Int32](repeating: -1, count: 2 * count)
        var after = scores
        var out = Outputs(adapter: adapter, count: count)
        for step in 0 ..< 200 {
            for i in 0 ..< count { actions[i] = Int32(truncatingIfNeeded: rng.next() % UInt64(adapter.actionCount)) }
            let before = adapter.batch.fastPath.scoresInStep
            try games.step(actions: actions, observations: &out.observations, rewards: &out.rewards,
                           terminated: &out.terminated, truncated: &out.truncated, ends: &out.ends,
                           events: &out.events, scores: &scores)
            #expect(adapter.batch.fastPath.scoresInStep - before == count, "step \(step): every score written in the step")
            adapter.writeScores(into: &after)
            #expect(scores == after, "step \(step)")
            guard scores == after else { return }
        }
    }

    /// One adapter's step outputs.
    struct Outputs: Equatable {
        var observations: [Float], rewards: [Float], terminated: [UInt8], truncated: [UInt8], ends: [UInt8]
        var events: [Int32]

        init(adapter: BreakoutAdapter, count: Int) {
            observations = Array(repeating: 0, count: count * adapter.layout.count)
            rewards = Array(repeating: 0, count: count)
            terminated = Array(repeating: 0, count: count); truncated = terminated; ends = terminated
            events = Array(repeating: -1, count: count * adapter.eventCount)
        }

        mutating func step(_ adapter: BreakoutAdapter, _ actions: [Int32]) {
            adapter.step(actions: actions, observations: &observations, rewards: &rewards, terminated: &terminated,
                         truncated: &truncated, ends: &ends, events: &events)
        }
    }
}
