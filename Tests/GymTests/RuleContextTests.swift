import Testing
@testable import Gym

/// Rule contexts: the episode's rules from its seed, the context features
/// inside their declared bounds, and a game's config mapped back to its context.
@Suite struct RuleContextTests {
    static func context<C: VariantConfig>(_: C.Type, _ text: String, _ set: String, visible: Bool = true) throws -> RuleContext<C> {
        let file = try VariantFile<C>.decode(text, source: "v")
        return try RuleContext(base: try C.preset(file.preset), set: try file.set(set, source: "v"), visible: visible, source: "v")
    }

    @Test func featuresStayInTheirBoundsAndMapBackToTheRules() throws {
        for set in ["train", "near", "far"] {
            let ctx = try Self.context(BreakoutConfig.self, ShippedVariants.breakout, set)
            #expect(ctx.featureCount == ctx.keys.count && ctx.featureBounds.lower.allSatisfy { $0 == -1 })
            var features = [Float](repeating: 9, count: ctx.featureCount)
            for seed in UInt64(0) ..< 200 {
                let (variant, config) = ctx.rules(episodeSeed: seed)
                #expect(ctx.rules(episodeSeed: seed).config == config)
                features.withUnsafeMutableBufferPointer { ctx.writeFeatures(of: config, into: $0.baseAddress!) }
                #expect(features.allSatisfy { $0 >= -1 && $0 <= 1 }, "\(set) seed \(seed): \(features)")
                let back = try #require(ctx.variant(of: config))
                #expect(try back.apply(to: ctx.base, source: "t") == config)
                // The config holds a point's file value as its Float.
                for v in variant.values { #expect(back[v.key]?.numeric.map(Float.init) == v.value.numeric.map(Float.init)) }
            }
        }
    }

    @Test func aConfigOutsideTheSetHasNoContextAndHiddenContextsAddNoFeatures() throws {
        let ctx = try Self.context(PongConfig.self, ShippedVariants.pong, "train", visible: false)
        #expect(ctx.featureCount == 0)
        var other = ctx.base
        other.maxScore = 5
        #expect(ctx.variant(of: other) == nil)
        #expect(ctx.variant(of: ctx.base) != nil)
        #expect(throws: ConfigError.self) {
            try ctx.rules(RuleVariant(name: "x", values: [.init(key: "paddleWidth", value: .number(999))]), source: "t")
        }
    }

    @Test func aSetThatBreaksTheBaseIsRefusedWhenTheContextIsMade() throws {
        let file = try VariantFile<PongConfig>.decode(ShippedVariants.pong, source: "v")
        var base = PongConfig()
        base.ballSize = 40  // paddleWidth 112 + 4 × 40 + 4 no longer fits the field
        #expect(throws: ConfigError.self) {
            try RuleContext(base: base, set: try file.set("far", source: "v"), visible: false, source: "v")
        }
    }
}
