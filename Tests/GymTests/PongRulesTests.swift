import Testing
@testable import Gym

/// The classic rules, one at a time, from hand-built positions.
@Suite struct PongRulesTests {
    let config = PongConfig()

    /// A game whose ball is about to hit the bottom paddle's face at `offset`
    /// units right of the paddle's centre, moving down at `speed`.
    func gameAboutToHitBottom(offset: Float, speed: Float) -> PongGame {
        var game = PongGame(config: config, seed: 1)
        let faceY = config.paddleInset + config.paddleHeight / 2 + config.ballSize / 2
        game.state.bottomX = 160
        game.state.ballX = 160 + offset
        game.state.ballY = faceY + 1
        game.state.speed = speed
        game.state.ballVX = 0
        game.state.ballVY = -speed
        return game
    }

    @Test func paddleHitSpeedsTheBallUpByHalfAUnit() {
        var game = gameAboutToHitBottom(offset: 0, speed: 2)
        var events = PongEvents()
        _ = game.step(top: 0, bottom: 0, events: &events)
        #expect(events.hitsBottom == 1)
        #expect(game.state.speed == 2.5)
        #expect(game.state.ballVY == 2.5)
    }

    @Test func speedIsCappedAtTen() {
        var game = gameAboutToHitBottom(offset: 0, speed: 9.8)
        _ = game.step(top: 0, bottom: 0)
        #expect(game.state.speed == 10)
        var again = gameAboutToHitBottom(offset: 0, speed: 10)
        _ = again.step(top: 0, bottom: 0)
        #expect(again.state.speed == 10)
    }

    @Test func englishSetsTheHorizontalDirection() {
        for offset: Float in [-32, -16, 0, 8, 16, 30] {
            var game = gameAboutToHitBottom(offset: offset, speed: 4)
            _ = game.step(top: 0, bottom: 0)
            // dx = (ball.x - paddle.x) / 32 at contact; velocity = dx × speed;
            // the ball travelled on for the rest of the frame.
            let dx = offset / 32
            #expect(abs(game.state.ballVX - dx * 4.5) < 1e-5, "offset \(offset)")
            #expect(game.state.ballVY > 0, "offset \(offset)")
        }
    }

    /// The seed's `if (x != 0) _dx = x;`: a return at the paddle's exact
    /// centre keeps the direction factor `dx = vx / speed` it came with.
    @Test func centreReturnKeepsThePreviousDirection() {
        for vx: Float in [-3, -0.5, 1, 7] {
            var game = gameAboutToHitBottom(offset: 0, speed: 4)
            game.state.ballVX = vx
            // The ball touches the face a quarter frame later: put the
            // paddle's centre exactly where it touches.
            game.state.bottomX = game.state.ballX + vx / 4
            var events = PongEvents()
            _ = game.step(top: 0, bottom: 0, events: &events)
            #expect(events.hitsBottom == 1, "vx \(vx)")
            #expect(game.state.ballVX == vx / 4 * 4.5, "vx \(vx)")
            #expect(game.state.ballVY == 4.5, "vx \(vx)")
        }
    }

    /// With the dead-centre rule no return leaves the ball moving straight
    /// up or down: `vx` is never 0 after a serve, in every preset, with
    /// paddles following the ball (which meet it at their exact centre
    /// often) or moving at random.
    @Test func theBallNeverMovesStraightUpOrDown() throws {
        for preset in PongConfig.presetNames {
            let config = try PongConfig.preset(preset)
            for seed in 0 ..< 6 as Range<UInt64> {
                var game = PongGame(config: config, seed: seed)
                var play = RandomPlay(seed: seed, actions: game.actionCount)
                for step in 0 ..< 6000 {
                    let random = play.next()
                    let follow = seed % 2 == 0
                    let bottom = follow ? game.follow(.bottom) : random.bottom
                    let top = game.follow(.top)
                    if game.step(top: top, bottom: bottom).isDone { game.reset(seed: seed &+ UInt64(step)) }
                    guard game.state.ballVX != 0 else {
                        Issue.record("vx = 0: preset \(preset) seed \(seed) step \(step)")
                        break
                    }
                }
            }
        }
    }

    /// An advancing paddle (`touch`) adds its advance to the return's
    /// vertical speed, up to `maxBallSpeed`.
    @Test func advancingReturnAddsThePaddleSpeedUpToTheCap() throws {
        let touch = try PongConfig.preset("touch")
        for (speed, expected) in [(2, 2.5 + 4), (5, 5.5 + 4), (9.5, 10), (10, 10)] as [(Float, Float)] {
            var game = PongGame(config: touch, seed: 1)
            let faceY = touch.paddleInset + touch.paddleHeight / 2 + touch.ballSize / 2
            game.state.ballX = game.state.bottomX + 8
            game.state.ballY = faceY + 2
            game.state.ballVX = 0
            game.state.ballVY = -speed
            game.state.speed = speed
            var events = PongEvents()
            _ = game.step(top: 0, bottom: PongAction.up.rawValue, events: &events)
            #expect(events.hitsBottom == 1, "speed \(speed)")
            #expect(game.state.ballVY == expected, "speed \(speed)")
        }
    }

