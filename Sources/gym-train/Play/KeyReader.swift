/// A key a person pressed in `play`, decoded from the terminal's bytes.
enum PlayKey: Equatable {
    case left, right, up, down
    /// Space: Breakout's push (and serve).
    case push
    case pause
    /// `q` or Ctrl-C.
    case quit
    /// `s`: save the game and quit.
    case save
    /// Ctrl-Z (a byte in raw mode): saves and quits, like SIGTSTP.
    case suspend
    /// `.`: one step of the manual clock (tests); any other key otherwise.
    case tick
    /// Any other key (starts a new game on the end screen).
    case other
}

/// Turns the bytes read from a raw-mode terminal into keys.
///
/// Arrows come as escape sequences (`ESC [ A` ... `ESC [ D`, or `ESC O A`
/// in application mode), which a read may split anywhere: the reader keeps
/// its state between ``feed(_:)`` calls, so the keys decoded from a byte
/// stream do not depend on how it was chunked. A lone escape is dropped at
/// the next byte that does not continue it. Letters are case-insensitive.
struct KeyReader {
    private enum State { case ground, escape, csi }
    private var state = State.ground

    /// The keys the bytes complete, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [PlayKey] {
        var keys: [PlayKey] = []
        for b in bytes {
            switch state {
            case .ground:
                if b == 0x1B { state = .escape } else if let key = Self.plain(b) { keys.append(key) }
            case .escape:
                if b == UInt8(ascii: "[") || b == UInt8(ascii: "O") {
                    state = .csi
                } else {
                    state = .ground
                    if b == 0x1B { state = .escape } else if let key = Self.plain(b) { keys.append(key) }
                }
            case .csi:
                // Parameter and intermediate bytes (0x20 ... 0x3F) continue the sequence; a final byte ends it.
                if (0x20 ... 0x3F).contains(b) { continue }
                state = .ground
                switch b {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: keys.append(.other)
                }
            }
        }
        return keys
    }

    private static func plain(_ b: UInt8) -> PlayKey? {
        switch b {
        case UInt8(ascii: "a"), UInt8(ascii: "A"): .left
        case UInt8(ascii: "d"), UInt8(ascii: "D"): .right
        case UInt8(ascii: "w"), UInt8(ascii: "W"): .up
        case UInt8(ascii: "x"), UInt8(ascii: "X"): .down
        case UInt8(ascii: " "): .push
        case UInt8(ascii: "p"), UInt8(ascii: "P"): .pause
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03: .quit
        case UInt8(ascii: "s"), UInt8(ascii: "S"): .save
        case 0x1A: .suspend
        case UInt8(ascii: "."): .tick
        case 0x80 ... 0xBF: nil   // UTF-8 continuation bytes belong to the key before
        default: .other
        }
    }
}
