import Gym

extension Throughput {
    /// Steps a ``VectorBench`` (`environments` games of any
    /// ``VectorEnvironment`` split over `runner`'s workers) in rounds of
    /// `ticksPerRound` ticks (one dispatch each) for at least `seconds`,
    /// after one warm-up round.
    public static func vector<E: VectorEnvironment>(environments: Int, runner: ParallelRunner, control: BatchControl,
                                                    seconds: Double, seed: UInt64,
                                                    ticksPerRound: Int = defaultTicksPerRound, chunk: Int,
                                                    make: (_ first: Int, _ count: Int) -> E) -> Measurement {
        let bench = VectorBench(environments: environments, seed: seed, runner: runner, control: control,
                                chunk: chunk, make: make)
        return measure(workers: runner.workers, environments: environments, seconds: seconds,
                       ticksPerRound: ticksPerRound) { bench.run(ticks: $0) }
    }
}

/// The benchmark's batched driver, the same for every game: the games cut
/// into chunks of `chunk` games, each a ``VectorEnvironment`` (with its
/// `firstIndex`) and its buffers, stepped through the contract's one
/// `step(actions:into:)` (see `SlicedBatches` for the dispatch).
///
/// Each tick of a chunk: seat 0 acts by `control` (uniform random actions,
/// or the greedy action of a linear policy over the chunk's seat-0
/// observations, one `cblas_sgemm`), every other seat uniformly at random;
/// one step with seat 0's observation written (`observedSeats` 1), finished
/// episodes restarting as the environment's autoreset mode says. Game `g`'s
/// random actions come from its own generator
/// (`Seeds.stream(Seeds.stream(seed, SeedStream.randomActions), g)`): one
/// 64-bit draw per game per tick, seat `s`'s action from its 32-bit half
/// `s mod 2` (multiply-high, no division; a third seat draws again).
public final class VectorBench<E: VectorEnvironment>: @unchecked Sendable {
    let batches: SlicedBatches<VectorBenchSlice<E>>

    public init(environments: Int, seed: UInt64, runner: ParallelRunner, control: BatchControl, chunk: Int,
                make: (_ first: Int, _ count: Int) -> E) {
        if case .linear = control {
            // Each worker calls sgemm on its own; BLAS threads would compete
            // with the workers for the cores.
            BLAS.useSingleThread()
        }
        batches = SlicedBatches(environments: environments, chunk: chunk, runner: runner) { first, count in
            VectorBenchSlice(make(first, count), first: first, seed: seed, control: control)
        }
    }

    /// Steps every game `ticks` times: one dispatch.
    public func run(ticks: Int) { batches.run(ticks: ticks) }

    /// ``run(ticks:)`` with worker `w`'s share wrapped (see `SlicedBatches`).
    public func run(ticks: Int, wrappingEachWorker wrap: @escaping @Sendable (_ worker: Int, _ step: () -> Void) -> Void) {
        batches.run(ticks: ticks, wrap: wrap)
    }

    /// Reads global game `g`: its chunk's environment and `g`'s index in it.
    func withGame<R>(_ g: Int, _ read: (E, Int) -> R) -> R {
        let (slice, i) = batches.locate(g)
        return read(slice.env, i)
    }

    /// Per game: seat 0's summed reward and the episodes finished so far.
    public func totals(_ g: Int) -> (reward: Double, episodes: Int) { batches.totals(g) }
}

/// One chunk of a ``VectorBench``: its environment and every buffer its
/// ticks touch, allocated once.
final class VectorBenchSlice<E: VectorEnvironment>: BatchSlice, @unchecked Sendable {
    let env: E
    let count: Int, seats: Int
    let actionCount: UInt64
    let actions: Column<Int32>
    var observations: Column<Float>
    let rewards, rewardSum, logits: Column<Float>
    let terminated, truncated: Column<UInt8>
    let episodesDone: Column<Int32>
    let actionRNG: Column<Xoshiro256>
    let policy: LinearPolicy?
    /// Seat 0's actions when a policy picks them (`count`).
    let policyActions: Column<Int32>
    /// Seat 1's agent (``BatchControl/seated(name:make:)``: agent game `i`
    /// is game `i`'s seat 1), the rows of a tick (every game) and the
    /// agent's actions, copied into seat 1's places.
    let seated: (any BatchAgent)?
    let seatedRows: Column<Int32>
    let seatedActions: Column<Int32>
    /// Seats whose observations each step writes (1, or 2 with a seated agent reading rows).
    let observedSeats: Int

