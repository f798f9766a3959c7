import CBLAS

/// Matrix products whose every bit is the same on every CPU, computed by
/// OpenBLAS.
///
/// OpenBLAS picks its kernels by CPU (`OPENBLAS_CORETYPE`: Prescott,
/// Haswell, SkylakeX, Zen, …), by thread count and by size, and the
/// kernels sum a dot product in different orders, with or without fused
/// multiply-adds: a plain `cblas_sgemm` gives different last bits on
/// different machines, so training that feeds on it would diverge.
///
/// Here every product is made *error-free* before OpenBLAS sees it (the
/// splitting of Ozaki et al., "Error-free transformations of matrix
/// multiplication by using fast routines of matrix multiplication and its
/// applications", Numer. Algorithms 59, 2012):
///
/// 1. Each row `i` of `op(A)` is cut into two slices on a grid set by its
///    largest magnitude `2^eᵢ`: `hi` is the row rounded to multiples of
///    `2^(eᵢ−b)` and `lo` the remainder rounded to multiples of
///    `2^(eᵢ−2b)`, so each slice is an integer of at most `b` bits times a
///    power of two. Each column `j` of `op(B)` is cut the same way.
/// 2. With `b = ⌊(53 − ⌈log₂ k⌉) / 2⌋`, every product of two slices is an
///    integer of at most `2b` bits on the grid `2^(eᵢ+fⱼ−…)` shared by
///    its whole dot product, and every partial sum of `k` of them fits in
///    a `Double`'s 53 bits. So `cblas_dgemm` computes `hi·hi`, `hi·lo` and
///    `lo·hi` *exactly*, whatever order, blocking, vector width, FMA use or
///    thread count its kernel chooses: there is no rounding left for a
///    kernel to change.
/// 3. The three exact products are added in this code, in a fixed order,
///    and rounded to `Float` once.
///
/// The slices keep `2b` bits of each element relative to its row's (or
/// column's) largest one (36 bits for `k` up to 2¹⁷, more for smaller
/// `k`): more than a `Float`'s 24 for every element within `2^12` of its
/// row's largest, so the result is at least as accurate as `cblas_sgemm`'s.
/// The truncation of smaller elements is itself a fixed function of the
/// inputs, never of the CPU. Inputs must be finite.
///
/// Cost: three `dgemm` calls instead of one `sgemm`, plus the splitting
/// (`O(mk + kn)`), for the trainers' gradient products, which run once per
/// iteration or episode, never per step.
public enum ExactProduct {
    /// `C = op(A)·op(B)`, `C` being `m × n` row-major with leading dimension
    /// `ldc`, every entry the same on every CPU.
    ///
    /// - Parameters:
    ///   - a: row-major; `op(A)` is `m × k`: `A` itself (`m × k`, leading
    ///     dimension `lda`) or, with `transposeA`, the transpose of `A`
    ///     (`k × m`, leading dimension `lda`).
    ///   - b: row-major; `op(B)` is `k × n`: `B` itself (`k × n`) or, with
    ///     `transposeB`, the transpose of `B` (`n × k`).
    ///   - scale: every entry of the result is `Float(scale · (op(A)·op(B))ᵢⱼ)`,
    ///     one rounding.
    public static func multiply(m: Int, n: Int, k: Int,
                                a: UnsafePointer<Float>, lda: Int, transposeA: Bool,
                                b: UnsafePointer<Float>, ldb: Int, transposeB: Bool,
                                scale: Double = 1,
                                into c: UnsafeMutablePointer<Float>, ldc: Int) {
        precondition(m >= 1 && n >= 1 && k >= 0, "product shapes must be positive")
        guard k > 0 else {
            for i in 0 ..< m { for j in 0 ..< n { c[i * ldc + j] = 0 } }
            return
        }
        let (hh, hl, lh) = parts(m: m, n: n, k: k, a: a, lda: lda, transposeA: transposeA,
                                 b: b, ldb: ldb, transposeB: transposeB)
        for i in 0 ..< m {
            for j in 0 ..< n {
                let r = i * n + j
                c[i * ldc + j] = Float(scale * ((hh[r] + hl[r]) + lh[r]))
            }
        }
    }

