@testable import Gym

/// A state with a 64-bit fingerprint of every field (``PongState``,
/// ``BreakoutState``).
protocol Fingerprinted { var fingerprint: UInt64 { get } }
extension PongState: Fingerprinted {}
extension BreakoutState: Fingerprinted {}

/// Plays `steps` steps of game `G`'s single-game reference with random
/// actions (one generator seeded `seed ^ salt`; each step draws the seats'
/// actions from the last seat to the first), resetting a finished game
/// with the next seed (`seed + episodes ended`), and folds every state's
/// fingerprint and the first seat's reward into one hash. The golden
/// hashes of the determinism tests pin these trajectories across builds.
func trajectoryHash<G: ContractGame>(_: G.Type, config: G.Batch.Config, seed: UInt64, steps: Int,
                                     salt: UInt64) -> UInt64 where G.State: Fingerprinted {
    var game = G.single(config, seed: seed)
    let seats = G.seats, actionCount = G.actionCount(game)
    var rng = Xoshiro256(seed: seed ^ salt)
    var actions = [Int32](repeating: 0, count: seats), rewards = [Float](repeating: 0, count: seats)
    var hash = Fingerprint()
    var episode: UInt64 = 0
    for _ in 0 ..< steps {
        for s in (0 ..< seats).reversed() { actions[s] = Int32(rng.below(actionCount)) }
        var events = G.Batch.Events()
        let r = G.step(&game, actions, rewards: &rewards, events: &events)
        hash.add(G.state(game).fingerprint)
        hash.add(r.reward)
        if r.isDone {
            episode += 1
            G.reset(&game, seed: seed &+ episode)
        }
    }
    return hash.value
}
