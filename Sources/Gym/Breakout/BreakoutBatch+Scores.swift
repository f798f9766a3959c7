extension BreakoutBatch {
    /// Every game's score and lives, read from its core and columns (each
    /// game's one copy of its state) without building a whole state (``core(_:)``),
    /// into `out` (`2 × count` values: game `i`'s score at `2i`, its lives
    /// at `2i + 1`): one pass, for a caller reading every score after every
    /// step (the C ABI session).
    public func writeScoreAndLives(into out: UnsafeMutablePointer<Int32>) {
        for i in 0 ..< count {
            out[2 * i] = cores[i].score
            out[2 * i + 1] = columns.group(i).pointee.lives[i & 7]
        }
    }
}
