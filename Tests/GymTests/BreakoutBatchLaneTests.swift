import Testing
@testable import Gym

/// ``BreakoutBatch`` writes its observations eight games at a time
/// (``BreakoutPhysics/observeEight(_:cores:cellRows:aim:into:stride:scratch:_:)``); those
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

    /// ``BreakoutPhysics/placeColumn(_:)`` and ``BreakoutPhysics/nearerColumn(_:left:right:)`` in lanes against
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
            let lanes = Self.nearestColumns(physics, candidates, to: x)
            for g in 0 ..< 8 {
                #expect(lanes[g] == Float(physics.nearestColumn(candidates[g], to: x[g])),
                        "\(cols) columns, candidates \(candidates[g]), x \(x[g])")
            }
        }
    }

    /// The nearest column in lanes and in one game against the scan it
    /// stands for (every candidate in column order, a strictly nearer one
    /// replacing the choice) lane by lane: at every column centre and edge
    /// and one rounding step either side (where the first guess needs its
    /// correction), at zeros and beyond the field, with empty, full and
    /// random candidate sets (far beyond the field, lanes against one game
    /// only), for walls of 1 to 32 columns (the lanes read
    /// bits from float exponents up to 24, lane by lane beyond) in several
    /// field widths.
    @Test func nearestColumnIsTheScanAtEveryEdge() {
        var rng = Xoshiro256(seed: 0x9A1C)
        for cols in 1 ... 32 {
            for width: Float in [320, 160, 640, 97, 333.3] {
                var config = BreakoutConfig()
                config.brickColumns = cols
                config.fieldWidth = width
                let physics = BreakoutPhysics(config: config)
                let all = UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(cols)) - 1)
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
                    let lanes = Self.nearestColumns(physics, candidates, to: x)
                    for g in 0 ..< 8 {
                        // Far beyond the field every distance rounds alike: no scan to compare.
                        let one = physics.nearestColumn(candidates[g], to: x[g])
                        let scan = abs(x[g]) < 1e6 ? Self.scan(physics, candidates[g], to: x[g]) : one
                        #expect(lanes[g] == Float(one) && one == scan,
                                "\(cols) columns, width \(width), candidates \(candidates[g]), x \(x[g])")
                    }
                    k += 8
                }
            }
        }
    }

    /// The nearest column of eight games in lanes, as the batch's observation finds it.
    static func nearestColumns(_ physics: BreakoutPhysics, _ candidates: SIMD8<UInt32>, to x: SIMD8<Float>) -> SIMD8<Float> {
        let near = BreakoutPhysics.candidates(candidates, around: physics.placeColumn(x), columns: physics.cols)
        return physics.nearerColumn(x, left: near.left, right: near.right)
    }

    /// The candidate whose centre is nearest `x`, by a scan in column order
    /// (a strictly nearer one replaces the choice), −1 with none.
    static func scan(_ physics: BreakoutPhysics, _ candidates: UInt32, to x: Float) -> Int {
        var best = -1, bestDistance = Float.infinity
        for c in 0 ..< physics.cols where candidates >> UInt32(c) & 1 != 0 {
            let d = abs((Float(c) + 0.5) * physics.brickW - x)
            if best < 0 || d < bestDistance { best = c; bestDistance = d }
        }
        return best
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
