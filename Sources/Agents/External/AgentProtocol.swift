/// The external agent protocol, version 1 (docs/agents.md is its reference:
/// every message, field and byte). Frames: u32 length (bytes after it), u32
/// type, payload; all little-endian.
public enum AgentProtocol {
    public static let version: UInt32 = 1
    /// The largest frame length accepted (bytes after the length field).
    static let maxFrame = 1 << 30

    enum Message: UInt32 {
        case hello = 1, start = 2, end = 3, act = 4, bye = 5
        case welcome = 0x81, actions = 0x84, error = 0x8F
    }

    /// What the gym tells an agent in HELLO.
    public struct Hello: Equatable, Sendable {
        public var pixels: Bool
        /// Features per row, or the image's width.
        public var width: Int
        /// 1 for features, or the image's height.
        public var height: Int
        public var actions: Int
        /// Game indices run over `0 ..< games`.
        public var games: Int
        public var seats: Int
        public var configHash: UInt64
        public var game: String
        public var config: String

        public init(pixels: Bool, width: Int, height: Int, actions: Int, games: Int, seats: Int,
                    configHash: UInt64, game: String, config: String) {
            self.pixels = pixels; self.width = width; self.height = height; self.actions = actions
            self.games = games; self.seats = seats; self.configHash = configHash; self.game = game; self.config = config
        }

        /// Bytes per observation row.
        public var rowBytes: Int { pixels ? width * height : 4 * width }
    }
}

/// A growable little-endian byte buffer for frames.
struct FrameBuffer {
    var bytes: [UInt8] = []

    mutating func u32(_ x: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: x)); bytes.append(UInt8(truncatingIfNeeded: x >> 8))
        bytes.append(UInt8(truncatingIfNeeded: x >> 16)); bytes.append(UInt8(truncatingIfNeeded: x >> 24))
    }

    mutating func u64(_ x: UInt64) { u32(UInt32(truncatingIfNeeded: x)); u32(UInt32(truncatingIfNeeded: x >> 32)) }

    mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(utf8.count))
        bytes += utf8
    }

    /// Starts a frame of `type`; returns where its length goes (``close(_:)``).
    mutating func open(_ type: AgentProtocol.Message) -> Int {
        let at = bytes.count
        u32(0); u32(type.rawValue)
        return at
    }

    /// Writes the length of the frame opened at `at`.
    mutating func close(_ at: Int) {
        let length = UInt32(bytes.count - at - 4)
        for k in 0 ..< 4 { bytes[at + k] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(k))) }
    }

    mutating func hello(_ h: AgentProtocol.Hello) {
        let at = open(.hello)
        u32(AgentProtocol.version); u32(h.pixels ? 1 : 0); u32(UInt32(h.width)); u32(UInt32(h.height))
        u32(UInt32(h.actions)); u32(UInt32(h.games)); u32(UInt32(h.seats)); u64(h.configHash)
        string(h.game); string(h.config)
        close(at)
    }

    /// Reads a little-endian u32 at `offset`.
    static func u32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
