import Foundation
import Gym
import MallocCounter
import Testing
@testable import Agents

/// A fixed random linear policy of the given shape (its own generator).
private func testPolicy(inputs: Int, actions: Int, seed: UInt64) -> LinearPolicy {
    var rng = Xoshiro256(seed: seed)
    return LinearPolicy(inputs: inputs, outputs: actions, weights: (0 ..< actions * inputs).map { _ in rng.nextSigned() },
                        bias: (0 ..< actions).map { _ in rng.nextSigned() * 0.1 }, normalizer: nil)
}

/// Every game's state fingerprint, seat 0's reward total and finished-episode count, in game order.
private func outcome<E: VectorEnvironment & FingerprintedGames>(_ bench: VectorBench<E>, games: Int) -> [UInt64] {
    (0 ..< games).flatMap { g -> [UInt64] in
        let t = bench.totals(g)
        return [bench.withGame(g) { $0.fingerprint($1) }, UInt64(bitPattern: Int64(t.reward)), UInt64(t.episodes)]
    }
}

/// Runs the bench `make(workers, chunk)` makes for each (workers, chunk)
/// of `layouts` for `ticks` (one dispatch each) and expects every layout's
/// games (``outcome(_:games:)``) to equal the first layout's, in
/// which some episode must have finished.
private func expectSameGames<E: VectorEnvironment & FingerprintedGames>(
    _ label: String, games: Int, ticks: [Int], layouts: [(Int, Int)], make: (_ workers: Int, _ chunk: Int) -> VectorBench<E>
) {
    var reference: [UInt64]?
    for (workers, chunk) in layouts {
        let bench = make(workers, chunk)
        for t in ticks { bench.run(ticks: t) }
        let o = outcome(bench, games: games)
        if let reference {
            #expect(o == reference, "\(label): \(workers) workers, chunks of \(chunk) differ from \(layouts[0])")
        } else {
            reference = o
            #expect((0 ..< games).contains { bench.totals($0).episodes > 0 }, "\(label): no episode finished")
        }
    }
}

/// A batch whose games' states have fingerprints.
protocol FingerprintedGames { func fingerprint(_ i: Int) -> UInt64 }
extension PongBatch: FingerprintedGames { func fingerprint(_ i: Int) -> UInt64 { state(i).fingerprint } }
extension BreakoutBatch: FingerprintedGames { func fingerprint(_ i: Int) -> UInt64 { state(i).fingerprint } }

private func pongBench(_ config: PongConfig, games: Int, seed: UInt64, workers: Int, control: BatchControl,
                       chunk: Int) -> VectorBench<PongBatch> {
    VectorBench(environments: games, seed: seed, runner: ParallelRunner(workers: workers), control: control,
                chunk: chunk) { PongBatch(config: config, count: $1, seed: seed, firstIndex: $0) }
}

private func breakoutBench(_ config: BreakoutConfig, games: Int, seed: UInt64, workers: Int, control: BatchControl,
                           chunk: Int) -> VectorBench<BreakoutBatch> {
    VectorBench(environments: games, seed: seed, runner: ParallelRunner(workers: workers), control: control,
                chunk: chunk) { BreakoutBatch(config: config, count: $1, seed: seed, firstIndex: $0) }
}

/// The bench's one batched driver (``VectorBench``, what `gym-train bench`
/// measures): its games are the environment's games, whatever the workers.
@Suite struct VectorBenchTests {
    /// Pong: the same games for 1, 2 and 3 workers and any chunk size, with
    /// random play and with the linear policy in the loop (one sgemm per chunk
    /// per tick; at Pong's 12 inputs its logits do not depend on the batch).
    @Test func pongResultsAreIdenticalForAnyWorkersAndChunks() throws {
        var classic = try PongConfig.preset("classic")
        classic.maxSteps = 400
        var touch = try PongConfig.preset("touch")
        touch.maxSteps = 300
        var ale = try PongConfig.preset("ale")
        ale.maxSteps = 150
        for (name, c) in [("classic", classic), ("touch", touch), ("ale", ale)] {
            let actions = c.verticalMovement ? 5 : 3
            let policy = testPolicy(inputs: PongBatch.observationCount, actions: actions, seed: 3)
            for control in [BatchControl.random, .linear(policy)] {
                expectSameGames("preset \(name)", games: 37, ticks: [500, 250],
                                layouts: [(1, 128), (2, 5), (3, 8), (2, 37), (3, 1)]) { workers, chunk in
                    pongBench(c, games: 37, seed: 11, workers: workers, control: control, chunk: chunk)
                }
            }
        }
    }

