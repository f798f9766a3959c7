import Testing
@testable import Gym

/// ``BreakoutBatch`` keeps each game's aim candidates
/// (``BreakoutPhysics/aimColumns(_:)``), which must follow every change of
/// the grid (a brick hit, a new wall, a reset, a restore), and each game's
/// grid in a byte row as long as its observation, zeros around the grid,
/// which the lane path writes whole as cell entries
/// (``BreakoutPhysics/cellEntries(_:)``, sixteen floats at a time by
/// ``Lane8/writeBlocks(into:count:_:)``): the rows must stay zero around
/// the grids, the blocks must cover exactly their range, and the lane path
/// must really read the byte rows.
@Suite struct BreakoutBatchCellTests {
    /// Through long rollouts in every preset and setting (bricks broken,
    /// walls cleared, episodes restarted), with seeded resets and restores
    /// of one game's snapshot into another mixed in, every game's kept aim
    /// candidates equal its grid's after every step, and its byte row holds
    /// zeros around its grid.
    @Test func keptValuesFollowTheGame() throws {
        let count = 11, steps = 1500, seed: UInt64 = 5
        for (name, batch) in try breakoutFastPathBatches(count: count, seed: seed) {
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            var saved = batch.snapshot(0)
            let n = batch.observationCount, start = batch.physics.cellStart, end = start + batch.cellCount
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
                    let row = batch.cellRows + i * n
                    if (0 ..< start).contains(where: { row[$0] != 0 }) || (end ..< n).contains(where: { row[$0] != 0 }) {
                        Issue.record("\(name): game \(i)'s byte row is not 0 around its grid at step \(step)")
                        break checking
                    }
                }
            }
        }
    }

    /// ``Lane8/writeBlocks(into:count:_:)``: 16 to 120 floats, every start
    /// of the target within a 64-byte block: each float is its block's
    /// value for its index, nothing is written outside the target.
    @Test func blocksCoverExactlyTheirRange() {
        for count in 16 ... 120 {
            for offset in 0 ..< 16 {
                var wide = [Float](repeating: -1, count: count + 32)
                wide.withUnsafeMutableBufferPointer { w in
                    let base = UnsafeMutableRawPointer(w.baseAddress!)
                    let aligned = (Int(bitPattern: base) + 63) & ~63
                    let target = UnsafeMutablePointer<Float>(bitPattern: aligned)! + offset
                    Lane8.writeBlocks(into: target, count: count) { k in
                        SIMD16<Float>((0 ..< 16).map { Float(k + $0) * 0.5 })
                    }
                    let start = target - w.baseAddress!
                    #expect(w[start ..< start + count].elementsEqual((0 ..< count).map { Float($0) * 0.5 }),
                            "\(count) floats, offset \(offset)")
                    #expect(w[..<start].allSatisfy { $0 == -1 } && w[(start + count)...].allSatisfy { $0 == -1 },
                            "\(count) floats: written outside the target")
                }
            }
        }
    }

    /// ``BreakoutPhysics/writeCells(_:into:)`` on walls of fewer and more
    /// than sixteen cells, every brick byte: each entry is its cell's hits
    /// left over `toughHits`, bit for bit, and nothing past the cells is written.
    @Test func cellEntriesAreHitsOverToughHits() throws {
        var rng = Xoshiro256(seed: 0xCE11)
        for (rows, columns, tough) in [(1, 1, 2), (1, 15, 3), (2, 8, 2), (3, 7, 5), (5, 10, 2), (16, 32, 7)] {
            var config = try BreakoutConfig.preset("classic")
            config.brickRows = rows; config.brickColumns = columns; config.toughHits = tough; config.layout = []
            config.rowValues = Array(repeating: 1, count: rows)
            let physics = BreakoutPhysics(config: config)
            let cells = physics.cellCount
            let bytes = (0 ..< cells).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var out = [Float](repeating: -1, count: cells + 16)
            bytes.withUnsafeBufferPointer { b in out.withUnsafeMutableBufferPointer { physics.writeCells(b.baseAddress!, into: $0.baseAddress!) } }
            let expected = bytes.map { Float($0 & BrickCell.hitsMask) * (1 / Float(tough)) }
            #expect(out[..<cells].map(\.bitPattern) == expected.map(\.bitPattern), "\(rows)×\(columns)")
            #expect(out[cells...].allSatisfy { $0 == -1 }, "\(rows)×\(columns): written past the cells")
        }
    }

    /// Observations written eight games at a time take the cells from the
    /// byte rows whole (fails if the lane path writes the cells from the
    /// grids alone, or zeros around them itself: a byte forged into an
    /// unused ball slot's place shows in the lane path's row, not in one
    /// game's observation); both follow a changed grid.
    @Test func laneObservationsReadTheByteRows() throws {
        let batch = BreakoutBatch(config: try BreakoutConfig.preset("classic"), count: 9, seed: 3)
        let n = batch.observationCount, start = batch.physics.cellStart
        let unusedSlot = start - 1, last = batch.cellCount - 1
        #expect(batch.core(0).ballCount < batch.physics.config.maxBalls, "the last ball slot is unused")
        batch.cellRows[unusedSlot] = 2
        batch.grid(0)[1] = 0
        batch.grid(8)[last] = 0
        var out = [Float](repeating: 7, count: 9 * n)
        out.withUnsafeMutableBufferPointer { batch.observe(into: $0.baseAddress!) }
        #expect(out[unusedSlot] == 2 / Float(batch.physics.config.toughHits), "the lane path wrote the byte row whole")
        #expect(out[start + 1] == 0 && out[n + start + 1] > 0)
        #expect(out[8 * n + start + last] == 0)
        var one = [Float](repeating: 7, count: n)
        one.withUnsafeMutableBufferPointer { batch.observe(0, into: $0.baseAddress!) }
        #expect(one[unusedSlot] == 0 && one[start + 1] == 0)
    }
}
