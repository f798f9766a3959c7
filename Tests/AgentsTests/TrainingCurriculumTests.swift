import Testing
import Gym
@testable import Agents

/// The training config's curriculum keys: `ignoredInputs` (weights held at
/// zero) and `evalGameConfig` (the periodic evaluation's own game).
@Suite struct TrainingCurriculumTests {
    /// The weights of input `i` for every output of `policy`.
    func weights(of input: Int, in policy: LinearPolicy) -> [Float] {
        let p = policy.parameters
        return (0 ..< policy.outputs).map { p[$0 * policy.inputs + input] }
    }

    @Test(arguments: ["es", "reinforce"])
    func ignoredInputsKeepTheirWeightsAtZero(trainer: String) throws {
        // Ball x and y (4, 5) are never zero, so a trainer that learns them
        // moves their weights; the same run ignoring them must not.
        var free = try smallConfig(trainer: trainer)
        free.opponent = "tracker"
        var masked = free
        masked.ignoredInputs = [4, 5]
        var a = try TrainingSession(config: free), b = try TrainingSession(config: masked)
        try runIterations(&a, 3, workers: 1)
        try runIterations(&b, 3, workers: 1)
        #expect(weights(of: 4, in: a.policy).contains { $0 != 0 } || weights(of: 5, in: a.policy).contains { $0 != 0 })
        #expect(weights(of: 4, in: b.policy) == [0, 0, 0] && weights(of: 5, in: b.policy) == [0, 0, 0])
        #expect(b.policy.parameters.contains { $0 != 0 }, "the other inputs still learn")
    }

    @Test func esDirectionsOnlyLoseTheIgnoredWeights() throws {
        var config = try smallConfig()
        let task = try Pong.trainingSetup(config, game: PongConfig(), evalGame: PongConfig(), rules: nil).task
        let plain = EvolutionStrategies<PongTask>(config, task: task, restored: nil).directions()
        config.ignoredInputs = [11, 0]
        let masked = EvolutionStrategies<PongTask>(config, task: task, restored: nil).directions()
        let p = 12 * 3 + 3
        #expect(plain.count == masked.count && plain.count == config.population / 2 * p)
        for (j, (x, y)) in zip(plain, masked).enumerated() {
            let k = j % p
            let ignored = k < 36 && (k % 12 == 11 || k % 12 == 0)
            #expect(y == (ignored ? 0 : x), "entry \(j)")
        }
    }

    @Test func ignoredInputsAreCheckedAndHashedOnlyWhenGiven() throws {
        func error(_ text: String) -> String? {
            do { _ = try TrainConfig.decode(text, source: "t.json"); return nil } catch { return "\(error)" }
        }
        #expect(error(#"{"ignoredInputs": [10, 11]}"#) == nil)
        #expect(error(#"{"ignoredInputs": [3, 3]}"#)?.contains("names index 3 twice") == true)
        #expect(error(#"{"ignoredInputs": [-1]}"#)?.contains("ignoredInputs") == true)
        #expect(error(#"{"ignoredInputs": ["a"]}"#)?.contains("ignoredInputs") == true)
        #expect(error(#"{"ignoredInputs": 10}"#)?.contains("ignoredInputs") == true)
        var config = try smallConfig()
        config.ignoredInputs = [12]   // Pong has inputs 0 ... 11
        do {
            _ = try TrainingSession(config: config)
            Issue.record("input 12 of a 12-input policy was accepted")
        } catch {
            #expect("\(error)".contains("ignoredInputs") && "\(error)".contains("0 ... 11"), "\(error)")
        }
        // A config without the new keys keeps the hash it had before they
        // existed (taken from a checkpoint written then), so older
        // checkpoints still resume.
        let before = try TrainConfig.decode(#"""
        {"game": "pong", "gameConfig": {"preset": "classic"}, "trainer": "es", "opponent": "tracker;random",
         "evalOpponent": "tracker;random", "iterations": 600, "maxEnvSteps": 0, "population": 32,
         "episodesPerMember": 4, "episodeSteps": 5000, "sigma": 0.1, "learningRate": 0.03, "weightDecay": 0.005,
         "normalizeObservations": false, "workers": 0, "seed": 1, "evalInterval": 10, "evalEpisodes": 16,
         "evalSteps": 20000, "checkpointInterval": 25}
        """#, source: "t.json")
        #expect(before.trainingHash == 0xC347_EBF9_4C78_DA1B)
        var ignoring = TrainConfig()
        ignoring.ignoredInputs = [10, 11]
        #expect(ignoring.trainingHash != TrainConfig().trainingHash)
        var evaluating = TrainConfig()
        evaluating.evalGameConfig = .object([("maxScore", .number(3))])
        #expect(evaluating.trainingHash == TrainConfig().trainingHash, "the evaluation never changes the weights")
    }

    @Test func theEvaluationPlaysItsOwnGameConfig() throws {
        var config = try smallConfig()
        config.evalSteps = 4000
        config.evalEpisodes = 4
        var oneBallEach = config
        oneBallEach.evalGameConfig = .object([("preset", .string("classic")), ("maxScore", .number(1))])
        let runner = ParallelRunner(workers: 1)
        let long = try TrainingSession(config: config).evaluate(runner: runner).results[0]
        let short = try TrainingSession(config: oneBallEach).evaluate(runner: runner).results[0]
        // A game to 1 point ends at its first point; the training game's
        // games go on to the step limit with more points.
        #expect(short.gained + short.lost == 4)
        #expect(long.gained + long.lost > 4)
        #expect(short.steps < long.steps)

        var otherShape = config
        otherShape.evalGameConfig = .object([("verticalMovement", .bool(true))])
        #expect(throws: TrainingSetupError.self) { try TrainingSession(config: otherShape) }
        var bad = config
        bad.evalGameConfig = .object([("serveSpeed", .number(100))])
        do {
            _ = try TrainingSession(config: bad)
            Issue.record("serveSpeed 100 was accepted")
        } catch {
            #expect("\(error)".contains("evalGameConfig") && "\(error)".contains("serveSpeed"), "\(error)")
        }
    }
}
