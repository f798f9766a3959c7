/// The values a per-frame rule is written over once, for one game or for
/// eight at a time: `Float` (one game) and `SIMD8<Float>` (eight games, one
/// per lane) both conform, so a kernel generic over `LaneFloat` is the same
/// rule in both widths, specialised for each.
///
/// Every operation is the IEEE single-precision one lane by lane (adds,
/// subtracts, multiplies and comparisons give the same bits in a SIMD lane
/// as in a scalar register), and ``LaneFloat/min(_:_:)`` and
/// ``LaneFloat/max(_:_:)`` are the standard library's `min` and `max`
/// (`y < x ? y : x`, `y >= x ? y : x`), so a kernel's result in each lane is
/// the scalar result bit for bit. Comparisons give a ``LaneCondition``
/// (`Bool`, or a lane mask); a select (`replacing(with:where:)`) takes the
/// place of each branch, so the eight-lane form compiles to blends.
public protocol LaneFloat {
    associatedtype Condition: LaneCondition
    /// Every lane holding `value`.
    init(repeating value: Float)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static func + (a: Self, b: Float) -> Self
    static func - (a: Self, b: Float) -> Self
    static func * (a: Self, b: Float) -> Self
    static func - (a: Float, b: Self) -> Self
    static func / (a: Self, b: Self) -> Self
    static func / (a: Self, b: Float) -> Self
    /// The square root in every lane.
    func squareRoot() -> Self
    /// Every lane rounded by `rule`.
    func rounded(_ rule: FloatingPointRoundingRule) -> Self
    static func .< (a: Self, b: Self) -> Condition
    static func .<= (a: Self, b: Self) -> Condition
    static func .> (a: Self, b: Self) -> Condition
    static func .>= (a: Self, b: Self) -> Condition
    static func .== (a: Self, b: Self) -> Condition
    static func .< (a: Self, b: Float) -> Condition
    static func .<= (a: Self, b: Float) -> Condition
    static func .> (a: Self, b: Float) -> Condition
    static func .>= (a: Self, b: Float) -> Condition
    static func .== (a: Self, b: Float) -> Condition
    /// `min(a0, a1) < max(c0, c1)` in every lane, as the four comparisons
    /// that decide it, `a0 < c0 || a0 < c1 || a1 < c0 || a1 < c1` (the same
    /// outcome for every ordered value; no selects, and in one game one
    /// four-lane comparison, so no branch).
    static func spanBelow(_ a0: Self, _ a1: Self, _ c0: Self, _ c1: Self) -> Condition
    /// `max(a0, a1) > min(c0, c1)` in every lane (as ``spanBelow(_:_:_:_:)``).
    static func spanAbove(_ a0: Self, _ a1: Self, _ c0: Self, _ c1: Self) -> Condition
    /// `other` in the lanes where `mask` holds, `self` elsewhere.
    func replacing(with other: Self, where mask: Condition) -> Self
    func replacing(with other: Float, where mask: Condition) -> Self
    /// `a.truncatingRemainder(dividingBy: p)` in the lanes where `mask`
    /// holds, `self` elsewhere (eight games: computed lane by lane, only
    /// when some lane needs it).
    func replacing(withRemainderOf a: Self, dividingBy p: Float, where mask: Condition) -> Self
    /// -1 in the lanes where `minus` holds, else +1 where `plus` holds,
    /// else 0 (one game: integer arithmetic on the two bits, so a sign
    /// chosen by data, such as an action, costs no branch).
    static func sign(plus: Condition, minus: Condition) -> Self
    /// Whether a kernel returns early where one test already decides its
    /// result, skipping tests that cannot change it (the same result
    /// either way): one game, where a test that mostly comes out the same
    /// from frame to frame is one branch; never eight, whose lanes
    /// evaluate every test (an early return would wait for all eight
    /// lanes' tests to agree, and a branch on that costs more than the
    /// tests it skips).
    static var decidesEarly: Bool { get }
}

/// The result of comparing ``LaneFloat`` values: a ``LaneFlag`` for one
/// game, a lane mask for eight. The operators evaluate both operands (no
/// short circuit), so neither width branches on data.
public protocol LaneCondition {
    static func .& (a: Self, b: Self) -> Self
    static func .| (a: Self, b: Self) -> Self
    static prefix func .! (a: Self) -> Self
    /// Whether the condition holds in every lane.
    var holdsEverywhere: Bool { get }
    /// Whether the condition holds in some lane.
    var holdsSomewhere: Bool { get }
}

extension LaneFloat {
    /// The standard library's `min(x, y)`: `y < x ? y : x`, in every lane.
    @inlinable @inline(__always)
    public static func min(_ x: Self, _ y: Self) -> Self { x.replacing(with: y, where: y .< x) }
    @inlinable @inline(__always)
    public static func min(_ x: Self, _ y: Float) -> Self { x.replacing(with: y, where: x .> y) }

    /// The standard library's `max(x, y)`: `y >= x ? y : x`, in every lane.
    @inlinable @inline(__always)
    public static func max(_ x: Self, _ y: Self) -> Self { x.replacing(with: y, where: y .>= x) }
    @inlinable @inline(__always)
    public static func max(_ x: Self, _ y: Float) -> Self { x.replacing(with: y, where: x .<= y) }
}

