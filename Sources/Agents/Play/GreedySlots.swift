import Gym

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
/// A block's eight rows are read into lanes four inputs of four rows at a
/// time (``transpose(_:_:_:_:into:)``: moves only, the rows' bits). Memory
/// is allocated once (``Column``): a step reads no array, retains nothing
/// and makes no exclusivity check.
final class GreedySlots {
    typealias Lanes = SIMD8<Float>
    let slots: Int, inputs: Int, outputs: Int
    /// Blocks of eight slots (the last one padded).
    let blocks: Int
    /// Block `b`'s policies at `b × outputs × (inputs + 1)`: per action its
    /// biases, then its weights input by input.
    let weights: Column<Lanes>
    /// A block's observations, input by input, eight lanes each (`8 × inputs` floats).
    let observations: Column<Float>
    /// A block's eight rows (the ones not acting read ``zeros``).
    let rows: Column<UnsafePointer<Float>>
    /// The row of the lanes not acting (their actions are never given).
    let zeros: Column<Float>

    /// `slots` copies of `policy` (its shape is every slot's).
    init(slots: Int, policy: LinearPolicy) {
        precondition(slots >= 1, "slots must be at least 1")
        self.slots = slots
        inputs = policy.inputs
        outputs = policy.outputs
        blocks = (slots + 7) / 8
        weights = Column(repeating: .zero, count: blocks * outputs * (inputs + 1))
        observations = Column(repeating: 0, count: inputs * 8)
        zeros = Column(repeating: 0, count: inputs)
        rows = Column(repeating: UnsafePointer(zeros.base), count: 8)
        for i in 0 ..< slots { load(i, policy) }
    }

    /// Slot `i` plays `policy` (of the slots' shape): its folded weights and
    /// bias go to lane `i % 8` of its block.
    func load(_ i: Int, _ policy: LinearPolicy) {
        precondition(policy.inputs == inputs && policy.outputs == outputs, "the policy's shape differs")
        let d = inputs, lane = i & 7
        let block = weights.base + (i >> 3) * outputs * (d + 1)
        for a in 0 ..< outputs {
            let row = block + a * (d + 1)
            row[0][lane] = policy.foldedBias[a]
            for k in 0 ..< d { row[1 + k][lane] = policy.foldedWeights[a * d + k] }
        }
    }

    /// The greedy action of every acting slot (`acting[i]` non-zero), slot
    /// `i` reading the `inputs` floats at `row(i)`, given to
    /// `take(slot, action)` in slot order.
    @inline(__always)
    func act(acting: UnsafePointer<UInt8>, row: (Int) -> UnsafePointer<Float>, _ take: (Int, Int32) -> Void) {
        let d = inputs, x = observations.base, rows = self.rows.base, zeros = UnsafePointer(self.zeros.base)
        for b in 0 ..< blocks {
            let first = b &<< 3, count = Swift.min(8, slots &- first)
            var lanes: UInt8 = 0
            for j in 0 ..< count where acting[first &+ j] != 0 { lanes |= 1 &<< UInt8(truncatingIfNeeded: j) }
            guard lanes != 0 else { continue }
            for j in 0 ..< 8 { rows[j] = lanes & (1 &<< UInt8(truncatingIfNeeded: j)) != 0 ? row(first &+ j) : zeros }
            var k = 0
            while k &+ 4 <= d {
                Self.transpose(rows, k, 0, x + (k &* 8))
                Self.transpose(rows, k, 4, x + (k &* 8 &+ 4))
                k &+= 4
            }
            while k < d {
                for j in 0 ..< 8 { x[k &* 8 &+ j] = rows[j][k] }
                k &+= 1
            }
            let lanesX = UnsafeRawPointer(x)
            var weight = UnsafePointer(weights.base) + b &* outputs &* (d &+ 1)
            var best = SIMD8<Int32>(repeating: 0)
            var bestValue = Lanes(repeating: -.infinity)
            for a in 0 ..< outputs {
                var s = weight[0]
                for k in 0 ..< d {
                    let product = weight[1 &+ k]
                        * lanesX.loadUnaligned(fromByteOffset: k &* MemoryLayout<Lanes>.size, as: Lanes.self)
                    s = s + product
                }
                let better = s .> bestValue
                bestValue.replace(with: s, where: better)
                best.replace(with: Int32(truncatingIfNeeded: a), where: better)
                weight += d &+ 1
            }
            while lanes != 0 {
                let j = lanes.trailingZeroBitCount
                lanes &= lanes &- 1
                take(first &+ j, best[j])
            }
        }
    }

    /// Entries `k ..< k + 4` of rows `r ..< r + 4` as four columns of four
    /// lanes: column `c` (entry `k + c`) at `out + 8c` (lane `j` from row
    /// `r + j`). The classic two-stage transpose: rows interleaved by
    /// pairs of entries, then the pairs taken as 64-bit elements; only
    /// moves, so the stored floats are the rows' bit patterns.
    @inline(__always)
    static func transpose(_ rows: UnsafePointer<UnsafePointer<Float>>, _ k: Int, _ r: Int,
                          _ out: UnsafeMutablePointer<Float>) {
        let a = load(rows[r] + k), b = load(rows[r &+ 1] + k), c = load(rows[r &+ 2] + k), d = load(rows[r &+ 3] + k)
        let ab01 = pairs(SIMD4(a[0], b[0], a[1], b[1])), ab23 = pairs(SIMD4(a[2], b[2], a[3], b[3]))
        let cd01 = pairs(SIMD4(c[0], d[0], c[1], d[1])), cd23 = pairs(SIMD4(c[2], d[2], c[3], d[3]))
        let raw = UnsafeMutableRawPointer(out), column = 8 &* MemoryLayout<Float>.size
        raw.storeBytes(of: SIMD2(ab01[0], cd01[0]), as: SIMD2<UInt64>.self)
        raw.storeBytes(of: SIMD2(ab01[1], cd01[1]), toByteOffset: column, as: SIMD2<UInt64>.self)
        raw.storeBytes(of: SIMD2(ab23[0], cd23[0]), toByteOffset: 2 &* column, as: SIMD2<UInt64>.self)
        raw.storeBytes(of: SIMD2(ab23[1], cd23[1]), toByteOffset: 3 &* column, as: SIMD2<UInt64>.self)
    }

    /// The four floats at `p`.
    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Four floats as two pairs (the same bits).
    @inline(__always)
    static func pairs(_ v: SIMD4<Float>) -> SIMD2<UInt64> { unsafeBitCast(v, to: SIMD2<UInt64>.self) }
}
