import Foundation
import Testing
@testable import Gym

/// Per-game rules in a ``VectorEnvironment`` (``VectorEnvironment/reset(_:seed:rules:)``):
/// a game of any batch under rules `R` plays what a one-game reference under
/// `R` plays, bit for bit, beside games under other rules; snapshots carry
/// the rules.
@Suite struct VectorRulesTests {
    /// Rules for tests on top of `base`: draws of the shipped `train` set
    /// and the `far` set's points (each a config that differs from `base`
    /// only in rule values).
    static func variants<C: VariantConfig>(_ base: C, draws: Int = 6) throws -> [C] {
        let file = try VariantFile<C>.decode(try #require(ShippedVariants.text(game: C.gameName)), source: "shipped")
        let train = try RuleContext(base: base, set: try file.set("train", source: "t"), visible: false, source: "t")
        var out = (0 ..< draws).map { train.rules(episodeSeed: UInt64(100 + $0)).config }
        // The far points that are games on this base (not every one is on every base).
        if case let .points(points) = try file.set("far", source: "t").content {
            out += points.compactMap { try? $0.apply(to: base, source: "t") }
        }
        return out
    }

    /// The configs the tests run under: the short one (episodes end, so
    /// restarts run) and one with several frames per step (or sticky actions).
    static func configs<G: ContractGame>(_: G.Type) throws -> [(String, G.Batch.Config)] {
        let all = try G.testConfigs()
        let frames = all.first { $0.0.contains("skip") || $0.0.contains("ale") }
        return [try G.shortConfig()] + (frames.map { [$0] } ?? [])
    }

    // MARK: - A game under its own rules plays the one-game reference

    @Test(arguments: GameUnderTest.allCases, AutoresetMode.allCases)
    func gamesPlayTheirOwnRules(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        switch game {
        case .pong: try ownRules(PongContract.self, mode)
        case .breakout: try ownRules(BreakoutContract.self, mode)
        }
    }

    func ownRules<G: ContractGame>(_: G.Type, _ mode: AutoresetMode) throws where G.Batch.Config: VariantConfig {
        for (name, config) in try Self.configs(G.self) {
            var rules = try Self.variants(config)
            if let base = config as? BreakoutConfig { rules += try Self.breakoutLaneRules(base).map { $0 as! G.Batch.Config } }
            #expect(rules.allSatisfy { config.layoutDifference($0) == nil && $0 != config })
            var ended = 0
            for size in [1, 7, 8, 9, 64] {
                try playOwnRules(G.self, name, config, rules, size: size, mode, ended: &ended)
            }
            if name.hasPrefix("short") { #expect(ended > 0, "\(G.name) \(name) \(mode): no episode ended, restarts untested") }
        }
    }

    /// Every game but each fourth plays its own rules (the others the
    /// batch's), reset with its own seed, against a reference game each.
    func playOwnRules<G: ContractGame>(_: G.Type, _ name: String, _ config: G.Batch.Config, _ rules: [G.Batch.Config],
                                       size: Int, _ mode: AutoresetMode, ended: inout Int) throws where G.Batch.Config: VariantConfig {
        let seed = UInt64(size) &* 31 &+ 7
        let batch = G.Batch(config: config, count: size, seed: seed, firstIndex: 0, autoresetMode: mode)
        var refs: [ReferenceGame<G>] = []
        for i in 0 ..< size {
            let own = i % 4 != 3
            let r = own ? rules[(i + size) % rules.count] : config
            let s = 5000 &+ UInt64(i) &* 13 &+ seed
            if own { batch.reset(i, seed: s, rules: r) } else { batch.reset(i, seed: s) }
            #expect(batch.rules(i) == r)
            var ref = ReferenceGame<G>(r, batchSeed: 0, globalIndex: 0)
            ref.reset(seed: s)
            refs.append(ref)
        }
        let b = VectorBuffers(batch)
        var play = ContractPlay(seed: seed, actions: batch.actionCount)
        var mask = [UInt8](repeating: 0, count: size)
        let steps = size > 9 ? 300 : 700
        for step in 0 ..< steps {
            if mode == .disabled, step % 50 == 25 {
                // Finished games restart from their streams, keeping their rules.
                for i in 0 ..< size {
                    mask[i] = G.isOver(refs[i].game) ? 1 : 0
                    if mask[i] != 0 { refs[i].restart() }
                }
                batch.reset(mask: mask, seeds: nil)
            }
            b.drawActions(&play)
            b.step(batch)
            for i in 0 ..< size {
                let (same, done) = b.stepAndCompare(&refs[i], batch, i, mode: mode)
                if done { ended += 1 }
                guard same else {
                    Issue.record("\(G.name) \(name), \(mode), \(size) games: game \(i) (own rules: \(i % 4 != 3)) differs at step \(step)")
                    return
                }
            }
        }
        // Groups of eight games under their own rules take the lanes.
        if size >= 8, let pong = batch as? PongBatch {
            #expect(pong.quietFrames > steps, "pong \(name) \(mode) \(size): the lanes carried \(pong.quietFrames) frames")
        }
        if size >= 8, let breakout = batch as? BreakoutBatch, breakout.laneGames > 0 {
            let p = breakout.fastPath
            #expect(p.lanes > steps * size / 4 && p.groups > 0 && p.laneObservations >= steps * (size & ~7),
                    "breakout \(name) \(mode) \(size): the lanes carried \(p.lanes) frames, finished \(p.groups) steps together, wrote \(p.laneObservations) observations")
        }
        // An explicit reset without rules goes back to the batch's config.
        batch.reset(0, seed: 1)
        #expect(batch.rules(0) == config)
    }

    /// Breakout rules that the lanes read per game beyond the shipped sets'
    /// (each from its own rule values, ``BreakoutRuleValues``): no push and
    /// another push, other lives, gravity with a top speed it reaches (the
    /// lanes' speed cap), no gravity beside games with it.
    static func breakoutLaneRules(_ base: BreakoutConfig) throws -> [BreakoutConfig] {
        let changes: [(inout BreakoutConfig) -> Void] = [
            { $0.pushImpulse = base.pushImpulse > 0 ? 0 : 1.5 },
            { $0.pushImpulse = base.pushImpulse + 1; $0.lives = base.lives + 2; $0.paddleSpeed = base.paddleSpeed * 0.75 },
            { $0.gravity = 0.012; $0.maxBallSpeed = base.ballSpeed * 1.5 },
            { $0.gravity = 0; $0.maxBallSpeed = base.maxBallSpeed * 1.25; $0.paddleWidth = base.paddleWidth * 0.75 },
        ]
        return try changes.map { change in
            let rules = base.with(change)
            try rules.validate(source: "test")
            return rules
        }
    }

    // MARK: - Snapshots carry the rules

    @Test(arguments: GameUnderTest.allCases)
    func snapshotsCarryTheRules(_ game: GameUnderTest) throws {
        switch game {
        case .pong: try snapshots(PongContract.self)
        case .breakout: try snapshots(BreakoutContract.self)
        }
    }

    func snapshots<G: ContractGame>(_: G.Type) throws
        where G.Batch.Config: VariantConfig, G.Batch.SavedGame: SavedGameCoding, G.Batch.SavedGame.SavedConfig == G.Batch.Config {
        let (name, config) = try G.shortConfig()
        let rules = try Self.variants(config)
        let a = G.Batch(config: config, count: 9, seed: 3, firstIndex: 0, autoresetMode: .sameStep)
        let bBatch = G.Batch(config: config, count: 9, seed: 4, firstIndex: 0, autoresetMode: .sameStep)
        for i in 0 ..< 9 { a.reset(i, seed: 70 &+ UInt64(i), rules: rules[i % rules.count]) }
        let ab = VectorBuffers(a), bb = VectorBuffers(bBatch)
        var play = ContractPlay(seed: 9, actions: a.actionCount)
        for _ in 0 ..< 120 {
            ab.drawActions(&play)
            ab.step(a)
        }
        // Game 2's snapshot holds its rules and moves them, through its
        // encoding, into game 5 of a batch that plays the base rules.
        let saved = a.snapshot(2)
        #expect(saved.config == rules[2])
        let data = try saved.encoded()
        let decoded = try G.Batch.SavedGame.decodeSaved(data)
        try bBatch.restore(decoded, into: 5)
        #expect(bBatch.rules(5) == rules[2])
        bBatch.setRestartStream(a.restartStream(2), 5)
        for step in 0 ..< 400 {
            ab.drawActions(&play)
            for s in 0 ..< a.seats { bb.actions[5 * a.seats + s] = ab.actions[2 * a.seats + s] }
            ab.step(a); bb.step(bBatch)
            guard ab.sameStep(2, as: bb, 5), G.state(a, 2) == G.state(bBatch, 5), bBatch.rules(5) == a.rules(2) else {
                Issue.record("\(G.name) \(name): the restored game differs at step \(step)")
                return
            }
        }
        // A snapshot of the base rules takes the game back to them.
        try bBatch.restore(bBatch.snapshot(0), into: 5)
        #expect(bBatch.rules(5) == config)
        // Another layout is refused with one error, changing nothing.
        let other = try G.testConfigs().map(\.1).first { config.layoutDifference($0) != nil }
        let foreign = G.Batch(config: try #require(other), count: 1, seed: 1, firstIndex: 0, autoresetMode: .sameStep).snapshot(0)
        let kept = G.state(a, 4), keptRules = a.rules(4)
        #expect(throws: SnapshotError.self) { try a.restore(foreign, into: 4) }
        #expect(G.state(a, 4) == kept && a.rules(4) == keptRules)
    }
}

/// A saved game of either game: its config, encoding and decoding.
protocol SavedGameCoding {
    associatedtype SavedConfig
    var config: SavedConfig { get }
    func encoded() throws -> Data
    static func decodeSaved(_ data: Data) throws -> Self
}
extension Snapshot: SavedGameCoding {
    typealias SavedConfig = Config
    static func decodeSaved(_ data: Data) throws -> Self { try decode(data) }
}

/// Rule contexts in a batch (``RuleContextVector``): every episode's rules
/// drawn from its seed, the same for any batch size and position, and
/// each game equal to one-game references under the drawn rules.
@Suite struct VectorContextTests {
    /// The one-game reference of global game `g` of a batch seeded `seed`
    /// under a context: episode `k` seeded `Seeds.episode(runSeed: Seeds.stream(seed, g), index: k)`
    /// and played by a fresh game under the rules drawn from that seed.
    struct Reference<G: ContractGame>: RestartingReference where G.Batch.Config: VariantConfig {
        let context: RuleContext<G.Batch.Config>
        let run: UInt64
        var next = 0
        var game: G.Single
        var rules: G.Batch.Config

        init(_ context: RuleContext<G.Batch.Config>, batchSeed: UInt64, globalIndex: Int) {
            self.context = context
            run = Seeds.stream(batchSeed, UInt64(globalIndex))
            game = G.single(context.base, seed: 0)
            rules = context.base
            restart()
        }

        mutating func restart() {
            let s = Seeds.episode(runSeed: run, index: next)
            next += 1
            rules = context.rules(episodeSeed: s).config
            game = G.single(rules, seed: s)
        }
    }

    @Test(arguments: GameUnderTest.allCases, [AutoresetMode.sameStep, .nextStep])
    func contextsGiveTheSameGamesForAnyBatchSize(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        switch game {
        case .pong: try sizes(PongContract.self, mode)
        case .breakout: try sizes(BreakoutContract.self, mode)
        }
    }

    /// A batch of 1024 games, its slices of 1, 8 and 9 games (their
    /// `firstIndex` the slice's place) and one-game references of the 9-game
    /// slice's games: the same rules, outputs and states, step after step.
    func sizes<G: ContractGame>(_: G.Type, _ mode: AutoresetMode) throws
        where G.Batch: RuleContextVector, G.Batch.Config: VariantConfig {
        let (name, config) = try G.shortConfig()
        let file = try VariantFile<G.Batch.Config>.decode(try #require(ShippedVariants.text(game: G.name)), source: "shipped")
        let context = try RuleContext(base: config, set: try file.set("train", source: "t"), visible: false, source: "t")
        let seed: UInt64 = 77
        let big = G.Batch(config: config, count: 1024, seed: seed, firstIndex: 0, autoresetMode: mode, context: context)
        let slices = [(0, 1), (517, 1), (8, 8), (1000, 9)].map { first, n in
            (first, G.Batch(config: config, count: n, seed: seed, firstIndex: first, autoresetMode: mode, context: context))
        }
        var refs = (0 ..< 9).map { Reference<G>(context, batchSeed: seed, globalIndex: 1000 + $0) }
        let bb = VectorBuffers(big), sb = slices.map { VectorBuffers($0.1) }
        let seats = big.seats
        var play = ContractPlay(seed: seed, actions: big.actionCount)
        var restarts = 0
        var seenRules = Set<Int>()
        let steps = G.self == PongContract.self ? 1500 : 1000
        for step in 0 ..< steps {
            bb.drawActions(&play)
            for ((first, slice), b) in zip(slices, sb) {
                for k in 0 ..< slice.count * seats { b.actions[k] = bb.actions[first * seats + k] }
                b.step(slice)
            }
            bb.step(big)
            for ((first, slice), b) in zip(slices, sb) {
                for i in 0 ..< slice.count where !(b.sameStep(i, as: bb, first + i) && slice.rules(i) == big.rules(first + i)
                                                   && G.state(slice, i) == G.state(big, first + i)) {
                    Issue.record("\(G.name) \(name) \(mode): game \(first + i) in a batch of \(slice.count) differs at step \(step)")
                    return
                }
            }
            let (_, nine) = slices[3], b9 = sb[3]
            for i in 0 ..< 9 {
                let (same, done) = b9.stepAndCompare(&refs[i], nine, i, mode: mode)
                if done { restarts += 1 }
                seenRules.insert(refs[i].rules.configHashValue)
                guard same, nine.rules(i) == refs[i].rules else {
                    Issue.record("\(G.name) \(name) \(mode): game \(1000 + i) differs from its reference at step \(step)")
                    return
                }
            }
        }
        #expect(restarts > 3, "\(G.name) \(name) \(mode): \(restarts) restarts, the context's draws barely tested")
        #expect(seenRules.count > 9, "\(G.name) \(name) \(mode): \(seenRules.count) distinct rules")
    }
}

extension GameConfig {
    /// A hash of the config's JSON text (distinct rules, distinct hashes in practice).
    var configHashValue: Int { json.serialized(pretty: false).hashValue }
}

@Suite struct ContextRestartTests {
    /// A batch whose games all play the batch's config until one restarts
    /// into rules of its own within a step: each game equal to its reference.
    @Test(arguments: GameUnderTest.allCases, [AutoresetMode.sameStep, .nextStep])
    func aRestartIntoOwnRulesFromTheUniformPath(_ game: GameUnderTest, _ mode: AutoresetMode) throws {
        switch game {
        case .pong: try run(PongContract.self, mode, key: "maxBallSpeed", { Double($0.maxBallSpeed) }, other: 16)
        case .breakout: try run(BreakoutContract.self, mode, key: "maxBallSpeed", { Double($0.maxBallSpeed) }, other: 14)
        }
    }

    func run<G: ContractGame>(_: G.Type, _ mode: AutoresetMode, key: String, _ value: (G.Batch.Config) -> Double,
                              other: Double) throws
        where G.Batch: RuleContextVector, G.Batch.Config: VariantConfig {
        let (_, config) = try G.shortConfig()
        let base = value(config)
        let text = """
        {"game": "\(G.name)", "version": 1, "sets": {"train": {"sampling": "uniform", "ranges": {"\(key)": [\(base), \(other)]}},
          "t": {"sampling": "uniform", "points": [
          \((1 ... 7).map { "{\"name\": \"same\($0)\", \"values\": {\"\(key)\": \(base)}}," }.joined())
          {"name": "other", "values": {"\(key)": \(other)}}]}}}
        """
        let file = try VariantFile<G.Batch.Config>.decode(text, source: "t")
        let context = try RuleContext(base: config, set: try file.set("t", source: "t"), visible: false, source: "t")
        // Steps that began with every game on the batch's config (the
        // uniform path) and ended with some game on rules of its own.
        var turns = [1: 0, 8: 0]
        for seed: UInt64 in [1, 2, 3, 4, 5, 6] {
            for count in [1, 8] {
                let batch = G.Batch(config: config, count: count, seed: seed, firstIndex: 0, autoresetMode: mode, context: context)
                var refs = (0 ..< count).map { VectorContextTests.Reference<G>(context, batchSeed: seed, globalIndex: $0) }
                let b = VectorBuffers(batch)
                var play = ContractPlay(seed: seed, actions: batch.actionCount)
                for step in 0 ..< 1500 {
                    b.drawActions(&play)
                    let uniform = (0 ..< count).allSatisfy { batch.rules($0) == config }
                    b.step(batch)
                    if uniform, (0 ..< count).contains(where: { batch.rules($0) != config }) { turns[count]! += 1 }
                    for i in 0 ..< count {
                        let (same, _) = b.stepAndCompare(&refs[i], batch, i, mode: mode)
                        guard same, batch.rules(i) == refs[i].rules else {
                            Issue.record("\(G.name) \(mode) seed \(seed), \(count) games: game \(i) differs at step \(step)")
                            return
                        }
                    }
                }
            }
        }
        #expect(turns[1]! > 0 && turns[8]! > 0, "\(G.name) \(mode): restarts into own rules from the uniform path: \(turns)")
    }
}
