extension BreakoutBatch {
    // MARK: - Finishing eight quiet steps together

    /// Finishes the steps of the eight games `i ..< i + 8` whose frames all
    /// ran quietly in lanes (``BreakoutPhysics/quietLanes(_:actions:frames:fields:)``
    /// returned the frame skip for each): what
    /// ``BreakoutPhysics/finishStep(_:events:)`` does with no event — one
    /// more step, one more step without progress — and their outputs
    /// (reward 0, not terminated, not truncated, end `.none`, no event)
    /// written eight at a time. Returns `false`, changing nothing, when
    /// one of the games would end this step (its step limit or watchdog):
    /// the caller then finishes each game on its own.
    ///
    /// Only for games still running (the lanes run no other), so the limits
    /// (``BreakoutPhysics/limitEnd(steps:stepsSinceProgress:)``, the rule
    /// ``BreakoutPhysics/finishStep(_:events:)`` applies) are the only way a
    /// step ends here; the counters wrap as that function's do.
    @inline(__always)
    func finishQuietGroup(_ i: Int, rewards: UnsafeMutablePointer<Float>, terminated: UnsafeMutablePointer<UInt8>,
                          truncated: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<UInt8>?,
                          events: UnsafeMutablePointer<BreakoutEvents>?) -> Bool {
        let c = cores + i
        // limitEnd reaches an end at a count iff it does at any larger one
        // (each limit is a threshold), so one of the eight games ends iff
        // the largest of their next counts do (counted as the games'
        // counters wrap, before the largest is taken).
        var steps = Int32.min, sinceProgress = Int32.min
        for g in 0 ..< 8 {
            let s = c + g
            steps = Swift.max(steps, s.pointee.steps &+ 1)
            sinceProgress = Swift.max(sinceProgress, s.pointee.stepsSinceProgress &+ 1)
        }
        if physics.limitEnd(steps: steps, stepsSinceProgress: sinceProgress) != .none { return false }
        for g in 0 ..< 8 {
            let s = c + g
            s.pointee.steps &+= 1
            s.pointee.stepsSinceProgress &+= 1
        }
        UnsafeMutableRawPointer(rewards + i).storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
        // `.none` is raw value 0: eight zero bytes per flag array.
        UnsafeMutableRawPointer(terminated + i).storeBytes(of: UInt64(0), as: UInt64.self)
        UnsafeMutableRawPointer(truncated + i).storeBytes(of: UInt64(0), as: UInt64.self)
        if let ends { UnsafeMutableRawPointer(ends + i).storeBytes(of: UInt64(0), as: UInt64.self) }
        if let events { (events + i).update(repeating: BreakoutEvents(), count: 8) }
        return true
    }
}
