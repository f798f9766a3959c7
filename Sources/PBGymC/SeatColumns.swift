/// Single-agent Pong's two seats in the batch's layout (game `i`'s seat `s`
/// at `2i + s`) and the caller's one seat: the conversions each step makes,
/// eight games at a time (one interleave or one even/odd split per block).
enum SeatColumns {
    /// `both[2i + agentSeat] = agent[i]`, `both[2i + 1 - agentSeat] = opponent[i]` for `i < count`.
    static func interleave(agent: UnsafePointer<Int32>, opponent: UnsafePointer<Int32>, agentSeat: Int, count: Int,
                           into both: UnsafeMutablePointer<Int32>) {
        let (first, second) = agentSeat == 0 ? (agent, opponent) : (opponent, agent)
        let from0 = UnsafeRawPointer(first), from1 = UnsafeRawPointer(second), to = UnsafeMutableRawPointer(both)
        var i = 0
        while i + 8 <= count {
            var pair = SIMD16<Int32>()
            pair.evenHalf = from0.loadUnaligned(fromByteOffset: i * MemoryLayout<Int32>.size, as: SIMD8<Int32>.self)
            pair.oddHalf = from1.loadUnaligned(fromByteOffset: i * MemoryLayout<Int32>.size, as: SIMD8<Int32>.self)
            to.storeBytes(of: pair, toByteOffset: 2 * i * MemoryLayout<Int32>.size, as: SIMD16<Int32>.self)
            i += 8
        }
        while i < count {
            both[2 * i] = first[i]
            both[2 * i + 1] = second[i]
            i += 1
        }
    }

    /// `out[i] = both[2i + seat]` for `i < count`.
    static func column(_ both: UnsafePointer<Float>, seat: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        let from = UnsafeRawPointer(both), to = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let pair = from.loadUnaligned(fromByteOffset: 2 * i * MemoryLayout<Float>.size, as: SIMD16<Float>.self)
            to.storeBytes(of: seat == 0 ? pair.evenHalf : pair.oddHalf, toByteOffset: i * MemoryLayout<Float>.size, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = both[2 * i + seat]
            i += 1
        }
    }
}
