import Gym

/// The lane type the tracker's steering rule is written over
/// (``TrackerSteeringState``): a ``LaneFloat`` (`Float` for one game,
/// `SIMD8<Float>` for eight) whose lanes can also be taken one at a time,
/// for the parts of the rule that stay scalar (each game's draw and ring),
/// and loaded from and stored to a column of games.
protocol TrackerLane: LaneFloat {
    /// Games per value: 1 for `Float`, 8 for `SIMD8<Float>`.
    static var laneCount: Int { get }
    /// Lane `j`'s value.
    subscript(lane j: Int) -> Float { get set }
    /// Whether `c` holds in lane `j`.
    static func holds(_ c: Condition, lane j: Int) -> Bool
    /// Entries `c[0 ..< laneCount]`, lane `j` from `c[j]`.
    init(loading c: UnsafePointer<Float>)
    /// Lane `j` from `c[offsets[j]]` (built whole, not through memory).
    init(gathering c: UnsafePointer<Float>, at offsets: UnsafePointer<Int>)
    /// Writes lane `j` to `c[j]`.
    func store(to c: UnsafeMutablePointer<Float>)
}

extension Float: TrackerLane {
    @inline(__always) static var laneCount: Int { 1 }
    subscript(lane _: Int) -> Float {
        @inline(__always) get { self }
        @inline(__always) set { self = newValue }
    }
    @inline(__always) static func holds(_ c: LaneFlag, lane _: Int) -> Bool { c.isSet }
    @inline(__always) init(loading c: UnsafePointer<Float>) { self = c.pointee }
    @inline(__always) init(gathering c: UnsafePointer<Float>, at offsets: UnsafePointer<Int>) { self = c[offsets[0]] }
    @inline(__always) func store(to c: UnsafeMutablePointer<Float>) { c.pointee = self }
}

extension SIMD8: TrackerLane where Scalar == Float {
    @inline(__always) static var laneCount: Int { 8 }
    subscript(lane j: Int) -> Float {
        @inline(__always) get { self[j] }
        @inline(__always) set { self[j] = newValue }
    }
    @inline(__always) static func holds(_ c: Condition, lane j: Int) -> Bool { c[j] }
    @inline(__always) init(loading c: UnsafePointer<Float>) { self = UnsafeRawPointer(c).loadUnaligned(as: Self.self) }
    @inline(__always) init(gathering c: UnsafePointer<Float>, at offsets: UnsafePointer<Int>) {
        self.init(c[offsets[0]], c[offsets[1]], c[offsets[2]], c[offsets[3]],
                  c[offsets[4]], c[offsets[5]], c[offsets[6]], c[offsets[7]])
    }
    @inline(__always) func store(to c: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(c).storeBytes(of: self, as: Self.self)
    }
}
