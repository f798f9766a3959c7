import Testing
@testable import Gym

/// ``BreakoutBatch`` keeps each game's aim candidates
/// (``BreakoutPhysics/aimColumns(_:)``) and its cells' observation entries
/// (``BreakoutPhysics/writeCells(_:into:)``), which the lane path copies
/// into observations eight floats at a time
/// (``BreakoutPhysics/copyRows(_:into:count:)``): both must follow every change
/// of the grid (a brick hit, a new wall, a reset, a restore), the copy must
/// be exact, and the lane path must really read the kept entries.
@Suite struct BreakoutBatchCellTests {
    /// Through long rollouts in every preset and setting (bricks broken,
    /// walls cleared, episodes restarted), with seeded resets and restores
    /// of one game's snapshot into another mixed in, every game's kept aim
    /// candidates and cell entries equal its grid's after every step.
    @Test func keptValuesFollowTheGame() throws {
        let count = 11, steps = 1500, seed: UInt64 = 5
        for (name, batch) in try breakoutFastPathBatches(count: count, seed: seed) {
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            var saved = batch.snapshot(0)
            var entries = [Float](repeating: 0, count: batch.cellCount)
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
                for i in 0 ..< count {
                    batch.physics.writeCells(batch.grid(i), into: &entries)
                    let row = batch.cellRows + i * batch.observationCount + batch.physics.cellStart
                    let kept = (0 ..< batch.cellCount).map { row[$0].bitPattern }
                    if kept != entries.map(\.bitPattern) {
                        Issue.record("\(name): game \(i)'s kept cell entries differ from its grid's at step \(step)")
                        break checking
                    }
                }
            }
        }
    }

    /// ``BreakoutPhysics/copyRows(_:into:count:)``: 1 to 80 floats (fewer
    /// than sixteen, whole and partial blocks, the two-block loop and the
    /// one-block one), every start of the target within a 64-byte block:
    /// the floats bit for bit, nothing written outside the target.
    @Test func copiedRowsAreTheKeptOnes() {
        var rng = Xoshiro256(seed: 0xCE11)
        for cells in 1 ... 80 {
            let entries = (0 ..< cells).map { _ in Float(rng.below(1 << 20)) / 64 }
            for offset in 0 ..< 16 {
                var wide = [Float](repeating: -1, count: cells + 32)
                entries.withUnsafeBufferPointer { e in
                    wide.withUnsafeMutableBufferPointer { w in
                        let base = UnsafeMutableRawPointer(w.baseAddress!)
                        let aligned = (Int(bitPattern: base) + 63) & ~63
                        let target = UnsafeMutablePointer<Float>(bitPattern: aligned)! + offset
                        Lane8.copyRows(e.baseAddress!, into: target, count: cells)
                        let start = target - w.baseAddress!
                        #expect(w[start ..< start + cells].map(\.bitPattern) == entries.map(\.bitPattern),
                                "\(cells) cells, offset \(offset)")
                        #expect(w[..<start].allSatisfy { $0 == -1 } && w[(start + cells)...].allSatisfy { $0 == -1 },
                                "\(cells) cells: written outside the target")
                    }
                }
            }
        }
    }

    /// Observations written eight games at a time take the cells from the
    /// kept entries (fails if the lane path reads the grid instead); the
    /// scalar tail and one game's observation take them from the grid.
    @Test func laneObservationsReadTheKeptCells() throws {
        let batch = BreakoutBatch(config: try BreakoutConfig.preset("atari"), count: 9, seed: 3)
        let n = batch.observationCount, start = batch.physics.cellStart
        let last = batch.cellCount - 1
        // Game 0's kept entries changed, its grid not; game 8's grid changed, its entries not.
        batch.cellRows[start + 1] = -0.5
        batch.cellRows[start + last] = -0.5
        batch.grid(8)[1] = 0
        batch.grid(8)[last] = 0
        var out = [Float](repeating: 7, count: 9 * n)
        out.withUnsafeMutableBufferPointer { batch.observe(into: $0.baseAddress!) }
        #expect(out[start + 1] == -0.5 && out[start + last] == -0.5)
        #expect(out[8 * n + start + 1] == 0 && out[8 * n + start + last] == 0)
        #expect(out[n + start + 1] > 0, "game 1's brick is still there")
        var one = [Float](repeating: 7, count: n)
        one.withUnsafeMutableBufferPointer { batch.observe(8, into: $0.baseAddress!) }
        #expect(one[start + 1] == 0 && one[start + last] == 0)
    }
}
