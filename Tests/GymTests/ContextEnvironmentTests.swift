import Testing
@testable import Gym

/// A single environment with per-episode rules plays each episode exactly as
/// the fixed-config game of its rules, appends its context, and restores games.
@Suite struct ContextEnvironmentTests {
    static func context(_ set: String, visible: Bool) throws -> RuleContext<BreakoutConfig> {
        let file = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: "b")
        return try RuleContext(base: BreakoutConfig(), set: try file.set(set, source: "b"), visible: visible, source: "b")
    }

    /// Observations and rewards of `steps` fixed actions.
    static func trajectory<E: Environment>(_ env: inout E, steps: Int, prefix: Int) -> [Float] {
        var out: [Float] = []
        for k in 0 ..< steps {
            let r = env.step(k % env.actionCount)
            out += env.observation().prefix(prefix) + [r.reward]
            if r.isDone { break }
        }
        return out
    }

    @Test func anEpisodePlaysExactlyTheFixedGameOfItsRules() throws {
        let ctx = try Self.context("train", visible: true)
        var env = ContextEnvironment<BreakoutGame>(context: ctx)
        #expect(env.observationCount == BreakoutGame().observationCount + 6)
        var seen = Set<Float>()
        for seed in UInt64(1) ... 4 {
            env.reset(seed: seed)
            let config = try env.rules.apply(to: BreakoutConfig(), source: "t")
            #expect(config == ctx.rules(episodeSeed: seed).config)
            seen.insert(config.paddleWidth)
            var fixed = BreakoutGame(config: config, seed: seed)
            let n = fixed.observationCount
            #expect(Self.trajectory(&env, steps: 600, prefix: n) == Self.trajectory(&fixed, steps: 600, prefix: n))
            let context = env.observation().suffix(6)
            #expect(context.allSatisfy { $0 >= -1 && $0 <= 1 })
        }
        #expect(seen.count == 4)
    }

    @Test func explicitRulesAreCheckedAndGamesRestoreUnderTheirOwnRules() throws {
        var env = ContextEnvironment<BreakoutGame>(context: try Self.context("far", visible: false))
        #expect(env.observationCount == BreakoutGame().observationCount)
        try env.reset(seed: 3, rules: RuleVariant(name: "x", values: [.init(key: "gravity", value: .number(0.02))]))
        #expect(env.config.gravity == 0.02 && env.rules["gravity"].flatMap(\.numeric).map(Float.init) == 0.02)
        #expect(throws: ConfigError.self) {
            try env.reset(seed: 3, rules: RuleVariant(name: "x", values: [.init(key: "gravity", value: .number(9))]))
        }
        for _ in 0 ..< 50 { _ = env.step(1) }
        var saved = env.game
        var twin = ContextEnvironment<BreakoutGame>(context: try Self.context("far", visible: false))
        try twin.restore(saved)
        #expect(twin.rules == env.rules && twin.config == env.config)
        let n = env.observationCount
        #expect(Self.trajectory(&env, steps: 300, prefix: n) == Self.trajectory(&twin, steps: 300, prefix: n))
        var foreign = BreakoutConfig()
        foreign.lives = 5
        saved = BreakoutGame(config: foreign, seed: 1)
        #expect(throws: ConfigError.self) { try twin.restore(saved) }
    }
}
