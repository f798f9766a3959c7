import CBLAS
import Foundation
import Gym

/// A linear policy over an environment's observation: `logits = W·x' + b`,
/// where `x'` is the observation, optionally normalised by running
/// statistics (``ObservationNormalizer``), and the action is the argmax of
/// the logits (greedy) or a draw from their softmax.
///
/// Storage is plain contiguous `[Float]`: `weights` is `outputs × inputs`,
/// row-major (row `a` holds the weights of action `a`), `bias` has `outputs`
/// entries. The flat parameter vector trainers work on is `weights` followed
/// by `bias` (``parameterCount`` floats).
///
/// The normaliser's affine map `x' = x·scale + shift` is folded into a
/// second copy of the weights whenever the weights or the normaliser change,
/// so acting costs the same with or without normalisation and both paths
/// below read only the folded copy.
///
/// Two evaluation paths, chosen by measurement (`gym-train bench-policy`;
/// figures in the README):
/// - one observation: a plain loop (``logits(_:into:)``, ``greedyAction(_:)``,
///   four actions' rows summed side by side), because an sgemm of batch 1
///   costs several times more at Pong's width;
/// - many observations: one `cblas_sgemm` (``logits(batch:observations:into:)``,
///   ``actions(batch:observations:logits:into:)``), the form a batch of
///   environments stepped together should use once the batch is past the
///   break-even size (and at wide inputs even at batch 1).
/// Both compute the same products; they may differ in the last bit of a
/// logit (the summation order differs), which tests bound.
///
/// Batch invariance (OpenBLAS 0.3.21; pinned by a test for Pong's shapes): with up to 24 inputs the
/// sgemm logits of an observation are bit-identical whatever batch it is
/// in and wherever; from 32 inputs (Breakout's 70) the last bits depend on
/// the batch's size and the row's position. Callers that need results
/// independent of the batch size at such widths use
/// ``plainLogits(batch:observations:into:)``, which is row by row.
public struct LinearPolicy: Equatable, Sendable {
    /// Observation length.
    public let inputs: Int
    /// Number of actions.
    public let outputs: Int
    /// `outputs × inputs`, row-major.
    public private(set) var weights: [Float]
    /// `outputs` entries.
    public private(set) var bias: [Float]
    /// Input normalisation (nil: the raw observation is used).
    public private(set) var normalizer: ObservationNormalizer?
    /// `weights` with the normaliser's scale folded in (row-major, as `weights`).
    @usableFromInline private(set) var foldedWeights: [Float]
    /// `bias` plus the weights times the normaliser's shift.
    @usableFromInline private(set) var foldedBias: [Float]
    /// The folded weights and bias by quads of actions, the layout the plain
    /// loop reads (``quadLogits(_:_:inputs:)``): quad `q` (actions
    /// `4q ..< 4q + 4`, an action past the last repeating the last one) at
    /// `q × (inputs + 1)`, its four biases, then per input its four weights.
    @usableFromInline private(set) var quads: [SIMD4<Float>]

    /// A policy with all weights and biases zero (its greedy action is 0).
    /// - Parameter normalize: keep running observation statistics.
    public init(inputs: Int, outputs: Int, normalize: Bool = false) {
        precondition(inputs > 0 && outputs > 0, "a policy needs inputs and outputs")
        self.inputs = inputs
        self.outputs = outputs
        weights = [Float](repeating: 0, count: inputs * outputs)
        bias = [Float](repeating: 0, count: outputs)
        normalizer = normalize ? ObservationNormalizer(features: inputs) : nil
        foldedWeights = weights
        foldedBias = bias
        quads = [SIMD4<Float>](repeating: .zero, count: Self.quadCount(outputs) * (inputs + 1))
        refold()
    }

