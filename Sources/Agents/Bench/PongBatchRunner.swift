import Gym

/// Many Pong games stepped in batches over the workers of a
/// ``ParallelRunner``: the games are cut into chunks of `chunk` games, each
/// a ``PongBatch`` (with its `firstIndex`) together with its action,
/// observation and policy scratch buffers, and ``run(ticks:)`` makes one
/// dispatch in which every worker takes chunks one at a time and steps each
/// for all the ticks — no fork/join per tick (see `SlicedBatches`).
///
/// Results do not depend on the number of workers: game `g` always plays
/// the episodes seeded by ``PongBatch/episodeSeed(batchSeed:game:episode:)``
/// of `(seed, g, e)`, its random actions come from its own generator
/// (`Seeds.stream(Seeds.stream(seed, SeedStream.randomActions), g)`), and the linear policy acts
/// on each observation row alone.
///
/// Control of the agent (bottom) side:
/// - ``Control/random``: uniform random actions, like the opponent;
/// - ``Control/linear(_:)``: the greedy action of a ``LinearPolicy``,
///   computed for the whole chunk with one `cblas_sgemm` per tick
///   (``LinearPolicy/actions(batch:observations:logits:into:)``).
/// The opponent (top) side plays uniform random actions.
public final class PongBatchRunner: @unchecked Sendable {
    /// Who plays the agent side.
    public typealias Control = BatchControl

    public let config: PongConfig
    public let environments: Int
    public let runner: ParallelRunner
    public let seed: UInt64
    /// Games per chunk unless told otherwise, chosen with `gym-train bench
    /// --game pong --chunk N` (the best scaling over two workers): smaller
    /// chunks lose with the policy (two workers calling a small sgemm at once
    /// wait on OpenBLAS's buffer lock), larger ones fall out of the caches.
    public static let defaultChunk = 64

    /// Ticks run so far (each tick is one agent step of every game).
    public var ticks: Int { batches.ticks }
    let batches: SlicedBatches<PongBatchSlice>

    /// - Parameters:
    ///   - environments: games in all, at least 1.
    ///   - runner: the workers that step the chunks.
    ///   - chunk: games per chunk (default ``defaultChunk``). The results never depend on the
    ///     workers; with the linear policy they also do not depend on the chunk size only
    ///     because the sgemm logits were measured batch-independent at Pong's 12 inputs on
    ///     the project's OpenBLAS 0.3.21 (``LinearPolicy``; pinned by a test).
    public init(config: PongConfig, environments: Int, seed: UInt64, runner: ParallelRunner, control: Control = .random,
                chunk: Int? = nil) {
        self.config = config
        self.environments = environments
        self.runner = runner
        self.seed = seed
        if case .linear = control {
            // Each worker calls sgemm on its own; BLAS threads would compete (PLATFORM.md).
            BLAS.useSingleThread()
        }
        batches = SlicedBatches(environments: environments, chunk: chunk ?? Self.defaultChunk,
                                runner: runner) { first, count in
            PongBatchSlice(config: config, first: first, count: count, seed: seed, control: control)
        }
    }

    /// Steps every game `ticks` times: one dispatch, each chunk stepped for
    /// all the ticks by one worker.
    public func run(ticks: Int) {
        batches.run(ticks: ticks)
    }

    /// ``run(ticks:)`` with worker `w`'s share wrapped: `wrap(w, step)` runs on
    /// worker `w`'s thread and must call `step` (the chunks it takes) exactly
    /// once. For instrumenting the workers' own loops, e.g. counting their
    /// allocations apart from the dispatch's.
    public func run(ticks: Int, wrappingEachWorker wrap: @escaping @Sendable (_ worker: Int, _ step: () -> Void) -> Void) {
        batches.run(ticks: ticks, wrap: wrap)
    }

    /// Game `g`'s current state.
    public func state(_ g: Int) -> PongState {
        let (slice, i) = batches.locate(g)
        return slice.batch.state(i)
    }

    /// Per game: the agent side's summed reward and the episodes finished so far.
    public func totals(_ g: Int) -> (reward: Double, episodes: Int) {
        batches.totals(g)
    }
}

