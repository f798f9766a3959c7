import Gym

extension PolicyTarget {
    /// Breakout's observation (its length depends on `maxBalls` and the
    /// wall's size); 4 actions.
    public static func breakout(_ config: BreakoutConfig) -> PolicyTarget {
        PolicyTarget(game: BreakoutConfig.gameName, layoutVersion: BreakoutGame.observationLayoutVersion,
                     inputs: BreakoutPhysics.observationCount(for: config), outputs: BreakoutAction.count)
    }
}

extension AgentSpec {
    /// Checks that this agent can play Breakout with `config` (a saved
    /// policy must be a Breakout policy of this layout and shape). Call
    /// before ``makeBreakoutAgent(config:)``.
    public func check(breakout config: BreakoutConfig) throws(AgentSpecError) {
        switch kind {
        case let .linear(path, checkpoint, _):
            do { try checkpoint.check(for: .breakout(config), path: path) } catch { throw .checkpoint(error) }
        case let .constant(action) where action >= BreakoutAction.count:
            throw .unusable(spec: text, reason: "Breakout actions are 0 ... \(BreakoutAction.count - 1)")
        default:
            break
        }
    }

    /// A fresh Breakout agent of this spec (each worker builds its own).
    /// Must have passed ``check(breakout:)``.
    public func makeBreakoutAgent(config: BreakoutConfig) -> any Agent {
        switch kind {
        case .random: RandomAgent(actionCount: BreakoutAction.count)
        case let .tracker(skill): BreakoutTracker(config: config, skill: skill)
        case let .constant(action): ConstantAgent(action: action)
        case let .linear(_, checkpoint, selection): LinearAgent(policy: checkpoint.policy, selection: selection)
        }
    }
}
