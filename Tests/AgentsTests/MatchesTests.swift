import Foundation
import Testing
import Gym
@testable import Agents

/// The slot engine's matches against the reference (each episode alone),
/// for both games: the batched path is called directly, so a test of it
/// cannot pass on the reference path.
@Suite struct MatchesTests {
    /// A linear Pong policy held in memory (no file), random weights from its own generator.
    static func linearSpec(config: PongConfig, seed: UInt64, selection: LinearAgent.Selection) -> AgentSpec {
        linearSpec(Checkpoint(pong: config, policy: randomPolicy(.pong(config), seed: seed)), seed: seed,
                   selection: selection)
    }

    static func randomPolicy(_ target: PolicyTarget, seed: UInt64) -> LinearPolicy {
        var rng = Xoshiro256(seed: seed)
        let n = target.inputs, k = target.outputs
        return LinearPolicy(inputs: n, outputs: k, weights: (0 ..< k * n).map { _ in rng.nextSigned() },
                            bias: (0 ..< k).map { _ in 0.1 * rng.nextSigned() }, normalizer: nil)
    }

    static func linearSpec(_ checkpoint: Checkpoint, seed: UInt64, selection: LinearAgent.Selection) -> AgentSpec {
        AgentSpec(kind: .linear(path: "memory", checkpoint: checkpoint, selection: selection),
                  displayName: "linear-\(seed)-\(selection.rawValue)", text: "linear:memory")
    }

    static func pongRoster(_ config: PongConfig) throws -> [AgentSpec] {
        try ["tracker", "tracker:reaction=3,noise=0.4,speed=0.7", "tracker:predict=false,noise=1",
             "random", "constant:action=2"].map { try AgentSpec.parse($0) }
            + [linearSpec(config: config, seed: 7, selection: .greedy),
               linearSpec(config: config, seed: 8, selection: .softmax)]
    }

    static func breakoutRoster(_ config: BreakoutConfig) throws -> [AgentSpec] {
        let checkpoint = Checkpoint(target: .breakout(config), gameConfigHash: config.configHash,
                                    gameConfig: config.json, policy: randomPolicy(.breakout(config), seed: 9))
        return try ["tracker", "tracker:reaction=2,noise=1", "random", "constant:action=1"].map { try AgentSpec.parse($0) }
            + [linearSpec(checkpoint, seed: 9, selection: .softmax)]
    }

    /// Episode `g`: its seed and seats that walk over every seating of the
    /// roster (Pong: every (bottom, top) pair, self-play included).
    static func game(_ g: Int, rosterCount: Int, seats: Int) -> SeatedGame {
        SeatedGame(seed: Seeds.episode(runSeed: 99, index: g),
                   seats: seats == 1 ? [g % rosterCount] : [g % rosterCount, (g / rosterCount) % rosterCount])
    }

    /// The reference: each episode alone with fresh agents.
    static func reference<G: PlayableGame>(_: G.Type, config: G.Config, roster: [AgentSpec], count: Int) -> [G.Record] {
        (0 ..< count).map { g in
            let spec = game(g, rosterCount: roster.count, seats: G.seats)
            var agents = spec.seats.map { G.makeAgent(roster[$0], config: config) }
            return G.playAlone(config: config, seed: spec.seed, agents: &agents)
        }
    }

