import Testing
@testable import Gym

/// Breakout's rules, one behaviour per test, on hand-placed balls and
/// drawn walls (classic geometry: bricks 32 × 16, wall from y = 352 to 432,
/// paddle top at y = 36, ball half size 3).
@Suite struct BreakoutRulesTests {
    let far: (row: Int, col: Int, c: Character) = (4, 9, "#")

    @Test func eachBrickScoresItsRowValue() {
        var lab = BreakoutLab(labConfig([(0, 0, "#"), (4, 9, "#"), (2, 5, "#")]))
        lab.ball(0, x: 16, y: 300, vx: 0, vy: 4)
        lab.ball(1, x: 304, y: 300, vx: 0, vy: 4)
        lab.run(35)
        #expect(lab.rewards == 4)                  // bottom row 1 + top row 3
        #expect(lab.core.score == 4)
        #expect(lab.events.points == 4 && lab.events.brokenNormal == 2 && lab.events.brickHits == 2)
        #expect(lab.results.map(\.reward).filter { $0 > 0 }.sorted() == [1, 3])
        #expect(lab.hits(row: 0, col: 0) == 0 && lab.hits(row: 4, col: 9) == 0 && lab.hits(row: 2, col: 5) == 1)
        #expect(lab.core.bricksLeft == 1)
    }

    @Test func customRowValuesAreUsed() {
        var lab = BreakoutLab(labConfig([(1, 3, "#"), far]) { $0.rowValues = [10, 20, 30, 40, 50] })
        lab.ball(x: 112, y: 300, vx: 0, vy: 4)
        lab.run(30)
        #expect(lab.rewards == 20)
    }

    @Test func lostBallCostsALifeAndTheServeFollowsAfterTheDelay() {
        var lab = BreakoutLab(labConfig([far]))
        lab.ball(x: 300, y: 20, vx: 0, vy: -4)
        lab.run(6)
        #expect(lab.events.ballsLost == 1 && lab.events.livesLost == 1)
        #expect(lab.core.lives == 2 && lab.core.servePending && lab.core.ballCount == 0)
        #expect(lab.game.observation()[6] == 1)
        lab.run(29)
        #expect(lab.core.servePending && lab.core.ballCount == 0)
        lab.run(1)
        #expect(!lab.core.servePending && lab.core.ballCount == 1)
        let c = lab.core
        #expect(c.ballVY[0] > 0 && c.speed == 4)
        #expect(abs((c.ballVX[0] * c.ballVX[0] + c.ballVY[0] * c.ballVY[0]).squareRoot() - 4) < 1e-4)
        #expect(c.ballY[0] > 36 && c.ballY[0] < 50 && abs(c.ballX[0] - c.paddleX) < 6)
        // Lose the remaining two lives.
        for livesLeft in [1, 0] {
            lab.ball(x: 300, y: 20, vx: 0, vy: -4)
            let r = lab.run(6)
            #expect(lab.core.lives == Int32(livesLeft))
            if livesLeft == 0 {
                #expect(r?.terminated == true && r?.truncated == false && r?.end == .livesExhausted)
            } else {
                #expect(r?.isDone == false)
                lab.run(30)
            }
        }
        #expect(lab.events.livesLost == 3)
    }

    @Test func clearedWallIsRebuiltAndTheLastOneEndsTheEpisode() {
        var lab = BreakoutLab(labConfig([(0, 0, "#")]) { $0.levels = 2; $0.serveDelay = 60 })
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        let r = lab.run(20)
        #expect(lab.events.levelsCleared == 1 && r?.isDone == false)
        #expect(lab.core.levelsCleared == 1 && lab.core.bricksLeft == 1 && lab.hits(row: 0, col: 0) == 1)
        #expect(lab.core.ballCount == 0 && lab.core.servePending && lab.core.lives == 3 && lab.events.livesLost == 0)
        #expect(lab.game.observation()[3] == 0.5)
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        let end = lab.run(20)
        #expect(end?.terminated == true && end?.end == .levelsCleared && lab.core.levelsCleared == 2)
    }

