import Testing
@testable import Gym

/// ``BreakoutBatch``'s fast paths: quiet frames in lanes
/// (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``)
/// and the kept aim candidates must give the single-game reference's
/// results bit for bit, and must really be taken.
@Suite struct BreakoutBatchTests {
    /// Long rollouts of a batch against one ``BreakoutGame`` per slot at
    /// 1, 4 and 8 frames per step, with and without sticky actions: every
    /// reward, flag, event, observation and state bit for bit, step after
    /// step (six games: no group of eight, so every frame takes the tick).
    @Test func batchEqualsTheReference() throws {
        for (name, config) in try breakoutSkipAndStickyCases() {
            _ = expectBatchEqualsReference(name, config, count: 6, steps: 2500)
        }
    }

    /// The same rollouts in batches of 19 games (two groups of eight and a
    /// tail of three): the groups' quiet frames run in lanes
    /// (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``) without sticky
    /// actions, and the games still equal the reference bit for bit; most
    /// of the groups' frames are run there (the count fails if the batch
    /// stops using the lanes), and groups whose games all ran every frame
    /// there finish their steps together, and in the other groups the
    /// games that ran every frame there finish theirs together
    /// (`BreakoutBatch.fastPath.laneFinishes`); games waiting for a serve
    /// run their quiet frames there as well (`BreakoutBatch.fastPath.laneServes`);
    /// the other quiet frames of the groups' games (after a tick, or of a
    /// game the lanes do not take) run one game at a time
    /// (`BreakoutBatch.fastPath.runs`), with several balls a lane per ball
    /// (`BreakoutBatch.fastPath.ballRuns`).
    @Test func laneQuietFramesEqualTheReference() throws {
        var ballRuns = 0
        for (name, config) in try breakoutSkipAndStickyCases() {
            let (batch, frames) = expectBatchEqualsReference(name, config, count: 19, steps: 1200)
            if config.stickyActionProbability > 0 {
                #expect(batch.fastPath.lanes == 0, "\(name): lane frames with sticky actions")
            } else {
                // Two thirds of the frames would be 16 of 19 games' frames all quiet.
                #expect(batch.fastPath.lanes * 2 > frames, "\(name): \(batch.fastPath.lanes) of \(frames) frames in lanes")
                // Groups whose eight games all ran every frame in lanes
                // finish their steps together.
                #expect(batch.fastPath.groups > 0, "\(name): no group finished its steps together")
                // In groups where some game did not, the games that did
                // finish their steps together too.
                #expect(batch.fastPath.laneFinishes > 0, "\(name): no step finished together in a mixed group")
                // Games waiting for a serve run their quiet frames in lanes too.
                #expect(batch.fastPath.laneServes > 0, "\(name): no serve frame in lanes")
                // After a frame that is not quiet, a step begun in lanes
                // runs its quiet frames one game at a time.
                if config.frameSkip > 1 {
                    #expect(batch.fastPath.runs > 0, "\(name): no quiet frame run after a tick")
                }
                ballRuns += batch.fastPath.ballRuns
            }
        }
        // Games of a group with several balls run their quiet frames one
        // game at a time too, a lane per ball.
        #expect(ballRuns > 0, "no quiet frame of a game with several balls")
    }

    /// Groups of eight finishing their steps together stop at the step
    /// limit and the watchdog as each game alone does: every 40th step
    /// one game of each group (never the group's first) is set one step
    /// short of the limit, in the batch and in its reference alike, so a
    /// group whose frames were all quiet has one game ending and others
    /// not; batches of 16 games against the reference bit for bit, with
    /// groups finished together along the way.
    @Test func groupFinishStopsAtTheLimits() throws {
        for (maxSteps, watchdog) in [(5000, 0), (0, 5000)] {
            var config = try BreakoutConfig.preset("classic")
            config.maxSteps = maxSteps
            config.watchdogSteps = watchdog
            let name = "classic maxSteps \(maxSteps) watchdog \(watchdog)"
            let (batch, _) = expectBatchEqualsReference(name, config, count: 16, steps: 900) { step, batch, refs in
                guard step % 40 == 20 else { return }
                for i in [1 + step % 7, 9 + step % 7] {
                    if maxSteps > 0 {
                        batch.columns.group(i).pointee.steps[i & 7] = Int32(maxSteps - 1)
                        refs[i].game.state.core.steps = Int32(maxSteps - 1)
                    } else {
                        batch.columns.group(i).pointee.sinceProgress[i & 7] = Int32(watchdog - 1)
                        refs[i].game.state.core.stepsSinceProgress = Int32(watchdog - 1)
                    }
                }
            }
            #expect(batch.fastPath.groups > 0, "\(name): no group finished its steps together")
        }
    }

