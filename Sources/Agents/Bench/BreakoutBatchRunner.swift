import Gym

/// Many Breakout games stepped in batches over the workers of a
/// ``ParallelRunner``, the same design as ``PongBatchRunner``: chunks of
/// `chunk` games (each a ``BreakoutBatch`` with its `firstIndex`, and its
/// buffers), taken one at a time by the workers in each dispatch of many
/// ticks.
///
/// Results do not depend on the number of workers: game `g` plays the
/// episodes seeded by ``Seeds/batchEpisode(batchSeed:game:episode:)`` of
/// `(seed, g, e)`; its random actions come from its own generator
/// (`Seeds.stream(Seeds.stream(seed, SeedStream.randomActions), g)`); the linear policy's sgemm
/// covers one chunk, whose size and rows do not depend on the workers (at
/// Breakout's ≥ 70 inputs sgemm's last bits depend on the batch size and the
/// row, so they do depend on `chunk`).
public final class BreakoutBatchRunner: @unchecked Sendable {
    public let config: BreakoutConfig
    public let environments: Int
    public let seed: UInt64
    /// Ticks run so far (each tick is one agent step of every game).
    public var ticks: Int { batches.ticks }
    /// Games per chunk unless told otherwise, chosen with `gym-train bench
    /// --game breakout --chunk N` (the best scaling over two workers, with
    /// random actions and with the policy; larger chunks fall out of the caches).
    public static let defaultChunk = 32
    let batches: SlicedBatches<BreakoutBatchSlice>

    /// - Parameter chunk: games per chunk (default ``defaultChunk``).
    public init(config: BreakoutConfig, environments: Int, seed: UInt64, runner: ParallelRunner,
                control: BatchControl = .random, chunk: Int? = nil) {
        self.config = config
        self.environments = environments
        self.seed = seed
        if case .linear = control { BLAS.useSingleThread() }
        batches = SlicedBatches(environments: environments,
                                chunk: chunk ?? Self.defaultChunk,
                                runner: runner) { first, count in
            BreakoutBatchSlice(config: config, first: first, count: count, seed: seed, control: control)
        }
    }

    /// Steps every game `ticks` times: one dispatch.
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
    public func state(_ g: Int) -> BreakoutState {
        let (slice, i) = batches.locate(g)
        return slice.batch.state(i)
    }

    /// Per game: summed reward and episodes finished so far.
    public func totals(_ g: Int) -> (reward: Double, episodes: Int) {
        batches.totals(g)
    }
}

/// One chunk of Breakout games and its buffers.
final class BreakoutBatchSlice: BatchSlice, @unchecked Sendable {
    let batch: BreakoutBatch
    let first: Int, count: Int
    let actions: UnsafeMutableBufferPointer<Int32>
    let observations, rewards, rewardSum, logits: UnsafeMutableBufferPointer<Float>
    let terminated, truncated: UnsafeMutableBufferPointer<UInt8>
    let episodesDone: UnsafeMutableBufferPointer<Int32>
    let actionRNG: UnsafeMutableBufferPointer<Xoshiro256>
    let policy: LinearPolicy?

    init(config: BreakoutConfig, first: Int, count: Int, seed: UInt64, control: BatchControl) {
        batch = BreakoutBatch(config: config, count: count, seed: seed, firstIndex: first)
        self.first = first
        self.count = count
        actions = .column(count, 0)
        observations = .column(count * batch.observationCount, 0)
        rewards = .column(count, 0); rewardSum = .column(count, 0)
        terminated = .column(count, 0); truncated = .column(count, 0); episodesDone = .column(count, 0)
        actionRNG = .column(count, Xoshiro256(seed: 0))
        let actionSeed = Seeds.stream(seed, SeedStream.randomActions)
        for i in 0 ..< count { actionRNG[i] = Xoshiro256(seed: Seeds.stream(actionSeed, UInt64(first + i))) }
        if case let .linear(p) = control {
            precondition(p.inputs == batch.observationCount && p.outputs == batch.actionCount,
                         "the policy's shape does not match the game")
            policy = p
        } else {
            policy = nil
        }
        logits = .column(policy == nil ? 1 : count * batch.actionCount, 0)
        if let o = observations.baseAddress { batch.observe(into: o) }
    }

    deinit {
        actions.deallocate(); observations.deallocate(); rewards.deallocate(); rewardSum.deallocate()
        logits.deallocate(); terminated.deallocate(); truncated.deallocate(); episodesDone.deallocate()
        actionRNG.deallocate()
    }

    func totals(_ i: Int) -> (reward: Double, episodes: Int) {
        (Double(rewardSum[i]), Int(episodesDone[i]))
    }

    func run(ticks: Int) {
        guard let act = actions.baseAddress, let obs = observations.baseAddress, let rew = rewards.baseAddress,
              let term = terminated.baseAddress, let trunc = truncated.baseAddress,
              let scratch = logits.baseAddress else { return }
        let out = VectorStepOutput<BreakoutEvents>(observations: obs, rewards: rew, terminated: term, truncated: trunc)
        let k = UInt64(batch.actionCount)
        for _ in 0 ..< ticks {
            if let policy {
                policy.actions(batch: count, observations: obs, logits: scratch, into: act)
            } else {
                for i in 0 ..< count {
                    act[i] = Int32(truncatingIfNeeded: ((actionRNG[i].next() >> 32) &* k) >> 32)
                }
            }
            batch.step(actions: act, into: out)
            for i in 0 ..< count {
                rewardSum[i] += rew[i]
                episodesDone[i] &+= Int32(term[i] | trunc[i])
            }
        }
    }
}
