import Testing
import Gym
@testable import Agents

/// A small Pong training config (fast in a debug build).
func smallConfig(trainer: String = "es", opponent: String = "random", normalize: Bool = false,
                 workers: Int = 1, seed: UInt64 = 3) throws -> TrainConfig {
    var c = try TrainConfig.preset("smoke")
    c.trainer = trainer
    c.opponent = opponent
    c.normalizeObservations = normalize
    c.workers = workers
    c.seed = seed
    c.population = 8
    c.episodeSteps = 300
    c.batchEpisodes = 4
    try c.validate()
    return c
}

func runIterations(_ session: inout TrainingSession, _ n: Int, workers: Int) throws {
    let runner = ParallelRunner(workers: workers)
    for _ in 0 ..< n { _ = try session.iterate(runner: runner) }
}

@Suite struct TrainingTests {
    @Test func esGradientOnAQuadraticPointsUphill() {
        // f(θ) = −|θ − θ*|²; at θ = 0 the true gradient is 2θ*.
        for seed in UInt64(1) ... 10 {
            let p = 20, pairs = 50
            var rng = Xoshiro256(seed: seed)
            let optimum = (0 ..< p).map { _ in rng.nextGaussian() }
            let sigma: Float = 0.1
            let directions = (0 ..< pairs * p).map { _ in rng.nextGaussian() }
            var fitness: [Double] = []
            for i in 0 ..< pairs {
                for sign: Float in [1, -1] {
                    var f = 0.0
                    for j in 0 ..< p {
                        let d = Double(sign * sigma * directions[i * p + j] - optimum[j])
                        f -= d * d
                    }
                    fitness.append(f)
                }
            }
            let g = EvolutionStrategies<PongTask>.gradientEstimate(directions: directions, pairs: pairs, parameters: p,
                                                                    fitness: fitness, sigma: sigma)
            var dot = 0.0, gg = 0.0, oo = 0.0
            for j in 0 ..< p {
                dot += Double(g[j]) * Double(optimum[j]); gg += Double(g[j] * g[j]); oo += Double(optimum[j] * optimum[j])
            }
            let cosine = dot / (gg * oo).squareRoot()
            #expect(cosine > 0.6, "seed \(seed): cosine \(cosine)")
        }
    }

    @Test func centredRanksShareTiesAndSpanPlusMinusHalf() {
        let u = EvolutionStrategies<PongTask>.centredRanks([3, -1, 3, 10, 0])
        #expect(u == [0.125, -0.5, 0.125, 0.5, -0.25])   // ranks 2.5, 0, 2.5, 4, 1 of 0 ... 4
        #expect(EvolutionStrategies<PongTask>.centredRanks([2, 2, 2]) == [0, 0, 0])
    }

