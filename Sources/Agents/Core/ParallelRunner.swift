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
            // reliably than from a CLI's main thread (PLATFORM.md).
            DispatchQueue.global(qos: .userInitiated).sync {
                DispatchQueue.concurrentPerform(iterations: workers) { body($0) }
            }
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
        let w = min(workers, count)
        let slots = UnsafeMutableBufferPointer<Result>.allocate(capacity: count)
        defer { slots.deallocate() }
        let shared = SlotPointer(base: slots.baseAddress)
        @Sendable func work(_ worker: Int) {
            var state = makeWorker(worker)
            var index = worker
            while index < count {
                let value = job(&state, index)
                guard let base = shared.base else { return }
                (base + index).initialize(to: value)
                progress?()
                index += w
            }
        }
        ParallelRunner(workers: w).forEachWorker(work)
        let results = Array(slots)
        (slots.baseAddress)?.deinitialize(count: count)
        return results
    }
}

/// A raw pointer handed to workers, each writing only its own slots.
struct SlotPointer<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>?
}
