import Foundation
import Gym
import PBGymC
import Testing

/// Swift = C ABI under per-episode rule contexts: one create config, seed,
/// variant set and action sequence, played through the Swift batch built
/// with the context (``RuleContextVector``) and through a C ABI session
/// (`pbg_create` with `variants`), give identical observations (the context
/// features appended when visible), rewards, flags, episode ends and
/// per-game rules (`pbg_rules`), each game's rules being the draw of its
/// episode's seed. Batch sizes 1, 8 (one lane group) and 9 (a partial group).
@Suite struct ContextABITests {
    enum Game: String, CaseIterable { case pong, breakout }

    /// Short episodes, so games end and restart under new rules many times.
    static func gameConfig(_ game: Game) -> JSONValue {
        switch game {
        case .pong: .object([("preset", .string("classic")), ("maxScore", .number(2)), ("maxSteps", .number(300))])
        case .breakout: .object([("preset", .string("classic")), ("lives", .number(1)), ("maxSteps", .number(300))])
        }
    }

    @Test(arguments: Game.allCases, [1, 8, 9])
    func swiftBatchAndCABISessionPlayTheSameGamesUnderDrawnRules(game: Game, size: Int) throws {
        for (set, visible) in [("train", false), ("train", true), ("far", true)] {
            switch game {
            case .pong: try compare(PongBatch.self, game: game, size: size, set: set, visible: visible)
            case .breakout: try compare(BreakoutBatch.self, game: game, size: size, set: set, visible: visible)
            }
        }
    }

