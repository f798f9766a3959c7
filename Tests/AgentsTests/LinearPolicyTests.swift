import Foundation
import Testing
import Gym
@testable import Agents

/// A policy with seeded Gaussian weights.
func randomPolicy(inputs: Int, outputs: Int, seed: UInt64, normalize: Bool = false) -> LinearPolicy {
    var rng = Xoshiro256(seed: seed)
    var policy = LinearPolicy(inputs: inputs, outputs: outputs, normalize: normalize)
    let p = (0 ..< policy.parameterCount).map { _ in rng.nextGaussian() }
    p.withUnsafeBufferPointer { policy.setParameters($0) }
    return policy
}

/// The reference: logits by a plain double loop over the raw (unfolded)
/// weights and the normaliser's affine map.
func referenceLogits(_ policy: LinearPolicy, _ x: [Float]) -> [Double] {
    let (scale, shift) = policy.normalizer?.affine() ?? ([Float](repeating: 1, count: policy.inputs),
                                                         [Float](repeating: 0, count: policy.inputs))
    return (0 ..< policy.outputs).map { a in
        var s = Double(policy.bias[a])
        for i in 0 ..< policy.inputs {
            s += Double(policy.weights[a * policy.inputs + i]) * (Double(x[i]) * Double(scale[i]) + Double(shift[i]))
        }
        return s
    }
}

