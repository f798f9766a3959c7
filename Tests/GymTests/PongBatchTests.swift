import MallocCounter
import Testing
@testable import Gym

/// Actions for batch tests: one named generator per test.
private struct BatchPlay {
    var rng: Xoshiro256
    let actions: Int
    init(seed: UInt64, actions: Int) { rng = Xoshiro256(seed: seed); self.actions = actions }
    /// Actions outside the range now and then (they act as stay).
    mutating func next() -> Int32 { rng.below(50) == 0 ? 7 : Int32(rng.below(actions)) }
}

/// Buffers for one batch step.
private final class BatchBuffers {
    let n: Int
    var agent, opponent: [Int32]
    var obs, oppObs, finalObs, finalOppObs, rewards: [Float]
    var terminated, truncated, ends: [UInt8]
    var events: [PongEvents]
    init(_ n: Int) {
        self.n = n
        let k = n * PongBatch.observationCount
        agent = .init(repeating: 0, count: n); opponent = agent
        obs = .init(repeating: 0, count: k); oppObs = obs; finalObs = obs; finalOppObs = obs
        rewards = .init(repeating: 0, count: n)
        terminated = .init(repeating: 0, count: n); truncated = terminated; ends = terminated
        events = .init(repeating: PongEvents(), count: n)
    }
    func step(_ batch: PongBatch) {
        agent.withUnsafeBufferPointer { a in opponent.withUnsafeBufferPointer { o in
        obs.withUnsafeMutableBufferPointer { ob in oppObs.withUnsafeMutableBufferPointer { oo in
        finalObs.withUnsafeMutableBufferPointer { fo in finalOppObs.withUnsafeMutableBufferPointer { foo in
        rewards.withUnsafeMutableBufferPointer { r in terminated.withUnsafeMutableBufferPointer { te in
        truncated.withUnsafeMutableBufferPointer { tr in ends.withUnsafeMutableBufferPointer { en in
        events.withUnsafeMutableBufferPointer { ev in
            batch.step(agent: a.baseAddress!, opponent: o.baseAddress!, into: PongBatchOutput(
                observations: ob.baseAddress, opponentObservations: oo.baseAddress,
                rewards: r.baseAddress!, terminated: te.baseAddress!, truncated: tr.baseAddress!,
                ends: en.baseAddress, events: ev.baseAddress,
                finalObservations: fo.baseAddress, finalOpponentObservations: foo.baseAddress))
        } } } } } } } } } } }
    }
}

private func observation(_ game: PongGame, _ side: PongSide) -> [Float] {
    var o = [Float](repeating: 0, count: PongGame.observationCount)
    o.withUnsafeMutableBufferPointer { game.observe(side, into: $0) }
    return o
}

private func bits(_ a: ArraySlice<Float>) -> [UInt32] { a.map(\.bitPattern) }

private func testConfigs() throws -> [(String, PongConfig)] {
    var short = PongConfig()
    short.maxSteps = 700
    short.maxScore = 3
    var shortAle = try PongConfig.preset("ale")
    shortAle.maxSteps = 400
    return try PongConfig.presetNames.map { ($0, try PongConfig.preset($0)) }
        + [("short", short), ("short-ale", shortAle)]
}

