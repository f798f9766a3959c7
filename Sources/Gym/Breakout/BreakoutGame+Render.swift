extension BreakoutGame {
    /// A frame sized for this field at `scale` pixels per unit.
    public func makeFrame(scale: Float = 0.5) -> GrayFrame {
        GrayFrame(width: max(1, Int((config.fieldWidth * scale).rounded())),
                  height: max(1, Int((config.fieldHeight * scale).rounded())))
    }

    /// Draws the field into `frame` (whose size sets the scale): background 0,
    /// bricks by kind and hits left (normal 150, tough 110 + 20 per hit left,
    /// explosive 200, extra ball 230, speed-up 180), a pixel of background around each;
    /// paddle and balls 255; a pending serve's ball resting on the paddle.
    /// A brick hit within the last ``BreakoutPhysics/flashFrames`` frames
    /// flashes: it alternates between 255 and its own shade every 2 frames,
    /// and a broken brick keeps flashing where it stood before it disappears.
    public func render(into frame: inout GrayFrame) {
        let c = config, s = state.core
        let scale = Float(frame.width) / c.fieldWidth
        let h = c.fieldHeight
        frame.clear(0)
        let bw = c.brickWidth, bh = c.brickHeight
        let bottom = c.wallBottom
        // One pixel of background around each brick (boxes are filled with
        // their edges rounded outward), so neighbours stay apart.
        let gap: Float = min(1 / scale, bh / 4, bw / 4)
        func brickBox(_ cell: Int) -> Box {
            let col = cell % c.brickColumns, row = cell / c.brickColumns
            return Box(center: Vec2((Float(col) + 0.5) * bw, bottom + (Float(row) + 0.5) * bh),
                       half: Vec2(bw / 2 - gap, bh / 2 - gap))
        }
        for cell in state.bricks.indices where state.bricks[cell] & BrickCell.hitsMask != 0 {
            frame.fill(brickBox(cell), fieldHeight: h, scale: scale, value: BreakoutGame.shade(state.bricks[cell]))
        }
        // Flashing bricks (most recent last, so it wins).
        for k in 0 ..< 8 {
            let slot = (Int(s.flashHead) + k) & 7
            let cell = Int(s.flashCell[slot])
            let left = s.flashUntil[slot] &- s.frames
            guard cell >= 0, cell < state.bricks.count, left > 0, left <= BreakoutPhysics.flashFrames else { continue }
            let on = (left / 2) % 2 == 0
            let own = state.bricks[cell] & BrickCell.hitsMask != 0 ? BreakoutGame.shade(state.bricks[cell]) : 0
            frame.fill(brickBox(cell), fieldHeight: h, scale: scale, value: on ? 255 : max(own, 60))
        }
        frame.fill(Box(center: Vec2(s.paddleX, c.paddleInset), half: Vec2(s.paddleHalfWidth, c.paddleHeight / 2)),
                   fieldHeight: h, scale: scale, value: 255)
        let ballHalf = Vec2(c.ballSize / 2, c.ballSize / 2)
        for k in 0 ..< Int(s.ballCount) {
            frame.fill(Box(center: Vec2(s.ballX[k], s.ballY[k]), half: ballHalf), fieldHeight: h, scale: scale, value: 255)
        }
        if s.servePending, s.end == .none {
            let y = c.paddleInset + c.paddleHeight / 2 + c.ballSize / 2 + 1
            frame.fill(Box(center: Vec2(s.paddleX, y), half: ballHalf), fieldHeight: h, scale: scale, value: 255)
        }
    }

    /// The gray level of a brick cell.
    static func shade(_ cell: UInt8) -> UInt8 {
        switch BrickCell.kind(cell) {
        case .normal: 150
        case .tough: UInt8(110 + 20 * min(6, BrickCell.hits(cell)))
        case .explosive: 200
        case .extraBall: 230
        case .speedUp: 180
        }
    }
}
