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
