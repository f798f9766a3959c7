/// Four games' xoshiro256** generators, one lane per game: each lane is
/// ``Xoshiro256`` step for step (the same shifts, rotations and exclusive
/// ors on 64-bit lanes; the products by 5 and 9 as shifts and adds, equal
/// modulo 2^64), so each game draws the numbers its own generator would.
struct GeneratorLanes {
    var s0: SIMD4<UInt64> = .zero, s1: SIMD4<UInt64> = .zero, s2: SIMD4<UInt64> = .zero, s3: SIMD4<UInt64> = .zero

    /// The shifts of xoshiro256**'s two rotations (see
    /// ``PongBatch/generatorRotations``).
    struct Rotations {
        /// The result's rotation by 7: shifts by 7 and 57.
        var resultLeft, resultRight: UInt64
        /// The last state word's rotation by 45: shifts by 45 and 19.
        var stateLeft, stateRight: UInt64
    }

    /// ``Xoshiro256/next()`` in every lane.
    @inline(__always)
    mutating func next(_ rotation: Rotations) -> SIMD4<UInt64> {
        let times5 = s1 &+ (s1 &<< 2)
        let rotated = (times5 &<< rotation.resultLeft) | (times5 &>> rotation.resultRight)
        let result = rotated &+ (rotated &<< 3)
        let t = s1 &<< 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 &<< rotation.stateLeft) | (s3 &>> rotation.stateRight)
        return result
    }

    /// ``Xoshiro256/chance(_:)`` in every lane, all ones where it is true,
    /// given `scaled` = `p × 2^24`: the draw `Float(next() >> 40) × 2^-24`
    /// is below `p` exactly when `Float(next() >> 40)` is below `p × 2^24`
    /// (both products by a power of two are exact, and the 24 bits convert
    /// exactly through `Int32`).
    @inline(__always)
    mutating func chance(scaled: Float, _ rotation: Rotations) -> SIMD4<Int32> {
        let r = next(rotation) &>> 40
        let n = SIMD4<Int32>(Int32(truncatingIfNeeded: r[0]), Int32(truncatingIfNeeded: r[1]),
                             Int32(truncatingIfNeeded: r[2]), Int32(truncatingIfNeeded: r[3]))
        let u = SIMD4<Float>(Float(n[0]), Float(n[1]), Float(n[2]), Float(n[3]))
        return unsafeBitCast(u .< scaled, to: SIMD4<Int32>.self)
    }
}
