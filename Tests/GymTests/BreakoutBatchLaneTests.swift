import Testing
@testable import Gym

/// ``BreakoutBatch`` writes its observations eight games at a time
/// (``BreakoutPhysics/observeEight(_:cells:aim:into:stride:scratch:)``); those
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
        let count = 19, steps = 1200, seed: UInt64 = 11
        for (name, batch) in try breakoutFastPathBatches(count: count, seed: seed) {
            let before = batch.fastPath.laneObservations
            var row = [Float](repeating: 0, count: batch.observationCount)
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            let b = VectorBuffers(batch)
            var refs = (0 ..< count).map { ReferenceGame<BreakoutContract>(batch.config, batchSeed: seed, globalIndex: $0) }
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
            #expect(batch.fastPath.laneObservations - before >= steps * 16, "\(name): \(batch.fastPath.laneObservations - before) observations in lanes")
        }
    }

    /// ``BreakoutPhysics/nearestColumnLanes(_:to:)`` against
    /// ``BreakoutPhysics/nearestColumn(_:to:)`` lane by lane: random
    /// candidate sets (empty, full, sparse) and positions across and beyond
    /// the field, at brick centres and halfway between them, and a lane
    /// that is not finite now and then, for walls of 1 to 32 columns.
    @Test func nearestColumnInLanesIsTheScalarOne() {
        var rng = Xoshiro256(seed: 0x1A4E)
        for trial in 0 ..< 400 {
            let wall = AimWall(trial: trial, rng: &rng)
            let physics = wall.physics, cols = wall.columns, all = wall.all
            var candidates = SIMD8<UInt32>(), x = SIMD8<Float>()
            for g in 0 ..< 8 {
                candidates[g] = Self.candidateSet(all, rng: &rng)
                x[g] = wall.position(rng.below(4), rng: &rng)
            }
            if trial % 10 == 0 { x[Int(rng.below(8))] = [Float.infinity, -.infinity, .nan][trial / 10 % 3] }
            let lanes = physics.nearestColumnLanes(candidates, to: x)
            for g in 0 ..< 8 {
                #expect(lanes[g] == Float(physics.nearestColumn(candidates[g], to: x[g])),
                        "\(cols) columns, candidates \(candidates[g]), x \(x[g])")
            }
        }
    }

    /// ``BreakoutPhysics/nearestColumnPlacedLanes(_:to:)`` (the path of
    /// ``BreakoutPhysics/nearestColumnLanes(_:to:)`` for walls of at most
    /// ``BreakoutPhysics/placedColumnsLimit`` columns) against
    /// ``BreakoutPhysics/nearestColumn(_:to:)`` lane by lane: at every
    /// column centre and edge and one rounding step either side (where the
    /// first guess needs its correction), at zeros and beyond the field,
    /// with empty, full and random candidate sets, for every such wall in
    /// several field widths.
    @Test func placedNearestColumnIsTheScalarOne() {
        var rng = Xoshiro256(seed: 0x9A1C)
        for cols in 1 ... BreakoutPhysics.placedColumnsLimit {
            for width: Float in [320, 160, 640, 97, 333.3] {
                var config = BreakoutConfig()
                config.brickColumns = cols
                config.fieldWidth = width
                let physics = BreakoutPhysics(config: config)
                let all: UInt32 = (1 << UInt32(cols)) - 1
                var xs: [Float] = [-1e30, -width, -0.0, 0, 2 * width, 1e30]
                for c in 0 ... cols {
                    for base in [(Float(c) + 0.5) * physics.brickW, Float(c) * physics.brickW] {
                        xs += [base, base.nextUp, base.nextDown]
                    }
                }
                var k = 0
                while k < xs.count {
                    var candidates = SIMD8<UInt32>(), x = SIMD8<Float>()
                    for g in 0 ..< 8 {
                        candidates[g] = Self.candidateSet(all, rng: &rng)
                        x[g] = xs[(k + g) % xs.count]
                    }
                    let lanes = physics.nearestColumnPlacedLanes(candidates, to: x)
                    for g in 0 ..< 8 {
                        #expect(lanes[g] == Float(physics.nearestColumn(candidates[g], to: x[g])),
                                "\(cols) columns, width \(width), candidates \(candidates[g]), x \(x[g])")
                    }
                    k += 8
                }
            }
        }
    }

    /// A random set of aim candidates among the columns in `all`: empty one
    /// time in four, all of them one time in four, else a random subset.
    static func candidateSet(_ all: UInt32, rng: inout Xoshiro256) -> UInt32 {
        switch rng.below(4) {
        case 0: 0
        case 1: all
        default: UInt32(truncatingIfNeeded: rng.next()) & all
        }
    }
}
