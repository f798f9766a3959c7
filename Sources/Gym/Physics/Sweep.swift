/// Swept (time-of-impact) collision of a moving square ball against boxes.
///
/// The ball is an axis-aligned square of half size `r`. Against a box, the
/// box is grown by `r` on each side (Minkowski sum), which turns the test
/// into a ray (the ball's centre) against that grown box: the classic slab
/// method (Kay & Kajiya 1986; Ericson, *Real-Time Collision Detection*,
/// §5.3.3). A moving box is handled in its own frame: the ray is the ball's
/// displacement *relative* to the box. Because the test is continuous in
/// time, no speed can carry the ball through a box within one step.
public enum Sweep {
    /// The face of a box that was hit, as the outward normal of that face.
    @frozen
    public enum Face: UInt8, Sendable, Codable {
        case left, right, bottom, top

        /// The outward normal of the face.
        @inlinable public var normal: Vec2 {
            switch self {
            case .left: Vec2(-1, 0)
            case .right: Vec2(1, 0)
            case .bottom: Vec2(0, -1)
            case .top: Vec2(0, 1)
            }
        }
    }

    /// The earliest contact of a point moving by `d` (over the time interval
    /// [0, 1]) from `p` with `box` (already grown by the ball's half size).
    ///
    /// - Returns: the time of impact in [0, 1] and the face hit, or `nil` when
    ///   the point does not enter the box during the interval. A point that
    ///   starts on a face and moves away (or along it) does not hit.
    /// - Complexity: O(1), no allocation.
    @inlinable
    public static func pointVsBox(from p: Vec2, by d: Vec2, box: Box) -> (t: Float, face: Face)? {
        let minX = box.center.x - box.half.x, maxX = box.center.x + box.half.x
        let minY = box.center.y - box.half.y, maxY = box.center.y + box.half.y
        var tEnter: Float = -.infinity, tExit: Float = .infinity
        var face = Face.left
        guard slab(p.x, d.x, minX, maxX, low: .left, high: .right, &tEnter, &tExit, &face),
              slab(p.y, d.y, minY, maxY, low: .bottom, high: .top, &tEnter, &tExit, &face) else { return nil }
        // Entering strictly before leaving, within this step. tEnter may be
        // a hair below 0 when the point starts on the face (rounding): clamp.
        guard tEnter < tExit, tEnter <= 1, tExit > 0, tEnter > -1e-4 else { return nil }
        return (max(tEnter, 0), face)
    }

    /// One axis of ``pointVsBox(from:by:box:)``: narrows `[tEnter, tExit]`
    /// to the times coordinate `p` moving by `d` is inside `[lo, hi]`, with
    /// `face` the one entered last (`low` when moving up the axis, `high`
    /// when moving down); `false` when a point that does not move on this
    /// axis is outside the open slab (no hit at any time).
    @inlinable @inline(__always)
    static func slab(_ p: Float, _ d: Float, _ lo: Float, _ hi: Float, low: Face, high: Face,
                     _ tEnter: inout Float, _ tExit: inout Float, _ face: inout Face) -> Bool {
        if d > 0 {
            let t0 = (lo - p) / d, t1 = (hi - p) / d
            if t0 > tEnter { tEnter = t0; face = low }
            tExit = min(tExit, t1)
        } else if d < 0 {
            let t0 = (hi - p) / d, t1 = (lo - p) / d
            if t0 > tEnter { tEnter = t0; face = high }
            tExit = min(tExit, t1)
        } else if p <= lo || p >= hi {
            return false
        }
        return true
    }

    /// Time in [0, 1] at which coordinate `p` moving by `d` reaches `plane`
    /// from below (`d > 0`) or above (`d < 0`), or `nil`.
    @inlinable
    public static func pointVsPlane(_ p: Float, by d: Float, plane: Float) -> Float? {
        if d > 0, p <= plane, p + d > plane { return (plane - p) / d }
        if d < 0, p >= plane, p + d < plane { return (plane - p) / d }
        return nil
    }
}
