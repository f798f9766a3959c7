import Gym

// TEMPORARY: the two batches seen through ``VectorEnvironment`` until they
// conform to it themselves (the vector branch); deleted at that merge.

/// ``PongBatch`` (autoreset off) as a two-seat ``VectorEnvironment``.
public final class LegacyPongVector: VectorEnvironment {
    let batch: PongBatch
    let bottomObs, topObs, rewardColumn: UnsafeMutableBufferPointer<Float>
    let bottomActions, topActions: UnsafeMutableBufferPointer<Int32>

    init(config: PongConfig, count: Int) {
        batch = PongBatch(config: config, count: count, seed: 0, agentSide: .bottom, autoReset: .off)
        let n = PongBatch.observationCount
        bottomObs = .column(count * n, 0); topObs = .column(count * n, 0); rewardColumn = .column(count, 0)
        bottomActions = .column(count, 0); topActions = .column(count, 0)
    }

    deinit {
        bottomObs.deallocate(); topObs.deallocate(); rewardColumn.deallocate()
        bottomActions.deallocate(); topActions.deallocate()
    }

    public func state(_ i: Int) -> PongState { batch.state(i) }
    public var config: PongConfig { batch.config }
    public var count: Int { batch.count }
    public var seats: Int { 2 }
    public var actionCount: Int { batch.actionCount }
    public var observationLayout: ObservationLayout {
        let n = PongBatch.observationCount
        return ObservationLayout(count: n, version: PongGame.observationLayoutVersion,
                                 lower: [Float](repeating: -.infinity, count: n),
                                 upper: [Float](repeating: .infinity, count: n))
    }
    public var autoresetMode: AutoresetMode { .disabled }

    public func reset(_ i: Int, seed: UInt64) { batch.reset(i, seed: seed) }

    public func reset(mask: UnsafePointer<UInt8>, seeds: UnsafePointer<UInt64>?) {
        for i in 0 ..< count where mask[i] != 0 { batch.reset(i, seed: seeds?[i] ?? 0) }
    }

    public func observe(into out: UnsafeMutablePointer<Float>) {
        guard let b = bottomObs.baseAddress, let t = topObs.baseAddress else { return }
        batch.observe(.bottom, into: b)
        batch.observe(.top, into: t)
        interleave(out)
    }

    private func interleave(_ out: UnsafeMutablePointer<Float>) {
        guard let b = bottomObs.baseAddress, let t = topObs.baseAddress else { return }
        let n = PongBatch.observationCount
        for i in 0 ..< count {
            (out + 2 * i * n).update(from: b + i * n, count: n)
            (out + (2 * i + 1) * n).update(from: t + i * n, count: n)
        }
    }

    public func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<PongEvents>) {
        guard let b = bottomObs.baseAddress, let t = topObs.baseAddress, let r = rewardColumn.baseAddress,
              let ba = bottomActions.baseAddress, let ta = topActions.baseAddress else { return }
        for i in 0 ..< count { ba[i] = actions[2 * i]; ta[i] = actions[2 * i + 1] }
        batch.step(agent: ba, opponent: ta, into: PongBatchOutput(
            observations: b, opponentObservations: t, rewards: r, terminated: out.terminated,
            truncated: out.truncated, ends: out.ends, events: out.events))
        for i in 0 ..< count { out.rewards[2 * i] = r[i]; out.rewards[2 * i + 1] = -r[i] }
        if let o = out.observations { interleave(o) }
    }

    public func snapshot(_ i: Int) -> PongGame.SavedGame { batch.snapshot(i) }
    public func restore(_ snapshot: PongGame.SavedGame, into i: Int) throws(SnapshotError) {
        try batch.restore(snapshot, into: i)
    }
    public func render(_ i: Int, into frame: inout GrayFrame) {
        PongGame(restoring: batch.snapshot(i)).render(into: &frame)
    }
}

/// ``BreakoutBatch`` (autoreset off) as a one-seat ``VectorEnvironment``.
public final class LegacyBreakoutVector: VectorEnvironment {
    let batch: BreakoutBatch

    init(config: BreakoutConfig, count: Int) {
        batch = BreakoutBatch(config: config, count: count, seed: 0, autoReset: .off)
    }

    public func state(_ i: Int) -> BreakoutState { batch.state(i) }
    public var config: BreakoutConfig { batch.config }
    public var count: Int { batch.count }
    public var seats: Int { 1 }
    public var actionCount: Int { batch.actionCount }
    public var observationLayout: ObservationLayout {
        let n = batch.observationCount
        return ObservationLayout(count: n, version: BreakoutGame.observationLayoutVersion,
                                 lower: [Float](repeating: -.infinity, count: n),
                                 upper: [Float](repeating: .infinity, count: n))
    }
    public var autoresetMode: AutoresetMode { .disabled }

    public func reset(_ i: Int, seed: UInt64) { batch.reset(i, seed: seed) }

    public func reset(mask: UnsafePointer<UInt8>, seeds: UnsafePointer<UInt64>?) {
        for i in 0 ..< count where mask[i] != 0 { batch.reset(i, seed: seeds?[i] ?? 0) }
    }

    public func observe(into out: UnsafeMutablePointer<Float>) { batch.observe(into: out) }

    public func step(actions: UnsafePointer<Int32>, into out: VectorStepOutput<BreakoutEvents>) {
        batch.step(actions: actions, into: BreakoutBatchOutput(
            observations: out.observations, rewards: out.rewards, terminated: out.terminated,
            truncated: out.truncated, ends: out.ends, events: out.events))
    }

    public func snapshot(_ i: Int) -> BreakoutGame.SavedGame { batch.snapshot(i) }
    public func restore(_ snapshot: BreakoutGame.SavedGame, into i: Int) throws(SnapshotError) {
        try batch.restore(snapshot, into: i)
    }
    public func render(_ i: Int, into frame: inout GrayFrame) {
        if let game = try? BreakoutGame(restoring: batch.snapshot(i)) { game.render(into: &frame) }
    }
}