    /// A policy with the given parameters (e.g. from a checkpoint).
    /// Preconditions: `weights.count == inputs × outputs`,
    /// `bias.count == outputs`, and the normaliser has `inputs` features.
    public init(inputs: Int, outputs: Int, weights: [Float], bias: [Float], normalizer: ObservationNormalizer?) {
        precondition(inputs > 0 && outputs > 0, "a policy needs inputs and outputs")
        precondition(weights.count == inputs * outputs && bias.count == outputs, "parameter shapes do not match")
        precondition(normalizer.map { $0.features == inputs } ?? true, "normaliser size does not match")
        self.inputs = inputs
        self.outputs = outputs
        self.weights = weights
        self.bias = bias
        self.normalizer = normalizer
        foldedWeights = weights
        foldedBias = bias
        quads = [SIMD4<Float>](repeating: .zero, count: Self.quadCount(outputs) * (inputs + 1))
        refold()
    }

    public static func == (a: LinearPolicy, b: LinearPolicy) -> Bool {
        a.inputs == b.inputs && a.outputs == b.outputs && a.weights == b.weights && a.bias == b.bias
            && a.normalizer == b.normalizer
    }

    // MARK: - Parameters

    /// Length of the flat parameter vector (weights, then bias).
    public var parameterCount: Int { outputs * (inputs + 1) }

    /// Writes the flat parameter vector (weights row-major, then bias).
    public func copyParameters(into p: UnsafeMutableBufferPointer<Float>) {
        precondition(p.count >= parameterCount, "parameter buffer too small")
        let n = weights.count
        for i in 0 ..< n { p[i] = weights[i] }
        for a in 0 ..< outputs { p[n + a] = bias[a] }
    }

    /// The flat parameter vector as an array (allocates).
    public var parameters: [Float] {
        var out = [Float](repeating: 0, count: parameterCount)
        out.withUnsafeMutableBufferPointer { copyParameters(into: $0) }
        return out
    }

    /// Replaces every weight and bias from a flat vector (no allocation once
    /// the policy's storage is uniquely owned).
    public mutating func setParameters(_ p: UnsafeBufferPointer<Float>) {
        precondition(p.count >= parameterCount, "parameter buffer too small")
        let n = inputs * outputs
        weights.withUnsafeMutableBufferPointer { w in
            for i in 0 ..< n { w[i] = p[i] }
        }
        bias.withUnsafeMutableBufferPointer { b in
            for a in 0 ..< outputs { b[a] = p[n + a] }
        }
        refold()
    }

    /// Replaces the parameters with `centre + scale × direction` (how an
    /// evolution-strategies worker builds a perturbed member in place).
    public mutating func setParameters(centre: UnsafeBufferPointer<Float>, plus scale: Float,
                                       times direction: UnsafeBufferPointer<Float>) {
        precondition(centre.count >= parameterCount && direction.count >= parameterCount, "parameter buffer too small")
        let n = inputs * outputs
        weights.withUnsafeMutableBufferPointer { w in
            for i in 0 ..< n { w[i] = centre[i] + scale * direction[i] }
        }
        bias.withUnsafeMutableBufferPointer { b in
            for a in 0 ..< outputs { b[a] = centre[n + a] + scale * direction[n + a] }
        }
        refold()
    }

    /// Replaces the normaliser (nil: none). Fixed until replaced again.
    public mutating func setNormalizer(_ normalizer: ObservationNormalizer?) {
        precondition(normalizer.map { $0.features == inputs } ?? true, "normaliser size does not match")
        self.normalizer = normalizer
        refold()
    }

    /// Recomputes the folded copy: `W' = W·diag(scale)`, `b' = b + W·shift`,
    /// and its quads.
    private mutating func refold() {
        fold()
        let d = inputs, last = outputs - 1, weights = foldedWeights, bias = foldedBias
        quads.withUnsafeMutableBufferPointer { q in
            for quad in 0 ..< Self.quadCount(outputs) {
                let a = 4 * quad
                let r = (a, Swift.min(a + 1, last), Swift.min(a + 2, last), Swift.min(a + 3, last))
                let base = quad * (d + 1)
                q[base] = SIMD4(bias[r.0], bias[r.1], bias[r.2], bias[r.3])
                for i in 0 ..< d {
                    q[base + 1 + i] = SIMD4(weights[r.0 * d + i], weights[r.1 * d + i], weights[r.2 * d + i],
                                            weights[r.3 * d + i])
                }
            }
        }
    }

