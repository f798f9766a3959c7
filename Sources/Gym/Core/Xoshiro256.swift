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
        words.next(.standard)
    }

    /// The state as ``XoshiroWords`` (the step both widths share).
    @inlinable
    var words: XoshiroWords<UInt64> {
        get { XoshiroWords(s0, s1, s2, s3) }
        set { s0 = newValue.s0; s1 = newValue.s1; s2 = newValue.s2; s3 = newValue.s3 }
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

/// The words a xoshiro256** state is made of: one generator's (`UInt64`)
/// or several generators', one per lane (`SIMD4<UInt64>`, see
/// GeneratorLanes.swift), so that ``XoshiroWords/next(_:)`` is the one
/// xoshiro256** step of both widths.
@usableFromInline
protocol GeneratorWord {
    /// Actions of the games whose generators these are (`Int` for one game).
    associatedtype Actions
    static func &+ (a: Self, b: Self) -> Self
    static func &<< (a: Self, b: UInt64) -> Self
    static func &>> (a: Self, b: UInt64) -> Self
    static func | (a: Self, b: Self) -> Self
    static func ^= (a: inout Self, b: Self)
    /// Lane by lane, a sticky action: the byte of `last` where the draw
    /// `w`'s top 24 bits, as a float, are below `scaled` (the probability
    /// times 2^24), else `chosen`. The draw is below the probability `p` as
    /// ``Xoshiro256/chance(_:)`` takes it exactly then: `Float(w >> 40) ×
    /// 2^-24 < p` and `Float(w >> 40) < p × 2^24` scale both sides by a
    /// power of two, which is exact.
    static func sticky(_ w: Self, below scaled: Float, last: Actions, chosen: Actions) -> Actions
}

extension UInt64: GeneratorWord {
    @inlinable @inline(__always)
    static func sticky(_ w: UInt64, below scaled: Float, last: Int, chosen: Int) -> Int {
        Float(w >> 40) < scaled ? last & 0xFF : chosen
    }
}

/// A xoshiro256** state of one generator or of several, one per lane
/// (``GeneratorWord``): each lane steps as ``Xoshiro256`` does.
@frozen @usableFromInline
struct XoshiroWords<W: GeneratorWord> {
    @usableFromInline var s0, s1, s2, s3: W

    @inlinable @inline(__always)
    init(_ s0: W, _ s1: W, _ s2: W, _ s3: W) { self.s0 = s0; self.s1 = s1; self.s2 = s2; self.s3 = s3 }

    /// The shifts of xoshiro256**'s two rotations, each as a left and a
    /// right shift: the result's by 7 bits (7, 57) and the last state word's
    /// by 45 (45, 19). A lane caller passes them from memory, so that they
    /// stay vector shifts (docs/throughput.md).
    @frozen @usableFromInline
    struct Rotations {
        @usableFromInline var resultLeft, resultRight, stateLeft, stateRight: UInt64

        @inlinable @inline(__always)
        init(_ resultLeft: UInt64, _ resultRight: UInt64, _ stateLeft: UInt64, _ stateRight: UInt64) {
            self.resultLeft = resultLeft; self.resultRight = resultRight
            self.stateLeft = stateLeft; self.stateRight = stateRight
        }

        @inlinable @inline(__always)
        static var standard: Rotations { Rotations(7, 57, 45, 19) }
    }

    /// The next output, advancing the state (Blackman & Vigna's
    /// `xoshiro256starstar.c`; the products by 5 and 9 as shifts and adds,
    /// equal modulo 2^64).
    @inlinable @inline(__always)
    mutating func next(_ r: Rotations) -> W {
        let times5 = s1 &+ (s1 &<< 2)
        let rotated = (times5 &<< r.resultLeft) | (times5 &>> r.resultRight)
        let result = rotated &+ (rotated &<< 3)
        let t = s1 &<< 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 &<< r.stateLeft) | (s3 &>> r.stateRight)
        return result
    }
}