    /// ``BreakoutPhysics/aimColumns(_:)`` against the aim feature's
    /// definition (a column's hits summed over its rows; the columns with
    /// the most), on random grids of every shape up to 16 × 32 with every
    /// hit count, including empty grids and ties.
    @Test func aimColumnsAreTheColumnsWithTheMostHits() throws {
        var rng = Xoshiro256(seed: 0xA1)
        for trial in 0 ..< 400 {
            var config = BreakoutConfig()
            config.brickRows = 1 + Int(rng.below(16))
            config.brickColumns = 1 + Int(rng.below(32))
            config.rowValues = [Int](repeating: 1, count: config.brickRows)
            let physics = BreakoutPhysics(config: config)
            let fill = rng.below(4)
            var bricks = (0 ..< physics.cellCount).map { _ -> UInt8 in
                let hits = fill == 0 ? 0 : fill == 1 ? 1 : UInt8(truncatingIfNeeded: rng.below(8))
                return UInt8(truncatingIfNeeded: rng.below(5)) << 4 | hits
            }
            if trial % 7 == 0, !bricks.isEmpty { bricks[0] |= BrickCell.pending }
            var sums = [Int](repeating: 0, count: config.brickColumns)
            for (k, cell) in bricks.enumerated() { sums[k % config.brickColumns] += Int(cell & BrickCell.hitsMask) }
            let most = sums.max() ?? 0
            var expected: UInt32 = 0
            if most > 0 { for (c, v) in sums.enumerated() where v == most { expected |= 1 << UInt32(c) } }
            let got = bricks.withUnsafeBufferPointer { physics.aimColumns($0.baseAddress!) }
            #expect(got == expected, "\(config.brickRows) × \(config.brickColumns) grid, trial \(trial)")
        }
    }

    /// ``BreakoutPhysics/nearestColumn(_:to:)`` against the scan it
    /// replaces (every candidate in column order, strictly nearer wins), for
    /// random candidate sets and positions across and beyond the field,
    /// exactly at brick centres and halfway between them.
    @Test func nearestColumnIsTheScansChoice() throws {
        var rng = Xoshiro256(seed: 0xC01)
        for trial in 0 ..< 300 {
            let wall = AimWall(trial: trial, rng: &rng)
            let physics = wall.physics, cols = wall.columns, w = wall.config.brickWidth, all = wall.all
            let candidates = trial % 5 == 0 ? all : UInt32(truncatingIfNeeded: rng.next()) & all
            for k in 0 ..< 40 {
                let x = wall.position(k, rng: &rng)
                var best = -1
                var bestDistance = Float.infinity
                for c in 0 ..< cols where candidates >> UInt32(c) & 1 != 0 {
                    let d = abs((Float(c) + 0.5) * w - x)
                    if best < 0 || d < bestDistance { best = c; bestDistance = d }
                }
                #expect(physics.nearestColumn(candidates, to: x) == best, "\(cols) columns, candidates \(candidates), x \(x)")
            }
        }
    }

    /// ``BreakoutPhysics/crossingX(x:vx:time:)`` (its remainder by
    /// subtractions) against the reflection written with the library's
    /// remainder, bit for bit, in one game and in eight lanes: offsets
    /// within and beyond four periods, exact multiples of the period and
    /// their neighbours, zero and infinite times.
    @Test func crossingIsTheLibraryReflectionBitForBit() throws {
        var rng = Xoshiro256(seed: 0x3E4)
        for name in ["classic", "atari"] {
            let physics = BreakoutPhysics(config: try BreakoutConfig.preset(name))
            let r = physics.r, span = physics.width - 2 * r, p = 2 * span
            func reference(_ x: Float, _ vx: Float, _ time: Float) -> Float {
                guard time.isFinite else { return x }
                let v = (x - r + vx * time).truncatingRemainder(dividingBy: p)
                let u = v < 0 ? v + 2 * span : v
                return r + (u <= span ? u : 2 * span - u)
            }
            var cases: [(Float, Float, Float)] = []
            for _ in 0 ..< 20_000 {
                let x = r + rng.nextUnit() * span, vx = rng.nextSigned() * 8
                let k = Float(rng.below(11)) - 5
                let t = vx == 0 ? 1 : (k * p - (x - r)) / vx
                cases += [(x, vx, rng.nextUnit() * 12 * p / 8), (x, vx, t), (x, vx, t.nextUp), (x, vx, t.nextDown),
                          (x, vx, 0), (x, vx, .infinity), (x, vx, rng.nextUnit() * 1e7)]
            }
            var k = 0
            while k + 8 <= cases.count {
                let c = cases[k ..< k + 8].map { $0 }
                let lanes = physics.crossingX(x: SIMD8(c.map(\.0)), vx: SIMD8(c.map(\.1)), time: SIMD8(c.map(\.2)))
                for g in 0 ..< 8 {
                    let (x, vx, t) = c[g]
                    let want = reference(x, vx, t), one = physics.crossingX(x: x, vx: vx, time: t)
                    #expect(one.bitPattern == want.bitPattern && lanes[g].bitPattern == want.bitPattern,
                            "\(name): x \(x), vx \(vx), time \(t): \(one), lanes \(lanes[g]); library \(want)")
                }
                k += 8
            }
        }
    }

    /// The batch's cores start on a cache line and each takes whole lines,
    /// so that no two games share a line, and the fields the lanes still
    /// read from the cores (the other ball slots, which an observation of
    /// eight games gathers, and the serve timer, which the quiet frames of
    /// serving games count down) lie in each core's first three lines: a
    /// layout change that spreads them fails here. The fields the lanes
    /// read at every step are in the batch's columns, not in the cores.
    @Test func coresTakeWholeCacheLines() {
        let line = BreakoutBatch.coreAlignment
        #expect(MemoryLayout<BreakoutCore>.stride % line == 0)
        let batch = BreakoutBatch(config: BreakoutConfig(), count: 3, seed: 1)
        #expect(Int(bitPattern: batch.cores) % line == 0)
        let gathered: [(PartialKeyPath<BreakoutCore>, Int)] = [
            (\.ballX, MemoryLayout<SIMD8<Float>>.size), (\.ballY, MemoryLayout<SIMD8<Float>>.size),
            (\.ballVX, MemoryLayout<SIMD8<Float>>.size), (\.ballVY, MemoryLayout<SIMD8<Float>>.size),
            (\.serveTimer, MemoryLayout<Int32>.size),
        ]
        for (field, size) in gathered {
            let offset = MemoryLayout<BreakoutCore>.offset(of: field) ?? .max
            #expect(offset <= 3 * line - size, "\(field) at byte \(offset)")
        }
    }
}