    @Test(arguments: ["es", "reinforce"])
    func trainingIsIdenticalForAnyWorkerCount(trainer: String) throws {
        var reference: (LinearPolicy, TrainerState)?
        for workers in [1, 2, 3] {
            var session = try TrainingSession(config: smallConfig(trainer: trainer, normalize: true, workers: workers))
            try runIterations(&session, 3, workers: workers)
            let result = (session.policy, session.state)
            if let reference {
                #expect(result.0.parameters.map(\.bitPattern) == reference.0.parameters.map(\.bitPattern),
                        "\(trainer) with \(workers) workers")
                #expect(result.0.normalizer == reference.0.normalizer)
                #expect(result.1 == reference.1, "\(trainer) with \(workers) workers")
            } else {
                reference = result
                #expect(result.0.parameters.contains { $0 != 0 }, "training changed nothing")
            }
        }
    }

    @Test(arguments: ["es", "reinforce"])
    func interruptAndResumeIsBitIdentical(trainer: String) throws {
        let config = try smallConfig(trainer: trainer, opponent: "tracker:noise=0.5", normalize: true, workers: 2)
        var straight = try TrainingSession(config: config)
        try runIterations(&straight, 4, workers: 2)

        var first = try TrainingSession(config: config)
        try runIterations(&first, 2, workers: 2)
        // "Interrupted": the checkpoint goes through its text form, a new session resumes.
        let text = try first.checkpoint().encoded()
        let saved = try Checkpoint.decode(text, path: "checkpoint.json")
        var resumed = try TrainingSession(config: config, resume: (saved, "checkpoint.json"))
        try runIterations(&resumed, 2, workers: 1)

        #expect(resumed.policy.parameters.map(\.bitPattern) == straight.policy.parameters.map(\.bitPattern))
        #expect(resumed.policy.normalizer == straight.policy.normalizer)
        #expect(resumed.state == straight.state)
        #expect(resumed.state.iteration == 4)
    }

    @Test func selfPlayTrainsAgainstTheIterationsCentre() throws {
        var reference: [Float]?
        for workers in [1, 3] {
            var session = try TrainingSession(config: smallConfig(opponent: "self;random", workers: workers))
            try runIterations(&session, 3, workers: workers)
            let p = session.policy.parameters
            if let reference { #expect(p.map(\.bitPattern) == reference.map(\.bitPattern)) } else { reference = p }
            #expect(p.contains { $0 != 0 })
        }
    }

    @Test func breakoutTrainsDeterministicallyOnItsScore() throws {
        var c = try smallConfig(normalize: true)
        c.game = "breakout"
        try c.validate()
        var reference: [Float]?
        for workers in [1, 2] {
            var session = try TrainingSession(config: c)
            #expect(session.target == .breakout(BreakoutConfig()))
            try runIterations(&session, 2, workers: workers)
            let p = session.policy.parameters
            if let reference { #expect(p.map(\.bitPattern) == reference.map(\.bitPattern)) } else { reference = p }
            let text = try session.checkpoint().encoded()
            #expect(try Checkpoint.decode(text, path: "b").target.game == "breakout")
        }
    }

    @Test func resumeRefusesAnotherConfigOrAPolicyOnlyCheckpoint() throws {
        let config = try smallConfig()
        var session = try TrainingSession(config: config)
        try runIterations(&session, 1, workers: 1)
        var other = config
        other.sigma *= 2
        #expect(throws: TrainingSetupError.checkpoint(.configMismatch(path: "c", found: config.trainingHash,
                                                                       expected: other.trainingHash))) {
            try TrainingSession(config: other, resume: (session.checkpoint(), "c"))
        }
        #expect(throws: TrainingSetupError.checkpoint(.notResumable(path: "c"))) {
            try TrainingSession(config: config, resume: (session.checkpoint(includingState: false), "c"))
        }
        var longer = config
        longer.iterations += 10
        longer.workers = 2
        #expect(longer.trainingHash == config.trainingHash)
    }

    @Test func aSmallBudgetBeatsTheRandomAgent() throws {
        var c = try smallConfig(seed: 5)
        c.population = 16
        c.episodesPerMember = 2
        c.episodeSteps = 1500
        c.evalEpisodes = 8
        c.evalSteps = 3000
        let runner = ParallelRunner(workers: 2)
        var session = try TrainingSession(config: c)
        let before = try session.evaluate(runner: runner).score
        try runIterations(&session, 15, workers: 2)
        let after = try session.evaluate(runner: runner)
        // The zero policy only stays put; a trainer that learns returns the ball.
        #expect(after.score > 0.8, "point share vs random after training: \(after.score) (before \(before))")
        #expect(after.score > before + 0.2)
        #expect(after.results[0].gained > after.results[0].lost)
    }
}

/// A contextual bandit: the observation is (s, 1) with s = ±1 drawn per
/// step; action 2 pays 1 when s = +1, action 1 pays 1 when s = −1.
struct SignBandit: Environment {
    typealias Config = PongConfig
    var config = PongConfig()
    var rng = Xoshiro256(seed: 0)
    var sign: Float = 1
    var steps = 0
    var lastEvents = PongEvents()
    var observationCount: Int { 2 }
    var actionCount: Int { 3 }
    mutating func reset(seed: UInt64) {
        rng = Xoshiro256(seed: seed)
        steps = 0
        sign = rng.sign()
    }
    mutating func step(_ action: Int) -> StepResult {
        let reward: Float = action == (sign > 0 ? 2 : 1) ? 1 : 0
        sign = rng.sign()
        steps += 1
        return StepResult(reward: reward, terminated: steps >= 20, truncated: false, end: steps >= 20 ? .gameOver : .none)
    }
    func observe(into buffer: UnsafeMutableBufferPointer<Float>) { buffer[0] = sign; buffer[1] = 1 }
    func render(into frame: inout GrayFrame) {}
}

@Suite struct ReinforceTests {
    @Test func reinforceLearnsTheRewardedAction() throws {
        for seed in UInt64(1) ... 3 {
            let target = PolicyTarget(game: "bandit", layoutVersion: 1, inputs: 2, outputs: 3)
            let task = SinglePlayerTask(target: target, episodeSteps: 20) { SignBandit() }
            var settings = TrainerSettings()
            (settings.batchEpisodes, settings.discount, settings.baselineLearningRate) = (8, 0, 0.05)
            (settings.learningRate, settings.weightDecay) = (0.05, 0)
            var trainer = Reinforce(task: task, settings: settings, seed: seed, normalize: false, trainConfigHash: 0)
            let runner = ParallelRunner(workers: 2)
            var first = 0.0, last = 0.0
            for k in 0 ..< 60 {
                let r = try trainer.iterate(runner: runner)
                if k == 0 { first = r.meanReturn }
                last = r.meanReturn
            }
            let p = trainer.policy
            let plus: [Float] = [1, 1], minus: [Float] = [-1, 1]
            #expect(plus.withUnsafeBufferPointer { p.greedyAction($0) } == 2, "seed \(seed)")
            #expect(minus.withUnsafeBufferPointer { p.greedyAction($0) } == 1, "seed \(seed)")
            // Sampled episodes pay more than the uniform policy's 20/3.
            #expect(last > first && last > 12, "seed \(seed): return \(first) -> \(last)")
        }
    }
}
