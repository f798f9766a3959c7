import Gym

/// Who plays whom in a tournament, and which games each pairing plays.
///
/// Every pairing plays `pairs` *game pairs*. Pair `k` of every pairing is
/// played on the same seed, `Seeds.episode(runSeed: seed, index: k)`
/// ("common seeds"), and its two games swap sides: in game `2k` the
/// pairing's first agent (`a`) plays the bottom side, in game `2k + 1` the
/// top side. So neither the serve, nor the side, nor a lucky seed favours an
/// agent, and every agent faces the same set of seeds.
///
/// Games are numbered globally: game `g` belongs to pairing `g / (2·pairs)`,
/// pair `(g mod 2·pairs) / 2`, and is the side-swapped one when `g` is odd.
public struct TournamentSchedule: Equatable, Sendable {
    /// How agents are paired.
    public enum Format: Equatable, Sendable, CustomStringConvertible {
        /// Every agent against every other (i < j).
        case roundRobin
        /// Agent 0 (the candidate) against each of the others (the field).
        case gauntlet

        public var description: String {
            switch self {
            case .roundRobin: "round-robin"
            case .gauntlet: "gauntlet"
            }
        }
    }

    /// One game's place in the schedule.
    public struct Slot: Equatable, Sendable {
        public var game: Int
        public var pairing: Int
        /// Pair index within the pairing; the seed's index.
        public var pair: Int
        /// Agent indices of the pairing (`a < b` in a round-robin; `a` = 0 in a gauntlet).
        public var a: Int, b: Int
        /// Whether this is the side-swapped game of the pair (`a` plays top).
        public var swapped: Bool
    }

    public let agentCount: Int
    public let format: Format
    /// Game pairs per pairing.
    public let pairs: Int
    /// The run's master seed.
    public let seed: UInt64
    /// (a, b) agent indices, in playing order.
    public let pairings: [(a: Int, b: Int)]

    public init(agentCount: Int, format: Format, pairs: Int, seed: UInt64) {
        precondition(agentCount >= 2, "a tournament needs at least two agents")
        precondition(pairs >= 1, "pairs must be at least 1")
        self.agentCount = agentCount
        self.format = format
        self.pairs = pairs
        self.seed = seed
        switch format {
        case .roundRobin:
            var list: [(Int, Int)] = []
            for i in 0 ..< agentCount { for j in i + 1 ..< agentCount { list.append((i, j)) } }
            pairings = list
        case .gauntlet:
            pairings = (1 ..< agentCount).map { (0, $0) }
        }
    }

    public static func == (x: TournamentSchedule, y: TournamentSchedule) -> Bool {
        x.agentCount == y.agentCount && x.format == y.format && x.pairs == y.pairs && x.seed == y.seed
    }

    /// Total games: pairings × pairs × 2.
    public var gameCount: Int { pairings.count * pairs * 2 }

    /// The seed of pair `k` (the same in every pairing).
    public func pairSeed(_ k: Int) -> UInt64 { Seeds.episode(runSeed: seed, index: k) }

    /// Where game `g` sits.
    public func slot(_ g: Int) -> Slot {
        precondition(g >= 0 && g < gameCount, "game index out of range")
        let p = g / (2 * pairs)
        let within = g % (2 * pairs)
        let (a, b) = pairings[p]
        return Slot(game: g, pairing: p, pair: within / 2, a: a, b: b, swapped: within % 2 == 1)
    }
}
