import Foundation
import Gym
import MallocCounter
import Testing
@testable import Agents

/// A fixed random linear policy for the runner tests (its own generator).
private func testPolicy(actions: Int, seed: UInt64) -> LinearPolicy {
    var rng = Xoshiro256(seed: seed)
    let n = PongBatch.observationCount
    return LinearPolicy(inputs: n, outputs: actions, weights: (0 ..< actions * n).map { _ in rng.nextSigned() },
                        bias: (0 ..< actions).map { _ in rng.nextSigned() * 0.1 }, normalizer: nil)
}

/// Every game's state, reward total and finished-episode count, in game order.
private func outcome(_ r: PongBatchRunner) -> [UInt64] {
    (0 ..< r.environments).flatMap { g -> [UInt64] in
        let t = r.totals(g)
        return [r.state(g).fingerprint, UInt64(bitPattern: Int64(t.reward)), UInt64(t.episodes)]
    }
}

@Suite struct BatchRunnerTests {
    /// The same games for 1, 2 and 3 workers and any chunk size, with random
    /// play and with the linear policy in the loop (one sgemm per chunk per
    /// tick; at Pong's 12 inputs its logits do not depend on the batch).
    @Test func resultsAreIdenticalFor1_2And3Workers() throws {
        var config = try PongConfig.preset("classic")
        config.maxSteps = 400
        var touch = try PongConfig.preset("touch")
        touch.maxSteps = 300
        for (name, c) in [("classic", config), ("touch", touch)] {
            let actions = c.verticalMovement ? 5 : 3
            for control in [PongBatchRunner.Control.random, .linear(testPolicy(actions: actions, seed: 3))] {
                var reference: [UInt64]?
                for (workers, chunk) in [(1, 128), (2, 5), (3, 8), (2, 37), (3, 1)] {
                    let r = PongBatchRunner(config: c, environments: 37, seed: 11,
                                            runner: ParallelRunner(workers: workers), control: control, chunk: chunk)
                    r.run(ticks: 500)
                    r.run(ticks: 250)
                    let o = outcome(r)
                    if let reference {
                        #expect(o == reference, "preset \(name), \(workers) workers, chunks of \(chunk) differ from 1 worker")
                    } else {
                        reference = o
                        #expect((0 ..< 37).contains { r.totals($0).episodes > 0 }, "preset \(name): no episode finished")
                    }
                }
            }
        }
    }

    /// Breakout's runner: the same games for 1, 2 and 3 workers, random
    /// play and the linear policy in the loop (chunks of 4 games, so several
    /// chunks per worker and a short last chunk: at 70 inputs the sgemm's
    /// last bits depend on the chunk, never on the workers).
    @Test func breakoutResultsAreIdenticalFor1_2And3Workers() throws {
        var config = try BreakoutConfig.preset("classic")
        config.maxSteps = 300
        let inputs = BreakoutPhysics.observationCount(for: config)
        var rng = Xoshiro256(seed: 8)
        let policy = LinearPolicy(inputs: inputs, outputs: 4, weights: (0 ..< 4 * inputs).map { _ in rng.nextSigned() },
                                  bias: (0 ..< 4).map { _ in rng.nextSigned() }, normalizer: nil)
        for control in [BatchControl.random, .linear(policy)] {
            var reference: [UInt64]?
            for workers in [1, 2, 3] {
                let r = BreakoutBatchRunner(config: config, environments: 11, seed: 5,
                                            runner: ParallelRunner(workers: workers), control: control, chunk: 4)
                r.run(ticks: 400)
                let o = (0 ..< 11).flatMap { g -> [UInt64] in
                    let t = r.totals(g)
                    return [r.state(g).fingerprint, UInt64(bitPattern: Int64(t.reward)), UInt64(t.episodes)]
                }
                if let reference {
                    #expect(o == reference, "\(workers) workers differ from 1 worker")
                } else {
                    reference = o
                    #expect((0 ..< 11).contains { r.totals($0).episodes > 0 }, "no episode finished")
                }
            }
        }
    }

    /// The runner's games are the batch's games: game g of the runner equals
    /// game g of one `PongBatch` fed the same actions.
    @Test func runnerGamesMatchAPlainBatch() throws {
        let config = try PongConfig.preset("fast")
        let r = PongBatchRunner(config: config, environments: 10, seed: 4, runner: ParallelRunner(workers: 2))
        r.run(ticks: 300)
        let batch = PongBatch(config: config, count: 10, seed: 4)
        var rngs = (0 ..< 10).map { Xoshiro256(seed: Seeds.stream(Seeds.stream(4, SeedStream.randomActions), UInt64($0))) }
        var actions = [Int32](repeating: 0, count: 20)
        var rewards = [Float](repeating: 0, count: 20)
        var term = [UInt8](repeating: 0, count: 10), trunc = term
        for _ in 0 ..< 300 {
            for i in 0 ..< 10 {
                let x = rngs[i].next()
                actions[2 * i] = Int32(((x >> 32) &* 3) >> 32)
                actions[2 * i + 1] = Int32(((x & 0xFFFF_FFFF) &* 3) >> 32)
            }
            rewards.withUnsafeMutableBufferPointer { rw in term.withUnsafeMutableBufferPointer { te in
                trunc.withUnsafeMutableBufferPointer { tr in
                    batch.step(actions: actions, into: VectorStepOutput(
                        observations: nil, rewards: rw.baseAddress!, terminated: te.baseAddress!, truncated: tr.baseAddress!))
                } } }
        }
        for g in 0 ..< 10 { #expect(r.state(g) == batch.state(g), "game \(g)") }
    }

    /// Stepping allocates nothing: malloc calls counted over 200 ticks of
    /// 64 games, with and without the policy (one worker: no Dispatch).
    @Test func steppingAllocatesNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        // The counter sees a Swift allocation (self-check).
        malloc_counter_start_thread()
        let probe = [Int](repeating: 1, count: 100)
        let seen = malloc_counter_stop_thread()
        #expect(seen >= 1 && probe.count == 100)
        for preset in ["classic", "ale"] {
            let config = try PongConfig.preset(preset)
            for control in [PongBatchRunner.Control.random, .linear(testPolicy(actions: 3, seed: 1))] {
                let r = PongBatchRunner(config: config, environments: 64, seed: 2, runner: ParallelRunner(workers: 1),
                                        control: control)
                r.run(ticks: 20)
                malloc_counter_start_thread()
                r.run(ticks: 200)
                let count = malloc_counter_stop_thread()
                #expect(count == 0, "preset \(preset): \(count) allocations in 12 800 steps")
            }
        }
    }