/// One chunk: its games and every buffer its ticks touch, allocated once.
/// Sendable because exactly one worker (the one that took it) steps it during a dispatch.
final class PongBatchSlice: BatchSlice, @unchecked Sendable {
    let batch: PongBatch
    let first: Int, count: Int
    let actionCount: UInt64
    /// The policy's actions (`count`), and every seat's (`2 × count`, game-major).
    let agentActions, seatActions: UnsafeMutableBufferPointer<Int32>
    let observations, rewards: UnsafeMutableBufferPointer<Float>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>
    let actionRNG: UnsafeMutableBufferPointer<Xoshiro256>
    /// Running totals per game (float sums of ±1 rewards are exact far beyond any run).
    let rewardSum: UnsafeMutableBufferPointer<Float>
    let episodesDone: UnsafeMutableBufferPointer<Int32>
    let policy: LinearPolicy?
    /// The policy's logits scratch, `count × actions`.
    let logits: UnsafeMutableBufferPointer<Float>

    init(config: PongConfig, first: Int, count: Int, seed: UInt64, control: PongBatchRunner.Control) {
        batch = PongBatch(config: config, count: count, seed: seed, firstIndex: first)
        self.first = first
        self.count = count
        actionCount = UInt64(batch.actionCount)
        agentActions = .column(count, 0); seatActions = .column(2 * count, 0)
        observations = .column(count * PongBatch.observationCount, 0)
        rewards = .column(2 * count, 0); rewardSum = .column(count, 0)
        terminated = .column(count, 0); truncated = .column(count, 0); episodesDone = .column(count, 0)
        actionRNG = .column(count, Xoshiro256(seed: 0))
        let actionSeed = Seeds.stream(seed, SeedStream.randomActions)
        for i in 0 ..< count { actionRNG[i] = Xoshiro256(seed: Seeds.stream(actionSeed, UInt64(first + i))) }
        if case let .linear(p) = control {
            precondition(p.inputs == PongBatch.observationCount && p.outputs == batch.actionCount,
                         "the policy's shape does not match the game")
            policy = p
        } else {
            policy = nil
        }
        logits = .column(policy == nil ? 1 : count * batch.actionCount, 0)
        if let o = observations.baseAddress { batch.observe(.bottom, into: o) }
    }

    deinit {
        agentActions.deallocate(); seatActions.deallocate()
        observations.deallocate(); rewards.deallocate(); rewardSum.deallocate()
        terminated.deallocate(); truncated.deallocate(); episodesDone.deallocate()
        actionRNG.deallocate(); logits.deallocate()
    }

    func totals(_ i: Int) -> (reward: Double, episodes: Int) {
        (Double(rewardSum[i]), Int(episodesDone[i]))
    }

    func run(ticks: Int) {
        guard let agent = agentActions.baseAddress, let seats = seatActions.baseAddress,
              let obs = observations.baseAddress, let rew = rewards.baseAddress,
              let term = terminated.baseAddress, let trunc = truncated.baseAddress,
              let scratch = logits.baseAddress else { return }
        // The agent is seat 0 (bottom), the only seat observed.
        let out = VectorStepOutput<PongEvents>(observations: obs, rewards: rew, terminated: term, truncated: trunc,
                                               observedSeats: 1)
        let k = actionCount
        for _ in 0 ..< ticks {
            if let policy {
                policy.actions(batch: count, observations: obs, logits: scratch, into: agent)
                for i in 0 ..< count {
                    seats[2 * i] = agent[i]
                    seats[2 * i + 1] = Int32(truncatingIfNeeded: ((actionRNG[i].next() >> 32) &* k) >> 32)
                }
            } else {
                for i in 0 ..< count {
                    let r = actionRNG[i].next()
                    seats[2 * i] = Int32(truncatingIfNeeded: ((r >> 32) &* k) >> 32)
                    seats[2 * i + 1] = Int32(truncatingIfNeeded: ((r & 0xFFFF_FFFF) &* k) >> 32)
                }
            }
            batch.step(actions: seats, into: out)
            for i in 0 ..< count {
                rewardSum[i] += rew[2 * i]
                episodesDone[i] &+= Int32(term[i] | trunc[i])
            }
        }
    }
}
