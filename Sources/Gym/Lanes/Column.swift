/// One column of a batch's state or scratch: an entry per game (or per
/// slot), allocated and filled once, freed with the value. Entries are read
/// and written in place (`column[i]`); eight at a time through ``Lane8``.
/// Agents keep their per-game and per-slot columns in it too.
public struct Column<T>: ~Copyable {
    public let base: UnsafeMutablePointer<T>
    /// The number of entries (at least one is allocated, so a column of no
    /// games still has a valid base).
    public let count: Int

    /// `count` entries, each `value`.
    @inlinable
    public init(repeating value: T, count: Int) {
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(repeating: value, count: Swift.max(count, 1))
        self.count = count
    }

    @inlinable
    deinit { base.deinitialize(count: Swift.max(count, 1)); base.deallocate() }

    @inlinable
    public subscript(i: Int) -> T {
        @inline(__always) unsafeAddress { UnsafePointer(base + i) }
        @inline(__always) nonmutating unsafeMutableAddress { base + i }
    }
}

extension Lane8 {
    /// Entries `i ..< i + 8` of column `c`, lane `j` from entry `i + j`.
    @inline(always)
    static func load<E: SIMDScalar>(_ c: borrowing Column<E>, _ i: Int) -> SIMD8<E> { load(UnsafePointer(c.base), i) }

    /// Writes lane `j` of `v` to entry `i + j` of column `c`.
    @inline(always)
    static func store<E: SIMDScalar>(_ v: SIMD8<E>, _ c: borrowing Column<E>, _ i: Int) { store(v, c.base, i) }
}
