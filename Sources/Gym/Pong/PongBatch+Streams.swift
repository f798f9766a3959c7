/// Pong's restart streams as ``VectorEnvironment`` states them ("Seeds").
extension PongBatch {
    /// Restarts game `i`'s stream at `runSeed` and plays its episode 0
    /// (counted as an episode of that game) under the batch's config.
    public func reset(_ i: Int, stream runSeed: UInt64) {
        ruleTable.set(config, i)
        restarts.set(RestartStream(runSeed: runSeed, next: 0), i)
        store(nextEpisode(i), i)
    }

    public func restartStream(_ i: Int) -> RestartStream { restarts.stream(i) }
    public func setRestartStream(_ stream: RestartStream, _ i: Int) { restarts.set(stream, i) }
}
