/// The slot books of ``SlotWork`` whose every job is one episode (matches,
/// REINFORCE): the job each slot holds, and whether its episode is still to
/// start.
struct OneEpisodeJobs {
    /// Per slot: the job it holds (-1 before its first).
    private(set) var job: [Int]
    private var pending: [Bool]

    init(slots: Int) {
        job = [Int](repeating: -1, count: slots)
        pending = [Bool](repeating: false, count: slots)
    }

    /// Slot `i` takes `job` (its one episode is still to start).
    mutating func take(_ job: Int, slot i: Int) {
        self.job[i] = job
        pending[i] = true
    }

    /// Slot `i`'s job when its episode has yet to start (and marks it
    /// started); nil when the job is done.
    mutating func start(slot i: Int) -> Int? {
        guard pending[i] else { return nil }
        pending[i] = false
        return job[i]
    }
}
