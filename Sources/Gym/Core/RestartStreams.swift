/// The restart streams of a batch's games (see ``VectorEnvironment``,
/// "Seeds"), one column each for the run seed and the index of the next
/// restart. Owned by the batch (it frees the columns); the batches'
/// contract members over the streams go through it.
struct RestartStreams: ~Copyable {
    let count: Int
    let runSeed, next: UnsafeMutablePointer<UInt64>

    /// Game `i`'s stream is `Seeds.stream(batchSeed, firstIndex + i)`, at
    /// its episode 0.
    init(count: Int, batchSeed: UInt64, firstIndex: Int) {
        self.count = count
        runSeed = .allocate(capacity: count)
        next = .allocate(capacity: count)
        next.initialize(repeating: 0, count: count)
        for i in 0 ..< count {
            runSeed.advanced(by: i).initialize(to: Seeds.stream(batchSeed, UInt64(truncatingIfNeeded: firstIndex + i)))
        }
    }

    deinit { runSeed.deallocate(); next.deallocate() }

    /// The next seed of game `i`'s stream (advancing it).
    @inline(__always)
    func draw(_ i: Int) -> UInt64 {
        let k = next[i]
        next[i] = k &+ 1
        return Seeds.episode(runSeed: runSeed[i], index: Int(truncatingIfNeeded: k))
    }

    /// After an explicit reset of game `i` with `seed`: its later restarts
    /// draw from `seed`'s restart sub-stream.
    func follow(_ i: Int, resetSeed seed: UInt64) {
        set(RestartStream(runSeed: Seeds.stream(seed, Seeds.restartStream), next: 0), i)
    }

    /// Game `i`'s stream (`i` in 0 ..< count, checked: a contract member).
    func stream(_ i: Int) -> RestartStream {
        precondition(i >= 0 && i < count, "game index out of range")
        return RestartStream(runSeed: runSeed[i], next: next[i])
    }

    /// Sets game `i`'s stream (`i` in 0 ..< count, checked: a contract member).
    func set(_ stream: RestartStream, _ i: Int) {
        precondition(i >= 0 && i < count, "game index out of range")
        runSeed[i] = stream.runSeed
        next[i] = stream.next
    }
}
