import Gym

/// Runs a Pong balance scenario set and measures its metrics.
///
/// Metrics per scenario (agents `a` and `b`), each the mean over pairs of
/// side-swapped games of a per-pair value (see ``BalanceMetric``):
/// | metric | per-pair value |
/// |---|---|
/// | `receiverWinRate` | share of points won by the side the serve headed to (serve-side balance; 0.5 neutral) |
/// | `rallyLength` | paddle hits per point |
/// | `pointsPerGame` | points played per game |
/// | `gameLength` | agent steps per game |
/// | `pointSpeed` | ball speed level (units/frame) when a point was scored, per point |
/// | `winRateA` | agent `a`'s score per game (win 1, draw ½): the win rate at the scenario's skill gap |
/// | `truncationRate` | share of games that hit the step limit |
/// Per-point values skip a pair without points.
public enum PongBalance {
    /// Plays every scenario of `set` under `config` (normally `set.config`;
    /// a different config is how a rules change is checked).
    public static func run(_ set: BalanceScenarioSet, config: PongConfig, runner: ParallelRunner,
                           progress: (@Sendable () -> Void)? = nil) throws(AgentFault) -> [BalanceScenarioResult] {
        // Every scenario's games in one run (``BalanceGames``), each as its
        // tournament schedule seats it (``PongTournament/play(config:agents:schedule:games:runner:progress:rules:finished:)``).
        let schedules = set.scenarios.indices.map { s in
            TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: set.scenarios[s].games / 2,
                               seed: set.scenarioSeed(s))
        }
        var games: [(seed: UInt64, seats: [AgentSpec])] = []
        for (scenario, schedule) in zip(set.scenarios, schedules) {
            let specs = [scenario.a, scenario.b ?? scenario.a]
            for g in 0 ..< schedule.gameCount {
                let slot = schedule.slot(g)
                games.append((schedule.pairSeed(slot.pair), slot.swapped ? [specs[1], specs[0]] : specs))
            }
        }
        let records = try BalanceGames.play(Pong.self, config: config, games: games, runner: runner, progress: progress)
        var out: [BalanceScenarioResult] = []
        var first = 0
        for (scenario, schedule) in zip(set.scenarios, schedules) {
            let played = (0 ..< schedule.gameCount).map { g in
                PongTournamentGame(slot: schedule.slot(g), result: records[first + g])
            }
            first += schedule.gameCount
            out.append(BalanceScenarioResult(name: scenario.name, a: scenario.a.text, b: (scenario.b ?? scenario.a).text,
                                             games: scenario.games, metrics: metrics(played)))
        }
        return out
    }

    /// The metrics of a scenario's games (game order: pair k is games 2k, 2k + 1).
    public static func metrics(_ games: [PongTournamentGame]) -> [BalanceMetric] {
        var receiver: [Double] = [], rally: [Double] = [], points: [Double] = [], length: [Double] = []
        var speed: [Double] = [], winA: [Double] = [], truncated: [Double] = []
        var k = 0
        while k + 1 < games.count {
            let pair = [games[k], games[k + 1]]
            k += 2
            var pts = 0, rec = 0, hits = 0, steps = 0, trunc = 0
            var speedSum = 0.0, score = 0.0
            for g in pair {
                let r = g.result
                pts += r.points; rec += r.receiverPoints; hits += r.hitsBottom + r.hitsTop; steps += r.steps
                speedSum += r.pointSpeedSum
                score += g.outcomeA
                if r.end.isTruncation { trunc += 1 }
            }
            points.append(Double(pts) / 2)
            length.append(Double(steps) / 2)
            winA.append(score / 2)
            truncated.append(Double(trunc) / 2)
            if pts > 0 {
                receiver.append(Double(rec) / Double(pts))
                rally.append(Double(hits) / Double(pts))
                speed.append(speedSum / Double(pts))
            }
        }
        return [
            .mean("receiverWinRate", receiver), .mean("rallyLength", rally), .mean("pointsPerGame", points),
            .mean("gameLength", length), .mean("pointSpeed", speed), .mean("winRateA", winA),
            .mean("truncationRate", truncated),
        ]
    }
}
