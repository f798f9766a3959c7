extension BreakoutBatch {
    /// Game `i`'s score and lives, read from its core without settling it:
    /// neither is a field the lanes hold (``BreakoutPhysics/KeptLanes``),
    /// so the core's copies are current whether or not the game runs in
    /// lanes. What a caller reading every game's score after every step
    /// (the C ABI session) uses instead of ``core(_:)``.
    public func scoreAndLives(_ i: Int) -> (score: Int32, lives: Int32) {
        precondition(i >= 0 && i < count, "game index out of range")
        return (cores[i].score, cores[i].lives)
    }
}
