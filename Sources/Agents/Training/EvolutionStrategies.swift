import Gym

/// What one training iteration did.
public struct IterationReport: Equatable, Sendable {
    /// The iteration just completed (1-based).
    public var iteration: Int
    /// Environment steps of this iteration, and in total so far.
    public var steps: Int
    public var totalSteps: Int
    /// Mean, min and max episode return over the population's members (each
    /// member's mean over its episodes) or, for REINFORCE, over the episodes.
    public var meanReturn: Double, minReturn: Double, maxReturn: Double
}

/// Evolution strategies for a ``LinearPolicy`` (Salimans et al., "Evolution
/// Strategies as a Scalable Alternative to Reinforcement Learning", 2017):
///
/// 1. Draw `pairs` Gaussian directions `εᵢ` (rows of a `pairs × P` matrix
///    `E`; row `i` from a generator seeded by the iteration's seed and `i`).
/// 2. Members `2i` and `2i+1` play with `θ + σεᵢ` and `θ − σεᵢ`
///    (antithetic sampling), each the same `episodesPerMember` episodes
///    (common random numbers), as one ``RolloutPlan`` on the
///    ``ParallelRunner``: by ``rolloutPath`` (default ``RolloutPath/automatic``)
///    either batched — each worker steps ``slots`` episodes together on one
///    vector environment (the slot engine's ``RolloutWork``; where the game
///    says batching is faster) with one greedy learner per
///    slot acting on its own observation row — or one by one on single
///    environments (``Rollout/playOneByOne(_:task:runner:)``, the reference).
///    Both give the same results bit for bit (fitness, steps, statistics).
/// 3. Fitness = a member's mean episode return, shaped by centred ranks
///    (``centredRanks(_:)``, ties share their mean rank).
/// 4. Gradient estimate `g = Eᵀw / (2·pairs·σ)` with `wᵢ = u₂ᵢ − u₂ᵢ₊₁`:
///    one ``ExactProduct`` on OpenBLAS (the same bits on every CPU).
/// 5. Adam ascends `g − decay·θ`; the observation normaliser (if any)
///    merges the iteration's statistics in member order.
///
/// Every random draw of iteration `k` is seeded by `Seeds` from the run seed
/// and `k`, and every result lands in the slot of its member, so a run is
/// bit-identical for any worker count, and resuming from a checkpoint at
/// iteration `k` continues exactly as the uninterrupted run would.
public struct EvolutionStrategies<Task: TrainingTask>: LinearPolicyTrainer {
    public var core: TrainerCore<Task>

    public init(core: TrainerCore<Task>) {
        let settings = core.settings
        precondition(settings.population >= 2 && settings.population % 2 == 0, "population must be even and at least 2")
        precondition(settings.episodesPerMember >= 1, "episodesPerMember must be at least 1")
        precondition(core.state.optimizer.parameterCount == core.policy.parameterCount,
                     "optimizer size does not match the policy")
        self.core = core
    }

    public static func freshState(policy: LinearPolicy, settings: TrainerSettings, trainConfigHash: UInt64) -> TrainerState {
        TrainerState(trainer: "es", trainConfigHash: trainConfigHash,
                     optimizer: Adam(parameters: policy.parameterCount, learningRate: settings.learningRate,
                                     weightDecay: settings.weightDecay))
    }

    /// One iteration (see the type's description): every member played
    /// here, then ``update(members:)``.
    public mutating func iterate(runner: ParallelRunner) throws(AgentFault) -> IterationReport {
        update(members: try evaluateMembers(0 ..< settings.population, runner: runner))
    }

    /// The iteration's directions (step 1): `pairs × parameters` floats,
    /// row `i` from its own generator seeded by the iteration's seed and `i`,
    /// with the weights of ignored inputs zeroed (so they never move).
    func directions() -> [Float] {
        let iterationSeed = Seeds.stream(seed, UInt64(state.iteration))
        let pairs = settings.pairs, p = policy.parameterCount
        var noise = [Float](repeating: 0, count: pairs * p)
        noise.withUnsafeMutableBufferPointer { e in
            for i in 0 ..< pairs {
                var rng = Xoshiro256(seed: Seeds.stream(iterationSeed, UInt64(i)))
                let row = UnsafeMutableBufferPointer(rebasing: e[i * p ..< (i + 1) * p])
                rng.fillGaussian(row)
                settings.maskIgnoredInputs(row, inputs: policy.inputs, outputs: policy.outputs)
            }
        }
        return noise
    }

