import Testing
import Gym
@testable import Agents

/// The learners' eight-slot form (``GreedySlots``) against each slot's own
/// ``LinearPolicy/greedyAction(_:)``.
struct GreedySlotsTests {
    /// Slots with their own policies (some reloaded mid-run, some skipped in
    /// a step) act exactly as each policy alone, over shapes with one or
    /// several quads of actions, slot counts that leave a block part empty,
    /// normalised policies, zero policies (every logit ties) and zero rows
    /// (the logits are the biases). Rows are read four entries at a time
    /// (shapes with fewer than four inputs, and a last part of one to three).
    @Test func everySlotActsAsItsOwnPolicyBitForBit() {
        for (inputs, outputs) in [(12, 3), (70, 4), (5, 6), (1, 2), (33, 9)] {
            for (slots, seed) in [(1, UInt64(1)), (11, 2), (16, 3), (19, 4)] {
                // Every fourth slot plays the zero policy: all its logits tie (action 0).
                var policies: [LinearPolicy] = []
                for i in 0 ..< slots {
                    let own = seed &* 100 &+ UInt64(i)
                    policies.append(i % 4 == 3 ? LinearPolicy(inputs: inputs, outputs: outputs)
                        : randomPolicy(inputs: inputs, outputs: outputs, seed: own, normalize: i % 3 == 0))
                }
                let greedy = GreedySlots(slots: slots, policy: policies[0])
                for i in 0 ..< slots { greedy.load(i, policies[i]) }
                var rng = Xoshiro256(seed: seed &+ 7)
                for step in 0 ..< 30 {
                    if step == 10 {
                        for i in stride(from: 0, to: slots, by: 2) {
                            policies[i] = randomPolicy(inputs: inputs, outputs: outputs, seed: seed &* 1000 &+ UInt64(i))
                            greedy.load(i, policies[i])
                        }
                    }
                    // Step 20 on: odd slots observe a zero row.
                    let rows = (0 ..< slots).map { i in
                        (0 ..< inputs).map { _ in step >= 20 && i % 2 == 1 ? 0 : rng.nextSigned() }
                    }
                    let acting = (0 ..< slots).filter { ($0 + step) % 5 != 0 }
                    var got = [Int32?](repeating: nil, count: slots)
                    let busy = (0 ..< slots).map { i in UInt8(acting.contains(i) ? 1 : 0) }
                    let starts = rows.map { row in
                        let start = UnsafeMutablePointer<Float>.allocate(capacity: inputs)
                        start.initialize(from: row, count: inputs)
                        return start
                    }
                    defer { for start in starts { start.deallocate() } }
                    busy.withUnsafeBufferPointer { busy in
                        greedy.act(acting: busy.baseAddress!, row: { UnsafePointer(starts[$0]) }) { i, action in
                            #expect(got[i] == nil, "slot \(i) acted twice")
                            got[i] = action
                        }
                    }
                    for i in 0 ..< slots {
                        let expected = acting.contains(i)
                            ? Int32(rows[i].withUnsafeBufferPointer { policies[i].greedyAction($0) }) : nil
                        #expect(got[i] == expected, "\(inputs)×\(outputs), \(slots) slots, seed \(seed), step \(step), slot \(i)")
                    }
                }
            }
        }
    }
}
