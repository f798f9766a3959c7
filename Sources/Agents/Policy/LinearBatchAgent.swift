import Gym

/// ``LinearAgent`` for many games: one policy, game `g` with its own
/// generator (softmax selection), seeded at each start.
///
/// Greedy rows take the plain loop's arithmetic (``LinearPolicy/greedyActions(_:_:_:_:)``,
/// two rows side by side), never one `cblas_sgemm` over the rows: sgemm
/// sums a logit in its kernel's order, with fused multiply-adds on the
/// Haswell and later kernels, so its last bit can differ from the plain
/// loop's, and an argmax between two logits that close would pick another
/// action than every recorded game, balance baseline and checkpoint
/// evaluation was made with (``LinearPolicy``: from 32 inputs even the
/// batch's size changes sgemm's bits). The actions are those of a
/// ``LinearAgent`` of the same policy and seed, bit for bit.
public final class LinearBatchAgent: BatchAgent {
    public let policy: LinearPolicy
    public let selection: LinearAgent.Selection
    var generators: [Xoshiro256]
    var logits: [Float]

    public init(games: Int, policy: LinearPolicy, selection: LinearAgent.Selection = .greedy) {
        self.policy = policy
        self.selection = selection
        generators = [Xoshiro256](repeating: Xoshiro256(seed: 0), count: games)
        logits = [Float](repeating: 0, count: policy.outputs)
    }

    public var games: Int { generators.count }
    public func start(game: Int, seed: UInt64) { generators[game] = Xoshiro256(seed: seed) }
    public func end(game _: Int) {}

    public func act(_ rows: AgentRows) {
        let policy = self.policy, n = policy.inputs
        switch selection {
        case .greedy:
            var k = 0
            while k + 1 < rows.count {
                let (a, b) = LinearPolicy.greedyActions(policy, rows.observations + rows.game(k) * rows.stride,
                                                        policy, rows.observations + rows.game(k + 1) * rows.stride)
                rows.setAction(k, Int32(a))
                rows.setAction(k + 1, Int32(b))
                k += 2
            }
            if k < rows.count { rows.setAction(k, Int32(policy.greedyAction(rows.observation(k, length: n)))) }
        case .softmax:
            logits.withUnsafeMutableBufferPointer { logits in
                generators.withUnsafeMutableBufferPointer { rng in
                    for k in 0 ..< rows.count {
                        policy.logits(rows.observation(k, length: n), into: logits)
                        rows.setAction(k, Int32(LinearPolicy.sample(logits, rng: &rng[rows.game(k)])))
                    }
                }
            }
        }
    }
}
