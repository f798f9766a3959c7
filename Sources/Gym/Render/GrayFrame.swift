/// An 8-bit grayscale image, row 0 at the top, stored row-major in a plain
/// contiguous array (a C caller can own an equivalent buffer).
public struct GrayFrame: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: UInt8 = 0) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: fill, count: width * height)
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    public mutating func clear(_ value: UInt8 = 0) {
        for i in pixels.indices { pixels[i] = value }
    }

    /// Fills the pixels covered by a field-space box. Field space has y up;
    /// `scale` is pixels per field unit.
    public mutating func fill(_ box: Box, fieldHeight: Float, scale: Float, value: UInt8) {
        let x0 = max(0, Int((box.minX * scale).rounded(.down)))
        let x1 = min(width, Int((box.maxX * scale).rounded(.up)))
        let y0 = max(0, Int(((fieldHeight - box.maxY) * scale).rounded(.down)))
        let y1 = min(height, Int(((fieldHeight - box.minY) * scale).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0 ..< y1 {
            let row = y * width
            for x in x0 ..< x1 { pixels[row + x] = value }
        }
    }
}