extension Float: LaneFloat {
    @inlinable @inline(__always) public static var decidesEarly: Bool { true }
    @inlinable @inline(__always) public static func .< (a: Float, b: Float) -> LaneFlag { LaneFlag(a < b) }
    @inlinable @inline(__always) public static func .<= (a: Float, b: Float) -> LaneFlag { LaneFlag(a <= b) }
    @inlinable @inline(__always) public static func .> (a: Float, b: Float) -> LaneFlag { LaneFlag(a > b) }
    @inlinable @inline(__always) public static func .>= (a: Float, b: Float) -> LaneFlag { LaneFlag(a >= b) }
    @inlinable @inline(__always) public static func .== (a: Float, b: Float) -> LaneFlag { LaneFlag(a == b) }
    @inlinable @inline(__always) public init(repeating value: Float) { self = value }
    @inlinable @inline(__always)
    public static func spanBelow(_ a0: Float, _ a1: Float, _ c0: Float, _ c1: Float) -> LaneFlag {
        LaneFlag(any(SIMD4(a0, a0, a1, a1) .< SIMD4(c0, c1, c0, c1)))
    }
    @inlinable @inline(__always)
    public static func spanAbove(_ a0: Float, _ a1: Float, _ c0: Float, _ c1: Float) -> LaneFlag {
        LaneFlag(any(SIMD4(a0, a0, a1, a1) .> SIMD4(c0, c1, c0, c1)))
    }
    @inlinable @inline(__always)
    public func replacing(with other: Float, where mask: LaneFlag) -> Float { mask.isSet ? other : self }
    @inlinable @inline(__always)
    public func replacing(withRemainderOf a: Float, dividingBy p: Float, where mask: LaneFlag) -> Float {
        mask.isSet ? a.truncatingRemainder(dividingBy: p) : self
    }
    @inlinable @inline(__always)
    public static func sign(plus: LaneFlag, minus: LaneFlag) -> Float {
        Float(Int32(plus.bit & ~minus.bit) - Int32(minus.bit))
    }
}

/// One game's comparison result as a bit (1 true, 0 false), combined with
/// bitwise operators: conditions combined as `Bool`s with `&&` and `||`
/// become branches, and the outcome of these tests is data.
@frozen
public struct LaneFlag: LaneCondition {
    @usableFromInline let bit: UInt8

    @inlinable @inline(__always) public init(_ value: Bool) { bit = value ? 1 : 0 }
    @inlinable @inline(__always) init(bit: UInt8) { self.bit = bit }

    @inlinable @inline(__always) public var isSet: Bool { bit != 0 }
    @inlinable @inline(__always) public var holdsEverywhere: Bool { isSet }
    @inlinable @inline(__always) public var holdsSomewhere: Bool { isSet }

    @inlinable @inline(__always)
    public static func .& (a: LaneFlag, b: LaneFlag) -> LaneFlag { LaneFlag(bit: a.bit & b.bit) }
    @inlinable @inline(__always)
    public static func .| (a: LaneFlag, b: LaneFlag) -> LaneFlag { LaneFlag(bit: a.bit | b.bit) }
    @inlinable @inline(__always)
    public static prefix func .! (a: LaneFlag) -> LaneFlag { LaneFlag(bit: a.bit ^ 1) }
}

extension SIMD8: LaneFloat where Scalar == Float {
    public typealias Condition = SIMDMask<SIMD8<Int32>>
    @inlinable @inline(__always) public static var decidesEarly: Bool { false }

    @inlinable @inline(__always)
    public func replacing(withRemainderOf a: Self, dividingBy p: Float, where mask: Condition) -> Self {
        guard mask.holdsSomewhere else { return self }
        var v = self
        for g in 0 ..< 8 where mask[g] { v[g] = a[g].truncatingRemainder(dividingBy: p) }
        return v
    }

    @inlinable @inline(__always)
    public static func sign(plus: Condition, minus: Condition) -> Self {
        Self(repeating: 0).replacing(with: 1, where: plus).replacing(with: -1, where: minus)
    }

    @inlinable @inline(__always)
    public static func spanBelow(_ a0: Self, _ a1: Self, _ c0: Self, _ c1: Self) -> Condition {
        (a0 .< c0) .| (a0 .< c1) .| (a1 .< c0) .| (a1 .< c1)
    }
    @inlinable @inline(__always)
    public static func spanAbove(_ a0: Self, _ a1: Self, _ c0: Self, _ c1: Self) -> Condition {
        (a0 .> c0) .| (a0 .> c1) .| (a1 .> c0) .| (a1 .> c1)
    }
}

extension SIMDMask: LaneCondition where Storage == SIMD8<Int32> {
    /// Both halves' lanes and-ed and tested as two words (every lane of a
    /// mask is all ones or all zeros): a reduction by hand, as below.
    @inlinable @inline(__always) public var holdsEverywhere: Bool {
        let v = unsafeBitCast(self, to: SIMD8<UInt32>.self)
        let w = unsafeBitCast(v.lowHalf & v.highHalf, to: SIMD2<UInt64>.self)
        return w[0] & w[1] == .max
    }
    /// Both halves' lanes or-ed and tested as two words: a reduction by
    /// hand (docs/throughput.md, "Why the lane code looks like this").
    @inlinable @inline(__always) public var holdsSomewhere: Bool {
        let v = unsafeBitCast(self, to: SIMD8<UInt32>.self)
        let w = unsafeBitCast(v.lowHalf | v.highHalf, to: SIMD2<UInt64>.self)
        return w[0] | w[1] != 0
    }
}
