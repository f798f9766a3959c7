/// Rows from lanes: how both batches store an observation entry computed
/// for eight games at once (`SIMD8<Float>`, lane `g` from game `g`) into the
/// games' rows, four entries of four games at a time, one 16-byte store per
/// row.
///
/// The transpose is the classic two-stage one: the four vectors are
/// interleaved by pairs of entries within each 128-bit half (lanes 0, 1, 4,
/// 5 of `a` with those of `b`, and so on), then each row is two such pairs
/// taken as 64-bit elements. The second stage reads the pairs as
/// `SIMD4<UInt64>`, so that the two stages stay two shuffles per row
/// (docs/throughput.md). Only moves: the stored floats are the lanes'
/// bit patterns.
enum LaneTranspose {
    /// Stores lane `g` of `a`, `b`, `c`, `d` as the four floats at
    /// `out + g × stride`, for each of the eight lanes.
    @inline(always)
    static func storeColumns(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>,
                             into out: UnsafeMutablePointer<Float>, stride: Int) {
        // Element k of ab01 is (a, b) of lane k (lanes 0, 1, 4, 5); of ab23,
        // of lanes 2, 3, 6, 7; likewise cd01 and cd23.
        let ab01 = pairs(SIMD8(a[0], b[0], a[1], b[1], a[4], b[4], a[5], b[5]))
        let ab23 = pairs(SIMD8(a[2], b[2], a[3], b[3], a[6], b[6], a[7], b[7]))
        let cd01 = pairs(SIMD8(c[0], d[0], c[1], d[1], c[4], d[4], c[5], d[5]))
        let cd23 = pairs(SIMD8(c[2], d[2], c[3], d[3], c[6], d[6], c[7], d[7]))
        var p = out
        store(SIMD2(ab01[0], cd01[0]), p); p += stride
        store(SIMD2(ab01[1], cd01[1]), p); p += stride
        store(SIMD2(ab23[0], cd23[0]), p); p += stride
        store(SIMD2(ab23[1], cd23[1]), p); p += stride
        store(SIMD2(ab01[2], cd01[2]), p); p += stride
        store(SIMD2(ab01[3], cd01[3]), p); p += stride
        store(SIMD2(ab23[2], cd23[2]), p); p += stride
        store(SIMD2(ab23[3], cd23[3]), p)
    }

    /// Eight floats as four pairs (the same bits).
    @inline(always)
    static func pairs(_ v: SIMD8<Float>) -> SIMD4<UInt64> {
        unsafeBitCast(v, to: SIMD4<UInt64>.self)
    }

    /// Two pairs as the four floats at `out`.
    @inline(always)
    static func store(_ v: SIMD2<UInt64>, _ out: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD2<UInt64>.self)
    }
}
