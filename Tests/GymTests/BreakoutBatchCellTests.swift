import Testing
@testable import Gym

/// ``BreakoutBatch`` keeps each game's aim candidates
/// (``BreakoutPhysics/aimColumns(_:)``) and writes its brick cells into
/// observations straight from the grid's bytes, eight at a time in the
/// lane path (``BreakoutPhysics/widenCells(_:into:invHits:)``): the kept candidates
/// must follow every change of the grid (a brick hit, a new wall, a reset,
/// a restore), the widened cells must be the scalar conversion's bit for
/// bit, and observations must really read the grid.
@Suite struct BreakoutBatchCellTests {
    /// Through long rollouts in every preset and setting (bricks broken,
    /// walls cleared, episodes restarted), with seeded resets and restores
    /// of one game's snapshot into another mixed in, every game's kept aim
    /// candidates equal its grid's after every step.
    @Test func keptAimFollowsTheGrid() throws {
        let count = 11, steps = 1500, seed: UInt64 = 5
        for (name, batch) in try breakoutFastPathBatches(count: count, seed: seed) {
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            var saved = batch.snapshot(0)
            checking: for step in 0 ..< steps {
                for i in 0 ..< count { b.actions[i] = play.next() }
                b.step(batch)
                if step % 97 == 40 { saved = batch.snapshot(step % count) }
                if step % 97 == 90 { try batch.restore(saved, into: (step + 3) % count) }
                if step % 211 == 100 { batch.reset(step % count, seed: UInt64(step)) }
                for i in 0 ..< count where batch.aim[i] != batch.physics.aimColumns(batch.grid(i)) {
                    Issue.record("\(name): game \(i)'s kept aim candidates differ from its grid's at step \(step)")
                    break checking
                }
            }
        }
    }

    /// ``BreakoutPhysics/widenCells(_:into:invHits:)`` against
    /// ``BreakoutPhysics/writeCells(_:into:)``: every byte value (kind bits,
    /// the pending bit, hits beyond `toughHits`) in grids of 1 to 40 cells
    /// (fewer than eight, whole and partial blocks) for every `toughHits`.
    @Test func widenedCellsAreTheScalarOnes() {
        var rng = Xoshiro256(seed: 0xCE11)
        for cells in 1 ... 40 {
            for toughHits in 1 ... 7 {
                var config = BreakoutConfig()
                config.brickRows = 1
                config.brickColumns = cells
                config.toughHits = toughHits
                let physics = BreakoutPhysics(config: config)
                let grid = (0 ..< cells).map { _ in UInt8(truncatingIfNeeded: rng.below(256)) }
                var scalar = [Float](repeating: -1, count: cells)
                grid.withUnsafeBufferPointer { g in
                    scalar.withUnsafeMutableBufferPointer { physics.writeCells(g.baseAddress!, into: $0.baseAddress!) }
                }
                // Every start of the target within a 32-byte block.
                for offset in 0 ..< 8 {
                    var wide = [Float](repeating: -1, count: cells + 16)
                    grid.withUnsafeBufferPointer { g in
                        wide.withUnsafeMutableBufferPointer { w in
                            let base = UnsafeMutableRawPointer(w.baseAddress!)
                            let aligned = (Int(bitPattern: base) + 31) & ~31
                            let target = UnsafeMutablePointer<Float>(bitPattern: aligned)! + offset
                            physics.widenCells(g.baseAddress!, into: target, invHits: 1 / Float(physics.toughHits))
                            let start = target - w.baseAddress!
                            #expect(w[start ..< start + cells].map(\.bitPattern) == scalar.map(\.bitPattern),
                                    "\(cells) cells, toughHits \(toughHits), offset \(offset)")
                            #expect(w[..<start].allSatisfy { $0 == -1 } && w[(start + cells)...].allSatisfy { $0 == -1 },
                                    "\(cells) cells: written outside the target")
                        }
                    }
                }
            }
        }
    }

    /// Observations take the cells from the grid itself, in the lane path
    /// and the scalar tail (fails if they are taken from anything kept
    /// beside it).
    @Test func observationsReadTheGrid() throws {
        let batch = BreakoutBatch(config: try BreakoutConfig.preset("atari"), count: 9, seed: 3)
        let n = batch.observationCount, start = batch.physics.cellStart
        let last = batch.cellCount - 1
        for i in [0, 8] {
            batch.grid(i)[1] = 0
            batch.grid(i)[last] = 0
        }
        var out = [Float](repeating: 7, count: 9 * n)
        out.withUnsafeMutableBufferPointer { batch.observe(into: $0.baseAddress!) }
        #expect(out[start + 1] == 0 && out[start + last] == 0)
        #expect(out[8 * n + start + 1] == 0 && out[8 * n + start + last] == 0)
        #expect(out[n + start + 1] != 0, "game 1's brick is still there")
        var one = [Float](repeating: 7, count: n)
        one.withUnsafeMutableBufferPointer { batch.observe(8, into: $0.baseAddress!) }
        #expect(one[start + 1] == 0 && one[start + last] == 0)
    }
}
