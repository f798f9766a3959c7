/// Pixel observations: a game drawn from its state into a caller-owned
/// `height × width` 8-bit grayscale buffer (row 0 at the top, row-major),
/// the Atari-style input pixel agents expect (84 × 84 by default).
///
/// The whole field is stretched onto the buffer (x scale `width / fieldWidth`,
/// y scale `height / fieldHeight`, y up in the field, down in the image), so
/// any size keeps the whole field in view. Boxes are filled with their edges
/// rounded outward, so the ball stays at least one pixel at any size.
///
/// Gray levels: background 0; Pong centre line 64, paddles and ball 255;
/// Breakout bricks by kind and hits left (``BreakoutGame``'s shades: normal
/// 150, tough 110 + 20 per hit left, explosive 200, extra ball 230, speed-up
/// 180), paddle and balls 255, a pending serve's ball resting on the paddle.
/// Unlike the GIF renderer, bricks do not flash (the image is a function of
/// the state a policy can act on, not of animation timers).
///
/// Every coordinate is clamped to the buffer before it becomes an index, so
/// any state (even a non-finite one) writes only inside the buffer.
public struct PixelObservation: Equatable, Sendable {
    /// Image width in pixels (1 ... ``maxSide``).
    public let width: Int
    /// Image height in pixels (1 ... ``maxSide``).
    public let height: Int
    /// The largest side allowed.
    public static let maxSide = 1024
    /// The default size (the DQN papers' 84 × 84).
    public static let atari = PixelObservation(uncheckedWidth: 84, height: 84)

    /// A size, or nil when a side is outside `1 ... maxSide`.
    public init?(width: Int, height: Int) {
        guard (1 ... Self.maxSide).contains(width), (1 ... Self.maxSide).contains(height) else { return nil }
        self.width = width
        self.height = height
    }

