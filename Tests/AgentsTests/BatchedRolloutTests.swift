import Testing
import Gym
@testable import Agents

/// The batched rollout path (the slot engine's ``RolloutWork``) against the
/// one-by-one reference, bit for bit.
@Suite struct BatchedRolloutTests {
    /// Every bit of a plan's results: per episode its return, gains, losses
    /// and steps; per member its statistics (or a marker for none).
    static func bits(_ r: RolloutResults) -> [UInt64] {
        var out: [UInt64] = []
        for e in r.episodes {
            out += [e.totalReturn.bitPattern, e.gained.bitPattern, e.lost.bitPattern, UInt64(e.steps)]
        }
        for s in r.statistics {
            guard let s else { out.append(.max); continue }
            out.append(s.count.bitPattern)
            out += s.sum.map(\.bitPattern) + s.sumSquares.map(\.bitPattern)
        }
        return out
    }

    /// A policy with random weights (and, when asked, a normaliser fitted to
    /// random observations), so members play differently and normalisation matters.
    static func centre(inputs: Int, outputs: Int, seed: UInt64, normalize: Bool) -> LinearPolicy {
        var rng = Xoshiro256(seed: seed)
        var policy = LinearPolicy(inputs: inputs, outputs: outputs,
                                  weights: (0 ..< inputs * outputs).map { _ in rng.nextSigned() },
                                  bias: (0 ..< outputs).map { _ in 0.1 * rng.nextSigned() }, normalizer: nil)
        if normalize {
            var statistics = ObservationStatistics(features: inputs)
            var x = [Float](repeating: 0, count: inputs)
            for _ in 0 ..< 50 {
                for i in 0 ..< inputs { x[i] = 3 * rng.nextSigned() + 0.5 }
                x.withUnsafeBufferPointer { statistics.add($0) }
            }
            var normalizer = ObservationNormalizer(features: inputs)
            normalizer.merge(statistics)
            policy.setNormalizer(normalizer)
        }
        return policy
    }

    /// A plan whose member `m` adds `0.3 × m`-scaled noise of its own generator to the centre.
    static func plan(centre: LinearPolicy, members: Int, episodes: Int, maxSteps: Int, collect: Bool) -> RolloutPlan {
        let base = centre.parameters
        return RolloutPlan(members: members, episodes: episodes, maxSteps: maxSteps, seedBase: 41,
                           collectStatistics: collect, centre: centre) { m, policy in
            var rng = Xoshiro256(seed: Seeds.stream(77, UInt64(m)))
            let p = base.map { $0 + 0.3 * Float(m) * rng.nextSigned() }
            p.withUnsafeBufferPointer { policy.setParameters($0) }
        }
    }

    static func pongConfig() -> PongConfig {
        var config = PongConfig()
        config.maxScore = 2
        return config
    }

