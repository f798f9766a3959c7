/// A game config whose rules can vary from episode to episode: the keys a
/// rule variant (``RuleVariant``, ``VariantSet``) may set.
///
/// A variant key changes the rules of play, never the shape of the game: not
/// the observation layout (its size and bounds hold for every config in
/// range), not the field's size and not the episode's limits, so games under
/// different variants share one observation space and one step budget.
public protocol VariantConfig: GameConfig {
    /// The keys a variant may set, in the order they are documented.
    static var variantKeys: [String] { get }
}

extension VariantConfig {
    /// The field of a variant key; nil when `key` is not one.
    static func variantField(_ key: String) -> ConfigField<Self>? {
        guard variantKeys.contains(key) else { return nil }
        return fields.first { $0.key == key }
    }
}

extension VariantConfig {
    /// The first key outside ``variantKeys`` in which `other` differs from
    /// this config (nil when they differ at most in rule values: the same
    /// seats, actions, field and observation layout, so a game of one can
    /// play in a batch of the other).
    public func layoutDifference(_ other: Self) -> String? {
        for f in Self.fields where !Self.variantKeys.contains(f.key) && f.read(self) != f.read(other) {
            return f.key
        }
        // Every property is a field; should one not be, the whole config names it.
        var rebuilt = self
        for f in Self.fields where Self.variantKeys.contains(f.key) {
            do { try f.write(&rebuilt, f.read(other), "rules") } catch { return f.key }
        }
        return rebuilt == other ? nil : "config"
    }
}
