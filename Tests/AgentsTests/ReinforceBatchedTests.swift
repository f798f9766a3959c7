import Testing
import Gym
@testable import Agents

/// REINFORCE on the batched Pong path (``PongReinforceSlots``) against the
/// one-by-one reference, bit for bit.
@Suite struct ReinforceBatchedTests {
    struct Run: Equatable {
        var parameters: [UInt32]
        var baseline: [UInt32]
        var normalizer: ObservationNormalizer?
        var state: TrainerState
        var reports: [IterationReport]
        var meanReturns: [UInt64]
    }

    static func train(_ task: PongTask, normalize: Bool, path: RolloutPath, workers: Int, slots: Int) throws -> Run {
        var settings = TrainerSettings()
        (settings.batchEpisodes, settings.discount, settings.baselineLearningRate) = (7, 0.99, 0.05)
        (settings.learningRate, settings.weightDecay) = (0.05, 0.001)
        var trainer = Reinforce(task: task, settings: settings, seed: 11, normalize: normalize, trainConfigHash: 0)
        trainer.rolloutPath = path
        trainer.slots = slots
        let runner = ParallelRunner(workers: workers)
        let reports = try (0 ..< 3).map { _ in try trainer.iterate(runner: runner) }
        return Run(parameters: trainer.policy.parameters.map(\.bitPattern),
                   baseline: trainer.state.baseline.map(\.bitPattern), normalizer: trainer.policy.normalizer,
                   state: trainer.state, reports: reports, meanReturns: reports.map(\.meanReturn.bitPattern))
    }

