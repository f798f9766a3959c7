import Gym

/// Runs a Breakout balance scenario set: each scenario's agent plays its
/// episodes alone, and each metric is the mean over episodes of a
/// per-episode value (episodes are independent, so the episode is the unit):
/// | metric | per-episode value |
/// |---|---|
/// | `score` | points scored |
/// | `bricksPerLife` | bricks broken per life used (lives lost, plus the life in play when the episode ended otherwise) |
/// | `ballsLost` | balls that left the field |
/// | `episodeLength` | agent steps |
/// | `levelClearRate` | 1 if at least one wall was cleared, else 0 |
/// | `pushes` | push actions that fired |
/// | `specialActivations` | special bricks broken (tough, explosive, extra-ball, speed-up) |
/// | `watchdogRate` | 1 if the watchdog truncated the episode |
/// | `truncationRate` | 1 if the step limit truncated it |
public enum BreakoutBalance {
    public static func run(_ set: BalanceScenarioSet, config: BreakoutConfig, runner: ParallelRunner,
                           progress: (@Sendable () -> Void)? = nil) -> [BalanceScenarioResult] {
        set.scenarios.enumerated().map { s, scenario in
            let results = BreakoutDuplicate.run(config: config, agents: [scenario.a], episodes: scenario.games,
                                                seed: set.scenarioSeed(s), runner: runner, progress: progress)[0]
            return BalanceScenarioResult(name: scenario.name, a: scenario.a.text, b: nil, games: scenario.games,
                                         metrics: metrics(results))
        }
    }

    public static func metrics(_ episodes: [BreakoutEpisode]) -> [BalanceMetric] {
        func values(_ f: (BreakoutEpisode) -> Double) -> [Double] { episodes.map(f) }
        return [
            .mean("score", values { Double($0.score) }),
            .mean("bricksPerLife", values {
                Double($0.events.bricksBroken) / Double(Int($0.events.livesLost) + ($0.end == .livesExhausted ? 0 : 1))
            }),
            .mean("ballsLost", values { Double($0.events.ballsLost) }),
            .mean("episodeLength", values { Double($0.steps) }),
            .mean("levelClearRate", values { $0.events.levelsCleared > 0 ? 1 : 0 }),
            .mean("pushes", values { Double($0.events.pushes) }),
            .mean("specialActivations", values {
                let e = $0.events
                return Double(e.brokenTough + e.brokenExplosive + e.brokenExtraBall + e.brokenSpeedUp)
            }),
            .mean("watchdogRate", values { $0.end == .watchdog ? 1 : 0 }),
            .mean("truncationRate", values { $0.end == .stepLimit ? 1 : 0 }),
        ]
    }
}

/// Runs a scenario set under `rules` (normally its own; others to check a change).
public enum BalanceRun {
    public static func run(_ set: BalanceScenarioSet, rules: BalanceRules, runner: ParallelRunner,
                           progress: (@Sendable () -> Void)? = nil) -> [BalanceScenarioResult] {
        switch rules {
        case let .pong(c): PongBalance.run(set, config: c, runner: runner, progress: progress)
        case let .breakout(c): BreakoutBalance.run(set, config: c, runner: runner, progress: progress)
        }
    }
}
