import Gym

extension AgentSpec {
    /// Checks that this agent can play Breakout: `random`, `constant`
    /// (actions 0 ... 3) and `tracker` can; a saved `linear` policy must be
    /// a Breakout policy of this config's shape.
    public func check(breakout config: BreakoutConfig) throws(AgentSpecError) {
        switch kind {
        case .random, .tracker: return
        case let .constant(action):
            guard action < BreakoutAction.allCases.count else {
                throw .badValue(kind: "constant", key: "action", value: String(action), allowed: "an integer in 0 ... 3 for breakout")
            }
        case let .linear(path, _, _):
            throw .unusable(spec: text, reason: "the linear policy \(path) cannot play breakout yet (only pong policies are trained); breakout agents are: random, tracker, constant")
        }
    }

    /// A fresh Breakout agent of this spec (must have passed ``check(breakout:)``).
    public func makeBreakoutAgent(config: BreakoutConfig) -> any Agent {
        switch kind {
        case .random: RandomAgent(actionCount: BreakoutAction.allCases.count)
        case let .tracker(skill): BreakoutTracker(config: config, skill: skill)
        case let .constant(action): ConstantAgent(action: action)
        case .linear: ConstantAgent(action: 0)
        }
    }
}
