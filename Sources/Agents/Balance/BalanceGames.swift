import Gym

/// Every game of a scenario set, played in one run of the slot engine per
/// kind of roster.
///
/// A game is a pure function of (rules, seed, the spec in each seat)
/// (``Matches``: each seat's agent starts from `Seeds.agent(seed, seat:)`),
/// so the games of many scenarios can share the engine's slots, and a game
/// listed twice (a mirror scenario's side-swapped pair: the same specs on
/// the same seed) is played once and its record given to both. The games
/// whose seats are all trackers play in one run, the others in another: a
/// roster of trackers only is seated together
/// (``PlayableGame/makeBatchAgents(_:context:)``), so mixing in another kind
/// of agent would seat every tracker alone. Few runs instead of one per
/// scenario: the slots stay busy until a run's last games, not every scenario's.
enum BalanceGames {
    /// The records of `games` (each its seed and the spec in each seat),
    /// in order, under `config`; `progress` ticks once per listed game.
    static func play<G: PlayableGame>(_: G.Type, config: G.Config, games: [(seed: UInt64, seats: [AgentSpec])],
                                      runner: ParallelRunner, progress: (@Sendable () -> Void)? = nil)
        throws(AgentFault) -> [G.Record] {
        func trackersOnly(_ seats: [AgentSpec]) -> Bool {
            seats.allSatisfy { if case .tracker = $0.kind { true } else { false } }
        }
        var records = [G.Record?](repeating: nil, count: games.count)
        for trackers in [true, false] {
            let part = games.indices.filter { trackersOnly(games[$0].seats) == trackers }
            guard !part.isEmpty else { continue }
            let played = try playTogether(G.self, config: config, games: part.map { games[$0] }, runner: runner,
                                          progress: progress)
            for (k, g) in part.enumerated() { records[g] = played[k] }
        }
        return records.map { record in
            guard let record else { preconditionFailure("every game is in one part") }
            return record
        }
    }

    /// ``play(_:config:games:runner:progress:)`` in one run of the slot engine.
    private static func playTogether<G: PlayableGame>(_: G.Type, config: G.Config,
                                                      games: [(seed: UInt64, seats: [AgentSpec])],
                                                      runner: ParallelRunner, progress: (@Sendable () -> Void)?)
        throws(AgentFault) -> [G.Record] {
        let plan = Plan(games)
        var copies = [Int](repeating: 0, count: plan.unique.count)
        for u in plan.played { copies[u] += 1 }
        let counts = copies, seated = plan.unique
        var finished: (@Sendable (Int, G.Record) -> Void)?
        if let progress { finished = { u, _ in for _ in 0 ..< counts[u] { progress() } } }
        let records = try Matches.play(G.self, config: config, roster: plan.roster, count: seated.count, runner: runner,
                                       game: { seated[$0] }, finished: finished)
        return plan.played.map { records[$0] }
    }

    /// The games one run plays: the distinct specs as its roster, each
    /// distinct game once, and the one each listed game is.
    struct Plan {
        var roster: [AgentSpec] = []
        var unique: [SeatedGame] = []
        /// Per listed game: its index in ``unique``.
        var played: [Int] = []

        init(_ games: [(seed: UInt64, seats: [AgentSpec])]) {
            var index: [Key: Int] = [:]
            for game in games {
                let seats = game.seats.map { spec in
                    if let r = roster.firstIndex(of: spec) { return r }
                    roster.append(spec)
                    return roster.count - 1
                }
                let key = Key(seed: game.seed, seats: seats)
                if let u = index[key] {
                    played.append(u)
                } else {
                    index[key] = unique.count
                    played.append(unique.count)
                    unique.append(SeatedGame(seed: game.seed, seats: seats))
                }
            }
        }
    }

    /// A game's identity: its seed and the roster index in each seat.
    private struct Key: Hashable {
        var seed: UInt64
        var seats: [Int]
    }
}
