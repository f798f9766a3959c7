extension PongBatch {
    /// Every game's scores, read from their columns without loading any
    /// whole state (``state(_:)``), into `out` (`2 × count` values: game
    /// `i`'s at `2i` and `2i + 1`, the bottom side's first, or the top
    /// side's with `topFirst`): one pass, for a caller reading every score
    /// after every step (the C ABI session).
    public func writeScores(into out: UnsafeMutablePointer<Int32>, topFirst: Bool = false) {
        let first = topFirst ? scoreTop.base : scoreBottom.base, second = topFirst ? scoreBottom.base : scoreTop.base
        for i in 0 ..< count { (out[2 * i], out[2 * i + 1]) = (first[i], second[i]) }
    }
}
