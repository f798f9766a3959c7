import Gym

/// Speed of a linear policy's forward pass: the plain single-observation
/// loop against one `cblas_sgemm` per batch (the measurement behind the
/// choice of paths in ``LinearPolicy``).
public enum PolicyThroughput {
    public enum Path: String, Sendable, CaseIterable {
        /// ``LinearPolicy/greedyAction(_:)`` once per observation.
        case plainGreedy = "plain loop, greedy action"
        /// ``LinearPolicy/logits(batch:observations:into:)`` (one sgemm) then argmax.
        case blasGreedy = "one sgemm per batch, greedy actions"
    }

    /// Nanoseconds per observation for `path` over batches of `batch`
    /// observations, timed for at least `seconds`.
    public static func nanosecondsPerObservation(path: Path, inputs: Int, outputs: Int, batch: Int,
                                                 seconds: Double, seed: UInt64) -> Double {
        var rng = Xoshiro256(seed: seed)
        var policy = LinearPolicy(inputs: inputs, outputs: outputs)
        let p = (0 ..< policy.parameterCount).map { _ in rng.nextGaussian() }
        p.withUnsafeBufferPointer { policy.setParameters($0) }
        let observations = (0 ..< batch * inputs).map { _ in rng.nextSigned() }
        var logits = [Float](repeating: 0, count: batch * outputs)
        var actions = [Int32](repeating: 0, count: batch)
        let clock = ContinuousClock()
        var done = 0
        var checksum = 0
        let start = clock.now
        observations.withUnsafeBufferPointer { x in
            logits.withUnsafeMutableBufferPointer { l in
                actions.withUnsafeMutableBufferPointer { a in
                    guard let xb = x.baseAddress, let lb = l.baseAddress, let ab = a.baseAddress else { return }
                    repeat {
                        for _ in 0 ..< max(1, 4096 / batch) {
                            switch path {
                            case .plainGreedy:
                                for r in 0 ..< batch {
                                    ab[r] = Int32(policy.greedyAction(UnsafeBufferPointer(start: xb + r * inputs, count: inputs)))
                                }
                            case .blasGreedy:
                                policy.actions(batch: batch, observations: xb, logits: lb, into: ab)
                            }
                            checksum &+= Int(ab[0])
                            done += batch
                        }
                    } while (clock.now - start) < .milliseconds(Int64(seconds * 1000))
                }
            }
        }
        blackHole(checksum)
        let c = (clock.now - start).components
        let elapsed = Double(c.seconds) + Double(c.attoseconds) * 1e-18
        return elapsed * 1e9 / Double(done)
    }
}
