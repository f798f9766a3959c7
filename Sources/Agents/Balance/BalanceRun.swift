import Gym

/// One scenario's measured metrics.
public struct BalanceScenarioResult: Equatable, Sendable {
    public var name: String
    public var a: String
    /// Pong's second agent (nil in Breakout).
    public var b: String?
    public var games: Int
    public var metrics: [BalanceMetric]

    public init(name: String, a: String, b: String?, games: Int, metrics: [BalanceMetric]) {
        self.name = name; self.a = a; self.b = b; self.games = games; self.metrics = metrics
    }
}

/// Runs a scenario set under `rules` (normally its own; others to check a change).
public enum BalanceRun {
    public static func run(_ set: BalanceScenarioSet, rules: BalanceRules, runner: ParallelRunner,
                           progress: (@Sendable () -> Void)? = nil) throws(AgentFault) -> [BalanceScenarioResult] {
        switch rules {
        case let .pong(c): try PongBalance.run(set, config: c, runner: runner, progress: progress)
        case let .breakout(c): try BreakoutBalance.run(set, config: c, runner: runner, progress: progress)
        }
    }
}
