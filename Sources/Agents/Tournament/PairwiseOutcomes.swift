/// Head-to-head results of a tournament, kept per pairing as *units* (a pair
/// of side-swapped games in Pong, one common seed in Breakout's duplicate
/// format), which is what the bootstrap resamples.
public struct PairwiseOutcomes: Equatable, Sendable {
    /// One pairing's results.
    public struct Pairing: Equatable, Sendable {
        public var a: Int, b: Int
        /// Agent `a`'s score in each unit, 0 ... `gamesPerUnit` (win 1, draw ½).
        public var unitScores: [Double]
        /// Game counts from `a`'s point of view.
        public var wins: Int, draws: Int, losses: Int
    }

    public let agentCount: Int
    /// Games in one unit (2 for a side-swapped pair).
    public let gamesPerUnit: Int
    public private(set) var pairings: [Pairing] = []

    public init(agentCount: Int, gamesPerUnit: Int) {
        precondition(agentCount >= 2 && gamesPerUnit >= 1, "need two agents and at least one game per unit")
        self.agentCount = agentCount
        self.gamesPerUnit = gamesPerUnit
    }

    public mutating func add(a: Int, b: Int, unitScores: [Double], wins: Int, draws: Int, losses: Int) {
        precondition(a != b && (0 ..< agentCount).contains(a) && (0 ..< agentCount).contains(b), "bad pairing")
        pairings.append(Pairing(a: a, b: b, unitScores: unitScores, wins: wins, draws: draws, losses: losses))
    }

    /// Win/draw/loss counts of row agent `i` against column agent `j`
    /// (zeros when they did not meet).
    public func record(_ i: Int, _ j: Int) -> (wins: Int, draws: Int, losses: Int) {
        var r = (wins: 0, draws: 0, losses: 0)
        for p in pairings {
            if p.a == i, p.b == j { r.wins += p.wins; r.draws += p.draws; r.losses += p.losses }
            if p.a == j, p.b == i { r.wins += p.losses; r.draws += p.draws; r.losses += p.wins }
        }
        return r
    }

    /// Total games and points (win 1, draw ½) of agent `i` over all pairings.
    public func totals(_ i: Int) -> (games: Int, score: Double) {
        var games = 0, score = 0.0
        for p in pairings where p.a == i || p.b == i {
            let n = p.wins + p.draws + p.losses
            games += n
            let s = Double(p.wins) + Double(p.draws) / 2
            score += p.a == i ? s : Double(n) - s
        }
        return (games, score)
    }

    /// The score matrix the rating fit uses: `score[i][j]` = points of `i`
    /// against `j`, `games[i][j]` = games between them.
    public func matrices() -> (score: [[Double]], games: [[Double]]) {
        var score = [[Double]](repeating: [Double](repeating: 0, count: agentCount), count: agentCount)
        var games = score
        for p in pairings {
            var s = 0.0
            for u in p.unitScores { s += u }
            let n = Double(p.unitScores.count * gamesPerUnit)
            score[p.a][p.b] += s
            score[p.b][p.a] += n - s
            games[p.a][p.b] += n
            games[p.b][p.a] += n
        }
        return (score, games)
    }
}