/// Every preset at 1, 4 and 8 frames per step without sticky actions, and
/// at 4 with sticky actions (probability 0.25).
func breakoutSkipAndStickyCases() throws -> [(String, BreakoutConfig)] {
    var cases: [(String, BreakoutConfig)] = []
    for name in BreakoutConfig.presetNames {
        for (skip, sticky) in [(1, Float(0)), (4, 0), (8, 0), (4, 0.25)] {
            var c = try BreakoutConfig.preset(name)
            c.frameSkip = skip
            c.stickyActionProbability = sticky
            cases.append(("\(name) skip \(skip) sticky \(sticky)", c))
        }
    }
    return cases
}

/// A batch of `count` games of `config` against one ``BreakoutGame`` per
/// slot for `steps` steps of random actions: every reward, flag, event,
/// observation, final observation and state bit for bit, step after step
/// (the first difference is recorded as an issue). `prepare` runs before
/// each step (to change the batch's games and their references alike).
/// Returns the batch and the frames the reference games ran.
func expectBatchEqualsReference(
    _ name: String, _ config: BreakoutConfig, count: Int, steps: Int,
    prepare: (_ step: Int, BreakoutBatch, inout [ReferenceGame<BreakoutContract>]) -> Void = { _, _, _ in }
) -> (BreakoutBatch, frames: Int) {
    let seed: UInt64 = 7
    let batch = BreakoutBatch(config: config, count: count, seed: seed)
    var refs = (0 ..< count).map { ReferenceGame<BreakoutContract>(config, batchSeed: seed, globalIndex: $0) }
    let b = VectorBuffers(batch)
    var play = ContractPlay(seed: seed, actions: batch.actionCount)
    var row = [Float](repeating: 0, count: batch.observationCount)
    var frames = 0
    stepping: for step in 0 ..< steps {
        prepare(step, batch, &refs)
        for i in 0 ..< count { b.actions[i] = play.next() }
        b.step(batch)
        for i in 0 ..< count {
            let before = refs[i].game.state.core.frames
            var events = BreakoutEvents()
            let r = refs[i].game.step(Int(b.actions[i]), events: &events)
            frames += Int(refs[i].game.state.core.frames &- before)
            var ok = b.rewards[i].bitPattern == r.reward.bitPattern && b.events[i] == events
                && (b.terminated[i] == 1) == r.terminated && (b.truncated[i] == 1) == r.truncated
            if r.isDone {
                row.withUnsafeMutableBufferPointer { refs[i].game.observe(into: $0) }
                ok = ok && b.finalObservation(i, 0) == row.map(\.bitPattern)
                refs[i].restart()
            }
            row.withUnsafeMutableBufferPointer { refs[i].game.observe(into: $0) }
            ok = ok && b.observation(i, 0) == row.map(\.bitPattern) && batch.state(i) == refs[i].game.state
            if !ok {
                Issue.record("\(name): game \(i) differs at step \(step)")
                break stepping
            }
        }
    }
    return (batch, frames)
}
