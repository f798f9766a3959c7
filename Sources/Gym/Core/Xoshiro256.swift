/// xoshiro256**: the generator each environment (and agent) owns.
///
/// Source: Blackman & Vigna, "Scrambled Linear Pseudorandom Number
/// Generators" (2018), reference `xoshiro256starstar.c`. The state is four
/// words seeded through ``SplitMix64``, as the authors recommend. The whole
/// state is a plain value, so snapshots copy and encode it.
///
/// The float helpers below are defined here (not via the standard library's
/// `random(in:using:)`) so that the numbers drawn can never change with the
/// toolchain.
@frozen
public struct Xoshiro256: RandomNumberGenerator, Sendable, Hashable, Codable {
    public var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    @inlinable
    public init(seed: UInt64) {
        var sm = SplitMix64(seed: seed)
        s0 = sm.next(); s1 = sm.next(); s2 = sm.next(); s3 = sm.next()
    }

    /// The generator whose state is the four words `s0 … s3` (a generator
    /// stored word by word, as a batch's columns hold it).
    @inlinable
    public init(words s0: UInt64, _ s1: UInt64, _ s2: UInt64, _ s3: UInt64) {
        self.s0 = s0; self.s1 = s1; self.s2 = s2; self.s3 = s3
    }

    @inlinable
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform `Float` in [0, 1), from the top 24 bits.
    @inlinable
    public mutating func nextUnit() -> Float {
        Float(next() >> 40) * 0x1p-24
    }

    /// Uniform `Float` in [-1, 1).
    @inlinable
    public mutating func nextSigned() -> Float {
        nextUnit() * 2 - 1
    }

    /// `true` with probability `p` (p in [0, 1]).
    @inlinable
    public mutating func chance(_ p: Float) -> Bool {
        nextUnit() < p
    }

    /// Fair coin: +1 or -1.
    @inlinable
    public mutating func sign() -> Float {
        (next() >> 63) == 0 ? 1 : -1
    }

    /// Uniform integer in 0..<n (n > 0), Lemire's multiply-shift (the tiny bias
    /// for n far below 2^64 is irrelevant here).
    @inlinable
    public mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }
}
