/// The kinds of Breakout bricks and how a brick is stored in one byte.
///
/// A brick grid is a plain `rows × columns` buffer of `UInt8` cells, row 0
/// the bottom row (nearest the paddle), cell `row * columns + column`, so a
/// batch can keep every environment's grid in one contiguous buffer. A cell
/// holds:
///
/// | bits | meaning |
/// |---|---|
/// | 0–2 | hits left (0 = no brick) |
/// | 4–6 | ``BrickKind`` raw value |
/// | 7 | explosion pending (only inside one frame, while a chain resolves) |
public enum BrickKind: UInt8, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// Breaks on the first hit.
    case normal = 0
    /// Takes `toughHits` hits.
    case tough = 1
    /// When broken, deals one hit to each of its (up to 8) neighbours; chains.
    case explosive = 2
    /// When broken, releases an extra ball (if fewer than `maxBalls` are in play).
    case extraBall = 3
    /// When broken, raises the ball speed level by `speedUpIncrement`.
    case speedUp = 4

    /// The character that draws this kind in a config's `layout`.
    public var layoutCharacter: Character {
        switch self {
        case .normal: "#"
        case .tough: "T"
        case .explosive: "X"
        case .extraBall: "B"
        case .speedUp: "S"
        }
    }

    /// The kind drawn by `c` in a layout, `nil` for an empty cell (`.`) or an
    /// unknown character (see ``BrickCell/layoutCharacters``).
    public init?(layoutCharacter c: Character) {
        guard let kind = BrickKind.allCases.first(where: { $0.layoutCharacter == c }) else { return nil }
        self = kind
    }

    public var description: String {
        switch self {
        case .normal: "normal"
        case .tough: "tough"
        case .explosive: "explosive"
        case .extraBall: "extra-ball"
        case .speedUp: "speed-up"
        }
    }
}

/// Reading and writing one brick cell (see ``BrickKind`` for the bit layout).
public enum BrickCell {
    /// Every character a layout row may contain: `.` for no brick, then one per kind.
    public static let layoutCharacters: [Character] = ["."] + BrickKind.allCases.map(\.layoutCharacter)

    /// Mask of the hits-left bits.
    public static let hitsMask: UInt8 = 0x07
    /// The explosion-pending flag.
    public static let pending: UInt8 = 0x80

    /// A cell holding a brick of `kind` with `hits` hits left (1 ... 7).
    @inlinable
    public static func make(_ kind: BrickKind, hits: Int) -> UInt8 {
        kind.rawValue << 4 | UInt8(truncatingIfNeeded: hits) & hitsMask
    }

    /// Hits left (0 for an empty cell).
    @inlinable
    public static func hits(_ cell: UInt8) -> Int { Int(cell & hitsMask) }

    /// The kind of the brick in `cell` (meaningless for an empty cell).
    @inlinable
    public static func kind(_ cell: UInt8) -> BrickKind {
        BrickKind(rawValue: (cell >> 4) & 0x07) ?? .normal
    }
}