@Suite struct LinearPolicyTests {
    @Test func blasBatchMatchesPlainReferenceLoop() {
        for seed in UInt64(1) ... 8 {
            for (inputs, outputs, batch) in [(12, 3, 1), (12, 5, 7), (12, 3, 64), (33, 4, 300), (128, 6, 17)] {
                let policy = randomPolicy(inputs: inputs, outputs: outputs, seed: seed)
                var rng = Xoshiro256(seed: seed &+ 100)
                let x = (0 ..< batch * inputs).map { _ in rng.nextSigned() }
                var blas = [Float](repeating: .nan, count: batch * outputs)
                x.withUnsafeBufferPointer { xs in
                    blas.withUnsafeMutableBufferPointer { l in
                        policy.logits(batch: batch, observations: xs.baseAddress!, into: l.baseAddress!)
                    }
                }
                var single = [Float](repeating: .nan, count: outputs)
                for r in 0 ..< batch {
                    let row = Array(x[r * inputs ..< (r + 1) * inputs])
                    let ref = referenceLogits(policy, row)
                    row.withUnsafeBufferPointer { xs in
                        single.withUnsafeMutableBufferPointer { policy.logits(xs, into: $0) }
                    }
                    for a in 0 ..< outputs {
                        let tolerance = 1e-4 * Double(inputs)
                        #expect(abs(Double(blas[r * outputs + a]) - ref[a]) < tolerance,
                                "seed \(seed) shape \(inputs)x\(outputs) row \(r) action \(a)")
                        #expect(abs(Double(single[a]) - ref[a]) < tolerance, "seed \(seed) plain path")
                    }
                }
            }
        }
    }

    @Test func normalisationIsFoldedIntoTheWeights() {
        var policy = randomPolicy(inputs: 12, outputs: 3, seed: 5, normalize: true)
        var stats = ObservationStatistics(features: 12)
        var rng = Xoshiro256(seed: 6)
        for _ in 0 ..< 500 {
            let x = (0 ..< 12).map { i in rng.nextSigned() * Float(i + 1) + Float(i) }
            x.withUnsafeBufferPointer { stats.add($0) }
        }
        var n = policy.normalizer!
        n.merge(stats)
        policy.setNormalizer(n)
        #expect(policy.normalizer!.count == 500)
        let x = (0 ..< 12).map { i in Float(i) * 0.5 }
        let ref = referenceLogits(policy, x)
        var out = [Float](repeating: 0, count: 3)
        x.withUnsafeBufferPointer { xs in out.withUnsafeMutableBufferPointer { policy.logits(xs, into: $0) } }
        for a in 0 ..< 3 { #expect(abs(Double(out[a]) - ref[a]) < 1e-3) }
        // Feature 3's mean is about 3 and its std about 4/√3: the fold must centre it.
        #expect(abs(n.mean[3] - 3) < 0.3)
    }

    @Test func greedyAndBatchedActionsAgreeAndTieToLowestIndex() {
        let zero = LinearPolicy(inputs: 12, outputs: 3)
        let x = [Float](repeating: 0.3, count: 12)
        #expect(x.withUnsafeBufferPointer { zero.greedyAction($0) } == 0)
        for seed in UInt64(1) ... 5 {
            let policy = randomPolicy(inputs: 12, outputs: 3, seed: seed)
            var rng = Xoshiro256(seed: seed)
            let batch = 200
            let xs = (0 ..< batch * 12).map { _ in rng.nextSigned() }
            var actions = [Int32](repeating: -1, count: batch)
            xs.withUnsafeBufferPointer { xb in
                actions.withUnsafeMutableBufferPointer { policy.actions(batch: batch, observations: xb.baseAddress!, into: $0.baseAddress!) }
            }
            for r in 0 ..< batch {
                let single = xs[r * 12 ..< r * 12 + 12].withUnsafeBufferPointer { policy.greedyAction($0) }
                #expect(Int(actions[r]) == single, "seed \(seed) row \(r)")
            }
        }
    }

    /// The single-observation path sums four actions' rows side by side;
    /// each logit must stay bit for bit the row-by-row loop's (a float sum
    /// over the folded weights in input order), and the greedy action its argmax.
    @Test func singleObservationLogitsAreTheRowByRowSumsBitForBit() {
        for (inputs, outputs) in [(12, 3), (12, 5), (70, 4), (7, 1), (5, 6), (33, 9), (1, 2)] {
            for seed in UInt64(1) ... 4 {
                var policy = randomPolicy(inputs: inputs, outputs: outputs, seed: seed, normalize: seed % 2 == 0)
                var rng = Xoshiro256(seed: seed &+ 100)
                if seed % 2 == 0 {
                    var statistics = ObservationStatistics(features: inputs)
                    for _ in 0 ..< 20 {
                        let x = (0 ..< inputs).map { _ in 4 * rng.nextSigned() + 1 }
                        x.withUnsafeBufferPointer { statistics.add($0) }
                    }
                    var normalizer = ObservationNormalizer(features: inputs)
                    normalizer.merge(statistics)
                    policy.setNormalizer(normalizer)
                }
                for _ in 0 ..< 20 {
                    let x = (0 ..< inputs).map { _ in rng.nextSigned() }
                    var expected = [Float](repeating: 0, count: outputs)
                    var best = 0
                    for a in 0 ..< outputs {
                        var s = policy.foldedBias[a]
                        for i in 0 ..< inputs { s += policy.foldedWeights[a * inputs + i] * x[i] }
                        expected[a] = s
                        if s > expected[best] { best = a }
                    }
                    var logits = [Float](repeating: .nan, count: outputs)
                    x.withUnsafeBufferPointer { xb in logits.withUnsafeMutableBufferPointer { policy.logits(xb, into: $0) } }
                    #expect(logits.map(\.bitPattern) == expected.map(\.bitPattern), "\(inputs)×\(outputs) seed \(seed)")
                    #expect(x.withUnsafeBufferPointer { policy.greedyAction($0) } == best,
                            "\(inputs)×\(outputs) seed \(seed)")
                    // Paired with another policy of the same shape on another observation.
                    let other = randomPolicy(inputs: inputs, outputs: outputs, seed: seed &+ 50)
                    let y = (0 ..< inputs).map { _ in rng.nextSigned() }
                    let pair = x.withUnsafeBufferPointer { xb in
                        y.withUnsafeBufferPointer { yb in
                            LinearPolicy.greedyActions(policy, xb.baseAddress!, other, yb.baseAddress!)
                        }
                    }
                    let alone = y.withUnsafeBufferPointer { other.greedyAction($0) }
                    #expect(pair.0 == best && pair.1 == alone, "pair \(inputs)×\(outputs) seed \(seed)")
                }
            }
        }
    }

    @Test func softmaxSamplingFollowsTheProbabilities() {
        var logits: [Float] = [0, Float(Foundation.log(2.0)), Float(Foundation.log(5.0))]   // probabilities 1/8, 2/8, 5/8
        var rng = Xoshiro256(seed: 3)
        var counts = [0, 0, 0]
        let copy = logits
        for _ in 0 ..< 40_000 {
            logits = copy
            counts[logits.withUnsafeMutableBufferPointer { LinearPolicy.sample($0, rng: &rng) }] += 1
        }
        #expect(abs(Double(counts[0]) / 40_000 - 0.125) < 0.01)
        #expect(abs(Double(counts[2]) / 40_000 - 0.625) < 0.01)
    }

    @Test func gaussianDrawsHaveZeroMeanAndUnitVariance() {
        var a = Xoshiro256(seed: 11)
        var sum = 0.0, squares = 0.0
        let n = 50_000
        for _ in 0 ..< n {
            let g = a.nextGaussian()
            sum += Double(g); squares += Double(g) * Double(g)
        }
        #expect(abs(sum / Double(n)) < 0.02)
        #expect(abs(squares / Double(n) - 1) < 0.03)
    }

    @Test func linearAgentPlaysAsAnAgent() {
        let policy = randomPolicy(inputs: 12, outputs: 3, seed: 2)
        var greedy = LinearAgent(policy: policy)
        var sampler = LinearAgent(policy: policy, selection: .softmax, seed: 1)
        var game = PongGame(config: PongConfig(), seed: 4)
        var obs = [Float](repeating: 0, count: 12)
        var again = LinearAgent(policy: policy, selection: .softmax, seed: 1)
        for _ in 0 ..< 500 {
            obs.withUnsafeMutableBufferPointer { game.observe(.bottom, into: $0) }
            let a = obs.withUnsafeBufferPointer { greedy.act($0) }
            let s = obs.withUnsafeBufferPointer { sampler.act($0) }
            #expect(s == obs.withUnsafeBufferPointer { again.act($0) })
            #expect((0 ..< 3).contains(a) && (0 ..< 3).contains(s))
            _ = game.step(top: s, bottom: a)
        }
    }
}

