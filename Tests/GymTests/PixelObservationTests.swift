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
        batch.grid(0)[0] = 0   // the bottom-left brick is gone
        b.withUnsafeMutableBufferPointer { batch.render(0, layout: layout, into: $0.baseAddress!) }
        #expect(a != b)
        #expect(b[wallRow * 84 + 4] == 0)
    }
}

@Suite struct BreakoutPixelRendererTests {
    /// Frames from the kept wall images equal frames drawn whole, step by
    /// step while bricks break (the cache must notice every change).
    @Test func cachedFramesEqualWholeFrames() throws {
        var config = try BreakoutConfig.preset("classic")
        config.lives = 1
        let batch = BreakoutBatch(config: config, count: 3, seed: 9)
        let size = PixelObservation(width: 40, height: 60)!
        let renderer = try #require(BreakoutPixelRenderer(config: config, count: 3, size: size))
        var actions: [Int32] = [1, 2, 3]
        var rewards = [Float](repeating: 0, count: 3)
        var term = [UInt8](repeating: 0, count: 3), trunc = term
        var cached = [UInt8](repeating: 0, count: size.byteCount), whole = cached
        var changes = 0
        var before = [UInt8](repeating: 0, count: 3 * batch.cellCount)
        for t in 0 ..< 3000 {
            for i in 0 ..< 3 { actions[i] = Int32((t / 17 + i) % 4) }
            rewards.withUnsafeMutableBufferPointer { r in
                term.withUnsafeMutableBufferPointer { te in
                    trunc.withUnsafeMutableBufferPointer { tr in
                        batch.step(actions: actions, into: VectorStepOutput<BreakoutEvents>(observations: nil, rewards: r.baseAddress!,
                                                                               terminated: te.baseAddress!, truncated: tr.baseAddress!))
                    }
                }
            }
            for i in 0 ..< 3 {
                cached.withUnsafeMutableBufferPointer { renderer.render(batch, i, into: $0.baseAddress!) }
                whole.withUnsafeMutableBufferPointer { batch.render(i, layout: renderer.layout, into: $0.baseAddress!) }
                #expect(cached == whole, "step \(t) game \(i)")
                for k in 0 ..< batch.cellCount where before[i * batch.cellCount + k] != batch.grid(i)[k] {
                    changes += 1
                    before[i * batch.cellCount + k] = batch.grid(i)[k]
                }
            }
        }
        #expect(changes > 0, "bricks must break during the test")
    }
}

@Suite struct BreakoutBatchPictureTests {
    /// A batch's picture of a game equals the picture of the same game
    /// restored alone, after steps that wrote no observation (games whose
    /// quiet frames ran in lanes among them), for 8, 9 and 64 games.
    @Test(arguments: [8, 9, 64])
    func pictureEqualsTheGameRestoredAlone(games: Int) throws {
        let config = try BreakoutConfig.preset("classic")
        let batch = BreakoutBatch(config: config, count: games, seed: 11)
        let buffers = VectorBuffers(batch, observedSeats: 0)
        let layout = BreakoutPixelLayout(config: config, size: try #require(PixelObservation(width: 70, height: 100)))
        var rng = Xoshiro256(seed: 5)
        var moved = 0
        for step in 1 ... 120 {
            for i in 0 ..< games { buffers.actions[i] = Int32(rng.below(4)) }
            buffers.step(batch)
            guard step % 40 == 0 else { continue }
            for i in 0 ..< games {
                var fromBatch = [UInt8](repeating: 0, count: layout.size.byteCount), alone = fromBatch
                fromBatch.withUnsafeMutableBufferPointer { batch.render(i, layout: layout, into: $0.baseAddress!) }
                let single = try BreakoutGame(restoring: batch.snapshot(i))
                single.state.bricks.withUnsafeBufferPointer { b in
                    alone.withUnsafeMutableBufferPointer {
                        layout.size.render(single.state.core, bricks: b.baseAddress!, config: config, layout: layout,
                                           into: $0.baseAddress!)
                    }
                }
                let differing = zip(fromBatch, alone).filter { $0 != $1 }.count
                #expect(differing == 0, "\(games) games, step \(step), game \(i): \(differing) pixels differ")
                if single.state.core.paddleX != config.fieldWidth / 2 { moved += 1 }
            }
        }
        #expect(moved > 0, "the paddles must move during the test")
    }

    /// A renderer whose wall images do not fit in memory is nil (its
    /// memory comes from malloc), not a stopped process.
    @Test func rendererTooLargeForMemoryIsNil() throws {
        let size = try #require(PixelObservation(width: 1024, height: 1024))
        #expect(BreakoutPixelRenderer(config: BreakoutConfig(), count: 1 << 40, size: size) == nil)
        #expect(BreakoutPixelRenderer(config: BreakoutConfig(), count: .max / 2, size: size) == nil)
        #expect(BreakoutPixelRenderer(config: BreakoutConfig(), count: 2, size: size) != nil)
    }
}
