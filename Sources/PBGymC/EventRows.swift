/// A game's event counters (a struct of `Int32` fields) and the caller's
/// events rows (`eventCount` Int32 columns per game, in ``GameAdapter/eventNames``
/// order). When the struct is laid out exactly as one row, the batch writes
/// the caller's rows itself; when the row is the struct's leading fields,
/// each game's row is copied with one vector load and store; else column
/// by column.
enum EventRows {
    /// The stride of `E` when its leading fields are `columns` in order
    /// (column `k` the field at byte `4k`) and its alignment is at most an
    /// `Int32`'s; nil otherwise.
    static func prefixStride<E>(_: E.Type, _ columns: [WritableKeyPath<E, Int32>]) -> Int? {
        let size = MemoryLayout<Int32>.size
        guard MemoryLayout<E>.alignment <= MemoryLayout<Int32>.alignment,
              columns.indices.allSatisfy({ MemoryLayout<E>.offset(of: columns[$0]) == $0 * size })
        else { return nil }
        return MemoryLayout<E>.stride
    }

    /// Whether `E` is laid out as a row of `columns` (nothing after them).
    static func matches<E>(_ type: E.Type, _ columns: [WritableKeyPath<E, Int32>]) -> Bool {
        prefixStride(type, columns) == columns.count * MemoryLayout<Int32>.size
    }

    /// Whether ``copyPrefix(_:stride:count:columns:into:)`` copies rows of
    /// `columns` from values of `stride` bytes whose leading fields they are.
    static func copiesPrefix(stride: Int, columns: Int) -> Bool {
        let row = columns * MemoryLayout<Int32>.size
        return row >= 16 && row <= MemoryLayout<SIMD8<Int32>>.size && stride >= 16
    }

    /// `rows[i × columns + k]` = the `k`-th Int32 of the value at `events +
    /// i × stride`, for `i < count`: one 32-byte load and store per game but
    /// the last, each store's bytes past its row written over by the next
    /// game's (rows and values are at least 16 bytes, so no load or store
    /// leaves its buffer), the last game's row word by word.
    static func copyPrefix(_ events: UnsafeRawPointer, stride: Int, count: Int, columns: Int,
                           into rows: UnsafeMutablePointer<Int32>) {
        assert(copiesPrefix(stride: stride, columns: columns))
        guard count > 0 else { return }
        let out = UnsafeMutableRawPointer(rows), row = columns * MemoryLayout<Int32>.size
        var i = 0
        while i &+ 1 < count {
            out.storeBytes(of: events.loadUnaligned(fromByteOffset: i &* stride, as: SIMD8<Int32>.self),
                           toByteOffset: i &* row, as: SIMD8<Int32>.self)
            i &+= 1
        }
        for k in 0 ..< columns {
            rows[i &* columns &+ k] = events.loadUnaligned(fromByteOffset: i &* stride &+ k &* 4, as: Int32.self)
        }
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
