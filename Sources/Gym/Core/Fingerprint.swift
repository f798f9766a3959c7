/// FNV-1a accumulator over bit patterns.
public struct Fingerprint: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
    public init() {}
    public mutating func add(_ x: UInt64) {
        for k in 0 ..< 8 { value = (value ^ ((x >> (8 * UInt64(k))) & 0xFF)) &* 0x100_0000_01B3 }
    }
    public mutating func add(_ x: UInt32) { add(UInt64(x)) }
    public mutating func add(_ x: Float) { add(UInt64(x.bitPattern)) }
}
