import Gym

/// A game's episode record as a flat list of exact numbers, for the per-game
/// files a shard writes (`records.jsonl`) and `merge` reads back. Integers
/// are written in decimal; a `Double` in its shortest round-trip form, so
/// decoding gives the record bit for bit.
public protocol RecordFields: PlayableGame {
    /// The record's fields, in a fixed order.
    static func fields(_ record: Record) -> [JSONValue]
    /// The record from ``fields(_:)``'s output; nil when the list does not hold one.
    static func record(fields: [JSONValue]) -> Record?
}

extension JSONValue {
    /// An integer field written by ``RecordFields``.
    public func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        if case let .number(_, text) = self { return T(text) }
        return nil
    }

    /// A `Double` field written by ``RecordFields``.
    public var double: Double? {
        if case let .number(_, text) = self { return Double(text) }
        return nil
    }
}

extension Pong: RecordFields {
    public static func fields(_ r: PongMatchResult) -> [JSONValue] {
        [.number(r.seed), .number(r.scoreBottom), .number(r.scoreTop), .number(r.steps), .number(Int(r.end.rawValue)),
         .number(r.hitsBottom), .number(r.hitsTop), .number(r.receiverPoints), .number(r.pointSpeedSum)]
    }

    public static func record(fields f: [JSONValue]) -> PongMatchResult? {
        guard f.count == 9, let seed = f[0].integer(UInt64.self), let sb = f[1].integer(Int.self),
              let st = f[2].integer(Int.self), let steps = f[3].integer(Int.self),
              let endRaw = f[4].integer(UInt8.self), let end = EpisodeEnd(rawValue: endRaw),
              let hb = f[5].integer(Int.self), let ht = f[6].integer(Int.self),
              let rp = f[7].integer(Int.self), let speed = f[8].double else { return nil }
        return PongMatchResult(seed: seed, scoreBottom: sb, scoreTop: st, steps: steps, end: end, hitsBottom: hb,
                               hitsTop: ht, receiverPoints: rp, pointSpeedSum: speed)
    }
}

extension Breakout: RecordFields {
    /// Every counter of ``BreakoutEvents``, in the order the fields list them.
    static var eventPaths: [WritableKeyPath<BreakoutEvents, Int32>] {
        [\.points, \.brickHits, \.brokenNormal, \.brokenTough, \.brokenExplosive, \.brokenExtraBall, \.brokenSpeedUp,
         \.paddleHits, \.ballsLost, \.livesLost, \.levelsCleared, \.pushes, \.ballsReleased, \.speedUps]
    }

    public static func fields(_ r: BreakoutEpisode) -> [JSONValue] {
        [.number(r.index), .number(r.seed), .number(r.score), .number(r.steps), .number(Int(r.end.rawValue)),
         .number(r.levelsCleared), .number(r.livesLost)] + eventPaths.map { .number(Int(r.events[keyPath: $0])) }
    }

    public static func record(fields f: [JSONValue]) -> BreakoutEpisode? {
        guard f.count == 7 + eventPaths.count, let index = f[0].integer(Int.self), let seed = f[1].integer(UInt64.self),
              let score = f[2].integer(Int.self), let steps = f[3].integer(Int.self),
              let endRaw = f[4].integer(UInt8.self), let end = EpisodeEnd(rawValue: endRaw),
              let levels = f[5].integer(Int.self), let lives = f[6].integer(Int.self) else { return nil }
        var events = BreakoutEvents()
        for (k, path) in eventPaths.enumerated() {
            guard let v = f[7 + k].integer(Int32.self) else { return nil }
            events[keyPath: path] = v
        }
        return BreakoutEpisode(index: index, seed: seed, score: score, steps: steps, end: end, levelsCleared: levels,
                               livesLost: lives, events: events)
    }
}
