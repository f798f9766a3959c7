import Testing
@testable import Gym

/// Breakout's per-frame kernels (BreakoutKernels.swift) against the rules
/// they stand for: a clear ball frame against the full contact loop
/// (``BreakoutPhysics/resolveContacts(_:_:_:_:_:bricks:px0:pvx:events:)``),
/// and the eight-lane forms against the one-game form, lane by lane, bit
/// for bit.
@Suite struct BreakoutKernelTests {
    static func configs() throws -> [(String, BreakoutConfig)] {
        var gravity = try BreakoutConfig.preset("classic")
        gravity.gravity = 0.05
        gravity.elasticity = 0.9
        return BreakoutConfig.presets.map { ($0.name, $0.config) } + [("extreme", breakoutExtreme), ("gravity", gravity)]
    }

    /// The states of random play (`frames` frames from `seed`, a new
    /// episode after each end), each with the action of the frame that
    /// follows it; actions include push and values outside the game's range.
    static func frames(_ physics: BreakoutPhysics, seed: UInt64, frames: Int) -> [(BreakoutState, Int)] {
        var state = physics.initialState(seed: seed)
        var rng = Xoshiro256(seed: seed ^ 0x9E7)
        var episode: UInt64 = 0
        var out: [(BreakoutState, Int)] = []
        for _ in 0 ..< frames {
            let action = rng.below(50) == 0 ? 7 + rng.below(300) : rng.below(4)
            out.append((state, action))
            var events = BreakoutEvents()
            state.bricks.withUnsafeMutableBufferPointer {
                physics.tick(&state.core, bricks: $0.baseAddress!, action: action, events: &events)
            }
            if state.core.end != .none {
                episode += 1
                state = physics.initialState(seed: seed &+ 100 &* episode)
            }
        }
        return out
    }

    /// Random balls around the paddle, in and beside its band, and random
    /// paddles (the states random play rarely reaches: a ball that passes
    /// the paddle by a hair, or below it).
    static func paddleStates(_ physics: BreakoutPhysics, count: Int) -> [(BreakoutState, Int)] {
        let config = physics.config
        var rng = Xoshiro256(seed: 0xBADD1E)
        let r = config.ballSize / 2, w = config.fieldWidth
        return (0 ..< count).map { trial in
            var state = physics.initialState(seed: UInt64(trial))
            state.core.servePending = false
            state.core.paddleX = physics.paddleHalfW + rng.nextUnit() * (w - 2 * physics.paddleHalfW)
            let speed = config.ballSpeed * (0.5 + rng.nextUnit())
            state.core.ballX[0] = r + rng.nextUnit() * (w - 2 * r)
            state.core.ballY[0] = rng.nextUnit() * (physics.paddleTop + 3 * speed)
            state.core.ballVX[0] = rng.nextSigned() * speed
            state.core.ballVY[0] = rng.nextSigned() * speed
            state.core.ballCount = 1
            return (state, rng.below(4))
        }
    }

    /// Ball 0's frame in `state` under `action` as the tick sets it up: the
    /// paddle's start and move, the ball after gravity and the speed cap.
    static func ballSetup(_ physics: BreakoutPhysics, _ c: BreakoutCore, action: Int)
        -> (x: Float, y: Float, vx: Float, vy: Float, px0: Float, pvx: Float) {
        let px0 = c.paddleX
        let pvx = physics.paddleTarget(px0, half: c.paddleHalfWidth, direction: BreakoutPhysics.direction(Float(action)),
                                       SameRules()) - px0
        let v = physics.fall(vx: c.ballVX[0], vy: c.ballVY[0], SameRules())
        return (c.ballX[0], c.ballY[0], v.vx, v.vy, px0, pvx)
    }

