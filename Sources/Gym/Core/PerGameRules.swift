/// A game's physics as ``PerGameRules`` keeps it: built from a config, and
/// able to write the rule values its batch's lanes read.
protocol GamePhysics {
    associatedtype Config: Equatable
    init(config: Config)
    var config: Config { get }
    /// How many rule values a game's lanes read from ``PerGameRules/columns``
    /// (0: the lanes read none).
    static var ruleColumnCount: Int { get }
    /// Writes these physics' rule values, the `k`-th to `column[k × stride]`.
    func writeRuleColumns(_ column: UnsafeMutablePointer<Float>, stride: Int)
}

extension GamePhysics {
    static var ruleColumnCount: Int { 0 }
    func writeRuleColumns(_: UnsafeMutablePointer<Float>, stride _: Int) {}
}

/// The rules each game of a batch plays (``RuleContextVector``): the batch's
/// physics, or the physics of rules that differ from the batch's config only
/// in rule values (``VariantConfig/layoutDifference(_:)``), with each game's
/// rule values also as columns for the lanes. Allocated once for `count`
/// games, freed with the table.
struct PerGameRules<Physics: GamePhysics>: ~Copyable {
    /// The batch's physics: every game's until given other rules.
    let base: Physics
    let count: Int
    /// Each game's physics: ``base`` for a game playing the batch's config.
    private let games: UnsafeMutablePointer<Physics>
    /// 1 for a game whose rules differ from the batch's config, else 0.
    private let own: UnsafeMutablePointer<UInt8>
    /// Games whose rules differ from the batch's config (0: every game
    /// plays ``base``, the uniform path). Kept behind a pointer, so that
    /// the table is a constant of its batch (no exclusivity check per read).
    private let owners: UnsafeMutablePointer<Int>
    var ownCount: Int { owners.pointee }
    /// Whether episodes draw their rules from a context, so that a game may
    /// restart within a step into rules of its own.
    let drawn: Bool
    /// Whether a step reads each game's rule values from ``columns``: some
    /// game plays rules of its own, or may take some within the step (its
    /// observation after the restart reads them).
    var perGame: Bool { drawn || owners.pointee != 0 }
    /// Each game's rule values as its lanes read them: `Physics.ruleColumnCount`
    /// columns of `count` floats (``GamePhysics/writeRuleColumns(_:stride:)``).
    let columns: UnsafeMutablePointer<Float>

    /// `count` games, each playing `base`; `drawn`: their episodes draw
    /// their rules from a context.
    init(_ base: Physics, count: Int, drawn: Bool) {
        self.base = base
        self.count = count
        self.drawn = drawn
        games = .allocate(capacity: count)
        games.initialize(repeating: base, count: count)
        own = .allocate(capacity: count)
        own.initialize(repeating: 0, count: count)
        owners = .allocate(capacity: 1)
        owners.initialize(to: 0)
        columns = .allocate(capacity: max(1, Physics.ruleColumnCount * count))
        columns.initialize(repeating: 0, count: max(1, Physics.ruleColumnCount * count))
        for i in 0 ..< count { base.writeRuleColumns(columns + i, stride: count) }
    }

    deinit {
        games.deinitialize(count: count); games.deallocate(); own.deallocate(); owners.deallocate(); columns.deallocate()
    }

    /// Game `i`'s physics: its own rules'.
    @inline(__always)
    func physics(_ i: Int) -> Physics {
        ownCount == 0 ? base : games[i]
    }

    /// The rules game `i` is playing (its episode's; the batch's config
    /// until given others).
    func rules(_ i: Int) -> Physics.Config {
        precondition(i >= 0 && i < count, "game index out of range")
        return physics(i).config
    }

    /// Sets game `i`'s rules; `rules` differs from the batch's config only
    /// in rule values.
    func set(_ rules: Physics.Config, _ i: Int) {
        let isOwn = rules != base.config
        // The batch's config again: nothing to change.
        if !isOwn && own[i] == 0 { return }
        if isOwn != (own[i] != 0) {
            owners.pointee += isOwn ? 1 : -1
            own[i] = isOwn ? 1 : 0
        }
        if !isOwn {
            games[i] = base
        } else if games[i].config != rules {
            games[i] = Physics(config: rules)
        }
        games[i].writeRuleColumns(columns + i, stride: count)
    }
}
