/// Rows from lanes: how both batches store an observation entry computed
/// for eight games at once (`SIMD8<Float>`, lane `g` from game `g`) into the
/// games' rows, four entries of four games at a time, one 16-byte store per
/// row.
///
/// Each row is built from lane `g` of the four vectors by element: the
/// compiler forms it with a few register shuffles. (The library's
/// `lowHalf`/`evenHalf`/`oddHalf` accessors were left as out-of-line calls
/// inside large callers, each going through memory.)
enum LaneTranspose {
    /// Stores lane `g` of `a`, `b`, `c`, `d` as the four floats at
    /// `out + g × stride`, for each of the eight lanes.
    @inline(always)
    static func storeColumns(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>,
                             into out: UnsafeMutablePointer<Float>, stride: Int) {
        var p = out
        store4(SIMD4(a[0], b[0], c[0], d[0]), p); p += stride
        store4(SIMD4(a[1], b[1], c[1], d[1]), p); p += stride
        store4(SIMD4(a[2], b[2], c[2], d[2]), p); p += stride
        store4(SIMD4(a[3], b[3], c[3], d[3]), p); p += stride
        store4(SIMD4(a[4], b[4], c[4], d[4]), p); p += stride
        store4(SIMD4(a[5], b[5], c[5], d[5]), p); p += stride
        store4(SIMD4(a[6], b[6], c[6], d[6]), p); p += stride
        store4(SIMD4(a[7], b[7], c[7], d[7]), p)
    }

    @inline(always)
    static func store4(_ v: SIMD4<Float>, _ out: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD4<Float>.self)
    }
}