    @Test func drawnWallsAreDrawnAfreshOnEachLevel() {
        var config = BreakoutConfig()
        config.levels = 3
        var lab = BreakoutLab(config, seed: 5)
        let first = lab.game.state.bricks
        #expect(first.allSatisfy { $0 != 0 } && lab.core.bricksLeft == 50)
        #expect(Set(first.map { BrickCell.kind($0) }).count > 1)
        lab.game.state.bricks = [UInt8](repeating: 0, count: 50)
        lab.game.state.bricks[0] = BrickCell.make(.normal, hits: 1)
        lab.core.bricksLeft = 1
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        lab.run(20)
        #expect(lab.events.levelsCleared == 1 && lab.core.bricksLeft == 50)
        #expect(lab.game.state.bricks != first)
    }

    @Test func toughBrickTakesItsHits() {
        var lab = BreakoutLab(labConfig([(0, 0, "T"), far]) { $0.toughHits = 3 })
        for expected in [2, 1, 0] {
            lab.ball(x: 16, y: 300, vx: 0, vy: 4)
            lab.run(20)
            #expect(lab.hits(row: 0, col: 0) == expected)
            #expect(lab.events.brokenTough == (expected == 0 ? 1 : 0))
            #expect(lab.rewards == (expected == 0 ? 1 : 0))
        }
        #expect(lab.events.brickHits == 3)
        #expect(lab.game.observation()[8 + 15] == 0)
    }

