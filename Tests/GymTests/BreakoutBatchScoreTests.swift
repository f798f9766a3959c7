import Testing
@testable import Gym

/// ``BreakoutBatch/step(actions:into:scores:)``: each game's score and
/// lives written within the step, group by group.
@Suite struct BreakoutBatchScoreTests {
    /// Batches of 19 games (two groups of eight, a tail of three) in every
    /// fast-path case, and a batch whose episodes draw their rules from a
    /// rule context, each beside its twin: the same actions every step, the
    /// batch with the scores output, its twin without; after every step the
    /// scores written are every game's score and lives in its state
    /// (``BreakoutBatch/core(_:)``) and both batches' outputs are the same
    /// bit for bit, and
    /// along the way scores rise and lives fall.
    @Test func scoresWrittenInTheStepAreEachGamesScoreAndLives() throws {
        let count = 19, seed: UInt64 = 3
        let file = try VariantFile<BreakoutConfig>.decode(ShippedVariants.breakout, source: "b")
        let context = try RuleContext(base: BreakoutConfig(), set: try file.set("far", source: "b"), visible: false,
                                      source: "b")
        let made = { (config: BreakoutConfig, context: RuleContext<BreakoutConfig>?) in
            BreakoutBatch(config: config, count: count, seed: seed, autoresetMode: .nextStep, context: context)
        }
        let cases = try breakoutFastPathBatches(count: count, seed: seed).map { ($0, $1.config, nil as RuleContext<BreakoutConfig>?) }
            + [("rule context far", context.base, context)]
        for (name, config, context) in cases {
            let batch = made(config, context), twin = made(config, context)
            let b = VectorBuffers(batch), t = VectorBuffers(twin)
            var scores = [Int32](repeating: -1, count: 2 * count)
            var play = ContractPlay(seed: seed, actions: batch.actionCount)
            var scored = false, lost = false
            stepping: for step in 0 ..< 800 {
                b.drawActions(&play)
                for k in 0 ..< count { t.actions[k] = b.actions[k] }
                scores.withUnsafeMutableBufferPointer {
                    batch.step(actions: UnsafePointer(b.actions.baseAddress!), into: b.output, scores: $0.baseAddress!)
                }
                t.step(twin)
                let sameOutputs = zip(b.observations, t.observations).allSatisfy { $0.bitPattern == $1.bitPattern }
                    && zip(b.rewards, t.rewards).allSatisfy { $0.bitPattern == $1.bitPattern }
                    && Array(b.terminated) == Array(t.terminated) && Array(b.truncated) == Array(t.truncated)
                    && Array(b.ends) == Array(t.ends) && Array(b.events) == Array(t.events)
                if !sameOutputs {
                    Issue.record("\(name): the outputs differ at step \(step)")
                    break stepping
                }
                for i in 0 ..< count {
                    let core = twin.core(i)
                    scored = scored || core.score > 0
                    lost = lost || b.events[i].livesLost > 0
                    if scores[2 * i] != core.score || scores[2 * i + 1] != core.lives {
                        Issue.record("\(name): game \(i)'s score or lives differ at step \(step)")
                        break stepping
                    }
                }
            }
            #expect(scored && lost, "\(name): no score rose or no life was lost")
        }
    }
}
