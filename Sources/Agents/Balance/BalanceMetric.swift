/// One balance metric of one scenario: the mean of a per-unit quantity over
/// `n` units, with its sample standard deviation.
///
/// The unit is a *pair* of side-swapped games on one seed, not a game: the
/// two games of a pair share their serves (and in a mirror scenario are the
/// same game played twice), so treating them as independent would overstate
/// the evidence. Rates (a win rate, the receiver's share of points) are
/// means of per-pair rates.
public struct BalanceMetric: Equatable, Sendable {
    public var name: String
    public var value: Double
    /// Units (pairs) measured.
    public var n: Double
    /// Sample standard deviation of the per-unit values.
    public var sd: Double

    public init(name: String, value: Double, n: Double, sd: Double) {
        self.name = name; self.value = value; self.n = n; self.sd = sd
    }

    /// The metric of per-unit `values` (summed in order).
    public static func mean(_ name: String, _ values: [Double]) -> BalanceMetric {
        BalanceMetric(name: name, value: Statistics.mean(values), n: Double(values.count),
                      sd: Statistics.standardDeviation(values))
    }
}