    /// The C ABI's last error line (for failure messages).
    static func lastError() -> String {
        var buf = [CChar](repeating: 0, count: 512)
        _ = buf.withUnsafeMutableBufferPointer { pbg_last_error($0.baseAddress, Int64($0.count)) }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Game `i`'s rules as the C ABI reports them, applied to `base`.
    static func abiRules<C: VariantConfig>(_ handle: UInt64, _ i: Int, base: C, set: String) throws -> C {
        var needed: Int64 = 0
        var buf = [CChar](repeating: 0, count: 4096)
        let status = buf.withUnsafeMutableBufferPointer { pbg_rules(handle, Int64(i), $0.baseAddress, Int64($0.count), &needed) }
        #expect(status == 0, "pbg_rules: \(lastError())")
        let text = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let doc = try JSONValue.parse(text)
        #expect(doc["set"] == .string(set), "\(text)")
        guard case let .object(members)? = doc["values"] else { throw ABIRulesError(text: text) }
        let variant = RuleVariant(name: "abi", values: members.map { RuleVariant.Value(key: $0.0, value: $0.1) })
        return try variant.apply(to: base, source: "pbg_rules of game \(i)")
    }

    struct ABIRulesError: Error { var text: String }

    /// The first difference between the two paths (the test stops there).
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    func compare<V: RuleContextVector>(_: V.Type, game: Game, size: Int, set: String, visible: Bool) throws {
        let label = "\(game) size \(size) set \(set) visible \(visible)"
        let seed: UInt64 = 977 &+ UInt64(size)
        let base = try V.Config.decode(Self.gameConfig(game), source: "test config")
        let file = try VariantFile<V.Config>.decode(try #require(ShippedVariants.text(game: game.rawValue)), source: "shipped")
        let context = try RuleContext(base: base, set: try file.set(set, source: "shipped"), visible: visible, source: "test")

        // Swift: the batch built with the context, each game's stream started as the C ABI starts it (seed + i).
        let batch = V(config: base, count: size, seed: 0, firstIndex: 0, autoresetMode: .nextStep, context: context)
        for i in 0 ..< size { batch.reset(i, stream: seed &+ UInt64(i)) }
        let seats = batch.seats, n = batch.observationLayout.count, width = n + context.featureCount

        // The C ABI: the same config, seed and set.
        let create = JSONValue.object([
            ("game", .string(game.rawValue)), ("config", Self.gameConfig(game)), ("num_games", .number(size)),
            ("seed", .number(seed)), ("autoreset", .string("next-step")), ("variants", .string(set)),
            ("variants_visible", .bool(visible)),
        ] + (game == .pong ? [("players", .number(2))] : []))
        var handle: UInt64 = 0
        let created = create.serialized(pretty: false).withCString { pbg_create($0, &handle) }
        try #require(created == 0, "\(label): pbg_create: \(Self.lastError())")
        defer { _ = pbg_destroy(handle) }

        let rows = size * seats
        let abiActions = UnsafeMutablePointer<Int64>.allocate(capacity: rows)
        let abiObs = UnsafeMutablePointer<Float>.allocate(capacity: rows * width)
        let abiRewards = UnsafeMutablePointer<Double>.allocate(capacity: rows)
        let abiTerminated = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        let abiTruncated = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        let abiEnds = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer {
            abiActions.deallocate(); abiObs.deallocate(); abiRewards.deallocate()
            abiTerminated.deallocate(); abiTruncated.deallocate(); abiEnds.deallocate()
        }
        for (slot, pointer, bytes) in [(Int32(0), UnsafeMutableRawPointer(abiActions), rows * 8),
                                       (1, UnsafeMutableRawPointer(abiObs), rows * width * 4),
                                       (3, UnsafeMutableRawPointer(abiRewards), rows * 8),
                                       (4, UnsafeMutableRawPointer(abiTerminated), size),
                                       (5, UnsafeMutableRawPointer(abiTruncated), size),
                                       (6, UnsafeMutableRawPointer(abiEnds), size)] {
            try #require(pbg_bind(handle, slot, pointer, Int64(bytes)) == 0, "\(label): pbg_bind \(slot): \(Self.lastError())")
        }

        var actions = [Int32](repeating: 0, count: rows)
        var obs = [Float](repeating: 0, count: rows * n), rewards = [Float](repeating: 0, count: rows)
        var terminated = [UInt8](repeating: 0, count: size), truncated = [UInt8](repeating: 0, count: size)
        var ends = [UInt8](repeating: 0, count: size)
        var expected = [Float](repeating: 0, count: width)

        /// Every row and every game's rules agree (checked after creation and after each step).
        func check(_ when: String) throws {
            for i in 0 ..< size {
                let rules = batch.rules(i)
                // The Swift game's rules are its episode's draw (every episode here comes from the game's stream).
                let episodeSeed = try #require(batch.restartStream(i).lastEpisodeSeed)
                guard rules == context.rules(episodeSeed: episodeSeed).config else {
                    throw Mismatch("\(label) \(when) game \(i): the Swift game's rules are not its episode seed's draw")
                }
                guard try Self.abiRules(handle, i, base: base, set: set) == rules else {
                    throw Mismatch("\(label) \(when) game \(i): pbg_rules differs from the Swift game's rules")
                }
                for s in 0 ..< seats {
                    let row = i * seats + s
                    for k in 0 ..< n { expected[k] = obs[row * n + k] }
                    expected.withUnsafeMutableBufferPointer { e in
                        if let p = e.baseAddress { context.writeFeatures(of: rules, into: p + n) }
                    }
                    let got = Array(UnsafeBufferPointer(start: abiObs + row * width, count: width))
                    guard got.map(\.bitPattern) == expected.map(\.bitPattern) else {
                        throw Mismatch("\(label) \(when) game \(i) seat \(s): observations differ\n swift \(expected)\n C ABI \(got)")
                    }
                }
            }
        }

        obs.withUnsafeMutableBufferPointer { o in if let p = o.baseAddress { batch.observe(into: p) } }
        try #require(pbg_observe(handle) == 0, "\(label): pbg_observe: \(Self.lastError())")
        try check("at the start")

        var generator = SplitMix64(seed: seed)
        var episodesEnded = 0, rulesSeen: Set<[UInt32]> = []
        for step in 0 ..< 700 {
            for k in 0 ..< rows {
                let a = Int32(generator.next() % UInt64(batch.actionCount))
                actions[k] = a
                abiActions[k] = Int64(a)
            }
            obs.withUnsafeMutableBufferPointer { o in
                rewards.withUnsafeMutableBufferPointer { r in
                    terminated.withUnsafeMutableBufferPointer { t in
                        truncated.withUnsafeMutableBufferPointer { u in
                            ends.withUnsafeMutableBufferPointer { e in
                                actions.withUnsafeBufferPointer { a in
                                    guard let ap = a.baseAddress, let rp = r.baseAddress, let tp = t.baseAddress,
                                          let up = u.baseAddress else { return }
                                    batch.step(actions: ap, into: VectorStepOutput<V.Events>(
                                        observations: o.baseAddress, rewards: rp, terminated: tp, truncated: up, ends: e.baseAddress))
                                }
                            }
                        }
                    }
                }
            }
            try #require(pbg_step(handle, nil, 0) == 0, "\(label) step \(step): pbg_step: \(Self.lastError())")
            for k in 0 ..< rows where Double(rewards[k]).bitPattern != abiRewards[k].bitPattern {
                throw Mismatch("\(label) step \(step) row \(k): reward \(rewards[k]) through Swift, \(abiRewards[k]) through the C ABI")
            }
            for i in 0 ..< size {
                guard terminated[i] == abiTerminated[i], truncated[i] == abiTruncated[i], ends[i] == abiEnds[i] else {
                    throw Mismatch("\(label) step \(step) game \(i): flags differ (terminated \(terminated[i]) / \(abiTerminated[i]), truncated \(truncated[i]) / \(abiTruncated[i]), end \(ends[i]) / \(abiEnds[i]))")
                }
                if terminated[i] | truncated[i] != 0 { episodesEnded += 1 }
                rulesSeen.insert(batch.rules(i).fingerprintWords)
            }
            try check("after step \(step)")
        }
        #expect(episodesEnded >= size, "\(label): only \(episodesEnded) episodes ended; restarts under new rules untested")
        #expect(rulesSeen.count > 1, "\(label): every game played one set of rules")
    }
}

extension VariantConfig {
    /// The config's JSON text as words, to count distinct rules.
    var fingerprintWords: [UInt32] { Array(json.serialized(pretty: false).unicodeScalars.map(\.value)) }
}
