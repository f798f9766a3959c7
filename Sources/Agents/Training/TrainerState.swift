/// Everything a trainer needs, beyond the policy, to continue exactly where
/// it stopped: saved in a checkpoint, so a resumed run's final weights are
/// bit-identical to an uninterrupted run's.
///
/// There is no running random generator to save: every draw of iteration
/// `k` (perturbations, episode seeds, action sampling) is seeded by a pure
/// function of the run seed and `k` (``Seeds``), so `iteration` is the
/// generators' whole state.
public struct TrainerState: Equatable, Sendable {
    /// "es" or "reinforce".
    public var trainer: String
    /// ``TrainConfig/trainingHash`` of the config that made this state; a
    /// resume with a different config is refused.
    public var trainConfigHash: UInt64
    /// Iterations completed.
    public var iteration: Int
    /// Environment steps taken so far (all training episodes; evaluation excluded).
    public var envSteps: Int
    /// Wall-clock seconds spent so far, over every session of the run.
    public var wallSeconds: Double
    /// The policy's optimiser.
    public var optimizer: Adam
    /// REINFORCE's linear value baseline (`inputs + 1` weights); empty for ES.
    public var baseline: [Float]
    /// The baseline's optimiser (REINFORCE only).
    public var baselineOptimizer: Adam?
    /// Best evaluation score so far and the iteration it was reached at.
    public var bestScore: Double?
    public var bestIteration: Int

    public init(trainer: String, trainConfigHash: UInt64, iteration: Int = 0, envSteps: Int = 0,
                wallSeconds: Double = 0, optimizer: Adam, baseline: [Float] = [],
                baselineOptimizer: Adam? = nil, bestScore: Double? = nil, bestIteration: Int = 0) {
        self.trainer = trainer
        self.trainConfigHash = trainConfigHash
        self.iteration = iteration
        self.envSteps = envSteps
        self.wallSeconds = wallSeconds
        self.optimizer = optimizer
        self.baseline = baseline
        self.baselineOptimizer = baselineOptimizer
        self.bestScore = bestScore
        self.bestIteration = bestIteration
    }
}

extension TrainerState {
    /// Records wall time and the evaluation best (so a checkpoint carries them).
    public mutating func note(wallSeconds: Double, bestScore: Double?, bestIteration: Int) {
        self.wallSeconds = wallSeconds
        self.bestScore = bestScore
        self.bestIteration = bestIteration
    }
}