@Suite struct PongBatchTests {
    /// The batch against `count` independent `PongGame`s fed the same
    /// actions and reset with the batch's seed function: observations (both
    /// sides, final ones too), rewards, flags, end reasons, events and every
    /// state compared bit for bit, step after step.
    @Test func batchMatchesIndependentGamesBitForBit() throws {
        // 13 games: one block of eight lanes and five games on the scalar path.
        let count = 13
        let stepsPerConfig = 2000
        for (name, config) in try testConfigs() {
            for agentSide in PongSide.allCases {
                let seed: UInt64 = 42 &+ UInt64(name.utf8.count)
                let batch = PongBatch(config: config, count: count, seed: seed, firstIndex: 3, agentSide: agentSide)
                var games = (0 ..< count).map {
                    PongGame(config: config, seed: PongBatch.episodeSeed(batchSeed: seed, game: 3 + $0, episode: 0))
                }
                var episodes = [UInt64](repeating: 0, count: count)
                var play = BatchPlay(seed: seed, actions: batch.actionCount)
                let buffers = BatchBuffers(count)
                var ended = 0
                stepping: for step in 0 ..< stepsPerConfig {
                    for i in 0 ..< count { buffers.agent[i] = play.next(); buffers.opponent[i] = play.next() }
                    buffers.step(batch)
                    for i in 0 ..< count {
                        let a = Int(buffers.agent[i]), o = Int(buffers.opponent[i])
                        var events = PongEvents()
                        var r = agentSide == .bottom
                            ? games[i].step(top: o, bottom: a, events: &events)
                            : games[i].step(top: a, bottom: o, events: &events)
                        if agentSide == .top { r.reward = -r.reward }
                        let k = PongGame.observationCount, range = i * k ..< i * k + k
                        var ok = buffers.rewards[i].bitPattern == r.reward.bitPattern
                            && (buffers.terminated[i] == 1) == r.terminated && (buffers.truncated[i] == 1) == r.truncated
                            && buffers.ends[i] == r.end.rawValue && buffers.events[i] == events
                        if r.isDone {
                            ended += 1
                            ok = ok && bits(buffers.finalObs[range]) == bits(observation(games[i], agentSide)[...])
                                && bits(buffers.finalOppObs[range]) == bits(observation(games[i], agentSide.opponent)[...])
                            episodes[i] += 1
                            games[i].reset(seed: PongBatch.episodeSeed(batchSeed: seed, game: 3 + i, episode: episodes[i]))
                        }
                        ok = ok && batch.state(i) == games[i].state
                            && bits(buffers.obs[range]) == bits(observation(games[i], agentSide)[...])
                            && bits(buffers.oppObs[range]) == bits(observation(games[i], agentSide.opponent)[...])
                        if !ok {
                            Issue.record("preset \(name), agent \(agentSide), seed \(seed): game \(i) differs at step \(step)")
                            break stepping
                        }
                    }
                }
                if name.hasPrefix("short") { #expect(ended > 0, "preset \(name): no episode ended, auto-reset untested") }
            }
        }
    }

    /// A batch split into slices (`firstIndex`) plays exactly the games of
    /// the whole batch: what parallel workers rely on.
    @Test func slicesReplayTheWholeBatch() throws {
        var config = try PongConfig.preset("ale")
        config.maxSteps = 300
        for seed: UInt64 in [1, 2, 3] {
            let whole = PongBatch(config: config, count: 9, seed: seed)
            let parts = [PongBatch(config: config, count: 4, seed: seed, firstIndex: 0),
                         PongBatch(config: config, count: 5, seed: seed, firstIndex: 4)]
            let wb = BatchBuffers(9), pb = [BatchBuffers(4), BatchBuffers(5)]
            var play = BatchPlay(seed: seed, actions: 3)
            for _ in 0 ..< 1200 {
                for i in 0 ..< 9 { wb.agent[i] = play.next(); wb.opponent[i] = play.next() }
                for i in 0 ..< 9 {
                    let (p, j) = i < 4 ? (0, i) : (1, i - 4)
                    pb[p].agent[j] = wb.agent[i]; pb[p].opponent[j] = wb.opponent[i]
                }
                wb.step(whole); pb[0].step(parts[0]); pb[1].step(parts[1])
            }
            for i in 0 ..< 9 {
                let (p, j) = i < 4 ? (0, i) : (1, i - 4)
                #expect(whole.state(i) == parts[p].state(j), "seed \(seed) game \(i)")
                #expect(whole.episodesStarted(i) == parts[p].episodesStarted(j), "seed \(seed) game \(i)")
            }
            #expect((0 ..< 9).contains { whole.episodesStarted($0) > 1 }, "seed \(seed): no auto-reset happened")
        }
    }

    /// One game taken out of a batch continues identically as a `PongGame`,
    /// and a snapshot put back into another batch's slot continues
    /// identically there.
    @Test func snapshotOfOneGameRestoresBitIdentically() throws {
        for preset in ["classic", "ale"] {
            let config = try PongConfig.preset(preset)
            for seed: UInt64 in [5, 6] {
                let batch = PongBatch(config: config, count: 4, seed: seed)
                let b = BatchBuffers(4)
                var play = BatchPlay(seed: seed, actions: 3)
                for _ in 0 ..< 300 {
                    for i in 0 ..< 4 { b.agent[i] = play.next(); b.opponent[i] = play.next() }
                    b.step(batch)
                }
                let saved = batch.snapshot(2)
                var game = PongGame(restoring: try PongGame.SavedGame.decode(try saved.encoded()))
                let other = PongBatch(config: config, count: 3, seed: seed &+ 100)
                try other.restore(saved, into: 1)
                let o = BatchBuffers(3)
                for step in 0 ..< 400 {
                    for i in 0 ..< 4 { b.agent[i] = play.next(); b.opponent[i] = play.next() }
                    o.agent[1] = b.agent[2]; o.opponent[1] = b.opponent[2]
                    b.step(batch); o.step(other)
                    let r = game.step(top: Int(b.opponent[2]), bottom: Int(b.agent[2]))
                    if r.isDone { break }
                    guard game.state == batch.state(2), game.state == other.state(1),
                          b.rewards[2] == o.rewards[1] else {
                        Issue.record("preset \(preset) seed \(seed): diverged at step \(step)")
                        break
                    }
                }
            }
        }
    }

    /// `step` allocates nothing, every output buffer requested, auto-resets
    /// included (malloc calls of this thread counted over 300 steps).
    @Test func stepAllocatesNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        for preset in ["classic", "ale"] {
            var config = try PongConfig.preset(preset)
            config.maxSteps = 100
            let batch = PongBatch(config: config, count: 16, seed: 3, agentSide: .top)
            let b = BatchBuffers(16)
            b.step(batch)
            var total: UInt64 = 0
            for _ in 0 ..< 300 {
                b.agent.withUnsafeBufferPointer { a in b.opponent.withUnsafeBufferPointer { o in
                b.obs.withUnsafeMutableBufferPointer { ob in b.finalObs.withUnsafeMutableBufferPointer { fo in
                b.rewards.withUnsafeMutableBufferPointer { r in b.terminated.withUnsafeMutableBufferPointer { te in
                b.truncated.withUnsafeMutableBufferPointer { tr in b.ends.withUnsafeMutableBufferPointer { en in
                b.events.withUnsafeMutableBufferPointer { ev in
                    let out = PongBatchOutput(observations: ob.baseAddress, opponentObservations: nil,
                                              rewards: r.baseAddress!, terminated: te.baseAddress!, truncated: tr.baseAddress!,
                                              ends: en.baseAddress, events: ev.baseAddress, finalObservations: fo.baseAddress)
                    malloc_counter_start_thread()
                    batch.step(agent: a.baseAddress!, opponent: o.baseAddress!, into: out)
                    total += malloc_counter_stop_thread()
                } } } } } } } } }
            }
            #expect(total == 0, "preset \(preset): \(total) allocations in 4 800 steps")
            #expect(batch.episodesStarted(0) > 1, "preset \(preset): no auto-reset happened")
        }
    }

