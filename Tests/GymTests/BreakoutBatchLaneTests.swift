import Testing
@testable import Gym

/// ``BreakoutBatch`` writes its observations eight games at a time
/// (``BreakoutPhysics/observeEight(_:bricks:aim:into:stride:)``); those
/// must be the single-game reference's bit for bit, and must really be
/// taken.
@Suite struct BreakoutBatchLaneTests {
    /// Batches of 19 games (two groups of eight and a tail of three)
    /// against one ``BreakoutGame`` per slot: every observation and final
    /// observation bit for bit, step after step, in every preset at 1, 4
    /// and 8 frames per step and with sticky actions, in the extreme config
    /// (gravity, eight balls, a 16 × 32 wall) and with gravity and a manual
    /// serve; and the lane path wrote most of them (the count fails if the
    /// batch stops using it).
    @Test func laneObservationsEqualTheReference() throws {
        var gravity = try BreakoutConfig.preset("classic")
        gravity.gravity = 0.05
        gravity.elasticity = 0.9
        gravity.autoServe = false
        var cases: [(String, BreakoutConfig)] = [("extreme", breakoutExtreme), ("gravity", gravity)]
        for name in BreakoutConfig.presetNames {
            for (skip, sticky) in [(1, Float(0)), (4, 0), (8, 0), (4, 0.25)] {
                var c = try BreakoutConfig.preset(name)
                c.frameSkip = skip
                c.stickyActionProbability = sticky
                cases.append(("\(name) skip \(skip) sticky \(sticky)", c))
            }
        }
        let count = 19, steps = 1200
        for (name, config) in cases {
            let seed: UInt64 = 11
            let batch = BreakoutBatch(config: config, count: count, seed: seed)
            var refs = (0 ..< count).map { ReferenceGame<BreakoutContract>(config, batchSeed: seed, globalIndex: $0) }
            let b = VectorBuffers(batch)
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            var row = [Float](repeating: 0, count: batch.observationCount)
            let before = batch.laneObservations
            stepping: for step in 0 ..< steps {
                for i in 0 ..< count { b.actions[i] = play.next() }
                b.step(batch)
                for i in 0 ..< count {
                    var events = BreakoutEvents()
                    let r = refs[i].game.step(Int(b.actions[i]), events: &events)
                    var ok = true
                    if r.isDone {
                        row.withUnsafeMutableBufferPointer { refs[i].game.observe(into: $0) }
                        ok = b.finalObservation(i, 0) == row.map(\.bitPattern)
                        refs[i].restart()
                    }
                    row.withUnsafeMutableBufferPointer { refs[i].game.observe(into: $0) }
                    ok = ok && b.observation(i, 0) == row.map(\.bitPattern)
                    if !ok {
                        Issue.record("\(name): game \(i)'s observation differs at step \(step)")
                        break stepping
                    }
                }
            }
            #expect(batch.laneObservations - before >= steps * 16, "\(name): \(batch.laneObservations - before) observations in lanes")
        }
    }
}
