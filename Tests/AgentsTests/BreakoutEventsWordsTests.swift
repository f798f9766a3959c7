import Testing
import Gym
@testable import Agents

/// Breakout's books read a step's events as words (``Breakout/booksNothing(_:count:)``):
/// that holds while every field of ``BreakoutEvents`` is an `Int32` count
/// and nothing else is stored, and then each count alone makes a step book something.
@Suite struct BreakoutEventsWordsTests {
    @Test func everyFieldIsAnInt32CountAndNothingElseIsStored() {
        let fields = Mirror(reflecting: BreakoutEvents()).children
        #expect(fields.allSatisfy { $0.value is Int32 }, "every field is an Int32 count")
        #expect(MemoryLayout<BreakoutEvents>.size == fields.count * 4)
        #expect(MemoryLayout<BreakoutEvents>.stride == MemoryLayout<BreakoutEvents>.size)
    }

    @Test func eachCountAloneBooksSomething() {
        let counts: [WritableKeyPath<BreakoutEvents, Int32>] = [
            \.points, \.brickHits, \.brokenNormal, \.brokenTough, \.brokenExplosive, \.brokenExtraBall,
            \.brokenSpeedUp, \.paddleHits, \.ballsLost, \.livesLost, \.levelsCleared, \.pushes, \.ballsReleased,
            \.speedUps,
        ]
        #expect(counts.count == Mirror(reflecting: BreakoutEvents()).children.count, "every count is listed")
        #expect(Breakout.booksNothing(BreakoutEvents()))
        var eight = [BreakoutEvents](repeating: BreakoutEvents(), count: 8)
        #expect(Breakout.booksNothing(eight, count: 8))
        for count in counts {
            for value: Int32 in [1, -1, .min] {
                var events = BreakoutEvents()
                events[keyPath: count] = value
                #expect(!Breakout.booksNothing(events), "\(count) = \(value)")
                eight[7] = events
                #expect(!Breakout.booksNothing(eight, count: 8), "\(count) = \(value) in the eighth")
                #expect(Breakout.booksNothing(eight, count: 7))
                eight[7] = BreakoutEvents()
            }
        }
    }
}