    /// Breakout: the same games for 1, 2 and 3 workers, random play and the
    /// linear policy (chunks of 4 games, so several chunks per worker and a
    /// short last chunk: at Breakout's input count the sgemm's last bits may
    /// depend on the chunk, never on the workers).
    @Test func breakoutResultsAreIdenticalForAnyWorkers() throws {
        var config = try BreakoutConfig.preset("classic")
        config.maxSteps = 300
        let inputs = BreakoutBatch(config: config, count: 1, seed: 0).observationLayout.count
        for control in [BatchControl.random, .linear(testPolicy(inputs: inputs, actions: 4, seed: 8))] {
            expectSameGames("breakout classic", games: 11, ticks: [400], layouts: [(1, 4), (2, 4), (3, 4)]) { workers, chunk in
                breakoutBench(config, games: 11, seed: 5, workers: workers, control: control, chunk: chunk)
            }
        }
    }

    /// The bench's games are the environment's games: game g of the bench
    /// (two workers, chunks of 3) equals game g of one `PongBatch` fed the
    /// same actions, drawn as ``VectorBench`` documents.
    @Test func benchGamesMatchAPlainBatch() throws {
        let config = try PongConfig.preset("fast")
        let bench = pongBench(config, games: 10, seed: 4, workers: 2, control: .random, chunk: 3)
        bench.run(ticks: 300)
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
        for g in 0 ..< 10 { #expect(bench.withGame(g) { $0.state($1) } == batch.state(g), "game \(g)") }
    }

    /// The bench's "as users run it" control seats Pong's tracker as the C
    /// ABI seats its opponent (seat 1 of each of the chunk's games, with the
    /// chunk's batch), so it takes the lane form; and it plays the very games
    /// the row form plays (seat 1's rows written for it), chunks with games
    /// past the last eight included.
    @Test func seatedTrackerTakesTheCABIFormAndPlaysAsTheRowForm() throws {
        var shortGames = try PongConfig.preset("classic")
        shortGames.maxScore = 1
        let config = shortGames, spec = try AgentSpec.parse("tracker")
        guard case let .tracker(skill) = spec.kind,
              let seated = BatchControl.seated(Pong.self, spec: spec, config: config),
              case let .seated(_, make) = seated else {
            Issue.record("Pong has a seated control for the tracker")
            return
        }
        #expect(make(16, PongBatch(config: config, count: 16, seed: 0)) is PongLaneTracker)
        #expect(BatchControl.seated(Breakout.self, spec: spec, config: try BreakoutConfig.preset("classic")) == nil)
        let rows = BatchControl.seated(name: "tracker rows") { games, _ in
            TrackerBatch(Pong.makeTracker(config: config, skill: skill), games: games,
                         observationCount: PongBatch.observationCount)
        }
        for chunk in [61, 16] {
            let lanes = pongBench(config, games: 61, seed: 9, workers: 1, control: seated, chunk: chunk)
            let reference = pongBench(config, games: 61, seed: 9, workers: 1, control: rows, chunk: chunk)
            lanes.run(ticks: 700)
            reference.run(ticks: 700)
            #expect(outcome(lanes, games: 61) == outcome(reference, games: 61), "chunks of \(chunk)")
            #expect((0 ..< 61).contains { lanes.totals($0).episodes > 0 }, "no episode finished")
        }
    }

    /// Stepping allocates nothing: malloc calls counted over 200 ticks, with
    /// and without the policy, both games (one worker: no Dispatch).
    @Test func steppingAllocatesNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        // The counter sees a Swift allocation (self-check).
        malloc_counter_start_thread()
        let probe = [Int](repeating: 1, count: 100)
        let seen = malloc_counter_stop_thread()
        #expect(seen >= 1 && probe.count == 100)
        for preset in ["classic", "ale"] {
            let config = try PongConfig.preset(preset)
            let policy = testPolicy(inputs: PongBatch.observationCount, actions: 3, seed: 1)
            for control in [BatchControl.random, .linear(policy)] {
                expectNoAllocations(games: 64, "Pong \(preset)") {
                    pongBench(config, games: 64, seed: 2, workers: 1, control: control, chunk: 64)
                }
            }
        }
        for preset in ["classic", "atari"] {
            let config = try BreakoutConfig.preset(preset)
            let inputs = BreakoutBatch(config: config, count: 1, seed: 0).observationLayout.count
            for control in [BatchControl.random, .linear(testPolicy(inputs: inputs, actions: 4, seed: 1))] {
                expectNoAllocations(games: 32, "Breakout \(preset)") {
                    breakoutBench(config, games: 32, seed: 2, workers: 1, control: control, chunk: 32)
                }
            }
        }
    }

