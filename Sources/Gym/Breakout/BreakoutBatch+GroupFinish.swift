extension BreakoutBatch {
    // MARK: - Finishing quiet steps of a group together

    /// Finishes the steps of the games `i + g` of the group `i ..< i + 8`
    /// for each lane `g` set in `lanes`, games whose frames
    /// all ran quietly in lanes (``BreakoutPhysics/quietLanes(_:actions:frames:fields:serveFrames:_:)``
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
    /// Branch-free over the eight games: a game not in `lanes` adds 0.
    @inline(always)
    func finishQuietGroup(_ i: Int, lanes: LaneMask, rewards: UnsafeMutablePointer<Float>,
                          terminated: UnsafeMutablePointer<UInt8>, truncated: UnsafeMutablePointer<UInt8>,
                          ends: UnsafeMutablePointer<UInt8>?, events: UnsafeMutablePointer<BreakoutEvents>?) -> Bool {
        let c = cores + i
        // limitEnd reaches an end at a count iff it does at any larger one
        // (each limit is a threshold), so one of the games in `lanes` ends
        // iff the largest of the eight games' counts (the next ones in
        // `lanes`, counted as the counters wrap) does, unless the largest
        // is a game outside `lanes` that has reached a limit already (then
        // `false` as well). The counters in lanes (a mask lane is all ones
        // where set, so `& 1` is the 1 each game in `lanes` adds).
        let add = unsafeBitCast(lanes, to: SIMD8<Int32>.self) & 1
        let steps = BreakoutPhysics.gatherIntegers(c) { $0.pointee.steps } &+ add
        let sinceProgress = BreakoutPhysics.gatherIntegers(c) { $0.pointee.stepsSinceProgress } &+ add
        if physics.limitEnd(steps: steps.max(), stepsSinceProgress: sinceProgress.max()) != .none {
            return false
        }
        for g in 0 ..< 8 {
            c[g].steps = steps[g]
            c[g].stepsSinceProgress = sinceProgress[g]
        }
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

    /// Writes what ``BreakoutPhysics/quietLanes(_:actions:frames:fields:serveFrames:_:)``
    /// leaves in `fields` for a game (paddle x and half width, ball count,
    /// slot 0's x, y, vx and vy, the push cooldown) into lane `g` of
    /// `fields` from the core of game `i + g`, for each bit `g` set in
    /// `lanes`: after those games stepped on their own, the group's
    /// observation reads the fields as after a step that ran in lanes
    /// (``BreakoutPhysics/observeEight(_:cells:aim:into:stride:scratch:quiet:_:)``).
    /// Returns `false` (some lanes written) when one of them has neither
    /// one ball in play and no serve pending nor no ball and a serve
    /// pending, the cases that observation reads.
    @inline(__always)
    func writeLaneFields(_ i: Int, lanes: UInt32, fields: UnsafeMutablePointer<SIMD8<Float>>) -> Bool {
        let raw = UnsafeMutableRawPointer(fields)
        let lane = MemoryLayout<SIMD8<Float>>.stride
        let cooldown = BreakoutPhysics.laneCooldownField * lane
        var m = lanes
        while m != 0 {
            let g = m.trailingZeroBitCount
            m &= m &- 1
            let s = cores + (i &+ g)
            let pending: Int32 = s.pointee.servePending ? 1 : 0
            guard s.pointee.ballCount &+ pending == 1 else { return false }
            let at = 4 &* g
            raw.storeBytes(of: s.pointee.paddleX, toByteOffset: at, as: Float.self)
            raw.storeBytes(of: s.pointee.paddleHalfWidth, toByteOffset: lane &+ at, as: Float.self)
            raw.storeBytes(of: Float(s.pointee.ballCount), toByteOffset: 2 &* lane &+ at, as: Float.self)
            raw.storeBytes(of: BreakoutPhysics.slot0(&s.pointee.ballX), toByteOffset: 3 &* lane &+ at, as: Float.self)
            raw.storeBytes(of: BreakoutPhysics.slot0(&s.pointee.ballY), toByteOffset: 4 &* lane &+ at, as: Float.self)
            raw.storeBytes(of: BreakoutPhysics.slot0(&s.pointee.ballVX), toByteOffset: 5 &* lane &+ at, as: Float.self)
            raw.storeBytes(of: BreakoutPhysics.slot0(&s.pointee.ballVY), toByteOffset: 6 &* lane &+ at, as: Float.self)
            raw.storeBytes(of: Float(s.pointee.pushCooldown), toByteOffset: cooldown &+ at, as: Float.self)
        }
        return true
    }

    typealias LaneMask = SIMDMask<SIMD8<Int32>>
}
