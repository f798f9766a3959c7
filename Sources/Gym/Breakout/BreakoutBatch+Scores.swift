extension BreakoutBatch {
    /// Game `i`'s score and lives, read from its core (each game's one
    /// copy of its state) without building a whole state: what a caller
    /// reading every game's score after every step (the C ABI session)
    /// uses instead of ``core(_:)``.
    public func scoreAndLives(_ i: Int) -> (score: Int32, lives: Int32) {
        precondition(i >= 0 && i < count, "game index out of range")
        return (cores[i].score, cores[i].lives)
    }
}
