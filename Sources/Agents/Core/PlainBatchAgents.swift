import Gym

/// ``RandomAgent`` for many games: game `g` draws from its own generator,
/// seeded at each start, exactly the draws of a ``RandomAgent`` reset with
/// the same seed.
public final class RandomBatchAgent: BatchAgent {
    public let actionCount: Int
    var generators: [Xoshiro256]

    public init(games: Int, actionCount: Int) {
        precondition(actionCount > 0, "actionCount must be positive")
        self.actionCount = actionCount
        generators = [Xoshiro256](repeating: Xoshiro256(seed: 0), count: games)
    }

    public var games: Int { generators.count }
    public func start(game: Int, seed: UInt64) { generators[game] = Xoshiro256(seed: seed) }
    public func end(game _: Int) {}

    public func act(_ rows: AgentRows) {
        let n = actionCount
        generators.withUnsafeMutableBufferPointer { rng in
            for k in 0 ..< rows.count { rows.setAction(k, Int32(truncatingIfNeeded: rng[rows.game(k)].below(n))) }
        }
    }
}

/// ``ConstantAgent`` for many games: every row plays `action`.
public final class ConstantBatchAgent: BatchAgent {
    public let games: Int
    public let action: Int32

    public init(games: Int, action: Int) {
        self.games = games
        self.action = Int32(clamping: action)
    }

    public func start(game _: Int, seed _: UInt64) {}
    public func end(game _: Int) {}
    public func act(_ rows: AgentRows) {
        for k in 0 ..< rows.count { rows.setAction(k, action) }
    }
}

/// ``RecordedAgent`` for many games: each game plays the recorded actions
/// back from the first at each start, then stays (action 0).
public final class RecordedBatchAgent: BatchAgent {
    public let actions: [UInt8]
    /// Per game: the next action's index.
    var next: [Int]

    public init(games: Int, actions: [UInt8]) {
        self.actions = actions
        next = [Int](repeating: 0, count: games)
    }

    public var games: Int { next.count }
    public func start(game: Int, seed _: UInt64) { next[game] = 0 }
    public func end(game _: Int) {}

    public func act(_ rows: AgentRows) {
        let actions = self.actions
        next.withUnsafeMutableBufferPointer { next in
            for k in 0 ..< rows.count {
                let g = rows.game(k), t = next[g]
                if t < actions.count {
                    rows.setAction(k, Int32(actions[t]))
                    next[g] = t + 1
                } else {
                    rows.setAction(k, 0)
                }
            }
        }
    }
}