    /// Plays members `range` of the current iteration (step 2) and returns
    /// their results in member order. A member's result depends only on the
    /// run seed, the iteration, the policy and its index, so the population
    /// can be played in pieces (on other processes or machines) and the
    /// pieces joined in member order give exactly the results of playing it
    /// whole (what ``iterate(runner:)`` does).
    /// - Parameter range: member indices within `0 ..< population`, not empty.
    public func evaluateMembers(_ range: Range<Int>, runner: ParallelRunner) throws(AgentFault) -> [MemberResult] {
        precondition(!range.isEmpty && range.lowerBound >= 0 && range.upperBound <= settings.population,
                     "members out of range")
        BLAS.useSingleThread() // no BLAS call may depend on OpenBLAS's thread count
        let iterationSeed = Seeds.stream(seed, UInt64(state.iteration))
        let p = policy.parameterCount, sigma = settings.sigma
        let directions = directions()
        let centre = policy.parameters
        let episodes = settings.episodesPerMember
        let first = range.lowerBound
        // Each member writes only its own results.
        let plan = RolloutPlan(
            members: range.count, episodes: episodes, maxSteps: task.episodeSteps,
            seedBase: Seeds.stream(iterationSeed, SeedStream.esEpisodes), collectStatistics: policy.normalizer != nil,
            centre: policy
        ) { local, learner in
            let member = first + local
            let sign: Float = member % 2 == 0 ? 1 : -1
            let row = member / 2
            centre.withUnsafeBufferPointer { c in
                directions.withUnsafeBufferPointer { e in
                    learner.setParameters(centre: c, plus: sign * sigma,
                                          times: UnsafeBufferPointer(rebasing: e[row * p ..< (row + 1) * p]))
                }
            }
        }
        let played = try Rollout.play(plan, task: task, path: rolloutPath, slots: slots, runner: runner)
        return (0 ..< range.count).map { m in
            var total = 0.0, steps = 0
            for r in played.episodes[m * episodes ..< (m + 1) * episodes] {
                total += r.totalReturn
                steps += r.steps
            }
            return MemberResult(fitness: total / Double(episodes), steps: steps, statistics: played.statistics[m])
        }
    }

    /// Steps 3–5 from the whole population's results (member order): the
    /// rank-shaped gradient, Adam, the normaliser; advances the iteration.
    /// - Parameter members: `population` results, member `m` at index `m`.
    public mutating func update(members: [MemberResult]) -> IterationReport {
        BLAS.useSingleThread() // the members' own workers are the parallelism
        precondition(members.count == settings.population, "one result per member")
        let pairs = settings.pairs, p = policy.parameterCount
        let centre = policy.parameters

        // 3–4. Rank-shaped fitness and the gradient estimate (one exact product).
        let fitness = members.map(\.fitness)
        var gradient = EvolutionStrategies.gradientEstimate(directions: directions(), pairs: pairs, parameters: p,
                                                             fitness: fitness, sigma: settings.sigma)
        // 5. Adam, then the normaliser.
        var theta = centre
        theta.withUnsafeMutableBufferPointer { t in
            gradient.withUnsafeMutableBufferPointer { g in core.state.optimizer.ascend(t, gradient: UnsafeBufferPointer(g)) }
        }
        theta.withUnsafeBufferPointer { core.policy.setParameters($0) }
        if var normalizer = policy.normalizer {
            var merged = ObservationStatistics(features: policy.inputs)
            for m in members { if let s = m.statistics { merged.add(s) } }
            normalizer.merge(merged)
            core.policy.setNormalizer(normalizer)
        }
        return core.finishIteration(steps: members.reduce(0) { $0 + $1.steps }, returns: fitness)
    }

    /// The ES gradient estimate from antithetic members' fitness:
    /// `g = Eᵀw / (2·pairs·σ)`, `wᵢ = u(f₂ᵢ) − u(f₂ᵢ₊₁)` with `u` the centred
    /// ranks. One product over the `pairs × parameters` direction matrix
    /// (``ExactProduct``: the same bits on every CPU).
    /// - Parameters:
    ///   - directions: `pairs × parameters` floats, row-major (row `i` = `εᵢ`).
    ///   - fitness: `2·pairs` values; member `2i` used `+σεᵢ`, `2i+1` used `−σεᵢ`.
    public static func gradientEstimate(directions: [Float], pairs: Int, parameters: Int,
                                        fitness: [Double], sigma: Float) -> [Float] {
        precondition(directions.count == pairs * parameters && fitness.count == 2 * pairs, "shapes do not match")
        let u = centredRanks(fitness)
        let w = (0 ..< pairs).map { i in Float(u[2 * i] - u[2 * i + 1]) }
        var g = [Float](repeating: 0, count: parameters)
        directions.withUnsafeBufferPointer { e in
            w.withUnsafeBufferPointer { wp in
                g.withUnsafeMutableBufferPointer { gp in
                    guard let eb = e.baseAddress, let wb = wp.baseAddress, let gb = gp.baseAddress else { return }
                    ExactProduct.multiply(m: parameters, n: 1, k: pairs,
                                          a: eb, lda: parameters, transposeA: true,
                                          b: wb, ldb: 1, transposeB: false,
                                          scale: 1 / (2 * Double(pairs) * Double(sigma)), into: gb, ldc: 1)
                }
            }
        }
        return g
    }

    /// Centred ranks in [−0.5, 0.5]: the lowest value maps to −0.5, the
    /// highest to 0.5, evenly spaced; equal values share the mean of their
    /// ranks (so ties carry no signal). Independent of the values' scale.
    public static func centredRanks(_ values: [Double]) -> [Double] {
        let n = values.count
        guard n > 1 else { return [Double](repeating: 0, count: n) }
        let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
        var ranks = [Double](repeating: 0, count: n)
        var start = 0
        while start < n {
            var end = start
            while end + 1 < n, values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end) / 2
            for k in start ... end { ranks[order[k]] = rank / Double(n - 1) - 0.5 }
            start = end + 1
        }
        return ranks
    }
}

/// What one ES member's episodes gave.
public struct MemberResult: Equatable, Sendable {
    /// The member's mean episode return.
    public var fitness: Double
    /// Agent steps over its episodes.
    public var steps: Int
    /// Every observation it saw (nil unless the policy normalises its input).
    public var statistics: ObservationStatistics?

    public init(fitness: Double, steps: Int, statistics: ObservationStatistics?) {
        self.fitness = fitness
        self.steps = steps
        self.statistics = statistics
    }
}
