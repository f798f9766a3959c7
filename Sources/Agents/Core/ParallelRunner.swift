import Dispatch
import Foundation
import Gym

/// The one parallel runner: spreads indexed jobs (episodes, population
/// members, environment slices) over Dispatch workers.
///
/// Each worker builds its own state (environments, agents, scratch buffers)
/// once and then takes the indices `w, w + W, w + 2W, …`; every result is
/// written into the slot of its index. So the output depends only on the
/// jobs, never on the number of workers or on timing. Reductions over the
/// results are the caller's, in index order.
public struct ParallelRunner: Sendable {
    /// Number of workers (threads); at least 1.
    public let workers: Int

    public init(workers: Int) {
        precondition(workers >= 1, "workers must be at least 1")
        self.workers = workers
    }

    /// Workers matching the machine's active cores.
    public static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs `body(w)` once for every worker `w` in `0 ..< workers`, all at
    /// once, and returns when all are done: one dispatch. Long-lived work
    /// (a slice of environments stepped for many ticks) goes in one call; the
    /// caller keeps per-worker state between calls, each worker touching
    /// only its own.
    public func forEachWorker(_ body: @Sendable (Int) -> Void) {
        if workers == 1 {
            body(0)
        } else {
            // concurrentPerform from a global queue used every core more
            // reliably than from a CLI's main thread.
            DispatchQueue.global(qos: .userInitiated).sync {
                DispatchQueue.concurrentPerform(iterations: workers) { body($0) }
            }
        }
    }

    /// Runs `body(w, jobs)` on every worker `w` that has jobs among
    /// `0 ..< count` (at most `count` workers): worker `w` of `W` takes the
    /// jobs `w, w + W, w + 2W, …` (a fixed assignment, no work stealing), so
    /// which worker runs a job never depends on timing. One dispatch.
    public func forEachWorker(jobs count: Int, _ body: @Sendable (_ worker: Int, _ jobs: WorkerJobs) -> Void) {
        guard count > 0 else { return }
        let w = min(workers, count)
        ParallelRunner(workers: w).forEachWorker { worker in
            body(worker, WorkerJobs(worker: worker, workers: w, count: count))
        }
    }

    /// Runs `count` jobs and returns their results by index.
    /// - Parameters:
    ///   - makeWorker: builds one worker's private state (called once per worker, on that worker).
    ///   - job: runs job `index` with the worker's state.
    ///   - progress: called after each finished job, from worker threads.
    public func map<Result, WorkerState>(
        count: Int,
        makeWorker: @Sendable (Int) -> WorkerState,
        job: @Sendable (inout WorkerState, Int) -> Result,
        progress: (@Sendable () -> Void)? = nil
    ) -> [Result] {
        guard count > 0 else { return [] }
        let slots = UnsafeMutableBufferPointer<Result>.allocate(capacity: count)
        defer { slots.deallocate() }
        let shared = SlotPointer(base: slots.baseAddress)
        forEachWorker(jobs: count) { worker, jobs in
            var state = makeWorker(worker)
            for index in jobs {
                let value = job(&state, index)
                guard let base = shared.base else { return }
                (base + index).initialize(to: value)
                progress?()
            }
        }
        let results = Array(slots)
        (slots.baseAddress)?.deinitialize(count: count)
        return results
    }
}

/// The jobs one worker takes (see ``ParallelRunner/forEachWorker(jobs:_:)``):
/// `worker, worker + workers, …` below `total`, in that order.
public struct WorkerJobs: Sequence, Sendable {
    public let worker: Int
    public let workers: Int
    public let total: Int

    init(worker: Int, workers: Int, count: Int) {
        self.worker = worker; self.workers = workers; total = count
    }

    /// How many jobs this worker takes.
    public var count: Int { Swift.max(0, (total - worker + workers - 1) / workers) }

    public func makeIterator() -> StrideTo<Int>.Iterator {
        stride(from: worker, to: total, by: workers).makeIterator()
    }
}

/// A raw pointer handed to workers, each writing only its own slots.
struct SlotPointer<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>?
}