    /// Wherever ``BreakoutPhysics/ballFrame(x:y:vx:vy:px0:pvx:half:)`` calls
    /// a ball's frame clear, the contact loop finds no contact: it ends
    /// where the kernel does, bit for bit, with the same velocity, no event
    /// and the game unchanged (grid included). States of random play in
    /// every preset, the extreme config and a gravity config, and random
    /// balls around the paddle; in both, most frames are clear (the test is
    /// not vacuous), and many clear ones have the ball in the paddle's band.
    @Test func clearBallFrameIsTheContactLoopBitForBit() throws {
        for (name, config) in try Self.configs() {
            let physics = BreakoutPhysics(config: config)
            let played = (0 ..< 3 as Range<UInt64>).flatMap { Self.frames(physics, seed: $0, frames: 6000) }
            let around = Self.paddleStates(physics, count: 4000)
            for (label, states) in [("play", played), ("paddle", around)] {
                var clear = 0, withBall = 0, inBand = 0
                for (state, action) in states where state.core.ballCount > 0 {
                    withBall += 1
                    let b = Self.ballSetup(physics, state.core, action: action)
                    let f = physics.ballFrame(x: b.x, y: b.y, vx: b.vx, vy: b.vy, px0: b.px0, pvx: b.pvx,
                                              half: state.core.paddleHalfWidth)
                    guard f.clear.isSet else { continue }
                    clear += 1
                    if min(b.y, f.y) - physics.r < physics.paddleTop { inBand += 1 }
                    var full = state
                    var x = b.x, y = b.y, vx = b.vx, vy = b.vy
                    var events = BreakoutEvents()
                    let kept = full.bricks.withUnsafeMutableBufferPointer {
                        physics.resolveContacts(&full.core, &x, &y, &vx, &vy, bricks: $0.baseAddress!, px0: b.px0,
                                                pvx: b.pvx, events: &events)
                    }
                    let same = [x, y, vx, vy].map(\.bitPattern) == [f.x, f.y, b.vx, b.vy].map(\.bitPattern)
                    guard kept, same, full == state, events == BreakoutEvents() else {
                        Issue.record("\(name) \(label): a clear frame differs from the contact loop: \(state.core)")
                        break
                    }
                }
                #expect(clear * 2 > withBall, "\(name) \(label): \(clear) of \(withBall) ball frames clear")
                if label == "paddle" {
                    #expect(inBand > 500, "\(name): \(inBand) clear frames with the ball in the paddle's band")
                }
            }
        }
    }

    /// The eight-lane kernels give each lane the one-game kernels' bits:
    /// the direction, the paddle's target and clamp, a ball's frame and
    /// clear test, and the lost test, on states of random play and random
    /// balls around the paddle.
    @Test func laneKernelsAreTheScalarKernelsLaneByLane() throws {
        for (name, config) in try Self.configs() {
            let physics = BreakoutPhysics(config: config)
            let states = Self.frames(physics, seed: 5, frames: 4000) + Self.paddleStates(physics, count: 4000)
            var k = 0
            while k + 8 <= states.count {
                let rows = states[k ..< k + 8].map { ($0.0.core, $0.1) }
                let setups = rows.map { Self.ballSetup(physics, $0.0, action: $0.1) }
                func lanes(_ f: (Int) -> Float) -> SIMD8<Float> { SIMD8((0 ..< 8).map(f)) }
                let half = lanes { rows[$0].0.paddleHalfWidth }
                let dir = BreakoutPhysics.direction(lanes { Float(rows[$0].1) })
                let target = physics.paddleTarget(lanes { rows[$0].0.paddleX }, half: half, direction: dir, SameRules())
                let clamp = physics.clampPaddle(lanes { setups[$0].px0 + setups[$0].pvx * 3 }, half: half)
                let f = physics.ballFrame(x: lanes { setups[$0].x }, y: lanes { setups[$0].y },
                                          vx: lanes { setups[$0].vx }, vy: lanes { setups[$0].vy },
                                          px0: lanes { setups[$0].px0 }, pvx: lanes { setups[$0].pvx }, half: half)
                let lost = physics.ballLost(x: f.x, y: f.y, pxEnd: lanes { setups[$0].px0 + setups[$0].pvx }, half: half)
                for g in 0 ..< 8 {
                    let (c, action) = rows[g], b = setups[g]
                    let d1 = BreakoutPhysics.direction(Float(action))
                    let t1 = physics.paddleTarget(c.paddleX, half: c.paddleHalfWidth, direction: d1, SameRules())
                    let c1 = physics.clampPaddle(b.px0 + b.pvx * 3, half: c.paddleHalfWidth)
                    let f1 = physics.ballFrame(x: b.x, y: b.y, vx: b.vx, vy: b.vy, px0: b.px0, pvx: b.pvx,
                                               half: c.paddleHalfWidth)
                    let l1 = physics.ballLost(x: f1.x, y: f1.y, pxEnd: b.px0 + b.pvx, half: c.paddleHalfWidth)
                    let one = [d1, t1, c1, f1.x, f1.y].map(\.bitPattern)
                    let eight = [dir[g], target[g], clamp[g], f.x[g], f.y[g]].map(\.bitPattern)
                    #expect(one == eight && f1.clear.isSet == f.clear[g] && l1.isSet == lost[g],
                            "\(name) state \(k + g): the lane kernels differ from the one-game kernels")
                }
                k += 8
            }
        }
    }

    /// The direction's table: left (1) → −1, right (2) → +1, anything else
    /// (noop, push, out-of-range actions) 0, in both widths.
    @Test func directionsAreTheActionTable() {
        for a: Float in [-1, 0, 1, 2, 3, 4, 7, 300] {
            let want: Float = a == 1 ? -1 : a == 2 ? 1 : 0
            let one = BreakoutPhysics.direction(a), eight = BreakoutPhysics.direction(SIMD8<Float>(repeating: a))
            #expect(one.bitPattern == want.bitPattern && eight[6].bitPattern == want.bitPattern,
                    "action \(a): \(one), \(eight[6]); want \(want)")
        }
    }
}