    init(uncheckedWidth width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Bytes per image.
    public var byteCount: Int { width * height }

    // MARK: - Drawing

    /// A pixel index for field coordinate `v` already scaled to pixels,
    /// clamped to `0 ... limit` (NaN goes to 0).
    @inline(__always)
    static func clamp(_ v: Float, _ limit: Int) -> Int {
        guard v > 0 else { return 0 }
        guard v < Float(limit) else { return limit }
        return Int(v)
    }

    /// Fills the field-space box `minX ... maxX × minY ... maxY` (y up).
    @inline(__always)
    func fill(_ out: UnsafeMutablePointer<UInt8>, minX: Float, maxX: Float, minY: Float, maxY: Float,
              sx: Float, sy: Float, fieldHeight: Float, value: UInt8) {
        let x0 = Self.clamp((minX * sx).rounded(.down), width)
        let x1 = Self.clamp((maxX * sx).rounded(.up), width)
        let y0 = Self.clamp(((fieldHeight - maxY) * sy).rounded(.down), height)
        let y1 = Self.clamp(((fieldHeight - minY) * sy).rounded(.up), height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0 ..< y1 {
            (out + y * width + x0).update(repeating: value, count: x1 - x0)
        }
    }

    /// Turns the image upside down and left to right (a 180° rotation): the
    /// top seat's view of Pong, its own paddle at the bottom as the
    /// bottom seat sees its own.
    @inline(__always)
    func rotate(_ out: UnsafeMutablePointer<UInt8>) {
        var a = 0, b = byteCount - 1
        while a < b {
            let t = out[a]; out[a] = out[b]; out[b] = t
            a += 1; b -= 1
        }
    }

    /// Draws a Pong state for the bottom seat (or rotated for the top seat).
    public func render(_ s: PongState, config c: PongConfig, rotated: Bool, into out: UnsafeMutablePointer<UInt8>) {
        let sx = Float(width) / c.fieldWidth, sy = Float(height) / c.fieldHeight
        let h = c.fieldHeight
        out.update(repeating: 0, count: byteCount)
        // The centre line: one pixel row.
        let line = Self.clamp((h / 2 * sy).rounded(.down), height - 1)
        (out + line * width).update(repeating: 64, count: width)
        let pw = c.paddleWidth / 2, ph = c.paddleHeight / 2, b = c.ballSize / 2
        fill(out, minX: s.bottomX - pw, maxX: s.bottomX + pw, minY: s.bottomY - ph, maxY: s.bottomY + ph,
             sx: sx, sy: sy, fieldHeight: h, value: 255)
        fill(out, minX: s.topX - pw, maxX: s.topX + pw, minY: s.topY - ph, maxY: s.topY + ph,
             sx: sx, sy: sy, fieldHeight: h, value: 255)
        fill(out, minX: s.ballX - b, maxX: s.ballX + b, minY: s.ballY - b, maxY: s.ballY + b,
             sx: sx, sy: sy, fieldHeight: h, value: 255)
        if rotated { rotate(out) }
    }

    /// Draws a Breakout game from its core and its brick grid
    /// (`brickRows × brickColumns` cells), the bricks' rectangles taken from
    /// `layout` (made for this config at this size).
    public func render(_ s: BreakoutCore, bricks: UnsafePointer<UInt8>, config c: BreakoutConfig,
                       layout: BreakoutPixelLayout, into out: UnsafeMutablePointer<UInt8>) {
        renderWall(bricks: bricks, layout: layout, into: out)
        renderMovers(s, config: c, into: out)
    }

    /// Draws the background and the bricks alone (what changes only when a
    /// brick does).
    public func renderWall(bricks: UnsafePointer<UInt8>, layout: BreakoutPixelLayout,
                           into out: UnsafeMutablePointer<UInt8>) {
        precondition(layout.size == self, "the layout is for another image size")
        out.update(repeating: 0, count: byteCount)
        layout.cells.withUnsafeBufferPointer { rects in
            for cell in 0 ..< rects.count {
                let b = bricks[cell]
                guard b & BrickCell.hitsMask != 0 else { continue }
                let r = rects[cell], v = BreakoutGame.shade(b)
                for y in Int(r[2]) ..< Int(r[3]) {
                    (out + y * width + Int(r[0])).update(repeating: v, count: Int(r[1] - r[0]))
                }
            }
        }
    }

    /// Draws the paddle, the balls and a pending serve's ball over an image
    /// that holds the wall.
    public func renderMovers(_ s: BreakoutCore, config c: BreakoutConfig, into out: UnsafeMutablePointer<UInt8>) {
        let sx = Float(width) / c.fieldWidth, sy = Float(height) / c.fieldHeight
        let h = c.fieldHeight
        let ph = c.paddleHeight / 2
        fill(out, minX: s.paddleX - s.paddleHalfWidth, maxX: s.paddleX + s.paddleHalfWidth,
             minY: c.paddleInset - ph, maxY: c.paddleInset + ph, sx: sx, sy: sy, fieldHeight: h, value: 255)
        let r = c.ballSize / 2
        let balls = min(max(0, Int(s.ballCount)), 8)
        for k in 0 ..< balls {
            fill(out, minX: s.ballX[k] - r, maxX: s.ballX[k] + r, minY: s.ballY[k] - r, maxY: s.ballY[k] + r,
                 sx: sx, sy: sy, fieldHeight: h, value: 255)
        }
        if s.servePending, s.end == .none {
            let y = c.paddleInset + ph + r + 1
            fill(out, minX: s.paddleX - r, maxX: s.paddleX + r, minY: y - r, maxY: y + r,
                 sx: sx, sy: sy, fieldHeight: h, value: 255)
        }
    }
}

/// The pixel rectangle of every brick cell of one Breakout config at one
/// image size, computed once (rendering then fills rows, with no float
/// arithmetic per brick). A gap of background separates bricks only where
/// a brick spans at least four pixels each way (at 84 × 84 a gap would
/// eat the brick).
public struct BreakoutPixelLayout: Sendable {
    public let size: PixelObservation
    /// Per cell: x0, x1, y0, y1 (half-open, clamped to the image).
    let cells: [SIMD4<Int32>]

    public init(config c: BreakoutConfig, size: PixelObservation) {
        self.size = size
        let sx = Float(size.width) / c.fieldWidth, sy = Float(size.height) / c.fieldHeight
        let bw = c.brickWidth, bh = c.brickHeight, bottom = c.wallBottom, h = c.fieldHeight
        let gapX: Float = bw * sx >= 4 ? 1 / sx : 0
        let gapY: Float = bh * sy >= 4 ? 1 / sy : 0
        cells = (0 ..< c.brickRows * c.brickColumns).map { cell in
            let col = cell % c.brickColumns, row = cell / c.brickColumns
            let x = Float(col) * bw, y = bottom + Float(row) * bh
            let x0 = PixelObservation.clamp(((x + gapX) * sx).rounded(.down), size.width)
            let x1 = PixelObservation.clamp(((x + bw - gapX) * sx).rounded(.up), size.width)
            let y0 = PixelObservation.clamp(((h - (y + bh - gapY)) * sy).rounded(.down), size.height)
            let y1 = PixelObservation.clamp(((h - (y + gapY)) * sy).rounded(.up), size.height)
            return SIMD4(Int32(x0), Int32(max(x0, x1)), Int32(y0), Int32(max(y0, y1)))
        }
    }
}

extension PongBatch {
    /// Draws game `i` into `out` (`size.byteCount` bytes): the bottom seat's
    /// view, or the top seat's (rotated 180°) when `rotated`.
    public func render(_ i: Int, size: PixelObservation, rotated: Bool, into out: UnsafeMutablePointer<UInt8>) {
        precondition(i >= 0 && i < count, "game index out of range")
        size.render(load(i), config: rules(i), rotated: rotated, into: out)
    }
}

extension BreakoutBatch {
    /// Draws game `i` into `out` (`layout.size.byteCount` bytes), from its
    /// core. Allocates nothing.
    public func render(_ i: Int, layout: BreakoutPixelLayout, into out: UnsafeMutablePointer<UInt8>) {
        precondition(i >= 0 && i < count, "game index out of range")
        layout.size.render(core(i), bricks: grid(i), config: rules(i), layout: layout, into: out)
    }
}
