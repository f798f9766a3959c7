/// One greedy ``LinearPolicy`` per slot of the slot engine (an ES member
/// each), acting eight slots at a time: slot `i` is lane `i % 8` of block
/// `i / 8`, and a block's eight policies are laid out lane by lane (per
/// action, the eight biases, then per input the eight weights), so one
/// vector operation advances the same sum of eight slots. Each lane is its
/// slot's `b'ₐ + Σᵢ W'ₐᵢ·xᵢ` summed in input order, one multiply and one add
/// per input (no fused multiply-add), and the argmax keeps the lowest
/// action on ties: every action is exactly its policy's
/// ``LinearPolicy/greedyAction(_:)``. (Never one sgemm over the slots: they
/// play different members, and sgemm's last bits depend on the CPU's kernel
/// and, from 32 inputs, on the batch.)
///
/// Memory is raw and allocated once: a step reads no array, retains
/// nothing and makes no exclusivity check (a class's stored `var` is
/// checked at every use).
final class GreedySlots {
    typealias Lanes = SIMD8<Float>
    let slots: Int, inputs: Int, outputs: Int
    /// Blocks of eight slots (the last one padded).
    let blocks: Int
    /// Block `b`'s policies at `b × outputs × (inputs + 1)`: per action its
    /// biases, then its weights input by input.
    let weights: UnsafeMutablePointer<Lanes>
    /// This step's observations, input by input, eight lanes each (block
    /// `b`'s at `8 × b × inputs` floats), written by ``observe(_:_:)``;
    /// lanes not written keep earlier values, never used.
    let observations: UnsafeMutablePointer<Float>
    /// Per block, the lanes observed this step (bit `j`: slot `8b + j`).
    let observed: UnsafeMutablePointer<UInt8>

    /// `slots` copies of `policy` (its shape is every slot's).
    init(slots: Int, policy: LinearPolicy) {
        precondition(slots >= 1, "slots must be at least 1")
        self.slots = slots
        inputs = policy.inputs
        outputs = policy.outputs
        blocks = (slots + 7) / 8
        let perBlock = outputs * (inputs + 1)
        weights = .allocate(capacity: blocks * perBlock)
        weights.initialize(repeating: .zero, count: blocks * perBlock)
        observations = .allocate(capacity: blocks * inputs * 8)
        observations.initialize(repeating: 0, count: blocks * inputs * 8)
        observed = .allocate(capacity: blocks)
        observed.initialize(repeating: 0, count: blocks)
        for i in 0 ..< slots { load(i, policy) }
    }

    deinit { weights.deallocate(); observations.deallocate(); observed.deallocate() }

    /// Slot `i` plays `policy` (of the slots' shape): its folded weights and
    /// bias go to lane `i % 8` of its block.
    func load(_ i: Int, _ policy: LinearPolicy) {
        precondition(policy.inputs == inputs && policy.outputs == outputs, "the policy's shape differs")
        let d = inputs, lane = i & 7
        let block = weights + (i >> 3) * outputs * (d + 1)
        for a in 0 ..< outputs {
            let row = block + a * (d + 1)
            row[0][lane] = policy.foldedBias[a]
            for k in 0 ..< d { row[1 + k][lane] = policy.foldedWeights[a * d + k] }
        }
    }

    /// Slot `i` acts this step on observation `x` (`inputs` floats).
    @inline(__always)
    func observe(_ i: Int, _ x: UnsafePointer<Float>) {
        let b = i &>> 3, lane = i & 7
        let column = observations + ((b &* inputs) &* 8 &+ lane)
        for k in 0 ..< inputs { column[k &* 8] = x[k] }
        observed[b] |= UInt8(truncatingIfNeeded: 1 &<< lane)
    }

    /// The greedy action of every slot observed since the last call, given
    /// to `take(slot, action)` in slot order.
    @inline(__always)
    func act(_ take: (Int, Int32) -> Void) {
        let d = inputs
        for b in 0 ..< blocks where observed[b] != 0 {
            var lanes = observed[b]
            observed[b] = 0
            let x = UnsafeRawPointer(observations + (b &* d) &* 8)
            var row = weights + b &* outputs &* (d &+ 1)
            // The best action so far per lane (small integers, exact as floats).
            var best = Lanes(repeating: 0)
            var bestValue = Lanes(repeating: -.infinity)
            for a in 0 ..< outputs {
                var s = row[0]
                for k in 0 ..< d {
                    let product = row[1 &+ k] * x.loadUnaligned(fromByteOffset: k &* MemoryLayout<Lanes>.size, as: Lanes.self)
                    s = s + product
                }
                let better = s .> bestValue
                bestValue.replace(with: s, where: better)
                best.replace(with: Float(a), where: better)
                row += d &+ 1
            }
            while lanes != 0 {
                let j = lanes.trailingZeroBitCount
                lanes &= lanes &- 1
                take(b &* 8 &+ j, Int32(best[j]))
            }
        }
    }
}
