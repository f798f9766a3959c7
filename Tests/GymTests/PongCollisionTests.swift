import Testing
@testable import Gym

/// Swept collisions: at the highest speeds the config allows, the ball never
/// passes through a paddle or a wall and never ends a frame inside one.
@Suite struct PongCollisionTests {
    /// The fastest, most violent Pong the config ranges allow: every speed
    /// at the top of its range, the thinnest paddle and the smallest ball,
    /// paddles that also move vertically, an english divisor whose
    /// quotients are not exact in binary, and no step limit.
    static var extreme: PongConfig {
        PongConfig()
            .atRangeEnds(highest: ["serveSpeed", "maxBallSpeed", "speedIncrement", "paddleSpeed", "paddleVerticalSpeed"],
                         lowest: ["paddleHeight", "ballSize", "maxSteps"])
            .with { $0.verticalMovement = true; $0.englishDivisor = 17 }
    }

    func paddleBox(_ c: PongConfig, x: Float, y: Float) -> Box {
        Box(center: Vec2(x, y), half: Vec2(c.paddleWidth / 2, c.paddleHeight / 2))
    }

    @Test func extremeConfigIsValid() throws {
        try PongCollisionTests.extreme.validate()
    }

    @Test func ballNeverTunnelsOrEndsInsideAtMaxSpeed() throws {
        var configs = [PongCollisionTests.extreme]
        var wide = PongCollisionTests.extreme
        wide.paddleWidth = 120; wide.ballSize = 12; wide.englishDivisor = 40
        configs.append(wide)
        configs.append(try PongConfig.preset("fast"))
        var checkedFrames = 0, contactFrames = 0
        for (k, c) in configs.enumerated() {
            try c.validate()
            let r = c.ballSize / 2
            for seed in 0 ..< 12 as Range<UInt64> {
                var game = PongGame(config: c, seed: seed)
                var play = RandomPlay(seed: seed &+ 1000, actions: game.actionCount)
                for step in 0 ..< 4000 {
                    let before = game.state
                    let a = play.next()
                    var events = PongEvents()
                    let result = game.step(top: a.top, bottom: a.bottom, events: &events)
                    let s = game.state
                    let ball = Box(center: Vec2(s.ballX, s.ballY), half: Vec2(r, r))
                    let failure = "config \(k) seed \(seed) step \(step)"
                    #expect(!ball.overlaps(paddleBox(c, x: s.bottomX, y: s.bottomY)), "inside bottom paddle: \(failure)")
                    #expect(!ball.overlaps(paddleBox(c, x: s.topX, y: s.topY)), "inside top paddle: \(failure)")
                    #expect(s.ballX >= r && s.ballX <= c.fieldWidth - r, "outside the walls: \(failure)")
                    if events.contacts == 0 {
                        // A straight path: sample it finely against the moving paddles.
                        #expect(pathIsClear(c, before, s), "tunnelled: \(failure)")
                        checkedFrames += 1
                    } else {
                        contactFrames += 1
                    }
                    if result.isDone { game.reset(seed: seed &+ UInt64(step)) }
                }
            }
        }
        #expect(checkedFrames > 10_000 && contactFrames > 1_000)
    }

    /// Whether a ball moving in a straight line from `a` (with `a`'s
    /// velocity) while the paddles move linearly to their places in `b`
    /// stays clear of both paddles for the whole frame.
    func pathIsClear(_ c: PongConfig, _ a: PongState, _ b: PongState) -> Bool {
        let r = c.ballSize / 2
        let samples = 400
        for i in 0 ... samples {
            let t = Float(i) / Float(samples)
            let ball = Box(center: Vec2(a.ballX + a.ballVX * t, a.ballY + a.ballVY * t), half: Vec2(r * 0.999, r * 0.999))
            if ball.center.y < 0 || ball.center.y > c.fieldHeight { return true }  // it left: a point
            let bottom = paddleBox(c, x: a.bottomX + (b.bottomX - a.bottomX) * t, y: a.bottomY + (b.bottomY - a.bottomY) * t)
            let top = paddleBox(c, x: a.topX + (b.topX - a.topX) * t, y: a.topY + (b.topY - a.topY) * t)
            if ball.overlaps(bottom) || ball.overlaps(top) { return false }
        }
        return true
    }

    @Test func sweepFindsTheFirstFaceAndTime() {
        let box = Box(center: Vec2(0, 0), half: Vec2(2, 1))
        // From above, moving down 10 units: hits the top face at y = 1, t = 0.4.
        let hit = Sweep.pointVsBox(from: Vec2(0.5, 5), by: Vec2(0, -10), box: box)
        #expect(hit?.face == .top)
        #expect(hit.map { abs($0.t - 0.4) < 1e-6 } == true)
        // Diagonal through a corner region: enters through the left face.
        let side = Sweep.pointVsBox(from: Vec2(-10, 0.5), by: Vec2(20, 0), box: box)
        #expect(side?.face == .left)
        // Misses above, stops short, moves away from a face it touches.
        #expect(Sweep.pointVsBox(from: Vec2(-10, 1.5), by: Vec2(20, 0), box: box) == nil)
        #expect(Sweep.pointVsBox(from: Vec2(0, 5), by: Vec2(0, -3.9), box: box) == nil)
        #expect(Sweep.pointVsBox(from: Vec2(0, 1), by: Vec2(0, 3), box: box) == nil)
        // Starting on the face and moving in is a hit at t = 0.
        #expect(Sweep.pointVsBox(from: Vec2(0, 1), by: Vec2(0, -3), box: box)?.t == 0)
        // Any speed: a huge step still hits.
        #expect(Sweep.pointVsBox(from: Vec2(0, 1e5), by: Vec2(0, -2e5), box: box)?.face == .top)
    }
}
