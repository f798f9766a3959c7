import Foundation
import Gym

extension Xoshiro256 {
    /// A standard normal draw (mean 0, variance 1) by the Box–Muller
    /// transform (Box & Muller, "A Note on the Generation of Random Normal
    /// Deviates", 1958), from two 53-bit uniform draws of this generator.
    ///
    /// Deterministic: the same generator state gives the same value on every
    /// run (Foundation's `log`, `cos` and `sqrt` on one platform). Only the
    /// cosine branch is used, so each call consumes exactly two words and a
    /// generator's draws never depend on how many were taken before a
    /// snapshot.
    @inlinable
    public mutating func nextGaussian() -> Float {
        // u1 in (0, 1] so log(u1) is finite; u2 in [0, 1).
        let u1 = Double((next() >> 11) + 1) * 0x1p-53
        let u2 = Double(next() >> 11) * 0x1p-53
        return Float((-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2))
    }

    /// Fills `buffer` with standard normal draws, in index order.
    @inlinable
    public mutating func fillGaussian(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices { buffer[i] = nextGaussian() }
    }
}
