import Testing
@testable import Gym

/// A ball in the paddle's band that misses the paddle (beside it, or below
/// its bottom) has a clear frame (``BreakoutPhysics/frameIsClear(_:_:_:_:px0:pvx:half:)``):
/// such frames are quiet (``BreakoutPhysics/quietFrame(_:action:)``) and
/// the same as the general contact loop's, bit for bit.
@Suite struct BreakoutPaddleMissTests {
    /// Random balls around the paddle (one ball: the scalar case; two, the
    /// second high in the field: the lane case) and random paddles and
    /// actions in every preset and with gravity: wherever
    /// ``BreakoutPhysics/quietFrame(_:action:)`` calls the frame quiet, the
    /// general tick (no fast path) gives the same state and no event; and
    /// many of those frames have the ball in the paddle's band (fails if
    /// a ball there is never clear).
    @Test func missedPaddleFramesAreQuietAndExact() throws {
        for (name, config) in try breakoutPresetsAndGravity() {
            let physics = BreakoutPhysics(config: config)
            var rng = Xoshiro256(seed: 0xBADD1E)
            let r = config.ballSize / 2, w = config.fieldWidth
            for balls in 1 ... min(2, config.maxBalls) {
                var inBand = 0
                for trial in 0 ..< 4000 {
                    var state = physics.initialState(seed: UInt64(trial))
                    var c = state.core
                    c.servePending = false
                    c.serveTimer = 0
                    c.paddleX = physics.paddleHalfW + rng.nextUnit() * (w - 2 * physics.paddleHalfW)
                    let speed = config.ballSpeed * (0.5 + rng.nextUnit())
                    c.ballX[0] = r + rng.nextUnit() * (w - 2 * r)
                    c.ballY[0] = rng.nextUnit() * (physics.paddleTop + 3 * speed)
                    c.ballVX[0] = rng.nextSigned() * speed
                    c.ballVY[0] = rng.nextSigned() * speed
                    if balls == 2 {
                        c.ballX[1] = w / 2; c.ballY[1] = physics.wallBottom - 40
                        c.ballVX[1] = 1; c.ballVY[1] = 1
                    }
                    c.ballCount = Int32(balls)
                    let action = Int(rng.below(4))
                    var quiet = c
                    guard physics.quietFrame(&quiet, action: action) else { continue }
                    var events = BreakoutEvents()
                    state.core = c
                    state.bricks.withUnsafeMutableBufferPointer {
                        physics.tick(&state.core, bricks: $0.baseAddress!, action: action, events: &events, fastPath: false)
                    }
                    if state.core != quiet || events != BreakoutEvents() {
                        Issue.record("\(name), \(balls) balls: trial \(trial)'s quiet frame differs from the tick")
                        break
                    }
                    if min(c.ballY[0], c.ballY[0] + c.ballVY[0]) - r < physics.paddleTop { inBand += 1 }
                }
                #expect(inBand > 500, "\(name), \(balls) balls: \(inBand) quiet frames with the ball in the paddle's band")
            }
        }
    }
}
