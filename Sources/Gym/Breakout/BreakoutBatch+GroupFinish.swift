extension BreakoutBatch {
    // MARK: - Finishing quiet steps of a group together

    /// Finishes the steps of the games `i + g` of the group `i ..< i + 8`
    /// for each lane `g` set in `lanes`, games whose frames
    /// all ran quietly in lanes (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``
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
    /// step ends here; the counters wrap as that function's do.
    /// Branch-free over the eight games: a game not in `lanes` adds 0. A
    /// unit of its own, so that it and the step around it compile whole.
    @inline(never)
    func finishQuietGroup(_ i: Int, lanes: LaneMask, rewards: UnsafeMutablePointer<Float>,
                          terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>,
                          ends: UnsafeMutablePointer<UInt8>?, events: UnsafeMutablePointer<BreakoutEvents>?) -> Bool {
        // limitEnd reaches an end at a count iff it does at any larger one
        // (each limit is a threshold), so one of the games in `lanes` ends
        // iff the largest of the eight games' counts (the next ones in
        // `lanes`, counted as the counters wrap) does, unless the largest
        // is a game outside `lanes` that has reached a limit already (then
        // `false` as well). The counters in lanes (a mask lane is all ones
        // where set, so `& 1` is the 1 each game in `lanes` adds).
        let group = columns.group(i)
        let add = unsafeBitCast(lanes, to: SIMD8<Int32>.self) & 1
        let steps = group.pointee.steps &+ add
        let sinceProgress = group.pointee.sinceProgress &+ add
        if physics.limitEnd(steps: Lane8.greatest(steps), stepsSinceProgress: Lane8.greatest(sinceProgress)) != .none {
            return false
        }
        group.pointee.steps = steps
        group.pointee.sinceProgress = sinceProgress
        UnsafeMutableRawPointer(rewards + i).storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
        // `.none` is raw value 0: eight zero bytes per flag array.
        UnsafeMutableRawPointer(terminated + i).storeBytes(of: UInt64(0), as: UInt64.self)
        UnsafeMutableRawPointer(truncated + i).storeBytes(of: UInt64(0), as: UInt64.self)
        if let ends { UnsafeMutableRawPointer(ends + i).storeBytes(of: UInt64(0), as: UInt64.self) }
        if let events { Self.clearEvents(events + i) }
        return true
    }

    /// Sets the eight events at `e` to no event (every field 0, so all
    /// bytes 0): 64 zero bytes per store, then 4 per store for any rest.
    @inline(__always)
    static func clearEvents(_ e: UnsafeMutablePointer<BreakoutEvents>) {
        let bytes = 8 * MemoryLayout<BreakoutEvents>.stride
        let raw = UnsafeMutableRawPointer(e)
        var k = 0
        while k &+ 64 <= bytes {
            raw.storeBytes(of: SIMD16<UInt32>(), toByteOffset: k, as: SIMD16<UInt32>.self)
            k &+= 64
        }
        while k < bytes {
            raw.storeBytes(of: UInt32(0), toByteOffset: k, as: UInt32.self)
            k &+= 4
        }
    }

    typealias LaneMask = SIMDMask<SIMD8<Int32>>
}
