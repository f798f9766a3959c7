import Gym

/// One game of a Pong tournament: where it sits in the schedule, who played
/// which side, and the full game record.
public struct PongTournamentGame: Equatable, Sendable {
    public var slot: TournamentSchedule.Slot
    public var result: PongMatchResult

    public init(slot: TournamentSchedule.Slot, result: PongMatchResult) {
        self.slot = slot; self.result = result
    }

    /// The agent index that played the bottom side.
    public var bottomAgent: Int { slot.swapped ? slot.b : slot.a }
    /// The agent index that played the top side.
    public var topAgent: Int { slot.swapped ? slot.a : slot.b }
    /// The side agent `a` of the pairing played.
    public var sideOfA: PongSide { slot.swapped ? .top : .bottom }
    public var scoreA: Int { result.score(sideOfA) }
    public var scoreB: Int { result.score(sideOfA.opponent) }
    /// Agent `a`'s result: 1 win, 0.5 draw (a truncated game with equal scores), 0 loss.
    public var outcomeA: Double { scoreA > scoreB ? 1 : (scoreA == scoreB ? 0.5 : 0) }
}

/// Plays a Pong tournament (round-robin or gauntlet) in parallel.
public enum PongTournament {
    /// Games each worker steps together: a tournament's games are many,
    /// and its trackers read the batch's state rather than rows (one group
    /// for the roster, ``PongTrackerSeats``), so more games than
    /// ``Matches/defaultSlots`` share each step's fixed costs (the slot
    /// engine's pass over its slots, each member's call). The results do
    /// not depend on it.
    static let slots = 64

    /// Plays every game of `schedule` between `agents` under `config`.
    ///
    /// Game `g` is played on its pair's seed exactly as
    /// ``PongMatch/play(config:seed:bottom:top:)`` plays it (batched by
    /// ``Matches``), so any game can be replayed from (config, seed,
    /// bottom spec, top spec) alone. The results are by game index, identical
    /// for any number of workers. A `linear` spec must have passed ``Pong/check(_:config:)``.
    public static func run(config: PongConfig, agents: [AgentSpec], schedule: TournamentSchedule,
                           runner: ParallelRunner, progress: (@Sendable () -> Void)? = nil) throws(AgentFault)
        -> [PongTournamentGame] {
        try play(config: config, agents: agents, schedule: schedule, games: 0 ..< schedule.gameCount,
             runner: runner, progress: progress)
    }

    /// Plays the games `games` of `schedule` (a slice, for sequential tests
    /// that play batch by batch); results in game order.
    public static func play(config: PongConfig, agents: [AgentSpec], schedule: TournamentSchedule,
                            games: Range<Int>, runner: ParallelRunner,
                            progress: (@Sendable () -> Void)? = nil,
                            rules: (@Sendable (UInt64) -> PongConfig?)? = nil) throws(AgentFault) -> [PongTournamentGame] {
        try play(config: config, agents: agents, schedule: schedule, games: Array(games), runner: runner,
                 progress: progress, rules: rules)
    }

    /// Plays the games of `schedule` listed in `games` (global indices, any
    /// subset: a shard, or what a resumed run has not recorded yet); results
    /// in the list's order. `finished` gets each game's global index and
    /// game as soon as it ends, from worker threads; `rules` gives the rules
    /// of the game seeded `s` (nil, or a nil result: `config`).
    public static func play(config: PongConfig, agents: [AgentSpec], schedule: TournamentSchedule,
                            games: [Int], runner: ParallelRunner,
                            progress: (@Sendable () -> Void)? = nil,
                            rules: (@Sendable (UInt64) -> PongConfig?)? = nil,
                            finished: (@Sendable (Int, PongTournamentGame) -> Void)? = nil) throws(AgentFault)
        -> [PongTournamentGame] {
        precondition(agents.count == schedule.agentCount, "one spec per scheduled agent")
        var sink: (@Sendable (Int, PongMatchResult) -> Void)?
        if let finished {
            sink = { offset, result in
                let g = games[offset]
                finished(g, PongTournamentGame(slot: schedule.slot(g), result: result))
            }
        }
        let seat: @Sendable (Int) -> SeatedGame = { offset in
            let slot = schedule.slot(games[offset])
            return SeatedGame(seed: schedule.pairSeed(slot.pair), seats: slot.swapped ? [slot.b, slot.a] : [slot.a, slot.b])
        }
        let matches = try Matches.play(Pong.self, config: config, roster: agents, count: games.count, slots: slots, runner: runner,
                                   game: seat, progress: progress, rules: rules, finished: sink)
        return matches.enumerated().map { offset, result in
            PongTournamentGame(slot: schedule.slot(games[offset]), result: result)
        }
    }

    /// The tournament's results as per-pairing pair scores (agent `a`'s
    /// points over the two side-swapped games of each pair, 0 ... 2).
    public static func outcomes(_ games: [PongTournamentGame], schedule: TournamentSchedule) -> PairwiseOutcomes {
        var outcomes = PairwiseOutcomes(agentCount: schedule.agentCount, gamesPerUnit: 2)
        for (p, pairing) in schedule.pairings.enumerated() {
            var units = [Double](repeating: 0, count: schedule.pairs)
            var wdl = (w: 0, d: 0, l: 0)
            for game in games where game.slot.pairing == p {
                let o = game.outcomeA
                units[game.slot.pair] += o
                if o == 1 { wdl.w += 1 } else if o == 0.5 { wdl.d += 1 } else { wdl.l += 1 }
            }
            outcomes.add(a: pairing.a, b: pairing.b, unitScores: units, wins: wdl.w, draws: wdl.d, losses: wdl.l)
        }
        return outcomes
    }
}
