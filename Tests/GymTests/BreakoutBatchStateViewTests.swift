import Testing
@testable import Gym

/// ``BreakoutBatch/observeHead(_:into:)`` reads a game's entries in place
/// (the columns, the balls past slot 0 from its core, the slots not in play
/// written as zeros): they must be the entries of the observation row
/// ``BreakoutBatch/observe(into:)`` writes, bit for bit.
@Suite struct BreakoutBatchStateViewTests {
    /// Through rollouts in every preset and setting (balls lost and served,
    /// several balls in play, walls cleared, episodes restarted), with
    /// resets and restores mixed in, every game's head equals its row's
    /// after every step.
    @Test func headsAreTheRowsEntries() throws {
        let count = 11, steps = 1200, seed: UInt64 = 17
        var severalBalls = 0
        for (name, batch) in try breakoutFastPathBatches(count: count, seed: seed) {
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            let n = batch.observationCount, head = batch.physics.cellStart
            var rows = [Float](repeating: .nan, count: count * n), got = [Float](repeating: .nan, count: head)
            var saved = batch.snapshot(0)
            checking: for step in 0 ..< steps {
                for i in 0 ..< count { b.actions[i] = play.next() }
                b.step(batch)
                if step % 89 == 30 { saved = batch.snapshot(step % count) }
                if step % 89 == 70 { try batch.restore(saved, into: (step + 5) % count) }
                if step % 199 == 150 { batch.reset(step % count, seed: UInt64(step)) }
                batch.observe(into: &rows)
                for i in 0 ..< count {
                    if batch.state(i).core.ballCount > 1 { severalBalls += 1 }
                    batch.observeHead(i, into: &got)
                    if got.map(\.bitPattern) != rows[i * n ..< i * n + head].map(\.bitPattern) {
                        Issue.record("\(name): game \(i)'s head differs from its row's at step \(step)")
                        break checking
                    }
                }
            }
        }
        #expect(severalBalls > 0, "some game had several balls in play")
    }
}
