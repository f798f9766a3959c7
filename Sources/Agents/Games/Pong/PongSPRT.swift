import Gym

/// Plays a Pong SPRT: candidate (agent 0) against baseline (agent 1), pair
/// after pair, until ``SPRT`` decides.
public enum PongSPRT {
    /// What the test found.
    public struct Outcome: Sendable {
        public var state: SPRT.State
        /// The games that were counted, in order (two per pair).
        public var games: [PongTournamentGame]
    }

    /// Pair `k` is played on seed `Seeds.episode(runSeed: seed, index: k)`,
    /// the candidate at the bottom in game `2k` and at the top in `2k + 1`
    /// (a two-agent ``TournamentSchedule``). Pairs are played `batch` at a
    /// time in parallel and fed to the test strictly in pair order; the test
    /// stops at the first pair where it decides, and games played past that
    /// pair are discarded, so the result does not depend on `batch` or the
    /// number of workers.
    /// - Parameters:
    ///   - recorded: games already played (by game index, from a resumed
    ///     run's journal): taken as they are, not played again; since game `g`
    ///     depends on (seed, g) alone, the test decides at the same pair.
    ///   - rules: the rules of the game seeded `s` (nil, or a nil result: `config`), e.g.
    ///     ``EpisodeRules/draw``; both games of a pair play the same rules.
    ///   - finished: each game played here, by game index, as soon as it ends (from worker threads).
    public static func run(config: PongConfig, candidate: AgentSpec, baseline: AgentSpec, test: SPRT,
                           maxPairs: Int, seed: UInt64, batch: Int, runner: ParallelRunner,
                           recorded: [Int: PongMatchResult] = [:],
                           rules: (@Sendable (UInt64) -> PongConfig?)? = nil,
                           progress: (@Sendable (SPRT.State) -> Void)? = nil,
                           finished: (@Sendable (Int, PongMatchResult) -> Void)? = nil) throws(AgentFault) -> Outcome {
        precondition(batch >= 1, "batch must be at least 1")
        let schedule = TournamentSchedule(agentCount: 2, format: .roundRobin, pairs: maxPairs, seed: seed)
        var state = SPRT.State(test: test, maxPairs: maxPairs)
        var counted: [PongTournamentGame] = []
        var nextPair = 0
        var sink: (@Sendable (Int, PongTournamentGame) -> Void)?
        if let finished { sink = { g, game in finished(g, game.result) } }
        while state.decision == nil, nextPair < maxPairs {
            let end = min(maxPairs, nextPair + batch)
            let span = 2 * nextPair ..< 2 * end
            let missing = span.filter { recorded[$0] == nil }
            let played = try PongTournament.play(config: config, agents: [candidate, baseline], schedule: schedule,
                                             games: missing, runner: runner, rules: rules, finished: sink)
            var fresh: [Int: PongMatchResult] = [:]
            for (g, game) in zip(missing, played) { fresh[g] = game.result }
            let games = span.map { g in
                guard let result = recorded[g] ?? fresh[g] else { preconditionFailure("game \(g) was neither recorded nor played") }
                return PongTournamentGame(slot: schedule.slot(g), result: result)
            }
            var k = 0
            while k + 1 < games.count, state.decision == nil {
                state.add(pairScore: games[k].outcomeA + games[k + 1].outcomeA)
                counted.append(games[k])
                counted.append(games[k + 1])
                k += 2
            }
            nextPair = end
            progress?(state)
        }
        return Outcome(state: state, games: counted)
    }
}
