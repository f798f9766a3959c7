import Testing
@testable import Gym

@Suite struct PixelObservationTests {
    @Test func sizesOutsideTheRangeAreRefused() {
        #expect(PixelObservation(width: 0, height: 84) == nil)
        #expect(PixelObservation(width: 84, height: PixelObservation.maxSide + 1) == nil)
        #expect(PixelObservation(width: 160, height: 210)?.byteCount == 160 * 210)
    }

    /// The ball is drawn where the state puts it (field y up, image y down),
    /// the paddles at their rows, the top seat's view is the bottom's rotated.
    @Test func pongDrawsBallAndPaddlesWhereTheStateHasThem() throws {
        let config = try PongConfig.preset("classic")
        var s = PongGame(config: config, seed: 3).state
        s.ballX = config.fieldWidth * 0.25
        s.ballY = config.fieldHeight * 0.75
        let size = PixelObservation.atari
        var bottom = [UInt8](repeating: 7, count: size.byteCount)
        var top = bottom
        bottom.withUnsafeMutableBufferPointer { size.render(s, config: config, rotated: false, into: $0.baseAddress!) }
        top.withUnsafeMutableBufferPointer { size.render(s, config: config, rotated: true, into: $0.baseAddress!) }
        #expect(bottom[21 * 84 + 21] == 255)          // the ball: a quarter across, a quarter down
        #expect(bottom[42 * 84 + 60] == 64)           // the centre line
        #expect(bottom[(84 - 4) * 84 + 42] == 255)    // the bottom paddle, centred
        #expect(bottom[3 * 84 + 42] == 255)           // the top paddle
        #expect(bottom.filter { $0 == 7 }.isEmpty)    // every pixel written
        #expect(top == Array(bottom.reversed()))
    }

    /// A state with non-finite or huge coordinates writes only inside the image.
    @Test func nonFiniteStatesStayInsideTheImage() throws {
        let config = try PongConfig.preset("classic")
        var s = PongGame(config: config, seed: 1).state
        let size = PixelObservation(width: 16, height: 9)!
        for v: Float in [.nan, .infinity, -.infinity, 1e30, -1e30] {
            s.ballX = v; s.ballY = -v; s.bottomX = v; s.topY = v
            var image = [UInt8](repeating: 0, count: size.byteCount + 32)
            image.withUnsafeMutableBufferPointer { size.render(s, config: config, rotated: false, into: $0.baseAddress!) }
            #expect(image[size.byteCount...].allSatisfy { $0 == 0 })
        }
    }

    /// Breakout: the bricks of a fresh game fill the wall rows, nothing else
    /// is drawn there, and a broken brick disappears.
    @Test func breakoutDrawsTheWall() throws {
        let config = try BreakoutConfig.preset("classic")
        let batch = BreakoutBatch(config: config, count: 2, seed: 5)
        let layout = BreakoutPixelLayout(config: config, size: .atari)
        var a = [UInt8](repeating: 0, count: 84 * 84), b = a
        a.withUnsafeMutableBufferPointer { batch.render(0, layout: layout, into: $0.baseAddress!) }
        let wallRow = Int(((config.fieldHeight - config.wallBottom - config.brickHeight / 2) / config.fieldHeight * 84))
        #expect(a[wallRow * 84 + 4] != 0)
        batch.bricks[0] = 0   // the bottom-left brick is gone
        b.withUnsafeMutableBufferPointer { batch.render(0, layout: layout, into: $0.baseAddress!) }
        #expect(a != b)
        #expect(b[wallRow * 84 + 4] == 0)
    }
}
