import Testing
@testable import Gym

/// ``BreakoutPhysics/quietRun(_:action:frames:)``, the batch's run of quiet
/// frames in registers: the same state as that many quiet frames, and the
/// batch really takes it.
@Suite struct BreakoutQuietRunTests {
    /// Random rollouts of every preset and a gravity config: from each
    /// state, a run of up to 8 frames against ``BreakoutPhysics/quietFrame(_:action:)``
    /// called frame by frame (after its frames the state is the same, bit
    /// for bit, and the next frame is not quiet unless the run used all 8),
    /// then the game goes on by its general tick.
    @Test func runIsQuietFramesOneByOne() throws {
        for (name, config) in try breakoutPresetsAndGravity() {
            let ran = expectRunIsQuietFrames(name, config, seed: 0x5A1, why: "the one-ball case does not hold",
                                             applies: { c in config.gravity <= 0 && !c.servePending && c.ballCount == 1 && c.bricksLeft != 0 },
                                             run: { $0.quietRun(&$1, action: $2, frames: 8) })
            if config.gravity <= 0 { #expect(ran > 0, "\(name): no run") }
        }
    }

    /// At frame skip 4 without sticky actions, most of the frames of a
    /// batch too small for lanes (seven games) are run by
    /// ``BreakoutPhysics/quietRun(_:action:frames:)``.
    @Test func batchRunsQuietFramesInRegisters() throws {
        for (name, frames) in try framesInRuns(lanes: false, counter: { $0.fastPath.run }) {
            #expect(frames * 2 > 500 * 7 * 4, "\(name): \(frames) frames in runs")
        }
    }
}

/// ``BreakoutPhysics/serveRun(_:action:frames:)``, the batch's run of quiet
/// serve frames (no ball in play) in registers: the same state as that many
/// quiet frames, and the batch really takes it.
@Suite struct BreakoutServeRunTests {
    /// Random rollouts of every preset, with a manual serve and with
    /// gravity: from each state, a run of up to 8 frames against
    /// ``BreakoutPhysics/quietFrame(_:action:)`` called frame by frame
    /// (after its frames the state is the same, bit for bit, and the next
    /// frame is not quiet unless the run used all 8), then the game goes on
    /// by its general tick.
    @Test func runIsQuietFramesOneByOne() throws {
        var manual = try BreakoutConfig.preset("classic")
        manual.autoServe = false
        for (name, config) in try breakoutPresetsAndGravity() + [("manual", manual)] {
            let ran = expectRunIsQuietFrames(name, config, seed: 0x5E7, why: "no serve is pending",
                                             applies: { c in c.servePending && c.ballCount == 0 && c.bricksLeft != 0 },
                                             run: { $0.serveRun(&$1, action: $2, frames: 8) })
            #expect(ran > 0, "\(name): no run")
        }
    }

    /// At frame skip 4 without sticky actions, a batch too small for lanes
    /// (seven games; a group's serve frames run in lanes) runs its serve
    /// frames by ``BreakoutPhysics/serveRun(_:action:frames:)``.
    @Test func batchRunsServeFramesInRegisters() throws {
        for (name, frames) in try framesInRuns(lanes: false, counter: { $0.fastPath.serve }) {
            #expect(frames * 50 > 500 * 7 * 4, "\(name): \(frames) serve frames in runs")
        }
    }
}

/// A random rollout of `config` (24 000 frames, actions from a generator
/// seeded `seed`, a finished game restarted): from each state, `run` of up
/// to 8 frames against ``BreakoutPhysics/quietFrame(_:action:)`` called
/// frame by frame (after its frames the state is the same, bit for bit, and
/// the next frame is not quiet unless the run used all 8; where `applies`
/// is false the run takes no frame), then the game goes on by its general
/// tick. Returns the frames the runs took.
func expectRunIsQuietFrames(_ name: String, _ config: BreakoutConfig, seed: UInt64, why: String,
                            applies: (BreakoutCore) -> Bool,
                            run: (BreakoutPhysics, inout BreakoutCore, Int) -> Int) -> Int {
    let physics = BreakoutPhysics(config: config)
    var ran = 0
    var state = physics.initialState(seed: 0)
    var rng = Xoshiro256(seed: seed)
    var restarts: UInt64 = 0
    for frame in 0 ..< 24_000 {
        let action = rng.below(50) == 0 ? 7 : rng.below(4)
        var fast = state.core, slow = state.core
        let k = run(physics, &fast, action)
        var quiet = 0
        while quiet < 8, physics.quietFrame(&slow, action: action) { quiet += 1 }
        if !applies(state.core) {
            #expect(k == 0, "\(name): a run where \(why)")
        } else if k != quiet || fast.fingerprintBits != slow.fingerprintBits {
            Issue.record("\(name) frame \(frame): run of \(k), quiet frames \(quiet)")
            break
        }
        ran += k
        var events = BreakoutEvents()
        state.bricks.withUnsafeMutableBufferPointer {
            physics.tick(&state.core, bricks: $0.baseAddress!, action: action, events: &events)
        }
        if state.core.end != .none {
            restarts += 1
            state = physics.initialState(seed: 100 &* restarts)
        }
    }
    return ran
}

/// Per preset at frame skip 4 without sticky actions, `counter` of a
/// 10-game batch (7 with `lanes` false: no group of eight, so no frame runs
/// in lanes) after 500 steps of random actions (the counts fail if the
/// batch stops using a path; the batch's equality with the reference is
/// ``BreakoutBatchTests``' and ``BreakoutBatchLaneTests``').
func framesInRuns(lanes: Bool = true, counter: (BreakoutBatch) -> Int) throws -> [(String, Int)] {
    try BreakoutConfig.presetNames.map { name in
        var config = try BreakoutConfig.preset(name)
        config.frameSkip = 4
        // Runs in registers are for frames without sticky actions (the `ale` preset's are sticky).
        config.stickyActionProbability = 0
        let count = lanes ? 10 : 7
        let batch = BreakoutBatch(config: config, count: count, seed: 3)
        let b = VectorBuffers(batch)
        var play = ContractPlay(seed: 3, actions: batch.actionCount)
        for _ in 0 ..< 500 {
            for i in 0 ..< count { b.actions[i] = play.next() }
            b.step(batch)
        }
        return (name, counter(batch))
    }
}

extension BreakoutCore {
    /// Every bit of the state (signed zeros apart), for comparisons that
    /// `==` would let a −0 through.
    var fingerprintBits: UInt64 { BreakoutState(core: self, bricks: []).fingerprint }
}