    @Test(arguments: ["tracker;random", "self;tracker:noise=1;linear-softmax"])
    func pongBatchedEpisodesEqualOneByOneForAnyWorkersAndSlots(opponents: String) throws {
        let config = Self.pongConfig()
        let list: [PongTask.Opponent] = try TrainConfig.split(opponents).map { text in
            switch text {
            case "self": .selfPlay
            case "linear-softmax":
                .agent(MatchesTests.linearSpec(config: config, seed: 5, selection: .softmax))
            default: .agent(try AgentSpec.parse(text))
            }
        }
        let task = PongTask(config: config, opponents: list, episodeSteps: 600)
        #expect(task.batchIsFaster)
        for collect in [false, true] {
            let centre = Self.centre(inputs: PongGame.observationCount, outputs: 3, seed: 9, normalize: collect)
            // Five episodes: both sides and every opponent of a three-entry list.
            let plan = Self.plan(centre: centre, members: 4, episodes: 5, maxSteps: 600, collect: collect)
            let reference = Rollout.playOneByOne(plan, task: task, runner: ParallelRunner(workers: 1))
            #expect(reference.episodes.contains { $0.steps < 600 }, "some games end before the step limit")
            #expect(reference.episodes.contains { $0.steps == 600 }, "some episodes stop at the step limit")
            for (workers, slots) in [(1, 1), (1, 3), (2, 5), (3, 16)] {
                let batched = try Rollout.play(plan, task: task, path: .batched, slots: slots,
                                           runner: ParallelRunner(workers: workers))
                #expect(Self.bits(batched) == Self.bits(reference),
                        "opponents \(opponents), statistics \(collect), workers \(workers), slots \(slots)")
            }
        }
    }

    /// The batched path forced on configs `automatic` leaves one by one
    /// (frame skip with sticky actions: the `ale` preset) and on vertical
    /// movement (five actions): the same results bit for bit.
    @Test(arguments: ["ale", "touch"])
    func pongForcedBatchedEpisodesEqualOneByOneOnOtherPresets(preset: String) throws {
        var config = try PongConfig.preset(preset)
        config.maxScore = 2
        let task = PongTask(config: config, opponents: [.agent(try AgentSpec.parse("tracker")), .selfPlay],
                            episodeSteps: 400)
        let actions = config.verticalMovement ? 5 : 3
        let centre = Self.centre(inputs: PongGame.observationCount, outputs: actions, seed: 6, normalize: false)
        let plan = Self.plan(centre: centre, members: 3, episodes: 4, maxSteps: 400, collect: false)
        let reference = Rollout.playOneByOne(plan, task: task, runner: ParallelRunner(workers: 1))
        #expect(reference.episodes.contains { $0.totalReturn != 0 }, "preset \(preset): no point was scored")
        for (workers, slots) in [(1, 2), (2, 5)] {
            let batched = try Rollout.play(plan, task: task, path: .batched, slots: slots,
                                       runner: ParallelRunner(workers: workers))
            #expect(Self.bits(batched) == Self.bits(reference), "preset \(preset), workers \(workers), slots \(slots)")
        }
    }

    @Test func breakoutBatchedEpisodesEqualOneByOneForAnyWorkersAndSlots() throws {
        var config = BreakoutConfig()
        config.lives = 1
        let task = BreakoutTask(config: config, episodeSteps: 500)
        let inputs = BreakoutGame(config: config).observationCount
        for collect in [false, true] {
            let centre = Self.centre(inputs: inputs, outputs: 4, seed: 12, normalize: collect)
            let plan = Self.plan(centre: centre, members: 4, episodes: 3, maxSteps: 500, collect: collect)
            let reference = Rollout.playOneByOne(plan, task: task, runner: ParallelRunner(workers: 1))
            #expect(reference.episodes.contains { $0.steps < 500 }, "some games end before the step limit")
            #expect(reference.episodes.contains { $0.totalReturn > 0 }, "some episodes score")
            for (workers, slots) in [(1, 1), (1, 3), (2, 5), (3, 16)] {
                let batched = try Rollout.play(plan, task: task, path: .batched, slots: slots,
                                           runner: ParallelRunner(workers: workers))
                #expect(Self.bits(batched) == Self.bits(reference),
                        "statistics \(collect), workers \(workers), slots \(slots)")
            }
        }
    }

    /// A few ES iterations: the policy (bits), normaliser, steps and reports
    /// of the batched path equal the reference's.
    func expectSameTraining<Task: TrainingTask>(_ task: Task, normalize: Bool, label: String) throws {
        var settings = TrainerSettings()
        (settings.population, settings.episodesPerMember, settings.sigma) = (6, 3, 0.1)
        (settings.learningRate, settings.weightDecay) = (0.05, 0.005)
        func train(_ path: RolloutPath, workers: Int, slots: Int) throws -> (LinearPolicy, [IterationReport]) {
            var es = EvolutionStrategies(task: task, settings: settings, seed: 5, normalize: normalize,
                                         trainConfigHash: 0)
            es.rolloutPath = path
            es.slots = slots
            let runner = ParallelRunner(workers: workers)
            let reports = try (0 ..< 3).map { _ in try es.iterate(runner: runner) }
            return (es.policy, reports)
        }
        let (reference, referenceReports) = try train(.oneByOne, workers: 1, slots: 1)
        #expect(reference.parameters.contains { $0 != 0 }, "\(label): the policy moved")
        for (workers, slots) in [(1, 5), (2, 3), (3, 1)] {
            let (policy, reports) = try train(.batched, workers: workers, slots: slots)
            #expect(policy.parameters.map(\.bitPattern) == reference.parameters.map(\.bitPattern)
                    && policy.normalizer == reference.normalizer && reports == referenceReports,
                    "\(label), workers \(workers), slots \(slots)")
        }
    }

    @Test func esTrainingIsIdenticalOnTheBatchedPath() throws {
        let config = Self.pongConfig()
        try expectSameTraining(PongTask(config: config, opponents: [.agent(try AgentSpec.parse("tracker")),
                                                                .agent(try AgentSpec.parse("random"))],
                                    episodeSteps: 300),
                           normalize: false, label: "pong tracker;random")
        try expectSameTraining(PongTask(config: config, opponents: [.selfPlay], episodeSteps: 300),
                           normalize: true, label: "pong self-play, normalised")
        try expectSameTraining(BreakoutTask(config: BreakoutConfig(), episodeSteps: 300), normalize: true,
                           label: "breakout, normalised")
    }

    @Test func policyEvaluationIsIdenticalOnTheBatchedPath() throws {
        let config = Self.pongConfig()
        let pong = Self.centre(inputs: PongGame.observationCount, outputs: 3, seed: 3, normalize: false)
        let task = PongTask(config: config, opponent: .agent(try AgentSpec.parse("tracker")), episodeSteps: 500)
        let breakoutTask = BreakoutTask(config: BreakoutConfig(), episodeSteps: 400)
        let breakout = Self.centre(inputs: BreakoutGame().observationCount, outputs: 4, seed: 4, normalize: true)
        let pongReference = try PolicyEvaluation.run(task: task, policy: pong, episodes: 5, steps: 500, seed: 8,
                                                 runner: ParallelRunner(workers: 1), path: .oneByOne)
        let breakoutReference = try PolicyEvaluation.run(task: breakoutTask, policy: breakout, episodes: 5, steps: 400,
                                                     seed: 8, runner: ParallelRunner(workers: 1), path: .oneByOne)
        for (workers, slots) in [(1, 2), (2, 3), (3, 16)] {
            let runner = ParallelRunner(workers: workers)
            let p = try PolicyEvaluation.run(task: task, policy: pong, episodes: 5, steps: 500, seed: 8, runner: runner,
                                         path: .batched, slots: slots)
            let b = try PolicyEvaluation.run(task: breakoutTask, policy: breakout, episodes: 5, steps: 400, seed: 8,
                                         runner: runner, path: .batched, slots: slots)
            #expect(p == pongReference && p.meanReturn.bitPattern == pongReference.meanReturn.bitPattern,
                    "pong, workers \(workers), slots \(slots)")
            #expect(b == breakoutReference && b.meanReturn.bitPattern == breakoutReference.meanReturn.bitPattern,
                    "breakout, workers \(workers), slots \(slots)")
        }
    }

    /// Opponents act batched only on the slot engine, so every game task's
    /// automatic path is batched, whatever the frame skip or sticky actions.
    @Test func automaticPathBatchesEveryGameTask() {
        var skipped = PongConfig()
        skipped.frameSkip = 2
        var sticky = PongConfig()
        sticky.stickyActionProbability = 0.25
        for config in [PongConfig(), skipped, sticky] {
            #expect(RolloutPath.automatic.tries(batchedFor: PongTask(config: config, opponent: .selfPlay,
                                                                     episodeSteps: 10)))
        }
        #expect(RolloutPath.automatic.tries(batchedFor: BreakoutTask(config: BreakoutConfig(), episodeSteps: 10)))
    }
}