    /// Recomputes the folded weights and bias.
    private mutating func fold() {
        let d = inputs
        guard let normalizer, normalizer.count > 1 else {
            foldedWeights.withUnsafeMutableBufferPointer { f in
                for i in 0 ..< f.count { f[i] = weights[i] }
            }
            foldedBias.withUnsafeMutableBufferPointer { f in
                for a in 0 ..< f.count { f[a] = bias[a] }
            }
            return
        }
        let (scale, shift) = normalizer.affine()
        for a in 0 ..< outputs {
            var b = bias[a]
            for i in 0 ..< d {
                let w = weights[a * d + i]
                foldedWeights[a * d + i] = w * scale[i]
                b += w * shift[i]
            }
            foldedBias[a] = b
        }
    }

    /// Quads of actions for `outputs` actions (see ``quads``).
    @inlinable
    static func quadCount(_ outputs: Int) -> Int { (outputs + 3) / 4 }

    // MARK: - One observation (plain loop)

    /// Writes the logits for one observation (`inputs` floats) into
    /// `logits` (`outputs` floats). Plain loop; no allocation.
    @inlinable
    public func logits(_ x: UnsafeBufferPointer<Float>, into logits: UnsafeMutableBufferPointer<Float>) {
        precondition(x.count >= inputs && logits.count >= outputs, "buffer too small")
        quads.withUnsafeBufferPointer { q in
            guard let qb = q.baseAddress, let xb = x.baseAddress else { return }
            var a = 0, quad = qb
            while a < outputs {
                let s = Self.quadLogits(quad, xb, inputs: inputs)
                for k in 0 ..< min(4, outputs - a) { logits[a + k] = s[k] }
                a += 4
                quad += inputs + 1
            }
        }
    }

    /// The argmax action for one observation (lowest index on ties; a zero
    /// policy plays action 0). Plain loop; no allocation.
    @inlinable
    public func greedyAction(_ x: UnsafeBufferPointer<Float>) -> Int {
        precondition(x.count >= inputs, "observation too short")
        return quads.withUnsafeBufferPointer { q in
            guard let qb = q.baseAddress, let xb = x.baseAddress else { return 0 }
            return Self.greedyAction(quads: qb, inputs: inputs, outputs: outputs, xb)
        }
    }

    /// The greedy actions of two policies of the same shape, each for its own
    /// observation: exactly `p.greedyAction(x)` and `q.greedyAction(y)` (the
    /// same sums in the same order), with the two policies' sums interleaved
    /// so that they run side by side (a batch of games whose slots play
    /// different policies, e.g. ES members).
    @inlinable
    public static func greedyActions(_ p: LinearPolicy, _ x: UnsafePointer<Float>,
                                     _ q: LinearPolicy, _ y: UnsafePointer<Float>) -> (Int, Int) {
        precondition(p.inputs == q.inputs && p.outputs == q.outputs, "the policies' shapes differ")
        return p.quads.withUnsafeBufferPointer { qp in
            q.quads.withUnsafeBufferPointer { qq in
                guard let pb = qp.baseAddress, let qb = qq.baseAddress else { return (0, 0) }
                return greedyActions(pb, x, qb, y, inputs: p.inputs, outputs: p.outputs)
            }
        }
    }

