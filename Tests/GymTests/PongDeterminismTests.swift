import Foundation
import Testing
@testable import Gym

/// Random play used by the determinism tests: both sides draw from one
/// named generator.
struct RandomPlay {
    var rng: Xoshiro256
    let actions: Int
    init(seed: UInt64, actions: Int) { rng = Xoshiro256(seed: seed); self.actions = actions }
    mutating func next() -> (top: Int, bottom: Int) { (rng.below(actions), rng.below(actions)) }
}

/// Pong's trajectory hash (``trajectoryHash(_:config:seed:steps:salt:)``).
func trajectoryHash(config: PongConfig, seed: UInt64, steps: Int) -> UInt64 {
    trajectoryHash(PongContract.self, config: config, seed: seed, steps: steps, salt: 0xABCD)
}

@Suite struct PongDeterminismTests {
    @Test func differentSeedsGiveDifferentTrajectories() {
        let hashes = Set((0 ..< 16 as Range<UInt64>).map { trajectoryHash(config: PongConfig(), seed: $0, steps: 500) })
        #expect(hashes.count == 16)
    }

    /// Changing the physics must be deliberate: this pins a long trajectory
    /// (50 000 steps of random play, classic and ale presets). If a rule
    /// change is intended, update the constants and say so in the commit.
    @Test func goldenTrajectoryHash() throws {
        #expect(trajectoryHash(config: PongConfig(), seed: 2024, steps: 50_000) == 13_567_261_789_463_206_590)
        #expect(trajectoryHash(config: try PongConfig.preset("ale"), seed: 2024, steps: 20_000) == 4_514_391_584_296_195_536)
    }

    @Test func snapshotRoundTripContinuesBitIdentically() throws {
        var cuts = Xoshiro256(seed: 77)
        for preset in ["classic", "touch", "ale"] {
            let config = try PongConfig.preset(preset)
            for trial in 0 ..< 6 {
                let seed = UInt64(trial) &* 31 &+ 5
                var game = PongGame(config: config, seed: seed)
                var play = RandomPlay(seed: seed, actions: game.actionCount)
                let cut = 1 + cuts.below(2000)
                for _ in 0 ..< cut where !game.isOver {
                    let a = play.next()
                    _ = game.step(top: a.top, bottom: a.bottom)
                }
                let data = try game.snapshot().encoded()
                var restored = try PongGame(restoring: PongGame.SavedGame.decode(data))
                #expect(restored.state == game.state, "preset \(preset) trial \(trial) cut \(cut)")
                for _ in 0 ..< 1500 {
                    let a = play.next()
                    let r1 = game.step(top: a.top, bottom: a.bottom)
                    let r2 = restored.step(top: a.top, bottom: a.bottom)
                    guard r1 == r2, game.state.fingerprint == restored.state.fingerprint else {
                        Issue.record("diverged: preset \(preset) trial \(trial) cut \(cut)")
                        break
                    }
                }
            }
        }
    }

    @Test func corruptSnapshotsAreRejectedWithTypedErrors() throws {
        let good = try PongGame(config: PongConfig(), seed: 1).snapshot().encoded()
        let text = String(decoding: good, as: UTF8.self)
        #expect(throws: SnapshotError.self) { try PongGame.SavedGame.decode(good.prefix(good.count / 2)) }
        #expect(throws: SnapshotError.unsupportedVersion(found: 99, supported: 1)) {
            try PongGame.SavedGame.decode(Data(text.replacingOccurrences(of: "\"formatVersion\":1", with: "\"formatVersion\":99").utf8))
        }
        #expect(throws: SnapshotError.wrongGame(found: "breakout", expected: "pong")) {
            try PongGame.SavedGame.decode(Data(text.replacingOccurrences(of: "\"game\":\"pong\"", with: "\"game\":\"breakout\"").utf8))
        }
        do {
            _ = try PongGame.SavedGame.decode(Data(text.replacingOccurrences(of: "\"maxScore\":11", with: "\"maxScore\":500").utf8))
            Issue.record("an out-of-range config inside a snapshot was accepted")
        } catch {
            #expect(error.description.contains("maxScore"))
        }
        #expect(throws: SnapshotError.self) { try PongGame.SavedGame.decode(Data("[1, 2]".utf8)) }
    }
}
