import Testing
import Gym
@testable import Agents

/// Training across a variant set: every training episode on the slot engine
/// plays the rules its seed draws (``RuleContext/rules(episodeSeed:)``), with
/// the context features after the observation when visible; checked
/// against each episode played alone under those rules.
@Suite struct TrainingAcrossVariantsTests {
    static func trainSet<C: VariantConfig>(_: C.Type) throws -> VariantSet {
        guard let text = ShippedVariants.text(game: C.gameName) else { throw ConfigError.notAnObject(source: "no shipped file") }
        return try VariantFile<C>.decode(text, source: "shipped").set("train", source: "shipped")
    }

    /// Each episode of a plan (one member, statistics gathered) played alone
    /// in a ``ContextEnvironment`` under the rules its seed draws.
    static func reference(_ plan: RolloutPlan, context: RuleContext<BreakoutConfig>) -> RolloutResults {
        var statistics: ObservationStatistics? = ObservationStatistics(features: plan.centre.inputs)
        var episodes: [EpisodeResult] = []
        var observation = [Float](repeating: 0, count: plan.centre.inputs)
        for k in 0 ..< plan.episodes {
            let seed = plan.episodeSeed(k)
            var env = ContextEnvironment<BreakoutGame>(context: context)
            env.reset(seed: seed)
            #expect(env.config == context.rules(episodeSeed: seed).config)
            var agent = LinearAgent(policy: plan.centre)
            agent.reset(seed: Seeds.agent(seed, seat: 0))
            episodes.append(observation.withUnsafeMutableBufferPointer { obs in
                Rollout.play(&env, agent: &agent, maxSteps: plan.maxSteps, observation: obs, statistics: &statistics)
            })
        }
        return RolloutResults(episodes: episodes, statistics: [statistics])
    }

    @Test(arguments: [false, true])
    func trainingEpisodesPlayTheRulesTheirSeedsDraw(visible: Bool) throws {
        let base = try BreakoutConfig.preset("classic")
        let context = try RuleContext(base: base, set: try Self.trainSet(BreakoutConfig.self), visible: visible, source: "test")
        let task = BreakoutTask(config: base, episodeSteps: 600, rules: TrainingRules(context: context, draws: true))
        #expect(task.target.inputs == PolicyTarget.breakout(base).inputs + (visible ? context.keys.count : 0))
        let centre = BatchedRolloutTests.centre(inputs: task.target.inputs, outputs: task.target.outputs, seed: 5,
                                                normalize: false)
        let plan = RolloutPlan(members: 1, episodes: 7, maxSteps: 600, seedBase: 11, collectStatistics: true,
                               centre: centre, parameters: { _, _ in })
        let expected = BatchedRolloutTests.bits(Self.reference(plan, context: context))
        for (slots, workers) in [(1, 1), (3, 2), (16, 2)] {
            let batched = try Rollout.play(plan, task: task, path: .batched, slots: slots, runner: ParallelRunner(workers: workers))
            #expect(BatchedRolloutTests.bits(batched) == expected, "slots \(slots), workers \(workers)")
        }
        // The drawn rules matter: the same episodes under the base rules alone play otherwise.
        if !visible {
            let plain = try Rollout.play(plan, task: BreakoutTask(config: base, episodeSteps: 600), path: .batched,
                                         runner: ParallelRunner(workers: 1))
            #expect(BatchedRolloutTests.bits(plain) != expected)
        }
    }
}
