/// Running mean and variance of observation features, used to normalise a
/// policy's input: `x' = (x - mean) / std`.
///
/// Statistics are accumulated in `Double` with Chan et al.'s parallel
/// update ("Updating Formulae and a Pairwise Algorithm for Computing Sample
/// Variances", 1979), so per-episode statistics gathered on any worker merge
/// in index order into the same result. The normaliser changes only when the
/// trainer merges new statistics between iterations; during an episode and
/// during evaluation it is fixed.
public struct ObservationNormalizer: Equatable, Sendable {
    /// Samples seen.
    public private(set) var count: Double
    /// Per-feature mean.
    public private(set) var mean: [Double]
    /// Per-feature sum of squared deviations from the mean.
    public private(set) var m2: [Double]
    /// Lower bound on the standard deviation divided by: 1. The environments
    /// already scale their features to about [−1, 1]; the floor keeps a
    /// feature that rarely changes (a Breakout brick that is almost always
    /// there) from being blown up to a huge input the first time it does.
    /// So the normaliser centres every feature and shrinks only those spread
    /// wider than 1 (a small floor kept ES from learning Breakout at all).
    public static let minStd: Double = 1

    /// An empty normaliser for `features` inputs (identity until it has data).
    public init(features: Int) {
        count = 0
        mean = [Double](repeating: 0, count: features)
        m2 = [Double](repeating: 0, count: features)
    }

    /// A normaliser with given statistics (from a checkpoint).
    public init(count: Double, mean: [Double], m2: [Double]) {
        precondition(mean.count == m2.count, "mean and m2 must have the same length")
        self.count = count
        self.mean = mean
        self.m2 = m2
    }

    public var features: Int { mean.count }

    /// Per-feature standard deviation (population), at least ``minStd``;
    /// 1 while there is no data.
    public func standardDeviation(_ i: Int) -> Double {
        guard count > 1 else { return 1 }
        return max((m2[i] / count).squareRoot(), Self.minStd)
    }

    /// Merges another set of statistics (Chan et al.'s pairwise update).
    public mutating func merge(_ other: ObservationStatistics) {
        precondition(other.features == features, "feature counts differ")
        guard other.count > 0 else { return }
        let n = count + other.count
        for i in 0 ..< features {
            let otherMean = other.sum[i] / other.count
            let otherM2 = max(0, other.sumSquares[i] - other.sum[i] * otherMean)
            let delta = otherMean - mean[i]
            mean[i] += delta * other.count / n
            m2[i] += otherM2 + delta * delta * count * other.count / n
        }
        count = n
    }

    /// The affine map `x' = x * scale + shift` this normaliser applies, as
    /// `Float`s (a linear policy folds it into its weights).
    public func affine() -> (scale: [Float], shift: [Float]) {
        var scale = [Float](repeating: 1, count: features)
        var shift = [Float](repeating: 0, count: features)
        guard count > 1 else { return (scale, shift) }
        for i in 0 ..< features {
            let s = 1 / standardDeviation(i)
            scale[i] = Float(s)
            shift[i] = Float(-mean[i] * s)
        }
        return (scale, shift)
    }
}

/// Raw sums of observations from some episodes (what a worker gathers;
/// merged into an ``ObservationNormalizer`` in index order).
public struct ObservationStatistics: Equatable, Sendable {
    public var count: Double
    public var sum: [Double]
    public var sumSquares: [Double]

    public init(features: Int) {
        count = 0
        sum = [Double](repeating: 0, count: features)
        sumSquares = [Double](repeating: 0, count: features)
    }

    public var features: Int { sum.count }

    /// Adds one observation (length `features`).
    @inlinable
    public mutating func add(_ x: UnsafeBufferPointer<Float>) {
        count += 1
        sum.withUnsafeMutableBufferPointer { s in
            sumSquares.withUnsafeMutableBufferPointer { q in
                for i in 0 ..< s.count {
                    let v = Double(x[i])
                    s[i] += v
                    q[i] += v * v
                }
            }
        }
    }

    /// Adds another set of sums.
    public mutating func add(_ other: ObservationStatistics) {
        count += other.count
        for i in 0 ..< features {
            sum[i] += other.sum[i]
            sumSquares[i] += other.sumSquares[i]
        }
    }
}
