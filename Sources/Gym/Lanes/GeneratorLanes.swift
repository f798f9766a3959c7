/// Four games' xoshiro256** generators, one lane per game: each lane is
/// ``Xoshiro256`` step for step (``XoshiroWords/next(_:)``), so each game
/// draws the numbers its own generator would. Four games, not eight: their
/// state fills few registers.
typealias GeneratorLanes = XoshiroWords<SIMD4<UInt64>>

extension SIMD4: GeneratorWord where Scalar == UInt64 {
    @usableFromInline typealias Actions = SIMD4<Int32>

    @inlinable @inline(__always)
    static func sticky(_ w: SIMD4<UInt64>, below scaled: Float, last: SIMD4<Int32>,
                       chosen: SIMD4<Int32>) -> SIMD4<Int32> {
        // The 24 bits convert exactly through Int32.
        let r = w &>> 40
        let n = SIMD4<Int32>(Int32(truncatingIfNeeded: r[0]), Int32(truncatingIfNeeded: r[1]),
                             Int32(truncatingIfNeeded: r[2]), Int32(truncatingIfNeeded: r[3]))
        let u = SIMD4<Float>(Float(n[0]), Float(n[1]), Float(n[2]), Float(n[3]))
        return chosen.replacing(with: last & 0xFF, where: u .< scaled)
    }
}
