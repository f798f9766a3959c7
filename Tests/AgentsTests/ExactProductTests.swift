import CBLAS
import Foundation
import Testing
import Gym
@testable import Agents

/// ``ExactProduct``: every slice product OpenBLAS computes is exact, so no
/// summation order, thread count or batch can change a bit.
@Suite(.serialized) struct ExactProductTests {
    /// A matrix of seeded values whose magnitudes span `2^-spread ... 2^spread`
    /// (the hard case for exactness: small elements beside large ones).
    static func matrix(_ count: Int, spread: Int, seed: UInt64) -> [Float] {
        var rng = Xoshiro256(seed: seed)
        return (0 ..< count).map { _ in
            let e = Int(rng.next() % UInt64(2 * spread + 1)) - spread
            return rng.nextGaussian() * Float(sign: .plus, exponent: e, significand: 1)
        }
    }

    static func product(_ a: [Float], _ b: [Float], m: Int, n: Int, k: Int, transposeA: Bool = false,
                        transposeB: Bool = false, scale: Double = 1) -> [Float] {
        var c = [Float](repeating: .nan, count: m * n)
        a.withUnsafeBufferPointer { ap in
            b.withUnsafeBufferPointer { bp in
                c.withUnsafeMutableBufferPointer { cp in
                    ExactProduct.multiply(m: m, n: n, k: k, a: ap.baseAddress!, lda: transposeA ? m : k, transposeA: transposeA,
                                          b: bp.baseAddress!, ldb: transposeB ? k : n, transposeB: transposeB,
                                          scale: scale, into: cp.baseAddress!, ldc: n)
                }
            }
        }
        return c
    }

    /// The three slice products by a plain loop summing in reverse order.
    static func reverseOrderParts(_ a: [Float], _ b: [Float], m: Int, n: Int, k: Int) -> [[Double]] {
        let bits = ExactProduct.sliceBits(k: k)
        let rows = ExactProduct.Slices(rows: m, length: k, bits: bits) { i, p in a[i * k + p] }
        let columns = ExactProduct.Slices(rows: n, length: k, bits: bits) { j, p in b[p * n + j] }
        return [(rows.hi, columns.hi), (rows.hi, columns.lo), (rows.lo, columns.hi)].map { x, y in
            var c = [Double](repeating: 0, count: m * n)
            for i in 0 ..< m {
                for j in 0 ..< n {
                    for p in stride(from: k - 1, through: 0, by: -1) { c[i * n + j] += x[i * k + p] * y[j * k + p] }
                }
            }
            return c
        }
    }

    static func openBLASParts(_ a: [Float], _ b: [Float], m: Int, n: Int, k: Int) -> [[Double]] {
        a.withUnsafeBufferPointer { ap in
            b.withUnsafeBufferPointer { bp in
                let (hh, hl, lh) = ExactProduct.parts(m: m, n: n, k: k, a: ap.baseAddress!, lda: k, transposeA: false,
                                                      b: bp.baseAddress!, ldb: n, transposeB: false)
                return [hh, hl, lh]
            }
        }
    }

    /// OpenBLAS's blocked, vectorised sums and a plain loop summing the other
    /// way round agree to the last bit of every Double: each part is exact.
    @Test(arguments: [(3, 16, 5), (70, 3, 1), (4, 70, 4096), (1, 270, 512), (3, 89, 100_000)])
    func slicedProductsAreExact(shape: (m: Int, n: Int, k: Int)) {
        let (m, n, k) = shape
        // Large elements everywhere, so the partial sums use every bit the slices allow.
        let a = Self.matrix(m * k, spread: 1, seed: UInt64(m * 31 + k))
        let b = Self.matrix(k * n, spread: 1, seed: UInt64(n * 17 + k))
        let blas = Self.openBLASParts(a, b, m: m, n: n, k: k), loop = Self.reverseOrderParts(a, b, m: m, n: n, k: k)
        let differing = zip(blas, loop).map { x, y in zip(x, y).filter { $0 != $1 }.count }
        #expect(differing == [0, 0, 0], "entries differing in hi·hi, hi·lo, lo·hi")
    }

    @Test func threadCountChangesNoBit() {
        let (m, n, k) = (64, 48, 20_000)
        let a = Self.matrix(m * k, spread: 10, seed: 1), b = Self.matrix(k * n, spread: 10, seed: 2)
        openblas_set_num_threads(1)
        let one = Self.product(a, b, m: m, n: n, k: k)
        openblas_set_num_threads(2)
        let two = Self.product(a, b, m: m, n: n, k: k)
        openblas_set_num_threads(1)
        #expect(one == two)
    }

    @Test func aRowDoesNotDependOnItsBatch() {
        let (n, k) = (3, 40)
        let a = Self.matrix(9 * k, spread: 8, seed: 3), b = Self.matrix(k * n, spread: 8, seed: 4)
        let all = Self.product(a, b, m: 9, n: n, k: k)
        for row in 0 ..< 9 {
            let alone = Self.product(Array(a[row * k ..< (row + 1) * k]), b, m: 1, n: n, k: k)
            #expect(Array(all[row * n ..< (row + 1) * n]) == alone, "row \(row)")
        }
    }

    @Test func transposesAndScaleMatchThePlainProduct() {
        let (m, n, k) = (5, 7, 300)
        let a = Self.matrix(m * k, spread: 4, seed: 5), b = Self.matrix(k * n, spread: 4, seed: 6)
        var at = [Float](repeating: 0, count: k * m), bt = [Float](repeating: 0, count: n * k)
        for i in 0 ..< m { for p in 0 ..< k { at[p * m + i] = a[i * k + p] } }
        for p in 0 ..< k { for j in 0 ..< n { bt[j * k + p] = b[p * n + j] } }
        let plain = Self.product(a, b, m: m, n: n, k: k, scale: 0.25)
        #expect(Self.product(at, bt, m: m, n: n, k: k, transposeA: true, transposeB: true, scale: 0.25) == plain)
        // Against a double-precision loop: as close as a Float allows.
        for i in 0 ..< m {
            for j in 0 ..< n {
                var s: Double = 0, magnitude: Double = 0
                for p in 0 ..< k {
                    s += Double(a[i * k + p]) * Double(b[p * n + j])
                    magnitude += abs(Double(a[i * k + p]) * Double(b[p * n + j]))
                }
                #expect(abs(Double(plain[i * n + j]) - 0.25 * s) <= 1e-6 * 0.25 * magnitude)
            }
        }
    }

    @Test func sliceBitsKeepEveryPartialSumInADouble() {
        for k in [1, 2, 3, 1000, 1 << 17, (1 << 17) + 1, 1 << 30] {
            let b = ExactProduct.sliceBits(k: k)
            #expect(2 * b + Int(ceil(log2(Double(k)))) <= 53 && b <= 26, "k \(k): \(b) bits")
        }
        #expect(ExactProduct.sliceBits(k: 100_000) == 18)
    }
}
