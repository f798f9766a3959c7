extension UnsafeMutableBufferPointer {
    /// A newly allocated buffer of `count` elements, each `value`: one column
    /// of a batch engine's per-game or per-slot state (the owner deallocates it).
    static func column(_ count: Int, _ value: Element) -> Self {
        let buffer = allocate(capacity: count)
        buffer.initialize(repeating: value)
        return buffer
    }
}
