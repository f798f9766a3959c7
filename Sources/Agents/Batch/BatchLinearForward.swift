import CBLAS

/// A linear policy's batched forward pass, `logits = X·Wᵀ + b` with one
/// `cblas_sgemm` for the whole batch, then the argmax of each row.
///
/// A small internal stand-in written while `LinearPolicy` (branch
/// `training`, `Sources/Agents/Linear/LinearPolicy.swift`) had not landed:
/// once it has, ``PongBatchRunner`` should call its batched forward instead
/// and this type should go.
///
/// Owns its weights and its logits scratch (allocated once); `act` allocates
/// nothing. Ties go to the lowest action index.
final class BatchLinearForward {
    /// Actions (rows of W) and features (columns of W).
    let actions: Int, features: Int
    /// Largest batch `act` accepts.
    let capacity: Int
    /// W, `actions × features`, row-major; b, `actions`.
    let weights: UnsafeMutableBufferPointer<Float>, bias: UnsafeMutableBufferPointer<Float>
    /// Scratch: `capacity × actions` logits.
    let logits: UnsafeMutableBufferPointer<Float>

    init(weights w: [Float], bias b: [Float], features: Int, capacity: Int) {
        precondition(features > 0 && !b.isEmpty && w.count == b.count * features, "weights must be actions × features")
        actions = b.count
        self.features = features
        self.capacity = capacity
        weights = .allocate(capacity: w.count)
        _ = weights.initialize(from: w)
        bias = .allocate(capacity: b.count)
        _ = bias.initialize(from: b)
        logits = .allocate(capacity: max(1, capacity * b.count))
        logits.initialize(repeating: 0)
    }

    deinit {
        weights.deallocate(); bias.deallocate(); logits.deallocate()
    }

    /// Writes the greedy action of each of the `count` observation rows
    /// (`count × features` floats, row-major) into `out`.
    func act(_ x: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Int32>) {
        precondition(count <= capacity, "batch larger than the forward pass's scratch")
        guard count > 0, let w = UnsafePointer(weights.baseAddress), let c = logits.baseAddress,
              let b = bias.baseAddress else { return }
        let a = actions
        // C[count × a] = X[count × f] · Wᵀ[f × a]
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(count), Int32(a), Int32(features),
                    1, x, Int32(features), w, Int32(features), 0, c, Int32(a))
        for i in 0 ..< count {
            let row = c + i * a
            var best: Int32 = 0
            var bestValue = row[0] + b[0]
            for j in 1 ..< a {
                let v = row[j] + b[j]
                if v > bestValue { bestValue = v; best = Int32(j) }
            }
            out[i] = best
        }
    }
}
