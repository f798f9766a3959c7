import Foundation

/// Compares a re-run of a scenario set with its baseline, metric by metric.
///
/// Each metric is a mean over pairs of games (``BalanceMetric``) and gets a
/// two-sided Welch two-sample z test at level `alpha` (from the scenario
/// file, default 0.001, critical |z| = 3.29):
/// `z = (m₂ − m₁) / √(s₁²/n₁ + s₂²/n₂)` — the normal approximation, fair
/// for the ≥ 50 pairs the shipped scenarios play. When the standard error
/// is 0 (e.g. no truncation in either run) any difference counts as a
/// change. Both runs use the same seeds, so under unchanged rules they are
/// bit-identical (verdict `identical`); after a rules change the games
/// diverge and the test asks whether a metric moved by more than the
/// games' own spread explains. With alpha 0.001 per metric and
/// 7 metrics × 4 scenarios, a change that moves nothing is flagged by
/// chance in at most about 3% of checks (Bonferroni).
public struct BalanceCheck: Sendable {
    public enum Verdict: String, Sendable {
        /// Bit-identical to the baseline.
        case identical
        /// Different, within the statistical tolerance.
        case ok
        /// Moved beyond the tolerance.
        case changed = "CHANGED"
    }

    public struct Row: Sendable {
        public var scenario: String
        public var metric: String
        public var baseline: Double
        public var current: Double
        public var z: Double
        public var verdict: Verdict
        public var difference: Double { current - baseline }
    }

    public var alpha: Double
    public var critical: Double { Normal.quantile(1 - alpha / 2) }

    public init(alpha: Double) { self.alpha = alpha }

    /// One row per metric, in the baseline's order.
    public func compare(baseline: [BalanceScenarioResult], current: [BalanceScenarioResult]) -> [Row] {
        var rows: [Row] = []
        for (b, c) in zip(baseline, current) {
            for m in b.metrics {
                guard let n = c.metrics.first(where: { $0.name == m.name }) else { continue }
                let z = BalanceCheck.z(m, n)
                let verdict: Verdict = m.value == n.value && m.n == n.n && m.sd == n.sd ? .identical
                    : (abs(z) <= critical ? .ok : .changed)
                rows.append(Row(scenario: b.name, metric: m.name, baseline: m.value, current: n.value, z: z, verdict: verdict))
            }
        }
        return rows
    }

    /// The z statistic of `current` against `baseline` (±infinity for a
    /// difference with zero standard error).
    public static func z(_ baseline: BalanceMetric, _ current: BalanceMetric) -> Double {
        let d = current.value - baseline.value
        guard baseline.n > 0, current.n > 0 else { return d == 0 ? 0 : .infinity }
        let variance = baseline.sd * baseline.sd / baseline.n + current.sd * current.sd / current.n
        guard variance > 0 else { return d == 0 ? 0 : (d > 0 ? .infinity : -.infinity) }
        return d / variance.squareRoot()
    }
}