    /// With two workers the workers' step loops allocate nothing either:
    /// each worker counts its own thread's allocations while it steps its
    /// chunks (Dispatch's own bookkeeping, outside the loops, is not a step's);
    /// random play and the linear policy, Pong and Breakout (70 inputs).
    @Test func twoWorkersStepLoopsAllocateNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        let breakoutConfig = try BreakoutConfig.preset("classic")
        let inputs = BreakoutPhysics.observationCount(for: breakoutConfig)
        var rng = Xoshiro256(seed: 4)
        let breakoutPolicy = LinearPolicy(inputs: inputs, outputs: 4, weights: (0 ..< 4 * inputs).map { _ in rng.nextSigned() },
                                          bias: (0 ..< 4).map { _ in rng.nextSigned() }, normalizer: nil)
        let counts = LockedCounts()
        let counting: @Sendable (Int, () -> Void) -> Void = { w, step in
            malloc_counter_start_thread()
            step()
            counts.add(w, malloc_counter_stop_thread())
        }
        for (pongControl, breakoutControl) in [(PongBatchRunner.Control.random, BatchControl.random),
                                               (.linear(testPolicy(actions: 3, seed: 1)), .linear(breakoutPolicy))] {
            let pong = PongBatchRunner(config: try PongConfig.preset("classic"), environments: 64, seed: 2,
                                       runner: ParallelRunner(workers: 2), control: pongControl, chunk: 16)
            let breakout = BreakoutBatchRunner(config: breakoutConfig, environments: 16, seed: 2,
                                               runner: ParallelRunner(workers: 2), control: breakoutControl, chunk: 4)
            pong.run(ticks: 20)
            breakout.run(ticks: 20)
            pong.run(ticks: 200, wrappingEachWorker: counting)
            breakout.run(ticks: 200, wrappingEachWorker: counting)
        }
        #expect(counts.total == 0, "\(counts.total) allocations in the workers' step loops")
    }

    /// A dispatch steps every chunk exactly once, with the ticks asked for,
    /// whatever the number of workers and chunks (workers take chunks from a
    /// shared counter).
    @Test func everyChunkIsSteppedOncePerDispatch() {
        for (environments, chunk) in [(1, 4), (7, 1), (10, 3), (64, 16), (65, 16)] {
            for workers in [1, 2, 3, 8] {
                let batches = SlicedBatches(environments: environments, chunk: chunk,
                                            runner: ParallelRunner(workers: workers)) { first, count in
                    CountingSlice(first: first, count: count)
                }
                batches.run(ticks: 5)
                batches.run(ticks: 7)
                #expect(batches.ticks == 12)
                let chunks = (environments + chunk - 1) / chunk
                #expect(batches.slices.count == chunks)
                #expect(batches.slices.map(\.first) == Array(stride(from: 0, to: environments, by: chunk)))
                #expect(batches.slices.reduce(0) { $0 + $1.count } == environments)
                for (k, slice) in batches.slices.enumerated() {
                    #expect(slice.calls == [5, 7], "\(environments) games, chunks of \(chunk), \(workers) workers: chunk \(k) ran \(slice.calls)")
                }
                for g in [0, environments / 2, environments - 1] {
                    let (slice, i) = batches.locate(g)
                    #expect(slice.first + i == g && i < slice.count, "game \(g) located in the wrong chunk")
                    #expect(batches.totals(g) == (12, 2), "game \(g): totals \(batches.totals(g))")
                }
            }
        }
    }
}

/// A chunk that records the ticks of every `run` (locked: it may run on any worker).
final class CountingSlice: BatchSlice, @unchecked Sendable {
    let first: Int, count: Int
    private let lock = NSLock()
    private var ticks: [Int] = []

    init(first: Int, count: Int) { self.first = first; self.count = count }

    func run(ticks: Int) {
        lock.lock(); defer { lock.unlock() }
        self.ticks.append(ticks)
    }

    var calls: [Int] { lock.lock(); defer { lock.unlock() }; return ticks }

    /// Every game of the chunk: the ticks it ran, and the runs.
    func totals(_ i: Int) -> (reward: Double, episodes: Int) {
        let c = calls
        return (Double(c.reduce(0, +)), c.count)
    }
}

/// Allocation counts reported by workers (locked; read after the dispatch).
final class LockedCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var sum: UInt64 = 0

    func add(_ worker: Int, _ n: UInt64) {
        lock.lock(); defer { lock.unlock() }
        sum += n
    }

    var total: UInt64 { lock.lock(); defer { lock.unlock() }; return sum }
}
