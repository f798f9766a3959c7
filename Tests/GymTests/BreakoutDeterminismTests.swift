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
