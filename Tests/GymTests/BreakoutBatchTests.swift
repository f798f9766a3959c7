import MallocCounter
import Testing
@testable import Gym

private func breakoutTestConfigs() throws -> [(String, BreakoutConfig)] {
    var short = try BreakoutConfig.preset("classic")
    short.maxSteps = 600
    short.lives = 1
    var sticky = try BreakoutConfig.preset("atari")
    sticky.frameSkip = 4
    sticky.stickyActionProbability = 0.25
    sticky.maxSteps = 500
    return try BreakoutConfig.presetNames.map { ($0, try BreakoutConfig.preset($0)) }
        + [("short", short), ("atari-skip4-sticky", sticky)]
}

/// Buffers for one Breakout batch step.
private final class BreakoutBuffers {
    var actions: [Int32]
    var obs, finalObs, rewards: [Float]
    var terminated, truncated, ends: [UInt8]
    var events: [BreakoutEvents]
    init(_ n: Int, observationCount k: Int) {
        actions = .init(repeating: 0, count: n)
        obs = .init(repeating: 0, count: n * k); finalObs = obs
        rewards = .init(repeating: 0, count: n)
        terminated = .init(repeating: 0, count: n); truncated = terminated; ends = terminated
        events = .init(repeating: BreakoutEvents(), count: n)
    }
    func step(_ batch: BreakoutBatch) {
        actions.withUnsafeBufferPointer { a in
        obs.withUnsafeMutableBufferPointer { ob in finalObs.withUnsafeMutableBufferPointer { fo in
        rewards.withUnsafeMutableBufferPointer { r in terminated.withUnsafeMutableBufferPointer { te in
        truncated.withUnsafeMutableBufferPointer { tr in ends.withUnsafeMutableBufferPointer { en in
        events.withUnsafeMutableBufferPointer { ev in
            batch.step(actions: a.baseAddress!, into: BreakoutBatchOutput(
                observations: ob.baseAddress, rewards: r.baseAddress!, terminated: te.baseAddress!,
                truncated: tr.baseAddress!, ends: en.baseAddress, events: ev.baseAddress,
                finalObservations: fo.baseAddress))
        } } } } } } } }
    }
}