    @Test func explosiveBrickBreaksItsNeighboursAndChains() {
        let cells: [(row: Int, col: Int, c: Character)] = [
            (0, 1, "X"), (0, 0, "#"), (0, 2, "T"), (1, 1, "X"), (2, 2, "#"), (2, 5, "#"), (3, 9, "#"),
        ]
        var lab = BreakoutLab(labConfig(cells) { $0.toughHits = 2 })
        lab.ball(x: 48, y: 300, vx: 0, vy: 4)
        lab.run(15)
        #expect(lab.events.brickHits == 1)
        #expect(lab.events.brokenExplosive == 2 && lab.events.brokenNormal == 2 && lab.events.brokenTough == 1)
        #expect(lab.rewards == 6)
        for (row, col) in [(0, 0), (0, 1), (0, 2), (1, 1), (2, 2)] { #expect(lab.hits(row: row, col: col) == 0, "(\(row), \(col))") }
        #expect(lab.hits(row: 2, col: 5) == 1 && lab.hits(row: 3, col: 9) == 1 && lab.core.bricksLeft == 2)
        #expect(lab.game.state.bricks.allSatisfy { $0 & BrickCell.pending == 0 })
    }

    @Test func extraBallBrickReleasesABallUpToMaxBalls() {
        var lab = BreakoutLab(labConfig([(0, 0, "B"), far]))
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        lab.run(15)
        #expect(lab.events.brokenExtraBall == 1 && lab.events.ballsReleased == 1 && lab.core.ballCount == 2)
        let c = lab.core
        #expect(c.ballVY[1] < 0 && c.ballY[1] < 360 && abs(c.ballX[1] - 16) < 20)
        #expect(abs((c.ballVX[1] * c.ballVX[1] + c.ballVY[1] * c.ballVY[1]).squareRoot() - c.speed) < 1e-4)
        var single = BreakoutLab(labConfig([(0, 0, "B"), far]) { $0.maxBalls = 1 })
        single.ball(x: 16, y: 300, vx: 0, vy: 4)
        single.run(15)
        #expect(single.events.brokenExtraBall == 1 && single.events.ballsReleased == 0 && single.core.ballCount == 1)
    }

    @Test func speedUpBrickRaisesTheSpeedLevelAndTheBall() {
        var lab = BreakoutLab(labConfig([(0, 0, "S"), far]) { $0.speedUpIncrement = 1 })
        lab.core.speed = 4
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        lab.run(15)
        #expect(lab.events.brokenSpeedUp == 1 && lab.events.speedUps == 1 && lab.core.speed == 5)
        #expect(lab.core.ballVY[0] == -5)
    }

    @Test func hitCountsAndTopRowsSpeedTheBallUp() {
        var lab = BreakoutLab(labConfig([(0, 0, "T"), (4, 5, "T"), far]) {
            $0.speedUpAfterHits = [2]; $0.speedUpRows = 1; $0.speedUpIncrement = 1; $0.toughHits = 7
        })
        lab.core.speed = 4
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        lab.run(15)
        #expect(lab.core.speed == 4 && lab.events.speedUps == 0)
        lab.ball(x: 16, y: 300, vx: 0, vy: 4)
        lab.run(15)
        #expect(lab.core.speed == 5 && lab.events.speedUps == 1 && lab.core.hitsSinceServe == 2)
        lab.ball(x: 176, y: 300, vx: 0, vy: 4)     // row 4 is the top row
        lab.run(35)
        #expect(lab.core.speed == 6 && lab.events.speedUps == 2 && lab.core.reachedTopRows)
        lab.ball(x: 176, y: 300, vx: 0, vy: 4)
        lab.run(35)
        #expect(lab.core.speed == 6 && lab.events.speedUps == 2)
    }

    @Test func paddleHitPositionSetsTheAngle() {
        let config = labConfig([far])
        let cot20 = Float(1 / 0.36397023426620234)
        var vxs: [Float] = []
        for offset: Float in [-0.95, -0.5, 0, 0.5, 0.95] {
            var lab = BreakoutLab(config)
            lab.ball(x: 160 + offset * 27, y: 60, vx: 0, vy: -4)
            lab.run(8)
            let c = lab.core
            #expect(lab.events.paddleHits == 1)
            let vx = c.ballVX[0], vy = c.ballVY[0]
            #expect(vy > 0)
            #expect(abs(vx / vy - offset * cot20) < 1e-4, "offset \(offset)")
            #expect(abs((vx * vx + vy * vy).squareRoot() - 4) < 1e-4)
            vxs.append(vx)
        }
        #expect(vxs[2] == 0 && vxs[0] == -vxs[4] && vxs[1] == -vxs[3])
        // At the paddle's very end the path is exactly minBounceAngle from the horizontal.
        let edge = Float(0.36397023426620234) // tan 20°
        #expect(abs(cot20 * edge - 1) < 1e-6)
    }

    @Test func pushWorksOnlyOffCooldown() {
        // A slow ball in a tall field: over the cooldown nothing but a push
        // changes its velocity.
        let config = BreakoutConfig().with {
            ($0.fieldHeight, $0.ballSpeed, $0.maxBallSpeed, $0.minBounceAngle) = (960, 1, 2, 10)
            ($0.pushImpulse, $0.pushCooldown) = (0.5, 180)
        }
        var lab = BreakoutLab(config)
        lab.ball(x: 160, y: 480, vx: 0, vy: 1)
        lab.run(1, action: BreakoutAction.push.rawValue)
        #expect(lab.events.pushes == 1 && lab.core.pushCooldown == 180)
        #expect(lab.game.observation()[4] == 1)
        let dvx = lab.core.ballVX[0], dvy = lab.core.ballVY[0] - 1
        #expect(abs((dvx * dvx + dvy * dvy).squareRoot() - 0.5) < 1e-5)
        lab.run(179, action: BreakoutAction.push.rawValue)
        #expect(lab.events.pushes == 1 && lab.core.pushCooldown == 1)
        lab.run(1, action: BreakoutAction.push.rawValue)
        #expect(lab.events.pushes == 2 && lab.core.pushCooldown == 180)
        // No push while no ball is in play, nor with a zero impulse.
        var pending = BreakoutLab(config)
        pending.run(10, action: BreakoutAction.push.rawValue)
        #expect(pending.events.pushes == 0 && pending.core.pushCooldown == 0)
        var off = BreakoutLab(config.with { $0.pushImpulse = 0 })
        off.ball(x: 160, y: 480, vx: 0, vy: 1)
        off.run(1, action: BreakoutAction.push.rawValue)
        #expect(off.events.pushes == 0 && off.core.ballVX[0] == 0 && off.core.ballVY[0] == 1)
    }

    @Test func pushDirectionsAreSeededAndVary() {
        func firstPush(seed: UInt64) -> Float {
            var c = BreakoutConfig()
            c.pushCooldown = 0
            var lab = BreakoutLab(c, seed: seed)
            lab.ball(x: 160, y: 200, vx: 0, vy: 4)
            lab.run(1, action: BreakoutAction.push.rawValue)
            return lab.core.ballVX[0]
        }
        #expect(firstPush(seed: 3) == firstPush(seed: 3))
        #expect(Set((0 ..< 8 as Range<UInt64>).map { firstPush(seed: $0) }).count == 8)
    }

    @Test func gravityPullsEveryBallDownAtItsRate() {
        for g: Float in [0, 0.01, 0.05, 0.1, 0.25] {
            var lab = BreakoutLab(labConfig([far]) { $0.gravity = g; $0.ballSpeed = 16; $0.maxBallSpeed = 24 })
            lab.ball(x: 160, y: 200, vx: 1, vy: 0)
            lab.run(1)
            #expect(lab.core.ballVY[0] == -g && lab.core.ballY[0] == 200 - g, "g \(g)")
            lab.run(9)
            #expect(abs(lab.core.ballVY[0] + 10 * g) < 1e-5, "g \(g)")
            #expect(abs(lab.core.ballY[0] - (200 - 55 * g)) < 1e-3, "g \(g)")
            #expect(lab.core.ballVX[0] == 1)
        }
    }

    @Test func gravityCapsAtMaxBallSpeed() {
        var lab = BreakoutLab(labConfig([far]) { $0.gravity = 0.25; $0.ballSpeed = 16; $0.maxBallSpeed = 20 })
        lab.ball(x: 160, y: 420, vx: 0, vy: 19.9)
        lab.game.state.bricks = [UInt8](repeating: 0, count: 50)
        lab.core.bricksLeft = 99
        for _ in 0 ..< 80 {
            lab.run(1)
            let c = lab.core
            guard c.ballCount > 0 else { break }
            #expect((c.ballVX[0] * c.ballVX[0] + c.ballVY[0] * c.ballVY[0]).squareRoot() <= 20.0001)
        }
    }

    @Test func elasticityScalesTheNormalVelocityAtBounces() {
        for e: Float in [0.5, 0.8, 1, 1.25] {
            let config = labConfig([(0, 0, "T"), far]) { $0.elasticity = e; $0.toughHits = 7 }
            var side = BreakoutLab(config)
            side.ball(x: 300, y: 200, vx: 6, vy: 4)
            side.run(3)
            #expect(abs(side.core.ballVX[0] + 6 * e) < 1e-5 && side.core.ballVY[0] == 4, "side wall, e \(e)")
            var top = BreakoutLab(config)
            top.ball(x: 160, y: 470, vx: 1, vy: 5)
            top.run(2)
            #expect(abs(top.core.ballVY[0] + 5 * e) < 1e-5 && top.core.ballVX[0] == 1, "top wall, e \(e)")
            var brick = BreakoutLab(config)
            brick.ball(x: 16, y: 330, vx: 0, vy: 4)
            brick.run(6)
            #expect(abs(brick.core.ballVY[0] + 4 * e) < 1e-5, "brick, e \(e)")
        }
    }

    @Test func watchdogTruncatesWhenNoBrickIsHit() {
        var lab = BreakoutLab(labConfig([(0, 0, "#")]) { $0.watchdogSteps = 300 })
        lab.ball(x: 160, y: 100, vx: 0, vy: 4)
        lab.run(150)
        #expect(lab.game.observation()[5] == 0.5)
        let r = lab.run(400)
        #expect(lab.results.count == 300)
        #expect(r?.truncated == true && r?.terminated == false && r?.end == .watchdog)
        #expect(lab.events.paddleHits >= 1)        // paddle contacts alone are no progress
        var hit = BreakoutLab(labConfig([(0, 0, "T")]) { $0.watchdogSteps = 300; $0.toughHits = 7 })
        hit.core.stepsSinceProgress = 250
        hit.ball(x: 16, y: 300, vx: 0, vy: 4)
        hit.run(15)
        #expect(hit.core.stepsSinceProgress < 10 && hit.results.allSatisfy { !$0.isDone })
    }

    @Test func watchdogCanCountPaddleContactsAsProgress() {
        // The same loop as above (paddle ↔ top wall, no brick in reach): with
        // watchdogPaddleResets every paddle contact restarts the count.
        var lab = BreakoutLab(labConfig([(0, 0, "#")]) { $0.watchdogSteps = 300; $0.watchdogPaddleResets = true })
        lab.ball(x: 160, y: 100, vx: 0, vy: 4)
        let r = lab.run(1000)
        #expect(lab.results.count == 1000 && r?.isDone == false)
        #expect(lab.core.stepsSinceProgress < 300)
    }

    @Test func stepLimitTruncates() {
        var lab = BreakoutLab(labConfig([far]) { $0.maxSteps = 50 })
        let r = lab.run(100)
        #expect(lab.results.count == 50 && r?.end == .stepLimit && r?.truncated == true)
        #expect(lab.game.step(0) == StepResult(reward: 0, terminated: false, truncated: true, end: .stepLimit))
    }

    @Test func multiBallBookkeeping() {
        var lab = BreakoutLab(labConfig([far]) { $0.ballsPerServe = 3; $0.maxBalls = 3; $0.serveDelay = 0 })
        lab.run(1)
        let c = lab.core
        #expect(c.ballCount == 3)
        let launched = (0 ..< 3).map { c.ballX[$0] - c.ballVX[$0] }   // where each was served, side by side
        #expect(abs((launched[1] - launched[0]) - 9) < 1e-3 && abs((launched[2] - launched[1]) - 9) < 1e-3)
        #expect(abs(launched[1] - c.paddleX) < 1e-3)
        #expect((0 ..< 3).allSatisfy { c.ballVY[$0] > 0 })
        var o = lab.game.observation()
        #expect(o[8] == 1 && o[13] == 1 && o[18] == 1)
        // Lose the middle ball: the last takes its slot, no life is lost.
        lab.ball(1, x: 300, y: 3, vx: 0, vy: -8)
        let third = (x: lab.core.ballX[2] + lab.core.ballVX[2], y: lab.core.ballY[2] + lab.core.ballVY[2])
        lab.run(1)
        #expect(lab.core.ballCount == 2 && lab.events.ballsLost == 1 && lab.events.livesLost == 0)
        #expect(lab.core.ballX[1] == third.x && lab.core.ballY[1] == third.y)
        o = lab.game.observation()
        #expect(o[8] == 1 && o[13] == 1 && o[18 ..< 23].allSatisfy { $0 == 0 })
        #expect(lab.core.ballX[2] == 0 && lab.core.ballVY[2] == 0)
        // Losing the other two costs exactly one life.
        lab.ball(0, x: 300, y: 3, vx: 0, vy: -8)
        lab.ball(1, x: 20, y: 3, vx: 0, vy: -8)
        lab.run(1)
        #expect(lab.core.ballCount == 0 && lab.events.ballsLost == 3 && lab.events.livesLost == 1 && lab.core.lives == 2)
    }

    @Test func manualServeWaitsForThePush() {
        var lab = BreakoutLab(labConfig([far]) { $0.autoServe = false })
        lab.run(100)
        #expect(lab.core.servePending && lab.core.ballCount == 0)
        lab.run(1, action: BreakoutAction.push.rawValue)
        #expect(!lab.core.servePending && lab.core.ballCount == 1 && lab.events.pushes == 0)
    }

    @Test func paddleShrinksAtTheTopWallUntilTheNextServe() throws {
        var lab = BreakoutLab(try BreakoutConfig.preset("atari"))
        #expect(lab.core.paddleHalfWidth == 16)
        lab.ball(x: 160, y: 400, vx: 0, vy: 3)
        lab.run(8)
        #expect(lab.core.paddleShrunk && lab.core.paddleHalfWidth == 8)
        lab.ball(x: 300, y: 10, vx: 0, vy: -8)
        lab.run(2)
        #expect(lab.core.servePending)
        lab.run(1, action: BreakoutAction.push.rawValue)
        #expect(!lab.core.paddleShrunk && lab.core.paddleHalfWidth == 16)
    }

    @Test func paddleMovesAtItsSpeedWithinTheWalls() {
        var lab = BreakoutLab(labConfig([far]))
        lab.run(1, action: BreakoutAction.left.rawValue)
        #expect(lab.core.paddleX == 154)
        lab.run(100, action: BreakoutAction.left.rawValue)
        #expect(lab.core.paddleX == 24)
        lab.run(100, action: BreakoutAction.right.rawValue)
        #expect(lab.core.paddleX == 296)
    }

    @Test func frameSkipRepeatsTheActionAndSumsRewards() {
        var lab = BreakoutLab(labConfig([(0, 0, "#"), (0, 1, "#"), far]) { $0.frameSkip = 4 })
        lab.ball(0, x: 16, y: 340, vx: 0, vy: 4)
        lab.ball(1, x: 48, y: 336, vx: 0, vy: 4)
        let r = lab.run(1, action: BreakoutAction.right.rawValue)
        #expect(lab.core.frames == 4 && lab.core.paddleX == 184)
        #expect(r?.reward == 2)
    }

    @Test func stickyActionsRepeatThePreviousFrameAction() {
        var always = BreakoutLab(labConfig([far]) { $0.stickyActionProbability = 1 })
        always.run(20, action: BreakoutAction.right.rawValue)
        #expect(always.core.paddleX == 160)                  // keeps repeating the first frame's noop
        var some = BreakoutLab(labConfig([far]) { $0.stickyActionProbability = 0.5 })
        var overridden = 0
        for k in 0 ..< 40 {
            let requested = k % 2 == 0 ? BreakoutAction.right.rawValue : BreakoutAction.left.rawValue
            some.run(1, action: requested)
            if Int(some.core.lastAction) != requested { overridden += 1 }
        }
        #expect(overridden > 5 && overridden < 35, "\(overridden) of 40 frames kept the previous action")
        // The sticky draws have their own generator: serves are unchanged.
        var plain = BreakoutLab(labConfig([far]) { $0.serveDelay = 0 })
        var sticky = BreakoutLab(labConfig([far]) { $0.serveDelay = 0; $0.stickyActionProbability = 0.5 })
        plain.run(1); sticky.run(1)
        #expect(plain.core.ballVX[0] == sticky.core.ballVX[0])
    }

    @Test func observationLayout() {
        var lab = BreakoutLab(labConfig([(0, 0, "T"), (4, 9, "#")]) { $0.toughHits = 4 })
        #expect(lab.game.observationCount == 8 + 15 + 50 + 9 + 7)
        #expect(BreakoutPhysics.observationCount(for: lab.config) == 89)
        #expect(lab.game.physics.observationLayout.count == 89)
        lab.ball(x: 240, y: 360, vx: 5, vy: -2)
        let o = lab.game.observation()
        #expect(o[0] == 0 && o[1] == 24 / 160.0 && o[2] == 1 && o[3] == 0 && o[4] == 0 && o[6] == 0)
        #expect(o[7] == 0.4)
        #expect(o[8] == 1 && o[9] == 0.5 && o[10] == 0.5 && o[11] == 0.5 && o[12] == -0.2)
        #expect(o[13 ..< 23].allSatisfy { $0 == 0 })
        #expect(o[23] == 1 && o[23 + 49] == 0.25 && o[24 ..< 72].allSatisfy { $0 == 0 })
        // Paddle-relative features (version 2) from C = 73: the ball is far
        // from the paddle, so every ball slot's prediction says "no hurry".
        #expect(o[73] == 0.25 && o[75] == 1 && o[76 ..< 82].allSatisfy { $0 == 0 })
        #expect(o[82] == 1 && o[83] == 0.25 && o[87] == -0.2)
    }

    /// The paddle-relative features of a falling ball: it reaches the face
    /// line (y = 32 + 4 + 3 = 39) after (100 − 39) / 4 = 15.25 frames, at
    /// x = 240 − 4 × 15.25 = 179; the paddle is at 160 (half width 24).
    @Test func paddleRelativeFeaturesPredictTheCrossing() {
        var lab = BreakoutLab(labConfig([(0, 0, "T"), (4, 9, "#")]) { $0.toughHits = 4 })
        lab.ball(x: 240, y: 100, vx: -4, vy: -4)
        let o = lab.game.observation()
        func near(_ a: Float, _ b: Float) -> Bool { abs(a - b) < 1e-6 }
        #expect(lab.game.physics.relativeStart == 73)
        #expect(near(o[73], 80 / 320) && near(o[74], 19 / 320) && near(o[75], 15.25 * 6 / 320))
        #expect(o[76 ..< 82].allSatisfy { $0 == 0 })
        #expect(o[82] == 1 && near(o[83], 80 / 320) && near(o[84], 19 / 320) && near(o[85], 19 / 27))
        #expect(near(o[86], 15.25 * 6 / 320) && near(o[87], -0.4))
        // Aim: column 0 holds the most hits (the tough brick), centre x 16.
        #expect(near(o[88], (16 - 179) / 320))
        // A wall bounce on the way: from x = 20 moving left 4 per frame the
        // ball meets the wall (x = 3) and comes back to 3 + (61 − 17) = 47.
        lab.ball(x: 20, y: 100, vx: -4, vy: -4)
        #expect(near(lab.game.observation()[74], (47 - 160) / 320))
        // No ball in play: the focus block is zero, the aim relative to the paddle.
        lab.core.ballCount = 0
        let none = lab.game.observation()
        #expect(none[73 ..< 88].allSatisfy { $0 == 0 } && near(none[88], (16 - 160) / 320))
    }
}