    /// Over long random play with vertical movement (`touch` and the
    /// fastest config), the ball's vertical speed never passes
    /// `maxBallSpeed`, nor its horizontal speed twice the speed level.
    @Test func ballSpeedStaysWithinItsBounds() throws {
        for config in [try PongConfig.preset("touch"), PongCollisionTests.extreme] {
            for seed in 0 ..< 4 as Range<UInt64> {
                var game = PongGame(config: config, seed: seed)
                var play = RandomPlay(seed: seed &+ 7, actions: game.actionCount)
                for step in 0 ..< 20_000 {
                    let a = play.next()
                    // Advance more often than at random: returns by an advancing paddle.
                    let bottom = a.bottom == 4 ? 3 : a.bottom, top = a.top == 4 ? 3 : a.top
                    if game.step(top: step % 3 == 0 ? a.top : top, bottom: step % 3 == 0 ? a.bottom : bottom).isDone {
                        game.reset(seed: seed &+ UInt64(step))
                    }
                    let s = game.state
                    guard abs(s.ballVY) <= config.maxBallSpeed, abs(s.ballVX) <= 2 * s.speed * (1 + 1e-6),
                          s.speed <= config.maxBallSpeed else {
                        Issue.record("vx \(s.ballVX) vy \(s.ballVY) speed \(s.speed): maxBallSpeed \(config.maxBallSpeed), seed \(seed) step \(step)")
                        break
                    }
                }
            }
        }
    }

    @Test func topPaddleSendsTheBallDown() {
        var game = PongGame(config: config, seed: 1)
        let faceY = config.fieldHeight - (config.paddleInset + config.paddleHeight / 2 + config.ballSize / 2)
        game.state.topX = 100
        game.state.ballX = 116
        game.state.ballY = faceY - 1
        game.state.ballVX = 0
        game.state.ballVY = 2
        var events = PongEvents()
        _ = game.step(top: 0, bottom: 0, events: &events)
        #expect(events.hitsTop == 1)
        #expect(game.state.ballVY == -2.5)
        #expect(game.state.ballVX == 0.5 * 2.5)
    }

    @Test func sideWallsReflect() {
        var game = PongGame(config: config, seed: 1)
        game.state.ballX = config.ballSize / 2 + 1
        game.state.ballY = 240
        game.state.ballVX = -3
        game.state.ballVY = 2
        var events = PongEvents()
        _ = game.step(top: 0, bottom: 0, events: &events)
        #expect(events.wallBounces == 1)
        #expect(game.state.ballVX == 3)
        #expect(game.state.ballX == config.ballSize / 2 + 2)
    }

    @Test func missedBallScoresForTheOtherSideAndServesTowardTheScorer() {
        var game = PongGame(config: config, seed: 3)
        game.state.topX = config.fieldWidth - 60
        game.state.ballX = 40
        game.state.ballY = config.fieldHeight - 1
        game.state.ballVX = 0
        game.state.ballVY = 2
        game.state.speed = 6
        var events = PongEvents()
        let result = game.step(top: 0, bottom: 0, events: &events)
        #expect(events.pointsBottom == 1 && events.pointsTop == 0)
        #expect(events.pointSpeed == 6)
        #expect(result.reward == 1)
        #expect(game.state.scoreBottom == 1)
        // Re-served from the centre at serve speed, heading down to the scorer.
        #expect(game.state.ballX == config.fieldWidth / 2 && game.state.ballY == config.fieldHeight / 2)
        #expect(game.state.ballVY == -config.serveSpeed)
        #expect(abs(game.state.ballVX) == config.serveSpeed)
        #expect(game.state.speed == config.serveSpeed)
    }

    @Test func firstServeDirectionsAreRandomButSeeded() {
        var seen = Set<[Float]>()
        for seed in 0 ..< 64 as Range<UInt64> {
            let s = PongGame(config: config, seed: seed).state
            #expect(abs(s.ballVX) == 2 && abs(s.ballVY) == 2, "seed \(seed)")
            seen.insert([s.ballVX.sign == .minus ? -1 : 1, s.ballVY.sign == .minus ? -1 : 1])
            #expect(PongGame(config: config, seed: seed).state == s, "seed \(seed)")
        }
        #expect(seen.count == 4)
    }

    @Test func gameEndsAtMaxScore() {
        var game = PongGame(config: config, seed: 3)
        game.state.scoreTop = Int32(config.maxScore - 1)
        game.state.bottomX = config.fieldWidth - 60
        game.state.ballX = 40
        game.state.ballY = 1
        game.state.ballVX = 0
        game.state.ballVY = -2
        let result = game.step(top: 0, bottom: 0)
        #expect(result.terminated && !result.truncated)
        #expect(result.end == .gameOver)
        #expect(result.reward == -1)
        let frozen = game.state
        let after = game.step(top: 1, bottom: 2)
        #expect(after.terminated && after.reward == 0)
        #expect(game.state == frozen)
    }

