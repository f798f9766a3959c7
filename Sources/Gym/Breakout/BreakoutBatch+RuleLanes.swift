/// Where ``BreakoutBatch``'s groups of eight games take the rule values
/// their lanes read (``BreakoutRuleValues``): the step's and the
/// observations' group loops are specialised for each source, so games
/// under their own rules run the same kernels in lanes, and a batch whose
/// games all play its config reads its physics' constants as before.
extension BreakoutBatch {
    typealias Lanes = SIMD8<Float>

    protocol RuleSource {
        associatedtype Values: BreakoutRuleValues where Values.L == Lanes
        /// The rule values of games `i ..< i + 8`.
        func lanes(_ i: Int) -> Values
    }

    /// Every game plays the batch's rules: the physics' own values.
    struct UniformRules: RuleSource {
        @inline(__always) func lanes(_: Int) -> SameRules<Lanes> { SameRules() }
    }

    /// Each game plays its own rules: each group's values loaded from the
    /// batch's rule columns (``PerGameRules/columns``).
    struct GameRules: RuleSource {
        let columns: UnsafePointer<Float>
        let count: Int
        @inline(__always) func lanes(_ i: Int) -> BreakoutRuleLanes<Lanes> {
            BreakoutRuleLanes(columns: columns, stride: count, i)
        }
    }

    /// The rule source of the games as they are now.
    var gameRules: GameRules { GameRules(columns: ruleTable.columns, count: count) }
}
