/// Where a batch's groups of eight games take the rule values their lanes
/// read (``PongRuleValues``, ``BreakoutRuleValues``): the batches' group
/// loops are specialised for each source, so games under their own rules
/// run the same kernels in lanes, and a batch whose games all play its
/// config reads its physics' constants.
protocol RuleSource {
    associatedtype Values
    /// The rule values of games `i ..< i + 8`.
    func lanes(_ i: Int) -> Values
}

/// Every game plays the batch's rules: the physics' own values.
struct UniformRules: RuleSource {
    @inline(__always) func lanes(_: Int) -> SameRules<SIMD8<Float>> { SameRules() }
}

/// Eight games' rule values as a batch's rule columns hold them
/// (``PerGameRules/columns``, written by ``GamePhysics/writeRuleColumns(_:stride:)``).
protocol ColumnRuleValues {
    /// Games `i ..< i + 8`'s values from `columns`, `stride` games a column.
    init(columns: UnsafePointer<Float>, stride: Int, _ i: Int)
}

/// Each game plays its own rules: each group's values loaded from the
/// batch's rule columns (``PerGameRules/columns``).
struct GameRuleColumns<Values: ColumnRuleValues>: RuleSource {
    let columns: UnsafePointer<Float>
    let count: Int

    /// The columns of `table`'s games as they are now.
    init<Physics>(_ table: borrowing PerGameRules<Physics>) {
        columns = UnsafePointer(table.columns)
        count = table.count
    }

    @inline(__always) func lanes(_ i: Int) -> Values { Values(columns: columns, stride: count, i) }
}
