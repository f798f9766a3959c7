/// A recorded sequence of actions (a person's game, say), written compactly
/// as runs: `ACTIONxCOUNT` joined by `.`, a run of one may drop `x1`
/// (`0x40.2x12.1.0x3` is forty 0s, twelve 2s, one 1, three 0s).
///
/// This is how a game played by hand is kept in a replay record: the
/// `recorded` agent spec (``AgentSpec/Kind/recorded(actions:)``) plays the
/// actions back step by step, so the record replays like any agent's.
public enum RecordedActions {
    /// The largest action a run may hold (Pong with vertical movement has 5 actions).
    public static let maxAction = 9

    /// The runs text of `actions` (empty for no actions).
    public static func encode(_ actions: [UInt8]) -> String {
        var out = ""
        var k = 0
        while k < actions.count {
            var n = 1
            while k + n < actions.count, actions[k + n] == actions[k] { n += 1 }
            if !out.isEmpty { out += "." }
            out += n == 1 ? "\(actions[k])" : "\(actions[k])x\(n)"
            k += n
        }
        return out
    }

    /// The actions of a runs text, or nil if it is malformed (an action
    /// outside 0 ... ``maxAction``, a count outside 1 ... 100000000).
    public static func decode(_ text: String) -> [UInt8]? {
        var actions: [UInt8] = []
        if text.isEmpty { return actions }
        for run in text.split(separator: ".", omittingEmptySubsequences: false) {
            let parts = run.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 1 || parts.count == 2, let a = Int(parts[0]), (0 ... maxAction).contains(a) else { return nil }
            var n = 1
            if parts.count == 2 {
                guard let c = Int(parts[1]), (1 ... 100_000_000).contains(c) else { return nil }
                n = c
            }
            guard actions.count + n <= 100_000_000 else { return nil }
            actions.append(contentsOf: repeatElement(UInt8(a), count: n))
        }
        return actions
    }
}

/// Plays back recorded actions, one per step; after the last one it stays
/// (action 0). `reset` starts again from the first action; observations
/// are ignored.
public struct RecordedAgent: Agent, Sendable {
    public let actions: [UInt8]
    public private(set) var next = 0

    public init(actions: [UInt8]) { self.actions = actions }

    public mutating func reset(seed _: UInt64) { next = 0 }

    public mutating func act(_: UnsafeBufferPointer<Float>) -> Int {
        guard next < actions.count else { return 0 }
        defer { next += 1 }
        return Int(actions[next])
    }
}
