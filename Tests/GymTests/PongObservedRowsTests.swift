import Testing
@testable import Gym

/// ``VectorStepOutput/observedRows`` in ``PongBatch``: a step that is told
/// which rows are needed writes those exactly as a full step does, leaves a
/// seat's rows alone where no game of its block of eight needs them, and
/// changes nothing else (rewards, flags, ends, events, state); the state
/// views (``PongBatch/observation(lanes:side:)``, ``PongBatch/observation(_:side:)``)
/// are the rows, bit for bit.
@Suite struct PongObservedRowsTests {
    @Test func skippedRowsChangeNothingElse() {
        var config = PongConfig()
        config.maxScore = 2
        var sticky = config
        sticky.frameSkip = 4
        sticky.stickyActionProbability = 0.25
        for (label, config) in [("plain", config), ("sticky", sticky)] {
            compare(config, label: label)
        }
    }

    func compare(_ config: PongConfig, label: String) {
        // Two blocks of eight lanes and five games on the scalar path.
        let count = 21, n = PongBatch.observationCount
        let full = PongBatch(config: config, count: count, seed: 3), masked = PongBatch(config: config, count: count, seed: 3)
        var actions = [Int32](repeating: 0, count: 2 * count)
        var fullObs = [Float](repeating: 0, count: 2 * count * n), maskedObs = fullObs
        var fullRew = [Float](repeating: 0, count: 2 * count), maskedRew = fullRew
        var fullFlags = [UInt8](repeating: 0, count: 4 * count), maskedFlags = fullFlags
        var fullEvents = [PongEvents](repeating: PongEvents(), count: count), maskedEvents = fullEvents
        let needed = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * count)
        needed.initialize(repeating: 0)
        defer { needed.deallocate() }
        var rng = Xoshiro256(seed: 12)
        var skipped = 0
        for t in 0 ..< 3000 {
            for k in actions.indices { actions[k] = Int32(rng.below(3)) }
            // Per seat and block: no row needed, or some.
            for s in 0 ..< 2 {
                for block in stride(from: 0, to: count, by: 8) {
                    let none = rng.below(3) == 0
                    for i in block ..< min(block + 8, count) { needed[s * count + i] = none ? 0 : UInt8(rng.below(2)) }
                }
            }
            for k in maskedObs.indices { maskedObs[k] = .nan }
            step(full, actions, &fullObs, &fullRew, &fullFlags, &fullEvents, nil)
            step(masked, actions, &maskedObs, &maskedRew, &maskedFlags, &maskedEvents, UnsafePointer(needed.baseAddress))
            guard fullRew == maskedRew, fullFlags == maskedFlags, fullEvents == maskedEvents else {
                Issue.record("\(label): step \(t): outputs differ"); return
            }
            for i in 0 ..< count {
                guard full.state(i) == masked.state(i) else { Issue.record("\(label): step \(t): game \(i)'s state"); return }
                for s in 0 ..< 2 {
                    let row = (i * 2 + s) * n
                    let blockNeeds = i < count / 8 * 8
                        ? (i / 8 * 8 ..< i / 8 * 8 + 8).contains { needed[s * count + $0] != 0 }
                        : needed[s * count + i] != 0
                    let got = Array(maskedObs[row ..< row + n]), want = Array(fullObs[row ..< row + n])
                    if needed[s * count + i] != 0 || blockNeeds {
                        guard got.map(\.bitPattern) == want.map(\.bitPattern) else {
                            Issue.record("\(label): step \(t) game \(i) seat \(s): not the full step's row"); return
                        }
                    } else {
                        guard got.allSatisfy({ $0.isNaN }) else {
                            Issue.record("\(label): step \(t) game \(i) seat \(s): a row no one needs was written"); return
                        }
                        skipped += 1
                    }
                    // The state views are the rows.
                    let side: PongSide = s == 0 ? .bottom : .top
                    let view = i < count / 8 * 8 ? lane(full.observation(lanes: i / 8 * 8, side: side), i % 8)
                                                 : entries(full.observation(i, side: side))
                    guard view.map(\.bitPattern) == want.map(\.bitPattern) else {
                        Issue.record("\(label): step \(t): the state view of game \(i) seat \(s) is not its row"); return
                    }
                }
            }
        }
        #expect(skipped > 1000, "\(label): rows were skipped")
    }

    func lane(_ o: PongObservation<SIMD8<Float>>, _ j: Int) -> [Float] {
        [o.f0[j], o.f1[j], o.f2[j], o.f3[j], o.f4[j], o.f5[j], o.f6[j], o.f7[j], o.f8[j], o.f9[j], o.f10[j], o.f11[j]]
    }

    func entries(_ o: PongObservation<Float>) -> [Float] {
        [o.f0, o.f1, o.f2, o.f3, o.f4, o.f5, o.f6, o.f7, o.f8, o.f9, o.f10, o.f11]
    }

    func step(_ batch: PongBatch, _ actions: [Int32], _ obs: inout [Float], _ rewards: inout [Float],
              _ flags: inout [UInt8], _ events: inout [PongEvents], _ needed: UnsafePointer<UInt8>?) {
        let count = batch.count
        actions.withUnsafeBufferPointer { a in
            obs.withUnsafeMutableBufferPointer { o in
                rewards.withUnsafeMutableBufferPointer { r in
                    flags.withUnsafeMutableBufferPointer { f in
                        events.withUnsafeMutableBufferPointer { e in
                            let base = f.baseAddress!
                            batch.step(actions: a.baseAddress!, into: VectorStepOutput(
                                observations: o.baseAddress!, rewards: r.baseAddress!, terminated: base,
                                truncated: base + count, ends: base + 2 * count, events: e.baseAddress!,
                                finalObservations: nil, observedRows: needed))
                        }
                    }
                }
            }
        }
    }
}
