import Testing
@testable import Gym

/// Every observation either game produces lies inside its declared layout
/// bounds, over long rollouts at the edges of every config range: each
/// numeric field of each preset set alone to the lower and the upper end of
/// its range, plus seeded corner configs (every field at an end or at the
/// preset's value), whatever the relations between fields accept.
@Suite struct ObservationBoundsTests {
    /// Configs of `C` at the edges of its ranges, built from each preset.
    static func edgeConfigs<C: GameConfig>(_ type: C.Type, corners: Int) -> [(String, C)] {
        let ends = C.fields.compactMap { field in
            field.ends.map { (key: field.key, values: [$0.lower.serialized(), $0.upper.serialized()]) }
        }
        var out: [(String, C)] = []
        func add(_ preset: String, _ pairs: [(String, String)]) {
            let body = ([("preset", "\"\(preset)\"")] + pairs).map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
            if let c = try? C.decode("{\(body)}", source: "edge") { out.append(("{\(body)}", c)) }
        }
        var rng = Xoshiro256(seed: 2026)
        for preset in C.presetNames {
            for (key, values) in ends { for v in values { add(preset, [(key, v)]) } }
            for _ in 0 ..< corners {
                add(preset, ends.compactMap { e in
                    let u = rng.below(3)
                    return u == 2 ? nil : (e.key, e.values[u])
                })
            }
        }
        return out
    }

    static func check(_ o: [Float], _ layout: ObservationLayout, _ what: @autoclosure () -> String) -> Bool {
        guard o.count == layout.count else { Issue.record("\(o.count) floats, layout \(layout.count): \(what())"); return false }
        for k in 0 ..< o.count where !(o[k] >= layout.lower[k] && o[k] <= layout.upper[k]) {
            Issue.record("index \(k) = \(o[k]) outside [\(layout.lower[k]), \(layout.upper[k])]: \(what())")
            return false
        }
        return true
    }

    @Test func pongObservationsStayInTheirDeclaredBounds() {
        let configs = Self.edgeConfigs(PongConfig.self, corners: 12)
        #expect(configs.count > 100, "too few valid edge configs: \(configs.count)")
        let layout = PongPhysics.observationLayout
        for (n, (text, config)) in configs.enumerated() {
            var game = PongGame(config: config, seed: UInt64(n))
            var play = RandomPlay(seed: UInt64(n) &+ 99, actions: game.actionCount)
            // Odd configs: a ball-following paddle (long rallies, fast balls)
            // against random play; even ones: random against random.
            let follow = n % 2 == 1
            var ok = true
            for step in 0 ..< 1500 where ok {
                let a = play.next()
                let result = game.step(top: a.top, bottom: follow ? game.follow(.bottom) : a.bottom)
                for side in [PongSide.bottom, .top] where ok {
                    ok = Self.check(game.observationOf(side), layout, "\(text) step \(step) \(side)")
                }
                if result.isDone { game.reset(seed: UInt64(n) &+ UInt64(step)) }
            }
        }
    }

    /// Scores reach `maxScore`: its reciprocal times itself stays ≤ 1 for
    /// every allowed value (so indices 10 and 11 need no clamp; some are
    /// one rounding step below 1).
    @Test func pongScoreFeaturesReachOneExactly() {
        for maxScore in 1 ... 99 {
            var config = PongConfig()
            config.maxScore = maxScore
            var game = PongGame(config: config, seed: 1)
            game.state.scoreBottom = Int32(maxScore)
            let o = game.observationOf(.bottom)
            #expect(o[10] <= 1 && o[10] >= 1 - 1e-6, "maxScore \(maxScore): \(o[10])")
        }
    }

    @Test func breakoutObservationsStayInTheirDeclaredBounds() {
        let configs = Self.edgeConfigs(BreakoutConfig.self, corners: 12)
        #expect(configs.count > 80, "too few valid edge configs: \(configs.count)")
        for (n, (text, config)) in configs.enumerated() {
            var game = BreakoutGame(config: config, seed: UInt64(n))
            let layout = game.physics.observationLayout
            var rng = Xoshiro256(seed: UInt64(n) &+ 7)
            let follow = n % 2 == 1
            var ok = Self.check(game.observation(), layout, "\(text) start")
            for step in 0 ..< 1000 where ok {
                let o = game.observation()
                var action = rng.below(BreakoutAction.count)
                if follow, rng.below(8) != 0 {
                    // Follow the lowest ball in play (slot k: present at 8 + 5k, x at 9 + 5k).
                    var target = o[0], lowest: Float = 2
                    for k in 0 ..< config.maxBalls where o[8 + 5 * k] > 0.5 && o[10 + 5 * k] < lowest {
                        lowest = o[10 + 5 * k]; target = o[9 + 5 * k]
                    }
                    let gap = (target - o[0]) * config.fieldWidth / 2
                    action = gap < -config.paddleSpeed / 2 ? 1 : gap > config.paddleSpeed / 2 ? 2 : 0
                }
                if game.step(action).isDone { game.reset(seed: UInt64(n) &+ UInt64(step)) }
                ok = Self.check(game.observation(), layout, "\(text) step \(step)")
            }
        }
    }
}