    @Test func stepLimitTruncates() throws {
        var c = config
        c.maxSteps = 5
        var game = PongGame(config: c, seed: 1)
        for k in 1 ... 5 {
            let r = game.step(top: 0, bottom: 0)
            #expect(r.truncated == (k == 5) && !r.terminated)
            #expect(r.end == (k == 5 ? .stepLimit : .none))
        }
    }

    @Test func paddlesMoveAtTheirSpeedAndStayInTheirLane() {
        var game = PongGame(config: config, seed: 1)
        let x0 = game.state.bottomX, t0 = game.state.topX
        _ = game.step(top: PongAction.left.rawValue, bottom: PongAction.left.rawValue)
        #expect(game.state.bottomX == x0 - config.paddleSpeed)
        // The top side's left is the field's right (egocentric actions).
        #expect(game.state.topX == t0 + config.paddleSpeed)
        for _ in 0 ..< 200 { _ = game.step(top: 0, bottom: PongAction.left.rawValue) }
        #expect(game.state.bottomX == config.paddleWidth / 2 + config.ballSize + 1)
        // Without verticalMovement, up does nothing.
        let y0 = game.state.bottomY
        _ = game.step(top: 0, bottom: PongAction.up.rawValue)
        #expect(game.state.bottomY == y0)
    }

    @Test func verticalMovementStaysInTheOwnHalf() throws {
        let touch = try PongConfig.preset("touch")
        var game = PongGame(config: touch, seed: 1)
        for _ in 0 ..< 300 { _ = game.step(top: PongAction.up.rawValue, bottom: PongAction.up.rawValue) }
        #expect(game.state.bottomY > touch.paddleInset)
        #expect(game.state.bottomY + touch.paddleHeight / 2 < touch.fieldHeight / 2)
        #expect(game.state.topY - touch.paddleHeight / 2 > touch.fieldHeight / 2)
    }

    @Test func frameSkipRepeatsTheActionAndSumsRewards() {
        var c = config
        c.frameSkip = 4
        var skip = PongGame(config: c, seed: 5)
        var plain = PongGame(config: config, seed: 5)
        var reward: Float = 0
        for _ in 0 ..< 50 {
            let r = skip.step(top: 1, bottom: 2)
            for _ in 0 ..< 4 { reward += plain.step(top: 1, bottom: 2).reward }
            #expect(r.reward == reward)
            reward = 0
            #expect(skip.state.ballX == plain.state.ballX && skip.state.bottomX == plain.state.bottomX)
        }
    }

    @Test func stickyActionsRepeatThePreviousAction() {
        var c = config
        c.stickyActionProbability = 1
        var game = PongGame(config: c, seed: 5)
        let x0 = game.state.bottomX
        for _ in 0 ..< 10 { _ = game.step(top: 0, bottom: PongAction.left.rawValue) }
        // With p = 1 the first frame's previous action (stay) is kept forever.
        #expect(game.state.bottomX == x0)
        c.stickyActionProbability = 0.5
        var half = PongGame(config: c, seed: 5)
        for _ in 0 ..< 40 { _ = half.step(top: 0, bottom: PongAction.left.rawValue) }
        #expect(half.state.bottomX < x0)
    }

    @Test func observationIsEgocentric() {
        var game = PongGame(config: config, seed: 2)
        game.state.bottomX = 100; game.state.topX = 220
        game.state.ballX = 130; game.state.ballY = 300
        game.state.ballVX = 1.5; game.state.ballVY = -2
        game.state.scoreBottom = 3; game.state.scoreTop = 5
        var mirrored = game
        mirrored.state.bottomX = 320 - 220; mirrored.state.topX = 320 - 100
        mirrored.state.ballX = 320 - 130; mirrored.state.ballY = 480 - 300
        mirrored.state.ballVX = -1.5; mirrored.state.ballVY = 2
        mirrored.state.scoreBottom = 5; mirrored.state.scoreTop = 3
        let bottomView = game.observationOf(.bottom)
        let topViewOfMirror = mirrored.observationOf(.top)
        #expect(bottomView == topViewOfMirror)
        #expect(bottomView.count == 12)
        #expect(bottomView.allSatisfy { abs($0) <= 1.5 })
    }
}

extension PongGame {
    /// A simple follower for `side`: moves its paddle toward the ball's x
    /// (egocentric), staying within half a paddle step of it.
    func follow(_ side: PongSide) -> Int {
        let o = observationOf(side)
        let gap = (o[4] - o[0]) * config.fieldWidth / 2
        if gap < -config.paddleSpeed / 2 { return PongAction.left.rawValue }
        if gap > config.paddleSpeed / 2 { return PongAction.right.rawValue }
        return PongAction.noop.rawValue
    }

    func observationOf(_ side: PongSide) -> [Float] {
        var o = [Float](repeating: .nan, count: PongGame.observationCount)
        o.withUnsafeMutableBufferPointer { observe(side, into: $0) }
        return o
    }
}
