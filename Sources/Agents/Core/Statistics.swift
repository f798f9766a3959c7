import Foundation

/// Small, dependency-free statistics used by evaluation, tournaments and
/// balance checks.
public enum Statistics {
    /// Wilson score interval for a binomial proportion (Wilson 1927), at
    /// `z` standard errors (1.96 for 95%). Counts may be fractional (a draw
    /// counts half a win).
    public static func wilson(successes: Double, trials: Double, z: Double = 1.96) -> (low: Double, high: Double) {
        guard trials > 0 else { return (0, 1) }
        let p = successes / trials
        let z2 = z * z
        let denominator = 1 + z2 / trials
        let centre = (p + z2 / (2 * trials)) / denominator
        let half = z * ((p * (1 - p) / trials + z2 / (4 * trials * trials)).squareRoot()) / denominator
        return (max(0, centre - half), min(1, centre + half))
    }

    /// Mean of `values` (0 for none), summed in index order.
    public static func mean<C: Collection>(_ values: C) -> Double where C.Element == Double {
        guard !values.isEmpty else { return 0 }
        var s = 0.0
        for v in values { s += v }
        return s / Double(values.count)
    }

    /// Sample standard deviation (0 for fewer than two values).
    public static func standardDeviation<C: Collection>(_ values: C) -> Double where C.Element == Double {
        guard values.count > 1 else { return 0 }
        let m = mean(values)
        var s = 0.0
        for v in values { s += (v - m) * (v - m) }
        return (s / Double(values.count - 1)).squareRoot()
    }
}
