/// What of ``BreakoutBatch``'s observation an agent that acts on the
/// batch's state instead of observation rows reads (the built-in tracker):
/// the same floats, bit for bit, as the rows ``BreakoutBatch/step(actions:into:)``
/// and ``BreakoutBatch/observe(into:)`` write, without writing a row.
extension BreakoutBatch {
    /// Writes game `i`'s observation entries before its brick cells (the
    /// head and every ball slot: ``BreakoutPhysics/cellStart`` floats) into `o`.
    public func observeHead(_ i: Int, into o: UnsafeMutablePointer<Float>) {
        precondition(i >= 0 && i < count, "game index out of range")
        var c = load(i)
        physics(i).observeHead(&c, into: o)
    }

    /// Game `i`'s brick cell entries (``cellCount`` floats, the observation's
    /// from ``BreakoutPhysics/cellStart``), kept by the batch: valid until
    /// the game's grid next changes (``wallVersion(_:)``).
    public func cellEntries(_ i: Int) -> UnsafePointer<Float> {
        precondition(i >= 0 && i < count, "game index out of range")
        return UnsafePointer(cellRows + i * observationCount + physics.cellStart)
    }

    /// A number that changes whenever game `i`'s brick grid does (a brick
    /// hit, a new wall, a reset, a restore): what a reader of
    /// ``cellEntries(_:)`` compares to know whether what it derived from
    /// them still holds.
    public func wallVersion(_ i: Int) -> UInt32 {
        precondition(i >= 0 && i < count, "game index out of range")
        return wallVersions[i]
    }
}
