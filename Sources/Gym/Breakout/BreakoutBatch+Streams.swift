/// Breakout's restart streams as ``VectorEnvironment`` states them ("Seeds").
extension BreakoutBatch {
    /// Restarts game `i`'s stream at `runSeed` and plays its episode 0
    /// (counted as an episode of that game).
    public func reset(_ i: Int, stream runSeed: UInt64) {
        setRestartStream(RestartStream(runSeed: runSeed, next: 0), i)
        nextEpisode(i)
    }

    public func restartStream(_ i: Int) -> RestartStream {
        precondition(i >= 0 && i < count, "game index out of range")
        return restarts.stream(i)
    }

    public func setRestartStream(_ stream: RestartStream, _ i: Int) {
        precondition(i >= 0 && i < count, "game index out of range")
        restarts.set(stream, i)
    }
}
