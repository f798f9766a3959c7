/// A 2D vector in field units (x to the right, y up).
@frozen
public struct Vec2: Hashable, Codable, Sendable {
    public var x: Float
    public var y: Float

    @inlinable public init(_ x: Float, _ y: Float) { self.x = x; self.y = y }
    @inlinable public init(x: Float, y: Float) { self.x = x; self.y = y }

    public static let zero = Vec2(0, 0)

    @inlinable public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Vec2, k: Float) -> Vec2 { Vec2(a.x * k, a.y * k) }
    @inlinable public static func += (a: inout Vec2, b: Vec2) { a.x += b.x; a.y += b.y }

    /// Euclidean length.
    @inlinable public var length: Float { (x * x + y * y).squareRoot() }
}

/// An axis-aligned box given by its centre and half extents (field units).
@frozen
public struct Box: Hashable, Codable, Sendable {
    public var center: Vec2
    public var half: Vec2

    @inlinable public init(center: Vec2, half: Vec2) { self.center = center; self.half = half }

    @inlinable public var minX: Float { center.x - half.x }
    @inlinable public var maxX: Float { center.x + half.x }
    @inlinable public var minY: Float { center.y - half.y }
    @inlinable public var maxY: Float { center.y + half.y }

    /// Strict overlap: boxes that only touch do not overlap.
    @inlinable
    public func overlaps(_ other: Box) -> Bool {
        abs(center.x - other.center.x) < half.x + other.half.x
            && abs(center.y - other.center.y) < half.y + other.half.y
    }
}