    /// With Pong's tracker seated (reading the batch's state, eight games at
    /// a time, plus games alone past the last eight), stepping allocates
    /// nothing either, for a skill without state and one with every knob.
    @Test func steppingWithATrackerSeatedAllocatesNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        for preset in ["classic", "ale"] {
            let config = try PongConfig.preset(preset)
            for text in ["tracker", "tracker:reaction=3,noise=1,speed=0.7"] {
                guard case let .tracker(skill) = try AgentSpec.parse(text).kind else { continue }
                let seated = BatchControl.seated(name: text) { games, vector in
                    guard let batch = vector as? PongBatch else { preconditionFailure("not a Pong batch") }
                    return PongLaneTracker(Pong.makeTracker(config: config, skill: skill), batch: batch,
                                           seating: .oneSeat(1, slots: games, seats: 2),
                                           observationCount: PongBatch.observationCount)
                }
                expectNoAllocations(games: 61, "Pong \(preset), \(text) seated") {
                    pongBench(config, games: 61, seed: 2, workers: 1, control: seated, chunk: 61)
                }
            }
        }
    }

    /// Runs a bench of `make` (of `games` games) 20 ticks to warm up, then
    /// expects no malloc call in this thread over 200 more. A twin bench
    /// (the same games, so the same paths) runs those ticks uncounted first:
    /// the runtime's one-time work on a path's first use (generic metadata
    /// and witness tables, in a debug build; Pong's first contact comes after
    /// the warm-up) is done once per process, where an allocating step
    /// allocates again in the counted run.
    func expectNoAllocations<E: VectorEnvironment>(games: Int, _ label: String, make: () -> VectorBench<E>) {
        let twin = make()
        twin.run(ticks: 20)
        twin.run(ticks: 200)
        let bench = make()
        bench.run(ticks: 20)
        malloc_counter_start_thread()
        bench.run(ticks: 200)
        let count = malloc_counter_stop_thread()
        #expect(count == 0, "\(label): \(count) allocations in \(200 * games) steps")
    }

    /// With two workers the workers' step loops allocate nothing either:
    /// each worker counts its own thread's allocations while it steps its
    /// chunks (Dispatch's own bookkeeping, outside the loops, is not a step's).
    /// Twin benches run the same ticks uncounted first, as in
    /// ``expectNoAllocations(games:_:make:)``: the runtime's one-time work on
    /// a path's first use falls in whichever worker meets it first.
    @Test func twoWorkersStepLoopsAllocateNothing() throws {
        #expect(malloc_counter_active() != 0, "the counting malloc is not in use; counts would be meaningless")
        let breakoutConfig = try BreakoutConfig.preset("classic")
        let inputs = BreakoutBatch(config: breakoutConfig, count: 1, seed: 0).observationLayout.count
        let counts = LockedCounts()
        let counting: @Sendable (Int, () -> Void) -> Void = { _, step in
            malloc_counter_start_thread()
            step()
            counts.add(malloc_counter_stop_thread())
        }
        let uncounted: @Sendable (Int, () -> Void) -> Void = { _, step in step() }
        let pongPolicy = testPolicy(inputs: PongBatch.observationCount, actions: 3, seed: 1)
        for (pongControl, breakoutControl) in [(BatchControl.random, BatchControl.random),
                                               (.linear(pongPolicy), .linear(testPolicy(inputs: inputs, actions: 4, seed: 4)))] {
            for counted in [false, true] {
                let pong = pongBench(try PongConfig.preset("classic"), games: 64, seed: 2, workers: 2,
                                     control: pongControl, chunk: 16)
                let breakout = breakoutBench(breakoutConfig, games: 16, seed: 2, workers: 2,
                                             control: breakoutControl, chunk: 4)
                pong.run(ticks: 20)
                breakout.run(ticks: 20)
                let wrap = counted ? counting : uncounted
                pong.run(ticks: 200, wrappingEachWorker: wrap)
                breakout.run(ticks: 200, wrappingEachWorker: wrap)
            }
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

    func add(_ n: UInt64) {
        lock.lock(); defer { lock.unlock() }
        sum += n
    }

    var total: UInt64 { lock.lock(); defer { lock.unlock() }; return sum }
}
