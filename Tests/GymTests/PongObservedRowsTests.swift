import Testing
@testable import Gym

/// ``VectorStepOutput/observedRows`` in ``PongBatch``: a step that is told
/// which rows are needed writes those exactly as a full step does, leaves a
/// seat's rows alone where no game of its block of eight needs them, and
/// changes nothing else (rewards, flags, ends, events, state); the state
/// views (``PongBatch/forEachMotion(blockSeats:count:_:)``, ``PongBatch/motion(_:side:)``) are the rows' entries 0, 2 and 4–7, bit for bit.
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
        let blockSeats = (0 ..< Int32(count / 8 * 2)).map { $0 }
        var handed = [[Float]](repeating: [], count: 2 * count)
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
            blockSeats.withUnsafeBufferPointer { seats in
                full.forEachMotion(blockSeats: seats.baseAddress!, count: seats.count) { k, f in
                    let e = Int(seats[k])
                    for j in 0 ..< 8 { handed[((e >> 1) * 8 + j) * 2 + (e & 1)] = lane(f, j) }
                }
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
                    let view = i < count / 8 * 8 ? handed[i * 2 + s] : entries(full.motion(i, side: side))
                    let entries = [0, 2, 4, 5, 6, 7].map { want[$0].bitPattern }
                    guard view.map(\.bitPattern) == entries else {
                        Issue.record("\(label): step \(t): the state view of game \(i) seat \(s) is not its row"); return
                    }
                }
            }
        }
        #expect(skipped > 1000, "\(label): rows were skipped")
    }

    func lane(_ o: borrowing PongMotion<SIMD8<Float>>, _ j: Int) -> [Float] {
        [o.ownX[j], o.oppX[j], o.ballX[j], o.ballY[j], o.vx[j], o.vy[j]]
    }

    func entries(_ o: PongMotion<Float>) -> [Float] { [o.ownX, o.oppX, o.ballX, o.ballY, o.vx, o.vy] }

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
