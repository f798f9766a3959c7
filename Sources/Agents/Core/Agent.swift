import Gym

/// A policy that maps an observation to a discrete action.
///
/// Agents own their generators: ``reset(seed:)`` is called at the start of
/// every episode with a seed derived from the episode's seed, so an agent's
/// random choices are reproducible and independent of which worker runs it.
public protocol Agent {
    /// Prepares for a new episode; `seed` seeds the agent's own generator.
    mutating func reset(seed: UInt64)
    /// The action for `observation` (length: the game's observation count).
    mutating func act(_ observation: UnsafeBufferPointer<Float>) -> Int
}

/// Uniformly random actions from its own generator.
public struct RandomAgent: Agent, Sendable {
    public let actionCount: Int
    public var rng: Xoshiro256

    public init(actionCount: Int, seed: UInt64 = 0) {
        precondition(actionCount > 0, "actionCount must be positive")
        self.actionCount = actionCount
        rng = Xoshiro256(seed: seed)
    }

    public mutating func reset(seed: UInt64) { rng = Xoshiro256(seed: seed) }

    public mutating func act(_ observation: UnsafeBufferPointer<Float>) -> Int {
        rng.below(actionCount)
    }
}

/// Always the same action (useful in tests and as a floor in tournaments).
public struct ConstantAgent: Agent, Sendable {
    public let action: Int
    public init(action: Int) { self.action = action }
    public mutating func reset(seed: UInt64) {}
    public mutating func act(_ observation: UnsafeBufferPointer<Float>) -> Int { action }
}