    @Test func restoringAnotherConfigsSnapshotThrows() throws {
        let batch = PongBatch(config: PongConfig(), count: 2, seed: 1)
        let saved = PongGame(config: try PongConfig.preset("fast"), seed: 1).snapshot()
        #expect(throws: SnapshotError.self) { try batch.restore(saved, into: 0) }
        #expect(batch.state(0) == PongBatch(config: PongConfig(), count: 2, seed: 1).state(0))
    }

    /// Without auto-reset a finished game stays finished (repeating its
    /// flags) until reset with an explicit seed.
    @Test func autoResetOffKeepsFinishedGamesUntilReset() {
        var config = PongConfig()
        config.maxSteps = 50
        let batch = PongBatch(config: config, count: 2, seed: 9, autoReset: .off)
        let b = BatchBuffers(2)
        for _ in 0 ..< 50 { b.step(batch) }
        #expect(b.truncated == [1, 1])
        let frozen = batch.state(0)
        b.step(batch)
        #expect(b.truncated == [1, 1] && b.rewards == [0, 0])
        #expect(batch.state(0) == frozen)
        batch.reset(0, seed: 1234)
        #expect(batch.state(0) == PongGame(config: config, seed: 1234).state)
        b.step(batch)
        #expect(b.truncated == [0, 1])
    }
}