    static func pongConfigs() -> [(String, PongConfig)] {
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

    static func breakoutConfigs() throws -> [(String, BreakoutConfig)] {
        var short = BreakoutConfig()
        short.maxSteps = 1500
        var atari = try BreakoutConfig.preset("atari")
        atari.maxSteps = 800
        return [("classic, step limit", short), ("atari", atari)]
    }

    /// Batched equals the reference for every worker and slot count.
    func expectBatchedEqualsReference<G: PlayableGame>(_: G.Type, name: String, config: G.Config, roster: [AgentSpec],
                                                       count: Int) throws where G.Record: Equatable {
        let expected = Self.reference(G.self, config: config, roster: roster, count: count)
        for workers in [1, 2, 3] {
            for slots in [1, 3, 8] {
                let got = try Matches.playBatched(G.self, config: config, roster: roster, count: count, slots: slots,
                                              runner: ParallelRunner(workers: workers)) { g in
                    Self.game(g, rosterCount: roster.count, seats: G.seats)
                }
                #expect(got.count == count)
                for g in 0 ..< min(count, got.count) where got[g] != expected[g] {
                    Issue.record("\(name), workers \(workers), slots \(slots): episode \(g) differs: \(got[g]) vs \(expected[g])")
                }
            }
        }
    }

    @Test func batchedPongGamesEqualThePlayedAloneForAnySlotsAndWorkers() throws {
        for (name, config) in Self.pongConfigs() {
            let roster = try Self.pongRoster(config)
            let count = 2 * roster.count + 3
            let expected = Self.reference(Pong.self, config: config, roster: roster, count: count)
            // Both ways a game ends are covered (self-play of the perfect tracker hits the step limit).
            #expect(expected.contains { $0.end == .stepLimit } && expected.contains { $0.end == .gameOver }, "\(name)")
            try expectBatchedEqualsReference(Pong.self, name: name, config: config, roster: roster, count: count)
        }
    }

    @Test func batchedBreakoutEpisodesEqualThePlayedAloneForAnySlotsAndWorkers() throws {
        for (name, config) in try Self.breakoutConfigs() {
            let roster = try Self.breakoutRoster(config)
            try expectBatchedEqualsReference(Breakout.self, name: name, config: config, roster: roster,
                                         count: 2 * roster.count + 1)
        }
    }

    /// The automatic (batched) and the one-by-one paths both give the reference.
    func expectEveryPathEqualsReference<G: PlayableGame>(_: G.Type, name: String, config: G.Config,
                                                         roster: [AgentSpec]) throws where G.Record: Equatable {
        let count = roster.count + 2
        let expected = Self.reference(G.self, config: config, roster: roster, count: count)
        for path in [RolloutPath.automatic, .oneByOne] {
            let got = try Matches.play(G.self, config: config, roster: roster, count: count, path: path,
                                   runner: ParallelRunner(workers: 2)) { g in
                Self.game(g, rosterCount: roster.count, seats: G.seats)
            }
            #expect(got == expected, "\(name), \(path)")
        }
    }

    @Test func everyBreakoutPathAgrees() throws {
        for (name, config) in try Self.breakoutConfigs() {
            try expectEveryPathEqualsReference(Breakout.self, name: name, config: config,
                                           roster: try Self.breakoutRoster(config))
        }
    }

    @Test func everyPongPathAgrees() throws {
        for (name, config) in Self.pongConfigs() {
            try expectEveryPathEqualsReference(Pong.self, name: name, config: config, roster: try Self.pongRoster(config))
        }
    }

    /// Every finished episode reaches the sink once, with its index and the
    /// record the call returns at that index (what a run's journal appends).
    @Test(arguments: [RolloutPath.automatic, .oneByOne])
    func everyEpisodeReachesTheSinkOnceWithItsRecord(path: RolloutPath) throws {
        let config = Self.pongConfigs()[0].1
        let roster = try Self.pongRoster(config)
        let counter = ProgressTally(), sink = RecordSink<PongMatchResult>()
        let got = try Matches.play(Pong.self, config: config, roster: roster, count: 11, slots: 4, path: path,
                                   runner: ParallelRunner(workers: 2), game: { g in
            Self.game(g, rosterCount: roster.count, seats: 2)
        }, progress: { counter.add() }, finished: { sink.add($0, $1) })
        #expect(got.map(\.seed) == (0 ..< 11).map { Seeds.episode(runSeed: 99, index: $0) })
        #expect(counter.value == 11)
        let seen = sink.values
        #expect(seen.map(\.0).sorted() == Array(0 ..< 11))
        for (g, record) in seen { #expect(record == got[g], "episode \(g)") }
        #expect(try Matches.playBatched(Pong.self, config: config, roster: roster, count: 0, slots: 4,
                                    runner: ParallelRunner(workers: 2)) { g in
            Self.game(g, rosterCount: roster.count, seats: 2)
        }.isEmpty)
    }
}

/// Thread-safe (index, record) pairs in the order a sink received them.
final class RecordSink<R>: @unchecked Sendable {
    private let lock = NSLock()
    private var pairs: [(Int, R)] = []
    func add(_ g: Int, _ r: R) { lock.withLock { pairs.append((g, r)) } }
    var values: [(Int, R)] { lock.withLock { pairs } }
}

/// A thread-safe tally for progress callbacks.
final class ProgressTally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
