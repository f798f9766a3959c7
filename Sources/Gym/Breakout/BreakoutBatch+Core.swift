extension BreakoutBatch {
    /// Game `i`'s fixed-size state (scores, lives, balls) without copying
    /// its brick grid (``state(_:)`` copies the grid into an array).
    public func core(_ i: Int) -> BreakoutCore {
        precondition(i >= 0 && i < count, "game index out of range")
        return load(i)
    }
}