    /// The three exact products `hi·hi`, `hi·lo` and `lo·hi` (each `m × n`,
    /// row-major) of `op(A)`'s row slices and `op(B)`'s column slices.
    static func parts(m: Int, n: Int, k: Int,
                      a: UnsafePointer<Float>, lda: Int, transposeA: Bool,
                      b: UnsafePointer<Float>, ldb: Int, transposeB: Bool) -> ([Double], [Double], [Double]) {
        let bits = sliceBits(k: k)
        // op(A) as m × k rows, op(B) as n × k rows (its columns): each sliced
        // along k with its own grid.
        let aRows = Slices(rows: m, length: k, bits: bits) { i, p in transposeA ? a[p * lda + i] : a[i * lda + p] }
        let bColumns = Slices(rows: n, length: k, bits: bits) { j, p in transposeB ? b[j * ldb + p] : b[p * ldb + j] }
        var hh = [Double](repeating: 0, count: m * n)
        var hl = hh, lh = hh
        exactProduct(aRows.hi, bColumns.hi, m: m, n: n, k: k, into: &hh)
        exactProduct(aRows.hi, bColumns.lo, m: m, n: n, k: k, into: &hl)
        exactProduct(aRows.lo, bColumns.hi, m: m, n: n, k: k, into: &lh)
        return (hh, hl, lh)
    }

    /// Bits per slice for dot products of length `k`: `2b + ⌈log₂ k⌉ ≤ 53`,
    /// at most 26 (a `Float`'s 24 bits fit in one slice then).
    static func sliceBits(k: Int) -> Int {
        let log2k = k <= 1 ? 0 : Int.bitWidth - (k - 1).leadingZeroBitCount
        return min(26, (53 - log2k) / 2)
    }

    /// `R = X·Yᵀ` for `X` `m × k` and `Y` `n × k`, both row-major: exact,
    /// because the slices make every partial sum representable.
    private static func exactProduct(_ x: [Double], _ y: [Double], m: Int, n: Int, k: Int, into r: inout [Double]) {
        x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp in
                r.withUnsafeMutableBufferPointer { rp in
                    guard let xb = xp.baseAddress, let yb = yp.baseAddress, let rb = rp.baseAddress else { return }
                    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k),
                                1, xb, Int32(k), yb, Int32(k), 0, rb, Int32(n))
                }
            }
        }
    }

    /// `rows` vectors of `length` elements, each split into a high and a low
    /// slice on a grid set by the vector's largest magnitude.
    struct Slices {
        var hi: [Double]
        var lo: [Double]

        init(rows: Int, length: Int, bits: Int, element: (Int, Int) -> Float) {
            hi = [Double](repeating: 0, count: rows * length)
            lo = hi
            for r in 0 ..< rows {
                var largest: Double = 0
                for p in 0 ..< length {
                    let v = Double(element(r, p))
                    precondition(v.isFinite, "exact products need finite inputs")
                    largest = max(largest, abs(v))
                }
                guard largest > 0 else { continue }
                // largest < 2^e; the slices' units are 2^(e−b) and 2^(e−2b).
                let e = Int(largest.exponent) + 1
                let hiUnit = Double(sign: .plus, exponent: e - bits, significand: 1)
                let loUnit = Double(sign: .plus, exponent: e - 2 * bits, significand: 1)
                for p in 0 ..< length {
                    let v = Double(element(r, p))
                    let h = (v / hiUnit).rounded() * hiUnit
                    hi[r * length + p] = h
                    lo[r * length + p] = ((v - h) / loUnit).rounded() * loUnit
                }
            }
        }
    }
}
