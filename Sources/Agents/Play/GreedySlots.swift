/// One greedy ``LinearPolicy`` per slot of the slot engine (an ES member
/// each), kept as its ``LinearPolicy/quads`` in raw memory allocated once:
/// a step reads no array, retains nothing and makes no exclusivity check (a
/// class's stored `var` is checked at every use). Slot `i`'s action is
/// exactly its policy's ``LinearPolicy/greedyAction(_:)``, two slots' sums
/// run side by side (``LinearPolicy/greedyActions(_:_:_:_:)``).
final class GreedySlots {
    let slots: Int, inputs: Int, outputs: Int
    /// Quads per slot (`LinearPolicy.quadCount(outputs) × (inputs + 1)`).
    let stride: Int
    let quads: UnsafeMutablePointer<SIMD4<Float>>

    /// `slots` copies of `policy` (its shape is every slot's).
    init(slots: Int, policy: LinearPolicy) {
        precondition(slots >= 1, "slots must be at least 1")
        self.slots = slots
        inputs = policy.inputs
        outputs = policy.outputs
        stride = policy.quads.count
        quads = .allocate(capacity: slots * stride)
        quads.initialize(repeating: .zero, count: slots * stride)
        for i in 0 ..< slots { load(i, policy) }
    }

    deinit { quads.deallocate() }

    /// Slot `i` plays `policy` (of the slots' shape).
    func load(_ i: Int, _ policy: LinearPolicy) {
        precondition(policy.inputs == inputs && policy.outputs == outputs, "the policy's shape differs")
        policy.quads.withUnsafeBufferPointer { q in
            guard let base = q.baseAddress else { return }
            (quads + i * stride).update(from: base, count: stride)
        }
    }

    /// Slot `i`'s greedy action for observation `x` (`inputs` floats).
    @inline(__always)
    func action(_ i: Int, _ x: UnsafePointer<Float>) -> Int {
        LinearPolicy.greedyAction(quads: quads + i * stride, inputs: inputs, outputs: outputs, x)
    }

    /// Slots `i` and `j`'s greedy actions for observations `x` and `y`.
    @inline(__always)
    func actions(_ i: Int, _ x: UnsafePointer<Float>, _ j: Int, _ y: UnsafePointer<Float>) -> (Int, Int) {
        LinearPolicy.greedyActions(quads + i * stride, x, quads + j * stride, y, inputs: inputs, outputs: outputs)
    }
}
