import Synchronization

/// One chunk of a sliced batch: its games and every buffer its ticks touch,
/// allocated once; stepped by exactly one worker at a time.
protocol BatchSlice: AnyObject, Sendable {
    /// Steps every game of the chunk `ticks` times.
    func run(ticks: Int)
    /// Game `i` of the chunk: its summed reward and the episodes it finished.
    func totals(_ i: Int) -> (reward: Double, episodes: Int)
}

/// The batched bench's design (``VectorBench``): `environments` games cut
/// into chunks of a fixed size (the last one holds the rest),
/// each chunk a batch with its own buffers. ``run(ticks:wrap:)`` is one
/// dispatch: every worker takes the next chunk not yet taken, steps it for
/// all the ticks, and takes another until none is left. No fork/join per
/// tick, no state shared between workers but the counter they take chunks
/// from.
///
/// Why chunks of a fixed size rather than one slice per worker:
/// - **Identical results for any worker count.** A chunk's games, buffers
///   and policy calls are the same whoever steps it, even where a result
///   depends on the batch it was computed in (sgemm's last bits at ≥ 32
///   inputs depend on the batch size and row; see ``LinearPolicy``).
/// - **Balance.** A worker slowed by the machine (the other vCPU's load,
///   the hypervisor) takes fewer chunks instead of keeping the other worker
///   waiting at the join.
/// - **Cache.** A chunk's columns (64 Pong games: about 10 KB) stay in the
///   core's caches for all the ticks of a dispatch.
final class SlicedBatches<Slice: BatchSlice>: @unchecked Sendable {
    let slices: [Slice]
    let workers: Int
    let environments: Int
    let chunk: Int
    /// Ticks run so far (each tick is one step of every game).
    private(set) var ticks = 0
    /// The next chunk to take in the current dispatch.
    private let next = Atomic<Int>(0)

    init(environments: Int, chunk: Int, runner: ParallelRunner,
         make: (_ first: Int, _ count: Int) -> Slice) {
        precondition(environments >= 1, "need at least one game")
        precondition(chunk >= 1, "chunks need at least one game")
        self.environments = environments
        workers = runner.workers
        self.chunk = chunk
        slices = stride(from: 0, to: environments, by: chunk).map { first in
            make(first, min(chunk, environments - first))
        }
    }

    /// One dispatch: every worker takes chunks until all are taken and
    /// steps each `ticks` times; worker `w`'s share runs inside
    /// `wrap(w, step)` when given (on the worker's own thread; `wrap` must
    /// call `step` exactly once).
    func run(ticks: Int, wrap: (@Sendable (_ worker: Int, _ step: () -> Void) -> Void)? = nil) {
        self.ticks += ticks
        next.store(0, ordering: .relaxed)
        @Sendable func take() {
            while true {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < slices.count else { return }
                slices[k].run(ticks: ticks)
            }
        }
        // Every worker that can get a chunk takes part; which chunks it takes
        // is first come, first served (the chunks' results do not depend on it).
        ParallelRunner(workers: workers).forEachWorker(jobs: slices.count) { w, _ in
            if let wrap { wrap(w, take) } else { take() }
        }
    }

    /// The chunk holding global game `g`, and `g`'s index in it.
    func locate(_ g: Int) -> (slice: Slice, index: Int) {
        precondition(g >= 0 && g < environments, "game index out of range")
        return (slices[g / chunk], g % chunk)
    }

    /// Game `g`'s summed reward and finished episodes.
    func totals(_ g: Int) -> (reward: Double, episodes: Int) {
        let (slice, i) = locate(g)
        return slice.totals(i)
    }
}
