import Testing
@testable import Gym

/// The Breakout frame: bricks by kind, paddle and balls, and a hit brick
/// flashing before it disappears.
@Suite struct BreakoutRenderTests {
    /// The gray level at the centre of brick (row from the bottom, column), scale 0.5.
    func pixel(_ frame: GrayFrame, _ lab: BreakoutLab, row: Int, col: Int) -> UInt8 {
        let c = lab.brickCentre(row: row, col: col)
        return frame[Int(c.x * 0.5), Int((lab.config.fieldHeight - c.y) * 0.5)]
    }

    @Test func frameShowsBricksByKindPaddleAndBall() {
        var lab = BreakoutLab(labConfig([(0, 0, "#"), (1, 2, "T"), (2, 4, "X"), (3, 6, "B"), (4, 8, "S")]))
        lab.ball(x: 100, y: 200, vx: 0, vy: 1)
        var frame = lab.game.makeFrame(scale: 0.5)
        #expect(frame.width == 160 && frame.height == 240)
        lab.game.render(into: &frame)
        #expect(pixel(frame, lab, row: 0, col: 0) == 150)
        #expect(pixel(frame, lab, row: 1, col: 2) == 150)      // tough, 2 hits left: 110 + 2 × 20
        #expect(pixel(frame, lab, row: 2, col: 4) == 200)
        #expect(pixel(frame, lab, row: 3, col: 6) == 230)
        #expect(pixel(frame, lab, row: 4, col: 8) == 180)
        #expect(pixel(frame, lab, row: 0, col: 1) == 0)
        #expect(frame[50, 140] == 255)                        // ball (100, 200)
        #expect(frame[80, 224] == 255)                        // paddle (160, 32)
        #expect(frame[80, 5] == 0)
    }

    @Test func pendingServeShowsTheBallOnThePaddle() {
        let lab = BreakoutLab(BreakoutConfig())
        var frame = lab.game.makeFrame(scale: 0.5)
        lab.game.render(into: &frame)
        // Ball centre at y = 36 + 3 + 1 = 40 → pixel row (480 - 40) / 2 = 220.
        #expect(lab.core.servePending && frame[80, 220] == 255)
    }

    @Test func aHitBrickFlashesBeforeItDisappears() {
        var lab = BreakoutLab(labConfig([(0, 0, "#"), (4, 9, "#")]))
        lab.ball(x: 16, y: 340, vx: 0, vy: 4)
        var frame = lab.game.makeFrame(scale: 0.5)
        var seen: [UInt8] = []
        var brokeAt = -1
        for step in 0 ..< 30 {
            lab.run(1)
            if brokeAt < 0, lab.events.brokenNormal == 1 { brokeAt = step }
            lab.game.render(into: &frame)
            if brokeAt >= 0 { seen.append(pixel(frame, lab, row: 0, col: 0)) }
        }
        #expect(brokeAt >= 0 && lab.hits(row: 0, col: 0) == 0)
        // Flashing: bright (255) and dim frames alternate while the brick is
        // already gone, then the cell is background.
        let flash = Int(BreakoutPhysics.flashFrames)
        #expect(seen.prefix(flash - 1).contains(255) && seen.prefix(flash - 1).contains { $0 != 255 && $0 != 0 })
        #expect(seen.dropFirst(flash).allSatisfy { $0 == 0 })
    }

    @Test func aDamagedToughBrickFlashesAndStays() {
        var lab = BreakoutLab(labConfig([(0, 0, "T"), (4, 9, "#")]) { $0.toughHits = 3 })
        lab.ball(x: 16, y: 340, vx: 0, vy: 4)
        var frame = lab.game.makeFrame(scale: 0.5)
        lab.run(3)
        lab.game.render(into: &frame)
        #expect(lab.hits(row: 0, col: 0) == 2)
        let during = pixel(frame, lab, row: 0, col: 0)
        lab.run(20)
        lab.game.render(into: &frame)
        #expect(during == 255 || during == 150)
        #expect(pixel(frame, lab, row: 0, col: 0) == 150)   // 110 + 2 × 20: two hits left
    }
}
