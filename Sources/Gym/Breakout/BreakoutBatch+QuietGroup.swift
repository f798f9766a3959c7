extension BreakoutBatch {
    // MARK: - Finishing quiet steps of a group together

    /// Finishes the steps of the games `i + g` of the group `i ..< i + 8`
    /// for each bit `g` set in `lanes` (bits 0 ... 7), games whose frames
    /// all ran quietly in lanes (``BreakoutPhysics/quietLanes(_:actions:frames:fields:serveFrames:)``
    /// returned the frame skip for each): what
    /// ``BreakoutPhysics/finishStep(_:events:)`` does with no event — one
    /// more step, one more step without progress — and the outputs of all
    /// eight games written as those games' (reward 0, not terminated, not
    /// truncated, end `.none`, no event), eight at a time: the caller then
    /// steps the games not in `lanes` on their own, each overwriting its
    /// outputs. Returns `false`, changing nothing, when one of the games in
    /// `lanes` would end this step (its step limit or watchdog), or when a
    /// game not in `lanes` has already reached a limit: the caller then
    /// finishes each game on its own.
    ///
    /// Only for games still running (the lanes run no other), so the limits
    /// (``BreakoutPhysics/limitEnd(steps:stepsSinceProgress:)``, the rule
    /// ``BreakoutPhysics/finishStep(_:events:)`` applies) are the only way a
    /// step ends here; the counters wrap as that function's do. Branch-free
    /// over the eight games: a game not in `lanes` adds 0.
    @inline(__always)
    func finishQuietGroup(_ i: Int, lanes: UInt32, rewards: UnsafeMutablePointer<Float>,
                          terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>,
                          ends: UnsafeMutablePointer<UInt8>?, events: UnsafeMutablePointer<BreakoutEvents>?) -> Bool {
        let c = cores + i
        // limitEnd reaches an end at a count iff it does at any larger one
        // (each limit is a threshold), so one of the games in `lanes` ends
        // iff the largest of the eight games' counts (the next ones in
        // `lanes`, counted as the counters wrap) does, unless the largest
        // is a game outside `lanes` that has reached a limit already (then
        // `false` as well).
        var steps = Int32.min, sinceProgress = Int32.min
        for g in 0 ..< 8 {
            let s = c + g
            let add = Int32(bitPattern: lanes &>> UInt32(g) & 1)
            steps = Swift.max(steps, s.pointee.steps &+ add)
            sinceProgress = Swift.max(sinceProgress, s.pointee.stepsSinceProgress &+ add)
        }
        if physics.limitEnd(steps: steps, stepsSinceProgress: sinceProgress) != .none { return false }
        for g in 0 ..< 8 {
            let s = c + g
            let add = Int32(bitPattern: lanes &>> UInt32(g) & 1)
            s.pointee.steps &+= add
            s.pointee.stepsSinceProgress &+= add
        }
        UnsafeMutableRawPointer(rewards + i).storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
        // `.none` is raw value 0: eight zero bytes per flag array.
        UnsafeMutableRawPointer(terminated + i).storeBytes(of: UInt64(0), as: UInt64.self)
        UnsafeMutableRawPointer(truncated + i).storeBytes(of: UInt64(0), as: UInt64.self)
        if let ends { UnsafeMutableRawPointer(ends + i).storeBytes(of: UInt64(0), as: UInt64.self) }
        if let events { (events + i).update(repeating: BreakoutEvents(), count: 8) }
        return true
    }

    /// The lanes of `runs` equal to `skip` as bits 0 ... 7 (lane `g`, bit `g`):
    /// each lane's 0 or 2^g summed in floats (exact).
    @inline(__always)
    static func fullLanes(_ runs: SIMD8<Float>, skip: Float) -> UInt32 {
        let bits = SIMD8<Float>().replacing(with: SIMD8(1, 2, 4, 8, 16, 32, 64, 128), where: runs .== skip)
        return UInt32(BreakoutPhysics.laneSum(bits))
    }
}
