extension PongGame {
    /// A frame sized for this field at `scale` pixels per unit.
    public func makeFrame(scale: Float = 0.5) -> GrayFrame {
        GrayFrame(width: max(1, Int((config.fieldWidth * scale).rounded())),
                  height: max(1, Int((config.fieldHeight * scale).rounded())))
    }

    /// Draws the field into `frame` (whose size sets the scale): paddles 255,
    /// ball 255, centre line 64, background 0.
    public func render(into frame: inout GrayFrame) {
        let c = config, s = state
        let scale = Float(frame.width) / c.fieldWidth
        frame.clear(0)
        frame.fill(Box(center: Vec2(c.fieldWidth / 2, c.fieldHeight / 2), half: Vec2(c.fieldWidth / 2, 0.5 / scale)),
                   fieldHeight: c.fieldHeight, scale: scale, value: 64)
        let paddleHalf = Vec2(c.paddleWidth / 2, c.paddleHeight / 2)
        frame.fill(Box(center: Vec2(s.bottomX, s.bottomY), half: paddleHalf), fieldHeight: c.fieldHeight, scale: scale, value: 255)
        frame.fill(Box(center: Vec2(s.topX, s.topY), half: paddleHalf), fieldHeight: c.fieldHeight, scale: scale, value: 255)
        frame.fill(Box(center: Vec2(s.ballX, s.ballY), half: Vec2(c.ballSize / 2, c.ballSize / 2)),
                   fieldHeight: c.fieldHeight, scale: scale, value: 255)
    }
}
