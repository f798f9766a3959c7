/// One worker's share of a sliced batch: its games and every buffer its
/// ticks touch, allocated once; stepped by exactly one worker at a time.
protocol BatchSlice: AnyObject, Sendable {
    /// Global index of the slice's first game.
    var first: Int { get }
    /// Steps every game of the slice `ticks` times.
    func run(ticks: Int)
}

/// The batch runners' shared design: `environments` games split into
/// `runner.workers` contiguous slices (worker `w` owns games
/// `w·N/W ..< (w+1)·N/W`), and ``run(ticks:)`` makes one dispatch in which
/// every worker steps its own slice for all the ticks: no fork/join per
/// tick, and no state shared between workers.
final class SlicedBatches<Slice: BatchSlice>: @unchecked Sendable {
    let slices: [Slice]
    let runner: ParallelRunner
    let environments: Int

    init(environments: Int, runner: ParallelRunner, make: (_ first: Int, _ count: Int) -> Slice) {
        precondition(environments >= runner.workers, "need at least one game per worker")
        self.environments = environments
        self.runner = runner
        let w = runner.workers
        slices = (0 ..< w).map { k in
            let first = k * environments / w, end = (k + 1) * environments / w
            return make(first, end - first)
        }
    }

    /// One dispatch: worker `w` runs `ticks` ticks on slice `w`, inside
    /// `wrap(w, step)` when given (on the worker's own thread; `wrap` must call
    /// `step` exactly once).
    func run(ticks: Int, wrap: (@Sendable (_ worker: Int, _ step: () -> Void) -> Void)? = nil) {
        let slices = self.slices
        if let wrap {
            runner.forEachWorker { w in wrap(w) { slices[w].run(ticks: ticks) } }
        } else {
            runner.forEachWorker { w in slices[w].run(ticks: ticks) }
        }
    }

    /// The slice holding global game `g`, and `g`'s index in it.
    func locate(_ g: Int) -> (slice: Slice, index: Int) {
        precondition(g >= 0 && g < environments, "game index out of range")
        let k = slices.lastIndex { $0.first <= g } ?? 0
        return (slices[k], g - slices[k].first)
    }
}
