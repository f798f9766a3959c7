extension UnsafeMutableBufferPointer {
    /// A newly allocated buffer of `count` elements, each `value`: one column
    /// of a batch engine's per-game or per-slot state (the owner deallocates it).
    static func column(_ count: Int, _ value: Element) -> Self {
        let buffer = allocate(capacity: count)
        buffer.initialize(repeating: value)
        return buffer
    }
}

extension UnsafeMutablePointer {
    /// A newly allocated column of `count` entries (at least one), each
    /// `value` (the owner deallocates it).
    static func column(_ count: Int, _ value: Pointee) -> Self {
        let c = allocate(capacity: Swift.max(count, 1))
        c.initialize(repeating: value, count: Swift.max(count, 1))
        return c
    }
}