    init(_ env: E, first: Int, seed: UInt64, control: BatchControl) {
        self.env = env
        count = env.count
        seats = env.seats
        actionCount = UInt64(env.actionCount)
        let n = env.observationLayout.count
        actions = Column(repeating: 0, count: count * seats)
        observations = Column(repeating: 0, count: count * n)
        rewards = Column(repeating: 0, count: count * seats); rewardSum = Column(repeating: 0, count: count)
        terminated = Column(repeating: 0, count: count); truncated = Column(repeating: 0, count: count)
        episodesDone = Column(repeating: 0, count: count)
        actionRNG = Column(repeating: Xoshiro256(seed: 0), count: count)
        let actionSeed = Seeds.stream(seed, SeedStream.randomActions)
        for i in 0 ..< count { actionRNG[i] = Xoshiro256(seed: Seeds.stream(actionSeed, UInt64(first + i))) }
        if case let .linear(p) = control {
            precondition(p.inputs == n && p.outputs == env.actionCount, "the policy's shape does not match the game")
            policy = p
        } else {
            policy = nil
        }
        logits = Column(repeating: 0, count: policy == nil ? 1 : count * env.actionCount)
        policyActions = Column(repeating: 0, count: policy == nil ? 1 : count)
        if case let .seated(_, make) = control, seats == 2 {
            let agent = make(count, env)
            precondition(agent.games == count, "the seated agent plays seat 1 of every game")
            for i in 0 ..< count {
                do { try agent.start(game: i, seed: Seeds.agent(env.restartStream(i).lastEpisodeSeed ?? 0, seat: 1)) }
                catch { preconditionFailure("a built-in agent never faults: \(error)") }
            }
            seated = agent
            seatedRows = Column(repeating: 0, count: count)
            for i in 0 ..< count { seatedRows[i] = Int32(i) }
            seatedActions = Column(repeating: 0, count: count)
            observedSeats = agent.readsObservations ? 2 : 1
        } else {
            seated = nil
            seatedRows = Column(repeating: 0, count: 1)
            seatedActions = Column(repeating: 0, count: 1)
            observedSeats = 1
        }
        if observedSeats == 2 {
            observations = Column(repeating: 0, count: count * seats * n)
            env.observe(into: observations.base)
        } else if seats == 1 {
            env.observe(into: observations.base)
        } else if seats > 1 {
            // Seat 0's rows of a full observation.
            let all = Column<Float>(repeating: 0, count: count * seats * n), o = observations.base
            env.observe(into: all.base)
            for i in 0 ..< count { (o + i * n).update(from: all.base + i * seats * n, count: n) }
        }
    }

    func totals(_ i: Int) -> (reward: Double, episodes: Int) {
        (Double(rewardSum[i]), Int(episodesDone[i]))
    }

    /// Every seat's uniform random action (see ``VectorBench``): a
    /// non-generic loop, so it is compiled for the concrete types whatever
    /// environment the slice holds.
    static func randomActions(count: Int, seats: Int, actionCount k: UInt64,
                              generators: UnsafeMutablePointer<Xoshiro256>, into act: UnsafeMutablePointer<Int32>) {
        if seats == 1 {
            for i in 0 ..< count { act[i] = Int32(truncatingIfNeeded: ((generators[i].next() >> 32) &* k) >> 32) }
            return
        }
        if seats == 2 {
            for i in 0 ..< count {
                let r = generators[i].next()
                act[2 * i] = Int32(truncatingIfNeeded: ((r >> 32) &* k) >> 32)
                act[2 * i + 1] = Int32(truncatingIfNeeded: ((r & 0xFFFF_FFFF) &* k) >> 32)
            }
            return
        }
        for i in 0 ..< count {
            let row = act + i * seats
            var r: UInt64 = 0
            for s in 0 ..< seats {
                if s % 2 == 0 { r = generators[i].next() }
                let half = s % 2 == 0 ? r >> 32 : r & 0xFFFF_FFFF
                row[s] = Int32(truncatingIfNeeded: (half &* k) >> 32)
            }
        }
    }

    func run(ticks: Int) {
        let act = actions.base, obs = observations.base, rew = rewards.base, term = terminated.base
        let trunc = truncated.base, scratch = logits.base, chosen = policyActions.base
        let out = VectorStepOutput<E.Events>(observations: obs, rewards: rew, terminated: term, truncated: trunc,
                                             observedSeats: observedSeats)
        let n = env.observationLayout.count
        for _ in 0 ..< ticks {
            if let policy { policy.actions(batch: count, observations: obs, logits: scratch, into: chosen) }
            VectorBenchSlice.randomActions(count: count, seats: seats, actionCount: actionCount,
                                           generators: actionRNG.base, into: act)
            if policy != nil { for i in 0 ..< count { act[i * seats] = chosen[i] } }
            if let seated {
                let rows = seatedRows.base, chosen = seatedActions.base
                // Game i's seat-1 row (read only by an agent that reads rows) is at obs + (2i + 1) n.
                do {
                    try seated.act(AgentRows(count: count, games: rows, observations: obs + n, stride: 2 * n,
                                             actions: chosen))
                } catch { preconditionFailure("a built-in agent never faults: \(error)") }
                for i in 0 ..< count { act[2 * i + 1] = chosen[i] }
            }
            env.step(actions: act, into: out)
            for i in 0 ..< count {
                rewardSum[i] += rew[i * seats]
                episodesDone[i] &+= Int32(term[i] | trunc[i])
            }
            if let seated {
                for i in 0 ..< count where term[i] | trunc[i] != 0 {
                    do {
                        try seated.end(game: i)
                        try seated.start(game: i, seed: Seeds.agent(env.restartStream(i).lastEpisodeSeed ?? 0, seat: 1))
                    } catch { preconditionFailure("a built-in agent never faults: \(error)") }
                }
            }
        }
    }
}
