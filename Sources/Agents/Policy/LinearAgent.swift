import Gym

/// A ``LinearPolicy`` playing as an ``Agent``: greedy (argmax) or sampling
/// from the softmax of its logits with its own generator, reseeded at every
/// episode by ``reset(seed:)``.
public struct LinearAgent: Agent, Sendable {
    /// How the action is chosen from the logits.
    public enum Selection: String, Sendable, CaseIterable {
        /// Argmax (lowest index on ties); no random draw.
        case greedy
        /// A draw from `softmax(logits)` with the agent's generator.
        case softmax
    }

    public var policy: LinearPolicy
    public var selection: Selection
    public var rng: Xoshiro256
    /// Scratch for the logits (allocated once, reused every step).
    var scratch: [Float]

    public init(policy: LinearPolicy, selection: Selection = .greedy, seed: UInt64 = 0) {
        self.policy = policy
        self.selection = selection
        rng = Xoshiro256(seed: seed)
        scratch = [Float](repeating: 0, count: policy.outputs)
    }

    public mutating func reset(seed: UInt64) { rng = Xoshiro256(seed: seed) }

    /// The action for one observation, by the plain-loop path (faster than
    /// BLAS for a single observation of a small policy; see ``LinearPolicy``).
    public mutating func act(_ observation: UnsafeBufferPointer<Float>) -> Int {
        switch selection {
        case .greedy:
            return policy.greedyAction(observation)
        case .softmax:
            let policy = self.policy
            return scratch.withUnsafeMutableBufferPointer { logits in
                policy.logits(observation, into: logits)
                return LinearPolicy.sample(logits, rng: &rng)
            }
        }
    }
}
