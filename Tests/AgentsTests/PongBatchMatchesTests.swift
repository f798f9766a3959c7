import Foundation
import Testing
import Gym
@testable import Agents

@Suite struct PongBatchMatchesTests {
    /// A linear Pong policy held in memory (no file), random weights from its own generator.
    static func linearSpec(config: PongConfig, seed: UInt64, selection: LinearAgent.Selection) -> AgentSpec {
        var rng = Xoshiro256(seed: seed)
        let n = PongGame.observationCount, k = config.verticalMovement ? 5 : 3
        let policy = LinearPolicy(inputs: n, outputs: k, weights: (0 ..< k * n).map { _ in rng.nextSigned() },
                                  bias: (0 ..< k).map { _ in 0.1 * rng.nextSigned() }, normalizer: nil)
        let checkpoint = Checkpoint(pong: config, policy: policy)
        return AgentSpec(kind: .linear(path: "memory", checkpoint: checkpoint, selection: selection),
                         displayName: "linear-\(seed)-\(selection.rawValue)", text: "linear:memory")
    }

    static func roster(_ config: PongConfig) throws -> [AgentSpec] {
        try ["tracker", "tracker:reaction=3,noise=0.4,speed=0.7", "tracker:predict=false,noise=1",
             "random", "constant:action=2"].map { try AgentSpec.parse($0) }
            + [linearSpec(config: config, seed: 7, selection: .greedy),
               linearSpec(config: config, seed: 8, selection: .softmax)]
    }

    /// Game `g`: its seed and a pairing that walks over every (bottom, top)
    /// pair of the roster, self-play included.
    static func game(_ g: Int, rosterCount: Int) -> PongBatchMatches.Game {
        PongBatchMatches.Game(seed: Seeds.episode(runSeed: 99, index: g), bottom: g % rosterCount,
                              top: (g / rosterCount) % rosterCount)
    }

    /// The reference: each game alone through `PongMatch.play` with fresh agents.
    static func reference(config: PongConfig, roster: [AgentSpec], count: Int) -> [PongMatchResult] {
        (0 ..< count).map { g in
            let spec = game(g, rosterCount: roster.count)
            var bottom = roster[spec.bottom].makePongAgent(config: config)
            var top = roster[spec.top].makePongAgent(config: config)
            return PongMatch.play(config: config, seed: spec.seed, bottom: &bottom, top: &top)
        }
    }

    static func configs() throws -> [(String, PongConfig)] {
        var short = PongConfig()
        short.maxScore = 3
        var limited = PongConfig()
        limited.maxScore = 1
        limited.maxSteps = 400
        var skipped = PongConfig()
        skipped.maxScore = 3
        skipped.frameSkip = 3
        skipped.stickyActionProbability = 0.25
        skipped.maxSteps = 2000
        var vertical = PongConfig()
        vertical.maxScore = 3
        vertical.verticalMovement = true
        return [("short", short), ("step limit", limited), ("frame skip + sticky", skipped), ("vertical", vertical)]
    }

    @Test func batchedGamesEqualPongMatchPlayForAnySlotsAndWorkers() throws {
        for (name, config) in try Self.configs() {
            let roster = try Self.roster(config)
            let count = 2 * roster.count + 3
            let expected = Self.reference(config: config, roster: roster, count: count)
            // Both ways a game ends are covered (self-play of the perfect tracker hits the step limit).
            #expect(expected.contains { $0.end == .stepLimit } && expected.contains { $0.end == .gameOver }, "\(name)")
            for workers in [1, 2, 3] {
                for slots in [1, 3, 8] {
                    let got = PongBatchMatches.play(config: config, roster: roster, count: count, slots: slots,
                                                    path: .batched, runner: ParallelRunner(workers: workers)) { g in
                        Self.game(g, rosterCount: roster.count)
                    }
                    #expect(got.count == count)
                    for g in 0 ..< min(count, got.count) where got[g] != expected[g] {
                        Issue.record("\(name), workers \(workers), slots \(slots): game \(g) (seed \(expected[g].seed)) differs: \(got[g]) vs \(expected[g])")
                    }
                }
            }
        }
    }

    @Test func automaticPathBatchesOnlyOneFrameStepsWithoutStickyActionsAndAgrees() throws {
        for (name, config) in try Self.configs() {
            #expect(PongBatchMatches.batchIsFaster(config) == (name != "frame skip + sticky"), "\(name)")
            let roster = try Self.roster(config)
            let count = roster.count + 2
            let expected = Self.reference(config: config, roster: roster, count: count)
            for path in [PongBatchMatches.Path.automatic, .oneByOne] {
                let got = PongBatchMatches.play(config: config, roster: roster, count: count, path: path,
                                                runner: ParallelRunner(workers: 2)) { g in
                    Self.game(g, rosterCount: roster.count)
                }
                #expect(got == expected, "\(name), \(path)")
            }
        }
    }

    @Test func everyGameIsCountedOnceByProgress() throws {
        let config = try Self.configs()[0].1
        let roster = try Self.roster(config)
        let counter = ProgressTally()
        let got = PongBatchMatches.play(config: config, roster: roster, count: 11, slots: 4, path: .batched,
                                        runner: ParallelRunner(workers: 2), game: { g in
            Self.game(g, rosterCount: roster.count)
        }, progress: { counter.add() })
        #expect(got.map(\.seed) == (0 ..< 11).map { Seeds.episode(runSeed: 99, index: $0) })
        #expect(counter.value == 11)
        #expect(PongBatchMatches.play(config: config, roster: roster, count: 0, runner: ParallelRunner(workers: 2)) { g in
            Self.game(g, rosterCount: roster.count)
        }.isEmpty)
    }
}

/// A thread-safe tally for progress callbacks.
final class ProgressTally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
