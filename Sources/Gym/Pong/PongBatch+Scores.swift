extension PongBatch {
    /// Game `i`'s scores, read from their columns without loading the
    /// whole state (``state(_:)``): what a caller reading every game's
    /// score after every step (the C ABI session) uses.
    public func scores(_ i: Int) -> (bottom: Int32, top: Int32) {
        precondition(i >= 0 && i < count, "game index out of range")
        return (scoreBottom[i], scoreTop[i])
    }
}