    @Test func reinforceTrainingIsIdenticalOnTheBatchedPongPath() throws {
        var config = PongConfig()
        config.maxScore = 2
        let fixed = PongTask(config: config, opponents: [.agent(try AgentSpec.parse("tracker")),
                                                          .agent(try AgentSpec.parse("random"))],
                             episodeSteps: 900)
        let selfPlay = PongTask(config: config, opponents: [.selfPlay, .agent(try AgentSpec.parse("tracker"))],
                                episodeSteps: 900)
        #expect(fixed.batchIsFaster && selfPlay.batchIsFaster)
        for (task, normalize, label) in [(fixed, false, "tracker;random"), (fixed, true, "tracker;random, normalised"),
                                         (selfPlay, true, "self;tracker, normalised")] {
            let reference = try Self.train(task, normalize: normalize, path: .oneByOne, workers: 1, slots: 1)
            #expect(reference.parameters.contains { $0 != 0 } && reference.baseline.contains { $0 != 0 },
                    "\(label): the policy and baseline moved")
            // 7 episodes of at most 900 steps: some games end before the limit.
            #expect(reference.reports.contains { $0.steps < 7 * 900 }, "\(label): some games end")
            for (workers, slots) in [(1, 1), (2, 5), (3, 16)] {
                let batched = try Self.train(task, normalize: normalize, path: .batched, workers: workers, slots: slots)
                #expect(batched == reference, "\(label), workers \(workers), slots \(slots)")
            }
        }
    }

    /// Every bit of each episode's gradient, result and statistics.
    static func bits(_ episodes: [EpisodeGradient]) -> [UInt64] {
        var out: [UInt64] = []
        for e in episodes {
            let r = e.result
            out += [r.totalReturn.bitPattern, r.gained.bitPattern, r.lost.bitPattern, UInt64(r.steps)]
            out += e.gradient.map { UInt64($0.bitPattern) } + e.baselineGradient.map { UInt64($0.bitPattern) }
            if let s = e.statistics {
                out += [s.count.bitPattern] + s.sum.map(\.bitPattern) + s.sumSquares.map(\.bitPattern)
            } else {
                out.append(.max)
            }
        }
        return out
    }

    @Test(arguments: [false, true])
    func pongBatchedEpisodeGradientsEqualOneByOne(normalize: Bool) throws {
        BLAS.useSingleThread() // as the trainers do: the gradients' sgemm bits depend on OpenBLAS's thread count
        var config = PongConfig()
        config.maxScore = 2
        let task = PongTask(config: config, opponents: [.agent(try AgentSpec.parse("tracker")), .selfPlay,
                                                         .agent(try AgentSpec.parse("random"))],
                            episodeSteps: 450)
        // A policy with random weights and a non-zero baseline, so every term of the gradient matters.
        let policy = BatchedRolloutTests.centre(inputs: PongGame.observationCount, outputs: 3, seed: 21,
                                                normalize: normalize)
        var rng = Xoshiro256(seed: 3)
        let baseline = (0 ... PongGame.observationCount).map { _ in 0.2 * rng.nextSigned() }
        let plan = ReinforcePlan(episodes: 9, maxSteps: 450, seedBase: 17, discount: 0.97, policy: policy,
                                 baseline: baseline)
        let reference = plan.playOneByOne(task: task, runner: ParallelRunner(workers: 1))
        #expect(reference.contains { $0.result.steps < 450 } && reference.contains { $0.result.steps == 450 },
                "some games end, some stop at the step limit: \(reference.map(\.result.steps))")
        #expect(reference.allSatisfy { ($0.statistics != nil) == normalize })
        for (workers, slots) in [(1, 1), (1, 4), (2, 5), (3, 16)] {
            let batched = try #require(try task.playReinforceBatched(plan, runner: ParallelRunner(workers: workers),
                                                                 slots: slots))
            #expect(Self.bits(batched) == Self.bits(reference),
                    "normalise \(normalize), workers \(workers), slots \(slots)")
        }
    }

    @Test(arguments: [false, true])
    func breakoutBatchedEpisodeGradientsEqualOneByOne(normalize: Bool) throws {
        BLAS.useSingleThread()
        var config = BreakoutConfig()
        config.lives = 1
        let task = BreakoutTask(config: config, episodeSteps: 400)
        let n = BreakoutPhysics.observationCount(for: config)
        let policy = BatchedRolloutTests.centre(inputs: n, outputs: BreakoutAction.count, seed: 22, normalize: normalize)
        var rng = Xoshiro256(seed: 4)
        let baseline = (0 ... n).map { _ in 0.2 * rng.nextSigned() }
        let plan = ReinforcePlan(episodes: 7, maxSteps: 400, seedBase: 19, discount: 0.97, policy: policy,
                                 baseline: baseline)
        let reference = plan.playOneByOne(task: task, runner: ParallelRunner(workers: 1))
        for (workers, slots) in [(1, 3), (2, 16)] {
            let batched = try #require(try task.playReinforceBatched(plan, runner: ParallelRunner(workers: workers),
                                                                 slots: slots))
            #expect(Self.bits(batched) == Self.bits(reference),
                    "normalise \(normalize), workers \(workers), slots \(slots)")
        }
    }

    @Test func longEpisodesGetFewerSlotsWithinTheStorageBudget() {
        let policy = LinearPolicy(inputs: PongGame.observationCount, outputs: 3, normalize: false)
        let baseline = [Float](repeating: 0, count: PongGame.observationCount + 1)
        func plan(_ steps: Int) -> ReinforcePlan {
            ReinforcePlan(episodes: 4, maxSteps: steps, seedBase: 1, discount: 1, policy: policy, baseline: baseline)
        }
        #expect(TrajectoryStorage.slots(plan(5000), wanted: 16) == 16)
        let long = TrajectoryStorage.slots(plan(1_000_000), wanted: 16)
        #expect(long >= 1 && long < 16 && long * TrajectoryStorage.bytes(plan(1_000_000)) <= 256 << 20)
        #expect(TrajectoryStorage.slots(plan(100_000_000), wanted: 16) == 1)
    }

    @Test func oneByOneReinforceDoesNotDependOnWorkers() throws {
        var config = PongConfig()
        config.maxScore = 2
        let task = PongTask(config: config, opponent: .agent(try AgentSpec.parse("tracker")), episodeSteps: 900)
        let one = try Self.train(task, normalize: true, path: .oneByOne, workers: 1, slots: 1)
        let three = try Self.train(task, normalize: true, path: .oneByOne, workers: 3, slots: 1)
        #expect(one == three)
    }
}