@Suite struct BatchInvarianceTests {
    /// Batched stepping needs an observation's actions not to depend on the
    /// batch it is evaluated in (results must not depend on the batch size).
    /// Holds for sgemm at Pong's widths (measured: not from 32 inputs on), and
    /// for the plain row-by-row path at any width.
    @Test func batchedLogitsOfARowDoNotDependOnTheBatchSize() {
        for seed in UInt64(1) ... 4 {
            for (inputs, outputs, plain) in [(12, 3, false), (12, 5, false), (70, 4, true)] {
                let policy = randomPolicy(inputs: inputs, outputs: outputs, seed: seed)
                var rng = Xoshiro256(seed: seed &+ 9)
                let total = 1030
                let x = (0 ..< total * inputs).map { _ in rng.nextSigned() }
                func logits(from start: Int, batch: Int) -> [UInt32] {
                    var out = [Float](repeating: 0, count: batch * outputs)
                    x.withUnsafeBufferPointer { xs in
                        out.withUnsafeMutableBufferPointer {
                            if plain {
                                policy.plainLogits(batch: batch, observations: xs.baseAddress! + start * inputs, into: $0.baseAddress!)
                            } else {
                                policy.logits(batch: batch, observations: xs.baseAddress! + start * inputs, into: $0.baseAddress!)
                            }
                        }
                    }
                    return out.map(\.bitPattern)
                }
                let all = logits(from: 0, batch: total)
                for (start, batch) in [(0, 1), (5, 1), (0, 7), (3, 64), (100, 257), (1029, 1), (17, 1000)] {
                    let part = logits(from: start, batch: batch)
                    #expect(part == Array(all[start * outputs ..< (start + batch) * outputs]),
                            "seed \(seed) shape \(inputs)x\(outputs) rows \(start)..<\(start + batch)")
                }
            }
        }
    }
}
