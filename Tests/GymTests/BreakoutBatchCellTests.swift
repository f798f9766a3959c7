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

    /// ``BreakoutPhysics/writeCellsEight(_:into:stride:)``: every cell
    /// count of one row up to 40 (fewer than sixteen, whole and partial
    /// blocks) and some of more rows, grids of every byte, every tough
    /// brick's hit count: each game's entries bit for bit
    /// ``BreakoutPhysics/writeCells(_:into:)``'s, nothing written outside them.
    @Test func cellsEightGamesAtATimeAreWriteCells() throws {
        var rng = Xoshiro256(seed: 0xCE11)
        let shapes = (1 ... 40).map { (1, $0) } + [(2, 13), (5, 10), (3, 32), (16, 32), (7, 1)]
        for (rows, columns) in shapes {
            var config = try BreakoutConfig.preset("classic")
            config.brickRows = rows
            config.brickColumns = columns
            config.layout = []
            config.toughHits = 2 + columns % 6
            config.rowValues = Array(repeating: 1, count: rows)
            let physics = BreakoutPhysics(config: config)
            let cells = physics.cells, stride = cells + 19
            let grids = (0 ..< 8 * cells).map { _ in UInt8(truncatingIfNeeded: rng.below(256)) }
            var want = [Float](repeating: -1, count: 8 * stride), got = want
            grids.withUnsafeBufferPointer { g in
                for k in 0 ..< 8 { physics.writeCells(g.baseAddress! + k * cells, into: &want[k * stride + 5]) }
                got.withUnsafeMutableBufferPointer { physics.writeCellsEight(g.baseAddress!, into: $0.baseAddress! + 5, stride: stride) }
            }
            #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "\(rows) x \(columns) cells")
        }
    }

    /// A batch converts the grids' cells exactly when its kept rows take
    /// more than ``BreakoutBatch/keptRowsInCache`` bytes.
    @Test func largeBatchesConvertTheGrids() throws {
        let config = try BreakoutConfig.preset("classic")
        let row = BreakoutPhysics.observationCount(for: config) * MemoryLayout<Float>.size
        let most = BreakoutBatch.keptRowsInCache / row
        #expect(!BreakoutBatch(config: config, count: most, seed: 1).cellsFromGrids)
        #expect(BreakoutBatch(config: config, count: most + 1, seed: 1).cellsFromGrids)
    }

    /// Observations written eight games at a time by a batch that converts
    /// the grids take the cells from them (fails if that lane path reads the
    /// kept entries).
    @Test func laneObservationsFromGridsReadTheGrids() throws {
        let batch = BreakoutBatch(config: try BreakoutConfig.preset("atari"), count: 9, seed: 3)
        batch.cellsFromGrids = true
        let n = batch.observationCount, start = batch.physics.cellStart
        let last = batch.cellCount - 1
        // Game 0's grid changed, its kept entries not.
        batch.grid(0)[1] = 0
        batch.grid(0)[last] = 0
        #expect(batch.cellEntries(0)[1] > 0 && batch.cellEntries(0)[last] > 0)
        var out = [Float](repeating: 7, count: 9 * n)
        out.withUnsafeMutableBufferPointer { batch.observe(into: $0.baseAddress!) }
        #expect(out[start + 1] == 0 && out[start + last] == 0)
        #expect(out[n + start + 1] > 0, "game 1's brick is still there")
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
