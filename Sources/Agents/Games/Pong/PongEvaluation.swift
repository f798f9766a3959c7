import Gym

/// One evaluation game from the evaluated agent's point of view.
public struct PongEvalEpisode: Equatable, Sendable {
    public var index: Int
    public var match: PongMatchResult
    /// The side the evaluated agent played (alternates by episode index, so
    /// neither side's serve luck favours it).
    public var agentSide: PongSide

    public init(index: Int, match: PongMatchResult, agentSide: PongSide) {
        self.index = index; self.match = match; self.agentSide = agentSide
    }

    public var agentScore: Int { match.score(agentSide) }
    public var opponentScore: Int { match.score(agentSide.opponent) }
    /// 1 win, 0.5 draw (a truncated game with equal scores), 0 loss.
    public var outcome: Double { agentScore > opponentScore ? 1 : (agentScore == opponentScore ? 0.5 : 0) }
}

/// Summary of an evaluation.
public struct PongEvalSummary: Equatable, Sendable {
    public var episodes: Int
    public var wins: Int, draws: Int, losses: Int
    /// (wins + draws/2) / episodes, with its 95% Wilson interval.
    public var winRate: Double, winRateLow: Double, winRateHigh: Double
    public var pointsFor: Int, pointsAgainst: Int
    /// Share of all points won by the agent, with its 95% Wilson interval.
    public var pointShare: Double, pointShareLow: Double, pointShareHigh: Double
    public var meanAgentScore: Double, meanOpponentScore: Double
    public var meanLength: Double
    public var totalSteps: Int
    /// Games stopped at the step limit (`maxSteps`) before either side reached `maxScore`.
    public var truncated: Int
    /// Games played to their end (a side reached `maxScore`) and won / lost by the agent.
    public var wholeGameWins: Int, wholeGameLosses: Int
    /// Wins counted only when the game was played to its end, over all
    /// episodes (a truncated game counts as not won), with its 95% Wilson
    /// interval: the rate a "wins whole games" claim rests on.
    public var wholeGameWinRate: Double, wholeGameWinRateLow: Double, wholeGameWinRateHigh: Double
    /// Truncated games by the score when they stopped: the agent ahead,
    /// level, behind (`wins` includes the leads, `draws` the level ones).
    public var truncatedAhead: Int, truncatedLevel: Int, truncatedBehind: Int

    public init(_ results: [PongEvalEpisode]) {
        episodes = results.count
        wins = results.count { $0.outcome == 1 }
        draws = results.count { $0.outcome == 0.5 }
        losses = episodes - wins - draws
        let w = Statistics.wilson(successes: Double(wins) + Double(draws) / 2, trials: Double(episodes))
        winRate = episodes > 0 ? (Double(wins) + Double(draws) / 2) / Double(episodes) : 0
        winRateLow = w.low; winRateHigh = w.high
        pointsFor = results.reduce(0) { $0 + $1.agentScore }
        pointsAgainst = results.reduce(0) { $0 + $1.opponentScore }
        let total = Double(pointsFor + pointsAgainst)
        pointShare = total > 0 ? Double(pointsFor) / total : 0.5
        let p = Statistics.wilson(successes: Double(pointsFor), trials: total)
        pointShareLow = p.low; pointShareHigh = p.high
        meanAgentScore = Statistics.mean(results.map { Double($0.agentScore) })
        meanOpponentScore = Statistics.mean(results.map { Double($0.opponentScore) })
        meanLength = Statistics.mean(results.map { Double($0.match.steps) })
        totalSteps = results.reduce(0) { $0 + $1.match.steps }
        truncated = results.count { $0.match.end.isTruncation }
        let whole = results.filter { !$0.match.end.isTruncation }
        wholeGameWins = whole.count { $0.outcome == 1 }
        wholeGameLosses = whole.count { $0.outcome == 0 }
        wholeGameWinRate = episodes > 0 ? Double(wholeGameWins) / Double(episodes) : 0
        let ww = Statistics.wilson(successes: Double(wholeGameWins), trials: Double(episodes))
        wholeGameWinRateLow = ww.low; wholeGameWinRateHigh = ww.high
        let cut = results.filter { $0.match.end.isTruncation }
        truncatedAhead = cut.count { $0.outcome == 1 }
        truncatedLevel = cut.count { $0.outcome == 0.5 }
        truncatedBehind = cut.count { $0.outcome == 0 }
    }
}

/// Evaluates an agent against an opponent over many Pong games in parallel.
public enum PongEvaluation {
    /// Plays `episodes` games; episode `i` uses seed `Seeds.episode(runSeed, i)`
    /// and puts the agent at the bottom when `i` is even, at the top when odd.
    /// The games are played by ``Matches``, each exactly as
    /// ``PongMatch/play(config:seed:bottom:top:)`` plays it alone; the
    /// result is the same for any number of workers or `slots`.
    public static func run(config: PongConfig, agent: AgentSpec, opponent: AgentSpec,
                           episodes: Int, runSeed: UInt64, runner: ParallelRunner,
                           slots: Int = Matches.defaultSlots,
                           progress: (@Sendable () -> Void)? = nil) throws(AgentFault) -> [PongEvalEpisode] {
        let matches = try Matches.play(Pong.self, config: config, roster: [agent, opponent], count: episodes, slots: slots,
                                   runner: runner, game: { index in
            SeatedGame(seed: Seeds.episode(runSeed: runSeed, index: index), seats: index % 2 == 0 ? [0, 1] : [1, 0])
        }, progress: progress)
        return matches.enumerated().map { index, match in
            PongEvalEpisode(index: index, match: match, agentSide: index % 2 == 0 ? .bottom : .top)
        }
    }
}
