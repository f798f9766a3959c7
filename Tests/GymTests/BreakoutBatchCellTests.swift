import Testing
@testable import Gym

/// ``BreakoutBatch`` keeps each game's brick cells as observation entries
/// (``BreakoutBatch/cellValues``) and copies them into observations; the
/// entries must follow every change of the grid (a brick hit, a new wall,
/// a reset, a restore), and the copy must really be what is written.
@Suite struct BreakoutBatchCellTests {
    /// The entries each game's grid converts to (``BreakoutPhysics/writeCells(_:into:)``).
    func converted(_ batch: BreakoutBatch, _ i: Int) -> [UInt32] {
        var row = [Float](repeating: -1, count: batch.cellCount)
        row.withUnsafeMutableBufferPointer { batch.physics.writeCells(batch.grid(i), into: $0.baseAddress!) }
        return row.map(\.bitPattern)
    }

    func kept(_ batch: BreakoutBatch, _ i: Int) -> [UInt32] {
        UnsafeBufferPointer(start: batch.cellRow(i), count: batch.cellCount).map(\.bitPattern)
    }

    /// Through long rollouts in every preset and setting (bricks broken,
    /// walls cleared, episodes restarted), with seeded resets and restores
    /// of one game's snapshot into another mixed in, every game's kept
    /// entries equal its grid's after every step.
    @Test func keptCellsFollowTheGrid() throws {
        let count = 11, steps = 1500, seed: UInt64 = 5
        for (name, config) in try breakoutFastPathCases() {
            let batch = BreakoutBatch(config: config, count: count, seed: seed)
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            var saved = batch.snapshot(0)
            checking: for step in 0 ..< steps {
                for i in 0 ..< count { b.actions[i] = play.next() }
                b.step(batch)
                if step % 97 == 40 { saved = batch.snapshot(step % count) }
                if step % 97 == 90 { try batch.restore(saved, into: (step + 3) % count) }
                if step % 211 == 100 { batch.reset(step % count, seed: UInt64(step)) }
                for i in 0 ..< count where kept(batch, i) != converted(batch, i) {
                    Issue.record("\(name): game \(i)'s kept cells differ from its grid at step \(step)")
                    break checking
                }
            }
        }
    }

    /// Observations take the cells from the kept entries, in the lane path
    /// and the scalar tail (fails if they are converted from the grid again).
    @Test func observationsCopyTheKeptCells() throws {
        let batch = BreakoutBatch(config: try BreakoutConfig.preset("atari"), count: 9, seed: 3)
        let n = batch.observationCount, start = batch.physics.cellStart
        for i in [0, 8] { batch.cellRow(i)[1] = 42 }
        var out = [Float](repeating: 0, count: 9 * n)
        out.withUnsafeMutableBufferPointer { batch.observe(into: $0.baseAddress!) }
        #expect(out[start + 1] == 42 && out[8 * n + start + 1] == 42)
        var one = [Float](repeating: 0, count: n)
        one.withUnsafeMutableBufferPointer { batch.observe(8, into: $0.baseAddress!) }
        #expect(one[start + 1] == 42)
    }
}
