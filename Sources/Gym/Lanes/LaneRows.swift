/// Rows from lanes and rows written in blocks: how both batches move eight
/// games' observation rows (game `g`'s row at `g × stride`).
extension Lane8 {
    /// Writes `count` floats from `target` on, sixteen (64 bytes, a cache
    /// line) per store, `block(k)` being the sixteen from `target[k]`: one
    /// move each with 512-bit vectors, two with 256-bit ones, four with the
    /// portable build's 128-bit ones. The last
    /// block ends at the last float (it may overlap the one before, writing
    /// the same values), so nothing past the range is touched; `count` is
    /// at least sixteen. After the first block, the blocks start at 64-byte
    /// boundaries of `target` (a store across a cache line costs two).
    @inline(always)
    static func writeBlocks(into target: UnsafeMutablePointer<Float>, count: Int, _ block: (Int) -> SIMD16<Float>) {
        assert(count >= 16, "blocks of sixteen")
        typealias Block = SIMD16<Float>
        let to = UnsafeMutableRawPointer(target)
        to.storeBytes(of: block(0), as: Block.self)
        // The first index after 0 whose float starts a 64-byte block (1 ... 16).
        var k = 16 &- ((Int(bitPattern: to) & 63) &>> 2)
        while k &+ 16 < count {
            to.storeBytes(of: block(k), toByteOffset: k &* 4, as: Block.self)
            k &+= 16
        }
        to.storeBytes(of: block(count &- 16), toByteOffset: (count &- 16) &* 4, as: Block.self)
    }

    /// Writes `count` entries of eight games: lane `g` of `columns[j]` to
    /// `o[g × stride + j]`, four entries at a time by four-by-four transposes
    /// (``LaneTranspose``); the last `count % 4` by one more transpose of
    /// the last four entries (writing some entries twice, with the same
    /// values), or lane by lane when `count < 4`. Entries in `gap` need
    /// not be written (the rows hold them already): the blocks skip from
    /// the gap's start to its end, though a block may still cover some of
    /// it (the one before it, or the last one, which ends at `count`),
    /// writing `columns`' values there, which must then be the rows' own.
    @inline(always)
    static func storeRows(_ columns: UnsafePointer<Floats>, count: Int, skipping gap: Range<Int> = 0 ..< 0,
                          into o: UnsafeMutablePointer<Float>, stride: Int) {
        var j = 0
        if count >= 4 {
            // The blocks before the gap, then those after it (one compare a
            // block, as without a gap), through one transpose site.
            var end = gap.lowerBound
            if end == 0 {
                j = gap.upperBound
                end = count
            }
            while true {
                let at = Swift.min(j, count - 4)
                let a = columns[at], b = columns[at + 1], c = columns[at + 2], d = columns[at + 3]
                LaneTranspose.storeColumns(a, b, c, d, into: o + at, stride: stride)
                j &+= 4
                if j >= end {
                    if end == count { return }
                    j = Swift.max(j, gap.upperBound)
                    end = count
                }
            }
        }
        while j < count {
            let v = columns[j]
            if !gap.contains(j) { for g in 0 ..< 8 { o[g * stride + j] = v[g] } }
            j += 1
        }
    }
}
