/// Eight games at a time, one per SIMD lane: the loads and stores between a
/// batch's columns (one entry per game) and lanes, and the conversions both
/// games' lane code uses.
///
/// Conversions are written element by element so that they are compiled
/// for these types (see docs/throughput.md on the lane code); each is exact
/// or says what it drops.
@usableFromInline
enum Lane8 {
    @usableFromInline typealias Floats = SIMD8<Float>
    @usableFromInline typealias Ints = SIMD8<Int32>
    @usableFromInline typealias Bytes = SIMD8<UInt8>
    @usableFromInline typealias Mask = SIMDMask<SIMD8<Int32>>

    // MARK: - Columns

    /// Entries `i ..< i + 8` of column `c`, lane `j` from entry `i + j`.
    @inline(always)
    static func load<E: SIMDScalar>(_ c: UnsafePointer<E>, _ i: Int) -> SIMD8<E> {
        UnsafeRawPointer(c + i).loadUnaligned(as: SIMD8<E>.self)
    }

    @inline(always)
    static func load<E: SIMDScalar>(_ c: UnsafeMutablePointer<E>, _ i: Int) -> SIMD8<E> {
        load(UnsafePointer(c), i)
    }

    /// Writes lane `j` of `v` to entry `i + j` of column `c`.
    @inline(always)
    static func store<E: SIMDScalar>(_ v: SIMD8<E>, _ c: UnsafeMutablePointer<E>, _ i: Int) {
        UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: SIMD8<E>.self)
    }

    /// Whether any of entries `i ..< i + 8` of byte column `c` is not 0.
    @inline(always)
    static func anySet(_ c: UnsafePointer<UInt8>, _ i: Int) -> Bool {
        UnsafeRawPointer(c + i).loadUnaligned(as: UInt64.self) != 0
    }

    /// Entries `i ..< i + 4` of a 64-bit column (a generator word of four
    /// games, ``GeneratorLanes``).
    @inline(__always)
    static func loadQuad(_ c: UnsafeMutablePointer<UInt64>, _ i: Int) -> SIMD4<UInt64> {
        UnsafeRawPointer(c + i).loadUnaligned(as: SIMD4<UInt64>.self)
    }

    @inline(__always)
    static func storeQuad(_ v: SIMD4<UInt64>, _ c: UnsafeMutablePointer<UInt64>, _ i: Int) {
        UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: SIMD4<UInt64>.self)
    }

    // MARK: - Conversions

    /// `Ints(truncatingIfNeeded: b)` (exact: bytes are 0 ... 255).
    @inline(__always)
    static func widen(_ b: Bytes) -> Ints {
        Ints(Int32(b[0]), Int32(b[1]), Int32(b[2]), Int32(b[3]), Int32(b[4]), Int32(b[5]), Int32(b[6]), Int32(b[7]))
    }

    /// `Bytes(truncatingIfNeeded: v)`: each lane's low byte.
    @inline(__always)
    static func narrow(_ v: Ints) -> Bytes {
        Bytes(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
              UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
              UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]))
    }

    /// `Float(v[j])` in each lane `j` (the nearest float; exact below 2^24).
    @inline(__always)
    static func floats(_ v: Ints) -> Floats {
        Floats(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
    }

    /// Lanes holding integers 0 ..< 2^23 as those integers, without a
    /// range check: adding 2^23 puts the integer in the low 23 bits of the
    /// pattern.
    @inline(__always)
    static func integers(_ v: Floats) -> SIMD8<UInt32> {
        unsafeBitCast(v + 0x1p23, to: SIMD8<UInt32>.self) & 0x7F_FFFF
    }

    /// `|v|` by clearing the sign bit (a −0 becomes +0: equal in every
    /// comparison, so only for values that are compared).
    @inline(always)
    static func magnitude(_ v: Floats) -> Floats {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: Floats.self)
    }

    /// The sum of the eight lanes, pairwise. For tests against zero only:
    /// any NaN lane makes it NaN, whatever the order.
    @inline(always)
    static func sum(_ v: Floats) -> Float {
        let h = SIMD4(v[0], v[1], v[2], v[3]) + SIMD4(v[4], v[5], v[6], v[7])
        return (h[0] + h[2]) + (h[1] + h[3])
    }

    /// The largest of the eight lanes, pairwise by selects (integers, so
    /// the order does not matter).
    @inline(always)
    static func greatest(_ v: Ints) -> Int32 {
        let a = v[0] < v[4] ? v[4] : v[0], b = v[1] < v[5] ? v[5] : v[1]
        let c = v[2] < v[6] ? v[6] : v[2], d = v[3] < v[7] ? v[7] : v[3]
        let e = a < c ? c : a, f = b < d ? d : b
        return e < f ? f : e
    }

    // MARK: - Masks as bits

    /// Bit `j` set for every lane `j` set in `m`. A mask is stored as its
    /// integer lanes, all ones where set, so it masks ``laneBits`` directly.
    @inline(__always)
    static func bits(_ m: Mask) -> UInt8 {
        UInt8(truncatingIfNeeded: (laneBits & unsafeBitCast(m, to: Ints.self)).wrappedSum())
    }

    /// Calls `body` with each lane `j` whose bit is set in `bits`, lowest first.
    @inline(__always)
    static func forEachLane(in bits: UInt8, _ body: (Int) -> Void) {
        var rest = bits
        while rest != 0 {
            body(rest.trailingZeroBitCount)
            rest &= rest &- 1
        }
    }

    /// Lane `j`'s bit, `1 << j`, in every lane.
    @inline(__always)
    static var laneBits: Ints { Ints(1, 2, 4, 8, 16, 32, 64, 128) }
}
