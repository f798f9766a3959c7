/// The settings of both trainers, one value taken from a ``TrainConfig``
/// (ranges are checked there): each trainer reads its own and the shared
/// ones, so a session builds either trainer the same way.
public struct TrainerSettings: Equatable, Sendable {
    /// Adam learning rate of the policy.
    public var learningRate: Float
    /// L2 weight decay added to the gradient (`g −= decay·θ`).
    public var weightDecay: Float
    /// Observation indices whose weights stay zero (see
    /// ``TrainConfig/ignoredInputs``); every index below the policy's inputs.
    public var ignoredInputs: [Int]

    // MARK: Evolution strategies
    /// Members per iteration (even: `population / 2` antithetic pairs).
    public var population: Int
    /// Training episodes each member plays per iteration (the same seeds for
    /// every member: common random numbers).
    public var episodesPerMember: Int
    /// Perturbation scale (parameter units).
    public var sigma: Float

    // MARK: REINFORCE
    /// Episodes per iteration (one gradient step per iteration).
    public var batchEpisodes: Int
    /// Reward discount per step, in [0, 1].
    public var discount: Float
    /// Adam learning rate of the linear value baseline.
    public var baselineLearningRate: Float

    /// The trainer settings of `config` (default: ``TrainConfig``'s defaults).
    public init(_ config: TrainConfig = TrainConfig()) {
        learningRate = config.learningRate
        weightDecay = config.weightDecay
        ignoredInputs = config.ignoredInputs
        population = config.population
        episodesPerMember = config.episodesPerMember
        sigma = config.sigma
        batchEpisodes = config.batchEpisodes
        discount = config.discount
        baselineLearningRate = config.baselineLearningRate
    }

    /// Zeroes, in `parameters` (a policy's layout: `outputs × inputs`
    /// weights row by row, then the biases), the weight of every ignored
    /// input for every output: applied to ES directions and to REINFORCE
    /// gradients, it keeps those weights at their starting zero.
    public func maskIgnoredInputs(_ parameters: UnsafeMutableBufferPointer<Float>, inputs: Int, outputs: Int) {
        precondition(parameters.count >= inputs * outputs, "parameters shorter than the weights")
        for i in ignoredInputs {
            precondition(i >= 0 && i < inputs, "ignored input \(i) is not below \(inputs)")
            for a in 0 ..< outputs { parameters[a * inputs + i] = 0 }
        }
    }

    /// ES: antithetic pairs per iteration.
    public var pairs: Int { population / 2 }
}
