import Foundation
import Testing
@testable import Gym

/// Breakout's trajectory hash (``trajectoryHash(_:config:seed:steps:salt:)``).
func breakoutTrajectoryHash(config: BreakoutConfig, seed: UInt64, steps: Int) -> UInt64 {
    trajectoryHash(BreakoutContract.self, config: config, seed: seed, steps: steps, salt: 0xB0B)
}

@Suite struct BreakoutDeterminismTests {
    static var configs: [(String, BreakoutConfig)] {
        BreakoutConfig.presets.map { ($0.name, $0.config) } + [("extreme", breakoutExtreme)]
    }

    @Test func differentSeedsGiveDifferentTrajectories() {
        let hashes = Set((0 ..< 16 as Range<UInt64>).map { breakoutTrajectoryHash(config: BreakoutConfig(), seed: $0, steps: 300) })
        #expect(hashes.count == 16)
    }

    @Test func goldenTrajectoryHash() throws {
        #expect(breakoutTrajectoryHash(config: BreakoutConfig(), seed: 2024, steps: 30_000) == 10_406_472_360_139_722_297)
        let atari = try BreakoutConfig.preset("atari")
        #expect(breakoutTrajectoryHash(config: atari, seed: 2024, steps: 20_000) == 13_607_028_308_523_654_970)
        #expect(breakoutTrajectoryHash(config: breakoutExtreme, seed: 2024, steps: 5_000) == 1_486_180_776_701_201_935)
    }

    @Test func snapshotRoundTripContinuesBitIdentically() throws {
        var cuts = Xoshiro256(seed: 78)
        for (name, config) in BreakoutDeterminismTests.configs {
            for trial in 0 ..< 4 {
                let seed = UInt64(trial) &+ 500
                var game = BreakoutGame(config: config, seed: seed)
                var rng = Xoshiro256(seed: seed)
                let cut = 1 + cuts.below(1500)
                for _ in 0 ..< cut where !game.isOver { _ = game.step(rng.below(4)) }
                let data = try game.snapshot().encoded()
                var restored = try BreakoutGame(restoring: BreakoutGame.SavedGame.decode(data))
                #expect(restored.state == game.state, "\(name) trial \(trial) cut \(cut)")
                for k in 0 ..< 1500 {
                    let a = rng.below(4)
                    let r1 = game.step(a), r2 = restored.step(a)
                    guard r1 == r2, game.state.fingerprint == restored.state.fingerprint,
                          game.observation().map(\.bitPattern) == restored.observation().map(\.bitPattern) else {
                        Issue.record("\(name) trial \(trial): diverged \(k) steps after the cut at \(cut)")
                        break
                    }
                    if r1.isDone { break }
                }
            }
        }
    }

    /// `BreakoutPhysics.tick`'s fast path (a ball whose frame is clear skips
    /// the contact loop) against the general path: states (grid included)
    /// and events bit for bit, frame by frame, over long random rollouts
    /// (push and out-of-range actions too) of every preset, the extreme
    /// config and a gravity config; and the fast path must really be taken.
    @Test func fastPathIsTheGeneralPathBitForBit() throws {
        var gravity = try BreakoutConfig.preset("classic")
        gravity.gravity = 0.05
        gravity.elasticity = 0.9
        for (name, config) in BreakoutDeterminismTests.configs + [("gravity", gravity)] {
            let physics = BreakoutPhysics(config: config)
            var clearFrames = 0, frames = 0
            for seed in 0 ..< 3 as Range<UInt64> {
                var fast = physics.initialState(seed: seed), slow = fast
                var rng = Xoshiro256(seed: seed ^ 0xFA57)
                var episode: UInt64 = 0
                for frame in 0 ..< 20_000 {
                    let action = rng.below(50) == 0 ? 7 : rng.below(4)
                    let c = fast.core
                    let pvx = physics.paddleTarget(c.paddleX, half: c.paddleHalfWidth, action: action) - c.paddleX
                    if c.ballCount > 0, physics.frameIsClear(c.ballX[0], c.ballY[0], c.ballVX[0], c.ballVY[0],
                                                             px0: c.paddleX, pvx: pvx, half: c.paddleHalfWidth) { clearFrames += 1 }
                    frames += 1
                    var e1 = BreakoutEvents(), e2 = BreakoutEvents()
                    fast.bricks.withUnsafeMutableBufferPointer {
                        physics.tick(&fast.core, bricks: $0.baseAddress!, action: action, events: &e1, fastPath: true)
                    }
                    slow.bricks.withUnsafeMutableBufferPointer {
                        physics.tick(&slow.core, bricks: $0.baseAddress!, action: action, events: &e2, fastPath: false)
                    }
                    guard fast == slow, e1 == e2 else {
                        Issue.record("diverged: \(name) seed \(seed) frame \(frame)")
                        break
                    }
                    if fast.core.end != .none {
                        episode += 1
                        fast = physics.initialState(seed: seed &+ 100 &* episode)
                        slow = fast
                    }
                }
            }
            #expect(clearFrames * 4 > frames, "\(name): the fast path was taken in only \(clearFrames) of \(frames) frames")
        }
    }

    @Test func snapshotErrorsAreTyped() throws {
        let pong = try PongGame(config: PongConfig(), seed: 1).snapshot().encoded()
        #expect(throws: SnapshotError.wrongGame(found: "pong", expected: "breakout")) {
            _ = try BreakoutGame.SavedGame.decode(pong)
        }
        var saved = BreakoutGame(seed: 1).snapshot()
        saved.state.bricks.removeLast()
        #expect(throws: SnapshotError.self) { _ = try BreakoutGame(restoring: saved) }
        saved = BreakoutGame(seed: 1).snapshot()
        saved.state.core.ballCount = 9
        #expect(throws: SnapshotError.self) { _ = try BreakoutGame(restoring: saved) }
        #expect(throws: SnapshotError.self) { _ = try BreakoutGame.SavedGame.decode(Data("{\"formatVersion\": 1}".utf8)) }
    }
}
