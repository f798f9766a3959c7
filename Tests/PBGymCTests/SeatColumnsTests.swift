@testable import PBGymC
import Testing

/// Single-agent Pong's seat conversions (``SeatColumns``) match the plain
/// per-game loops for either seat, whole blocks of eight and games past them.
@Suite struct SeatColumnsTests {
    @Test func interleaveAndColumnMatchPerGameLoops() {
        for count in [0, 1, 7, 8, 9, 17, 24] {
            let agent = (0 ..< count).map { Int32($0 * 3 + 1) }, opponent = (0 ..< count).map { Int32(-$0 - 1) }
            let both = (0 ..< 2 * count).map { Float($0) * 0.5 - 3 }
            for seat in 0 ..< 2 {
                // One entry past each output: nothing is written there.
                var pairs = [Int32](repeating: 99, count: 2 * count + 1)
                var column = [Float](repeating: 99, count: count + 1)
                agent.withUnsafeBufferPointer { a in
                    opponent.withUnsafeBufferPointer { o in
                        pairs.withUnsafeMutableBufferPointer { p in
                            SeatColumns.interleave(agent: a.baseAddress ?? UnsafePointer(p.baseAddress!),
                                                   opponent: o.baseAddress ?? UnsafePointer(p.baseAddress!),
                                                   agentSeat: seat, count: count, into: p.baseAddress!)
                        }
                    }
                }
                both.withUnsafeBufferPointer { b in
                    column.withUnsafeMutableBufferPointer { c in
                        SeatColumns.column(b.baseAddress ?? UnsafePointer(c.baseAddress!), seat: seat, count: count,
                                           into: c.baseAddress!)
                    }
                }
                var expectedPairs = [Int32](repeating: 99, count: 2 * count + 1)
                for i in 0 ..< count { expectedPairs[2 * i + seat] = agent[i]; expectedPairs[2 * i + 1 - seat] = opponent[i] }
                let expectedColumn = (0 ..< count).map { both[2 * $0 + seat] } + [99]
                #expect(pairs == expectedPairs, "\(count) games, agent seat \(seat)")
                #expect(column == expectedColumn, "\(count) games, agent seat \(seat)")
            }
        }
    }
}
