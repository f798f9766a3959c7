/// Builds an animated grayscale GIF (GIF89a) in memory.
///
/// Format: the GIF89a specification (CompuServe, 1990): a 256-entry gray
/// global palette, one image per frame compressed with variable-width LZW
/// (8-bit minimum code size, codes up to 12 bits, a clear code when the
/// table fills), a Graphic Control Extension per frame for its delay, and
/// the NETSCAPE2.0 extension for looping.
public struct GIFEncoder: Sendable {
    public let width: Int
    public let height: Int
    /// Frame delay in hundredths of a second.
    public let delay: UInt16
    public private(set) var bytes: [UInt8] = []
    public private(set) var frameCount = 0

    /// - Parameters:
    ///   - delay: hundredths of a second per frame (2 ≈ 50 fps, the finest most viewers honour).
    ///   - loop: repeat forever.
    public init(width: Int, height: Int, delay: UInt16 = 2, loop: Bool = true) {
        precondition(width > 0 && width < 65536 && height > 0 && height < 65536, "GIF size out of range")
        self.width = width
        self.height = height
        self.delay = delay
        bytes += Array("GIF89a".utf8)
        append16(UInt16(width)); append16(UInt16(height))
        bytes += [0xF7, 0, 0]                      // global palette, 8 bits, 256 entries
        for g in 0 ... 255 { bytes += [UInt8(g), UInt8(g), UInt8(g)] }
        if loop {
            bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        }
    }

    mutating func append16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// Appends one frame (its size must match the encoder's).
    public mutating func add(_ frame: GrayFrame) {
        precondition(frame.width == width && frame.height == height, "frame size differs from the GIF's")
        bytes += [0x21, 0xF9, 0x04, 0x00]           // graphic control: no transparency
        append16(delay)
        bytes += [0x00, 0x00]
        bytes += [0x2C, 0, 0, 0, 0]                 // image descriptor at (0, 0)
        append16(UInt16(width)); append16(UInt16(height))
        bytes += [0x00]                             // no local palette, not interlaced
        bytes += [8]                                // LZW minimum code size
        let data = GIFEncoder.lzw(frame.pixels)
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            bytes.append(UInt8(n))
            bytes += data[i ..< i + n]
            i += n
        }
        bytes.append(0)
        frameCount += 1
    }

    /// The finished file (trailer appended).
    public var data: [UInt8] { bytes + [0x3B] }

    /// GIF-flavoured LZW of 8-bit indices, packed least significant bit first.
    static func lzw(_ input: [UInt8]) -> [UInt8] {
        let clear = 256, end = 257
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 2)
        var bitBuffer: UInt32 = 0, bitCount: UInt32 = 0
        var codeSize: UInt32 = 9
        var table: [Int: Int] = [:]
        table.reserveCapacity(4096)
        var next = 258
        func emit(_ code: Int) {
            bitBuffer |= UInt32(code) << bitCount
            bitCount += codeSize
            while bitCount >= 8 {
                out.append(UInt8(bitBuffer & 0xFF))
                bitBuffer >>= 8
                bitCount -= 8
            }
        }
        emit(clear)
        guard let first = input.first else {
            emit(end)
            if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
            return out
        }
        var prefix = Int(first)
        for byte in input.dropFirst() {
            let key = prefix << 8 | Int(byte)
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            if next < 4096 {
                table[key] = next
                // The decoder widens one code later than the encoder adds it.
                if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
                next += 1
            } else {
                emit(clear)
                table.removeAll(keepingCapacity: true)
                next = 258
                codeSize = 9
            }
            prefix = Int(byte)
        }
        emit(prefix)
        emit(end)
        if bitCount > 0 { out.append(UInt8(bitBuffer & 0xFF)) }
        return out
    }
}