    /// ``greedyAction(_:)`` of the policy whose ``quads`` start at `quads`
    /// (`inputs` and `outputs` its shape), for observation `x`.
    @inlinable @inline(__always)
    static func greedyAction(quads: UnsafePointer<SIMD4<Float>>, inputs d: Int, outputs: Int,
                             _ x: UnsafePointer<Float>) -> Int {
        var best = 0
        var bestValue = -Float.infinity
        var a = 0, quad = quads
        while a < outputs {
            let s = quadLogits(quad, x, inputs: d)
            for k in 0 ..< Swift.min(4, outputs - a) where s[k] > bestValue {
                bestValue = s[k]
                best = a + k
            }
            a += 4
            quad += d + 1
        }
        return best
    }

    /// ``greedyActions(_:_:_:_:)`` of the policies whose ``quads`` start at
    /// `p` and `q` (both of shape `inputs × outputs`).
    @inlinable @inline(__always)
    static func greedyActions(_ p: UnsafePointer<SIMD4<Float>>, _ x: UnsafePointer<Float>,
                              _ q: UnsafePointer<SIMD4<Float>>, _ y: UnsafePointer<Float>,
                              inputs d: Int, outputs: Int) -> (Int, Int) {
        var bestP = 0, bestQ = 0
        var valueP = -Float.infinity, valueQ = -Float.infinity
        var a = 0, quadP = p, quadQ = q
        while a < outputs {
            let s = quadLogits(quadP, x, inputs: d), t = quadLogits(quadQ, y, inputs: d)
            for k in 0 ..< Swift.min(4, outputs - a) {
                if s[k] > valueP { valueP = s[k]; bestP = a + k }
                if t[k] > valueQ { valueQ = t[k]; bestQ = a + k }
            }
            a += 4
            quadP += d + 1
            quadQ += d + 1
        }
        return (bestP, bestQ)
    }

    /// The logits of one quad of actions (``quads``: its biases at `quad[0]`,
    /// input `i`'s weights at `quad[1 + i]`). Each lane is the action's
    /// `b'ₐ + Σᵢ W'ₐᵢ·xᵢ` summed in input order, one multiply and one add per
    /// input (no fused multiply-add), so every logit is bit for bit the plain
    /// row-by-row loop's; the four actions' sums run side by side, so a long
    /// observation (Breakout's 70 inputs) is not one long chain of dependent
    /// additions per action.
    @inlinable @inline(__always)
    static func quadLogits(_ quad: UnsafePointer<SIMD4<Float>>, _ x: UnsafePointer<Float>, inputs d: Int)
        -> SIMD4<Float> {
        var s = quad[0]
        for i in 0 ..< d {
            let product = quad[1 + i] * SIMD4<Float>(repeating: x[i])
            s = s + product
        }
        return s
    }

    // MARK: - Many observations (one sgemm)

