import Foundation

/// The Adam optimiser (Kingma & Ba, "Adam: A Method for Stochastic
/// Optimization", ICLR 2015), ascending a gradient estimate, with optional
/// L2 weight decay added to the gradient as in Salimans et al.'s evolution
/// strategies ("Evolution Strategies as a Scalable Alternative to
/// Reinforcement Learning", 2017): `g ← g − decay·θ`.
///
/// Its state (moments and step count) is part of a checkpoint, so a resumed
/// run takes exactly the steps an uninterrupted one would.
public struct Adam: Equatable, Sendable {
    public var learningRate: Float
    public var beta1: Float = 0.9
    public var beta2: Float = 0.999
    public var epsilon: Float = 1e-8
    public var weightDecay: Float
    /// First and second moment estimates, one per parameter.
    public private(set) var m: [Float]
    public private(set) var v: [Float]
    /// Steps taken.
    public private(set) var t: Int

    public init(parameters: Int, learningRate: Float, weightDecay: Float = 0) {
        self.learningRate = learningRate
        self.weightDecay = weightDecay
        m = [Float](repeating: 0, count: parameters)
        v = [Float](repeating: 0, count: parameters)
        t = 0
    }

    /// Restores a saved state (from a checkpoint).
    public init(learningRate: Float, weightDecay: Float, m: [Float], v: [Float], t: Int) {
        precondition(m.count == v.count, "moment lengths differ")
        self.learningRate = learningRate
        self.weightDecay = weightDecay
        self.m = m
        self.v = v
        self.t = t
    }

    public var parameterCount: Int { m.count }

    /// One ascent step: `θ += lr · m̂ / (√v̂ + ε)` for the gradient `g`
    /// (of the objective to maximise) plus the weight-decay term.
    public mutating func ascend(_ theta: UnsafeMutableBufferPointer<Float>, gradient g: UnsafeBufferPointer<Float>) {
        precondition(theta.count >= m.count && g.count >= m.count, "buffer too small")
        t += 1
        let c1 = 1 - Float(Foundation.pow(Double(beta1), Double(t)))
        let c2 = 1 - Float(Foundation.pow(Double(beta2), Double(t)))
        let stepSize = learningRate * c2.squareRoot() / c1
        let (b1, b2, eps, decay) = (beta1, beta2, epsilon, weightDecay)
        m.withUnsafeMutableBufferPointer { m in
            v.withUnsafeMutableBufferPointer { v in
                for i in 0 ..< m.count {
                    let gi = g[i] - decay * theta[i]
                    m[i] = b1 * m[i] + (1 - b1) * gi
                    v[i] = b2 * v[i] + (1 - b2) * gi * gi
                    theta[i] += stepSize * m[i] / (v[i].squareRoot() + eps)
                }
            }
        }
    }
}
