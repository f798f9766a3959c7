import Testing
@testable import Gym

/// Collisions never tunnel: at the edges of the allowed ranges (top speed,
/// strongest gravity, bounciest walls, thin bricks, eight balls, pushes every
/// frame) no ball ends a step inside a brick or the paddle, and every brick
/// hit is counted exactly once.
@Suite struct BreakoutCollisionTests {
    /// Whether any ball overlaps a present brick or the paddle, or has left
    /// the walls; a description of the first problem.
    static func violation(_ game: BreakoutGame) -> String? {
        let c = game.config, s = game.state.core
        let r = c.ballSize / 2
        let bw = c.brickWidth, bh = c.brickHeight, bottom = c.wallBottom
        for k in 0 ..< Int(s.ballCount) {
            let x = s.ballX[k], y = s.ballY[k]
            if x < r || x > c.fieldWidth - r || y > c.fieldHeight - r || y < 0 {
                return "ball \(k) outside the field at (\(x), \(y))"
            }
            if abs(x - s.paddleX) < s.paddleHalfWidth + r, abs(y - c.paddleInset) < c.paddleHeight / 2 + r {
                return "ball \(k) inside the paddle at (\(x), \(y)), paddle x \(s.paddleX)"
            }
            // Only cells within one cell of the ball can overlap it.
            let c0 = max(0, Int((x - r) / bw) - 1), c1 = min(c.brickColumns - 1, Int((x + r) / bw) + 1)
            let r0 = max(0, Int((y - r - bottom) / bh) - 1), r1 = min(c.brickRows - 1, Int((y + r - bottom) / bh) + 1)
            guard y + r > bottom - bh, r0 <= r1, c0 <= c1 else { continue }
            for row in r0 ... r1 {
                for col in c0 ... c1 where game.state.bricks[row * c.brickColumns + col] & BrickCell.hitsMask != 0 {
                    let cx = (Float(col) + 0.5) * bw, cy = bottom + (Float(row) + 0.5) * bh
                    if abs(x - cx) < bw / 2 + r, abs(y - cy) < bh / 2 + r {
                        return "ball \(k) inside brick (\(row), \(col)) at (\(x), \(y))"
                    }
                }
            }
        }
        return nil
    }

    /// Random play (pushes included) over many seeds; checks every step.
    /// - Parameter exactHits: the wall has no explosive bricks, so the hit
    ///   points taken off the grid must equal the ball hits counted.
    func fuzz(_ config: BreakoutConfig, seeds: Range<UInt64>, steps: Int, exactHits: Bool) {
        let values = config.rowValues
        for seed in seeds {
            var game = BreakoutGame(config: config, seed: seed)
            var rng = Xoshiro256(seed: seed &+ 1000)
            var events = BreakoutEvents()
            var hitsCounted = 0
            for step in 0 ..< steps {
                let before = game.state.bricks
                let r = game.step(rng.below(4), events: &events)
                if let problem = BreakoutCollisionTests.violation(game) {
                    Issue.record("seed \(seed), step \(step): \(problem)")
                    return
                }
                if events.levelsCleared == 0 {
                    var removed = 0, points: Int32 = 0, broken: Int32 = 0
                    for (cell, (a, b)) in zip(before, game.state.bricks).enumerated() where a != b {
                        removed += BrickCell.hits(a) - BrickCell.hits(b)
                        if b == 0 { points += Int32(values[cell / config.brickColumns]); broken += 1 }
                    }
                    hitsCounted += Int(events.brickHits)
                    guard points == events.points, broken == events.bricksBroken, removed >= Int(events.brickHits),
                          !exactHits || removed == Int(events.brickHits) else {
                        Issue.record("seed \(seed), step \(step): grid lost \(removed) hits, \(broken) bricks worth \(points); events say \(events.brickHits) hits, \(events.bricksBroken) bricks, \(events.points) points")
                        return
                    }
                }
                if r.isDone { game.reset(seed: seed &+ UInt64(step) &* 7919) }
            }
            #expect(hitsCounted > 0, "seed \(seed): no brick was ever hit")
        }
    }

    @Test func theCheckFindsABallInsideABrickOrThePaddle() {
        var lab = BreakoutLab(labConfig([(2, 3, "#")]))
        lab.ball(x: 112 + 17, y: lab.brickCentre(row: 2, col: 3).y, vx: 0, vy: 1)
        #expect(BreakoutCollisionTests.violation(lab.game)?.contains("inside brick (2, 3)") == true)
        lab.ball(x: 112 + 19.5, y: lab.brickCentre(row: 2, col: 3).y, vx: 0, vy: 1)
        #expect(BreakoutCollisionTests.violation(lab.game) == nil)
        lab.ball(x: 160 + 26, y: 38, vx: 0, vy: 1)
        #expect(BreakoutCollisionTests.violation(lab.game)?.contains("inside the paddle") == true)
    }

    @Test func noTunnellingAtTheEdgesOfEveryRange() {
        fuzz(breakoutExtreme, seeds: 0 ..< 20, steps: 1500, exactHits: false)
    }

    @Test func eachBrickHitIsCountedOnce() {
        var c = breakoutExtreme
        c.explosiveFraction = 0
        fuzz(c, seeds: 100 ..< 116, steps: 1500, exactHits: true)
    }

    @Test func softBouncesWithGravityOffStillNeverTunnel() {
        var c = breakoutExtreme
        c.gravity = 0
        c.elasticity = 0.5
        c.minBounceAngle = 60
        fuzz(c, seeds: 200 ..< 212, steps: 1500, exactHits: false)
    }

    @Test func presetsNeverTunnel() throws {
        for name in BreakoutConfig.presetNames {
            fuzz(try BreakoutConfig.preset(name), seeds: 300 ..< 306, steps: 3000, exactHits: name == "atari")
        }
    }

    @Test func ballNeverExceedsMaxSpeed() {
        var game = BreakoutGame(config: breakoutExtreme, seed: 9)
        var rng = Xoshiro256(seed: 9)
        let cap = breakoutExtreme.maxBallSpeed * 1.0001
        for step in 0 ..< 3000 {
            if game.step(rng.below(4)).isDone { game.reset(seed: UInt64(step)) }
            let s = game.state.core
            for k in 0 ..< Int(s.ballCount) {
                let v = (s.ballVX[k] * s.ballVX[k] + s.ballVY[k] * s.ballVY[k]).squareRoot()
                guard v <= cap else { Issue.record("step \(step): ball \(k) at speed \(v)"); return }
            }
        }
    }
}
