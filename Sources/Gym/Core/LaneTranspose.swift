/// Rows from lanes: how both batches store an observation entry computed
/// for eight games at once (`SIMD8<Float>`, lane `g` from game `g`) into the
/// games' rows, four entries of four games at a time by a 4 × 4 transpose
/// in registers (two rounds of even/odd interleaves: shuffles, no lane
/// extracts), then one 16-byte store per row.
enum LaneTranspose {
    /// Stores lane `g` of `a`, `b`, `c`, `d` as the four floats at
    /// `out + g × stride`, for each of the eight lanes.
    @inline(always)
    static func storeColumns(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>,
                             into out: UnsafeMutablePointer<Float>, stride: Int) {
        transposeStore(a.lowHalf, b.lowHalf, c.lowHalf, d.lowHalf, into: out, stride: stride)
        transposeStore(a.highHalf, b.highHalf, c.highHalf, d.highHalf, into: out + 4 * stride, stride: stride)
    }

    /// Stores `(a[g], b[g], c[g], d[g])` at `out + g × stride` for g in 0 ..< 4.
    @inline(always)
    static func transposeStore(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>,
                               into out: UnsafeMutablePointer<Float>, stride: Int) {
        // ab = (a0, a1, a2, a3, b0, b1, b2, b3): its even half (a0, a2, b0, b2), its odd half (a1, a3, b1, b3).
        let ab = SIMD8(lowHalf: a, highHalf: b), cd = SIMD8(lowHalf: c, highHalf: d)
        let even = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)  // a0 a2 b0 b2 c0 c2 d0 d2
        let odd = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)     // a1 a3 b1 b3 c1 c3 d1 d3
        store4(even.evenHalf, out)                 // a0 b0 c0 d0
        store4(odd.evenHalf, out + stride)         // a1 b1 c1 d1
        store4(even.oddHalf, out + 2 * stride)     // a2 b2 c2 d2
        store4(odd.oddHalf, out + 3 * stride)      // a3 b3 c3 d3
    }

    @inline(always)
    static func store4(_ v: SIMD4<Float>, _ out: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(out).storeBytes(of: v, as: SIMD4<Float>.self)
    }
}
