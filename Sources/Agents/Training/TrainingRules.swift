import Gym

/// The rules a training task's episodes play under a variant set
/// (``TrainConfig/variants``): training episodes draw theirs from their
/// episode seed (``RuleContext/rules(episodeSeed:)``); the periodic
/// evaluation plays its task's own config. Either way a visible context's
/// features (of the rules the episode plays) follow the game's observation
/// in the learner's input.
public struct TrainingRules<C: VariantConfig>: Sendable {
    public let context: RuleContext<C>
    /// Whether each episode draws its rules (training) or plays the task's config (evaluation).
    public let draws: Bool

    public init(context: RuleContext<C>, draws: Bool) {
        self.context = context; self.draws = draws
    }

    /// The rules of the episode seeded `seed`; nil: the task's config.
    @inline(__always)
    public func rules(episodeSeed seed: UInt64) -> C? { draws ? context.rules(episodeSeed: seed).config : nil }

    /// Context features the learner reads after the game's observation (0 when hidden).
    public var featureCount: Int { context.featureCount }

    /// The same context, playing the task's config (the evaluation's).
    public var fixed: TrainingRules { TrainingRules(context: context, draws: false) }

    /// What a checkpoint records of it (`version`: the variant file's).
    public func policyContext(version: Int) -> PolicyContext {
        PolicyContext(set: context.set.name, version: version, visible: context.visible, features: context.features)
    }
}

extension PolicyTarget {
    /// The target of a policy that also reads `features` context features.
    public func reading(features: Int) -> PolicyTarget {
        var t = self
        t.inputs += features
        return t
    }
}