@Suite struct BreakoutBatchTests {
    /// The batch against independent `BreakoutGame`s fed the same actions
    /// and reset with the batch's seed function: observations (final ones
    /// too), rewards, flags, end reasons, events and states bit for bit.
    @Test func batchMatchesIndependentGamesBitForBit() throws {
        let count = 4
        for (name, config) in try breakoutTestConfigs() {
            let seed: UInt64 = 7 &+ UInt64(name.utf8.count)
            let batch = BreakoutBatch(config: config, count: count, seed: seed, firstIndex: 2)
            var games = (0 ..< count).map {
                BreakoutGame(config: config, seed: Seeds.batchEpisode(batchSeed: seed, game: 2 + $0, episode: 0))
            }
            var episodes = [UInt64](repeating: 0, count: count)
            var rng = Xoshiro256(seed: seed)
            let k = batch.observationCount
            let b = BreakoutBuffers(count, observationCount: k)
            var single = [Float](repeating: 0, count: k)
            var ended = 0
            stepping: for step in 0 ..< 1500 {
                for i in 0 ..< count { b.actions[i] = rng.below(40) == 0 ? 9 : Int32(rng.below(4)) }
                b.step(batch)
                for i in 0 ..< count {
                    var events = BreakoutEvents()
                    let r = games[i].step(Int(b.actions[i]), events: &events)
                    let range = i * k ..< i * k + k
                    var ok = b.rewards[i].bitPattern == r.reward.bitPattern
                        && (b.terminated[i] == 1) == r.terminated && (b.truncated[i] == 1) == r.truncated
                        && b.ends[i] == r.end.rawValue && b.events[i] == events
                    if r.isDone {
                        ended += 1
                        single.withUnsafeMutableBufferPointer { games[i].observe(into: $0) }
                        ok = ok && b.finalObs[range].map(\.bitPattern) == single.map(\.bitPattern)
                        episodes[i] += 1
                        games[i].reset(seed: Seeds.batchEpisode(batchSeed: seed, game: 2 + i, episode: episodes[i]))
                    }
                    single.withUnsafeMutableBufferPointer { games[i].observe(into: $0) }
                    ok = ok && batch.state(i) == games[i].state && b.obs[range].map(\.bitPattern) == single.map(\.bitPattern)
                    if !ok {
                        Issue.record("preset \(name), seed \(seed): game \(i) differs at step \(step)")
                        break stepping
                    }
                }
            }
            if name == "short" { #expect(ended > 0, "preset \(name): no episode ended, auto-reset untested") }
        }
    }

    /// One game's snapshot taken out of a batch continues identically as a
    /// `BreakoutGame` and inside another batch.
    @Test func snapshotOfOneGameRestoresBitIdentically() throws {
        let config = try BreakoutConfig.preset("classic")
        let batch = BreakoutBatch(config: config, count: 3, seed: 5)
        let b = BreakoutBuffers(3, observationCount: batch.observationCount)
        var rng = Xoshiro256(seed: 5)
        for _ in 0 ..< 400 {
            for i in 0 ..< 3 { b.actions[i] = Int32(rng.below(4)) }
            b.step(batch)
        }
        let saved = batch.snapshot(1)
        var game = try BreakoutGame(restoring: try BreakoutGame.SavedGame.decode(try saved.encoded()))
        let other = BreakoutBatch(config: config, count: 2, seed: 99)
        try other.restore(saved, into: 0)
        let o = BreakoutBuffers(2, observationCount: batch.observationCount)
        for step in 0 ..< 400 {
            for i in 0 ..< 3 { b.actions[i] = Int32(rng.below(4)) }
            o.actions[0] = b.actions[1]
            b.step(batch); o.step(other)
            if game.step(Int(b.actions[1])).isDone { break }
            guard game.state == batch.state(1), game.state == other.state(0) else {
                Issue.record("diverged at step \(step)")
                break
            }
        }
        var wrong = config
        wrong.lives = 2
        let foreign = BreakoutGame(config: wrong, seed: 1).snapshot()
        #expect(throws: SnapshotError.self) { try other.restore(foreign, into: 1) }
    }

    /// `step` allocates nothing (this thread's malloc calls over 300 steps,
    /// auto-resets included).
    @Test func stepAllocatesNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        var config = try BreakoutConfig.preset("classic")
        config.maxSteps = 100
        let batch = BreakoutBatch(config: config, count: 8, seed: 3)
        let b = BreakoutBuffers(8, observationCount: batch.observationCount)
        b.step(batch)
        var total: UInt64 = 0
        b.actions.withUnsafeBufferPointer { a in
        b.obs.withUnsafeMutableBufferPointer { ob in b.finalObs.withUnsafeMutableBufferPointer { fo in
        b.rewards.withUnsafeMutableBufferPointer { r in b.terminated.withUnsafeMutableBufferPointer { te in
        b.truncated.withUnsafeMutableBufferPointer { tr in b.events.withUnsafeMutableBufferPointer { ev in
            let out = BreakoutBatchOutput(observations: ob.baseAddress, rewards: r.baseAddress!, terminated: te.baseAddress!,
                                          truncated: tr.baseAddress!, events: ev.baseAddress, finalObservations: fo.baseAddress)
            for _ in 0 ..< 300 {
                malloc_counter_start_thread()
                batch.step(actions: a.baseAddress!, into: out)
                total += malloc_counter_stop_thread()
            }
        } } } } } } }
        #expect(total == 0, "\(total) allocations in 2 400 steps")
        #expect(batch.episodesStarted(0) > 1, "no auto-reset happened")
    }
}
