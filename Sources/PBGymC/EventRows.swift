/// A game's event counters (a struct of `Int32` fields) and the caller's
/// events rows (`eventCount` Int32 columns per game, in ``GameAdapter/eventNames``
/// order): when the struct is laid out exactly as one row, the batch writes
/// the caller's rows itself and no step copies them column by column.
enum EventRows {
    /// Whether `E` is laid out as a row of `columns`: its stride is the
    /// row's bytes, its alignment at most an `Int32`'s, and column `k` is
    /// the field at byte `4k`.
    static func matches<E>(_: E.Type, _ columns: [WritableKeyPath<E, Int32>]) -> Bool {
        let size = MemoryLayout<Int32>.size
        guard MemoryLayout<E>.stride == columns.count * size, MemoryLayout<E>.alignment <= MemoryLayout<Int32>.alignment
        else { return false }
        return columns.indices.allSatisfy { MemoryLayout<E>.offset(of: columns[$0]) == $0 * size }
    }

    /// `rows[i × columns.count + k] = events[i][keyPath: columns[k]]` for `i < count`.
    static func copy<E>(_ events: UnsafePointer<E>, count: Int, _ columns: [WritableKeyPath<E, Int32>],
                        into rows: UnsafeMutablePointer<Int32>) {
        let n = columns.count
        for i in 0 ..< count {
            let x = events[i]
            for k in 0 ..< n { rows[i * n + k] = x[keyPath: columns[k]] }
        }
    }
}