    /// Logits for `batch` observations in one `cblas_sgemm`:
    /// `L = X·W'ᵀ + 1·b'ᵀ`.
    ///
    /// - Parameters:
    ///   - batch: number of observations (rows), ≥ 1.
    ///   - observations: `batch × inputs` floats, row-major (observation `i`
    ///     at `observations + i·inputs`).
    ///   - logits: `batch × outputs` floats, row-major, written.
    /// - Complexity: one BLAS call plus a bias fill; no allocation.
    public func logits(batch: Int, observations: UnsafePointer<Float>, into logits: UnsafeMutablePointer<Float>) {
        precondition(batch >= 1, "batch must be at least 1")
        let k = outputs, d = inputs
        foldedBias.withUnsafeBufferPointer { b in
            for r in 0 ..< batch {
                let row = logits + r * k
                for a in 0 ..< k { row[a] = b[a] }
            }
        }
        foldedWeights.withUnsafeBufferPointer { w in
            guard let wBase = w.baseAddress else { return }
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans,
                        Int32(batch), Int32(k), Int32(d),
                        1, observations, Int32(d), wBase, Int32(d),
                        1, logits, Int32(k))
        }
    }

    /// Logits for `batch` observations by the plain loop, row by row: each
    /// row's result is the single-observation path's, bit for bit, so it
    /// never depends on the batch (slower than sgemm from batch 8; see the
    /// type's description). No allocation.
    public func plainLogits(batch: Int, observations: UnsafePointer<Float>, into logits: UnsafeMutablePointer<Float>) {
        for r in 0 ..< batch {
            self.logits(UnsafeBufferPointer(start: observations + r * inputs, count: inputs),
                        into: UnsafeMutableBufferPointer(start: logits + r * outputs, count: outputs))
        }
    }

    /// Greedy actions for `batch` observations: one `cblas_sgemm` into the
    /// caller's `logits` scratch (`batch × outputs` floats), then a row-wise
    /// argmax into `actions` (`batch` entries). No allocation.
    public func actions(batch: Int, observations: UnsafePointer<Float>,
                        logits: UnsafeMutablePointer<Float>, into actions: UnsafeMutablePointer<Int32>) {
        self.logits(batch: batch, observations: observations, into: logits)
        let k = outputs
        for r in 0 ..< batch {
            actions[r] = Int32(LinearPolicy.argmax(logits + r * k, count: k))
        }
    }

    /// Greedy actions for `batch` observations, with logits scratch on the
    /// stack: one `cblas_sgemm` per ``stackChunk`` observations (one call
    /// for any batch up to that size). No heap allocation.
    public func actions(batch: Int, observations: UnsafePointer<Float>, into actions: UnsafeMutablePointer<Int32>) {
        let chunk = min(batch, Self.stackChunk)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: chunk * outputs) { scratch in
            guard let base = scratch.baseAddress else { return }
            var start = 0
            while start < batch {
                let n = min(chunk, batch - start)
                self.actions(batch: n, observations: observations + start * inputs, logits: base, into: actions + start)
                start += n
            }
        }
    }

    /// Observations per `sgemm` in ``actions(batch:observations:into:)``.
    public static let stackChunk = 1024

    /// Softmax-sampled actions for `batch` observations: one `cblas_sgemm`
    /// into `logits`, then one draw per row from `rng`, in row order (so the
    /// draws depend only on the batch's order, never on workers).
    public func sampledActions(batch: Int, observations: UnsafePointer<Float>, logits: UnsafeMutablePointer<Float>,
                               into actions: UnsafeMutablePointer<Int32>, rng: inout Xoshiro256) {
        self.logits(batch: batch, observations: observations, into: logits)
        let k = outputs
        for r in 0 ..< batch {
            actions[r] = Int32(LinearPolicy.sample(UnsafeMutableBufferPointer(start: logits + r * k, count: k), rng: &rng))
        }
    }

    // MARK: - Action selection

    /// Index of the largest of `count` values (lowest index on ties).
    @inlinable
    public static func argmax(_ values: UnsafePointer<Float>, count: Int) -> Int {
        var best = 0
        var bestValue = values[0]
        for a in 1 ..< max(count, 1) where values[a] > bestValue {
            bestValue = values[a]; best = a
        }
        return best
    }

    /// Draws an action from `softmax(logits)` with one uniform draw from
    /// `rng`; turns `logits` into the probabilities in place.
    @inlinable
    public static func sample(_ logits: UnsafeMutableBufferPointer<Float>, rng: inout Xoshiro256) -> Int {
        softmaxInPlace(logits)
        let u = rng.nextUnit()
        var cumulative: Float = 0
        for a in 0 ..< logits.count {
            cumulative += logits[a]
            if u < cumulative { return a }
        }
        return logits.count - 1
    }

    /// `p = exp(l - max l) / Σ exp(l - max l)`, in place.
    @inlinable
    public static func softmaxInPlace(_ v: UnsafeMutableBufferPointer<Float>) {
        guard let base = v.baseAddress, !v.isEmpty else { return }
        let m = v[argmax(base, count: v.count)]
        var total: Float = 0
        for a in 0 ..< v.count {
            let e = Foundation.exp(v[a] - m)
            v[a] = e
            total += e
        }
        let inv = 1 / total
        for a in 0 ..< v.count { v[a] *= inv }
    }
}
