/// ``PongBatch``'s eight-lane path for agent steps of several frames
/// (`frameSkip` > 1) or with sticky actions: the frames of ``PongPhysics/step(_:top:bottom:events:)``,
/// in the same order with the same draws, eight games at a time.
///
/// Per frame, each running game first draws its sticky actions from its own
/// generator (bottom, then top, as the reference does), then every game
/// whose frame is quiet takes ``quietFrame(_:bottom:top:allowed:_:)`` (the
/// fast path's arithmetic, lane-wise) and every other game its full
/// ``PongPhysics/tick(_:bottom:top:events:fastPath:)``; a game that
/// reaches `maxScore` stops. After the frames, the step counter and the
/// step limit; games in which anything happened (a full frame, an end) get
/// their outputs from their summed events, the others keep the zeros of a
/// quiet step. The batch tests compare against ``PongGame`` step by step in
/// every frame setting.
extension PongBatch {
    /// One agent step of the running games `i ..< i + 8` (games already
    /// finished take ``fullStep(_:bottom:top:_:_:)``), writing every output
    /// but the observations; the caller has stored a quiet step's outputs
    /// (zeros) for all eight.
    /// - Returns: the frames that took the quiet path.
    @inline(__always)
    func framesLanes(_ i: Int, bottom: LaneInts, top: LaneInts, _ out: VectorStepOutput<PongEvents>, _ seen: Int,
                     _ p: PongPhysics) -> Int {
        let lanes = Lanes.scalarCount
        let ends = UnsafeRawPointer(end + i).loadUnaligned(as: LaneBytes.self)
        // The running games, as a mask and as bits (masks from float
        // compares: integer compares on SIMD8 went lane by lane through memory).
        let startedMask = Lanes(LaneInts(truncatingIfNeeded: ends)) .== 0
        var allowed = startedMask
        var running = Self.bits(allowed)
        if running != 0xFF {
            for j in 0 ..< lanes where running >> UInt8(j) & 1 == 0 {
                fullStep(i + j, bottom: Int(bottom[j]), top: Int(top[j]), out, seen)
            }
        }
        var touched: UInt8 = 0
        var quietCount = 0
        let sticky = p.config.stickyActionProbability
        let maxScore = Int32(p.config.maxScore)
        for _ in 0 ..< p.config.frameSkip {
            if running == 0 { break }
            var b = bottom, t = top
            if sticky > 0 {
                // Each running game's two draws, bottom then top (as the
                // reference draws them), without branches on their outcome.
                var keepB: UInt8 = 0, keepT: UInt8 = 0
                for j in 0 ..< lanes where running >> UInt8(j) & 1 != 0 {
                    keepB |= (stickyRNG[i + j].chance(sticky) ? 1 : 0) << UInt8(j)
                    keepT |= (stickyRNG[i + j].chance(sticky) ? 1 : 0) << UInt8(j)
                }
                let lastB = LaneInts(truncatingIfNeeded: UnsafeRawPointer(lastActionBottom + i).loadUnaligned(as: LaneBytes.self))
                let lastT = LaneInts(truncatingIfNeeded: UnsafeRawPointer(lastActionTop + i).loadUnaligned(as: LaneBytes.self))
                b = b.replacing(with: lastB, where: Self.mask(keepB))
                t = t.replacing(with: lastT, where: Self.mask(keepT))
            }
            // The frame's actions become the last actions of the running games.
            for j in 0 ..< lanes where running == 0xFF || running >> UInt8(j) & 1 != 0 {
                lastActionBottom[i + j] = UInt8(truncatingIfNeeded: b[j])
                lastActionTop[i + j] = UInt8(truncatingIfNeeded: t[j])
            }
            var busy = running & ~Self.bits(quietFrame(i, bottom: b, top: t, allowed: allowed, p))
            quietCount &+= running.nonzeroBitCount &- busy.nonzeroBitCount
            while busy != 0 {
                let j = busy.trailingZeroBitCount
                busy &= busy - 1
                var s = load(i + j)
                if p.tick(&s, bottom: Int(b[j]), top: Int(t[j]), events: &laneEvents[j]) != nil,
                   s.scoreBottom >= maxScore || s.scoreTop >= maxScore {
                    s.end = .gameOver
                    running &= ~(1 << UInt8(j))
                    allowed[j] = false
                }
                store(s, i + j)
                touched |= 1 << UInt8(j)
            }
        }
        // The step counter and the step limit of every game that ran (the
        // limit compared as floats: exact, a limited episode never counts
        // past maxSteps ≤ 10 000 000 < 2^24).
        let stepsNow = UnsafeRawPointer(steps + i).loadUnaligned(as: LaneInts.self)
        let next = stepsNow.replacing(with: stepsNow &+ 1, where: startedMask)
        UnsafeMutableRawPointer(steps + i).storeBytes(of: next, as: LaneInts.self)
        let maxSteps = p.config.maxSteps
        if maxSteps > 0 {
            let endsNow = Lanes(LaneInts(truncatingIfNeeded: UnsafeRawPointer(end + i).loadUnaligned(as: LaneBytes.self)))
            let limited = startedMask .& (endsNow .== 0) .& (Lanes(next) .>= Float(maxSteps))
            if any(limited) {
                for j in 0 ..< lanes where limited[j] {
                    end[i + j] = EpisodeEnd.stepLimit.rawValue
                    touched |= 1 << UInt8(j)
                }
            }
        }
        while touched != 0 {
            let j = touched.trailingZeroBitCount
            touched &= touched - 1
            finishStep(i + j, events: laneEvents[j], out, seen)
            laneEvents[j] = PongEvents()
        }
        return quietCount
    }

    /// The outputs of game `i`'s step from its summed events and its end
    /// (as ``PongPhysics/step(_:top:bottom:events:)`` returns them), then a
    /// same-step restart if it ended.
    @inline(never)
    func finishStep(_ i: Int, events: PongEvents, _ out: VectorStepOutput<PongEvents>, _ seen: Int) {
        let e = Self.episodeEnd(end[i])
        out.rewards[2 * i] = Float(events.pointsBottom - events.pointsTop)
        out.rewards[2 * i + 1] = Float(events.pointsTop - events.pointsBottom)
        out.terminated[i] = e == .gameOver ? 1 : 0
        out.truncated[i] = e == .stepLimit ? 1 : 0
        if let o = out.ends { o[i] = e.rawValue }
        if let o = out.events { o[i] = events }
        if e != .none, autoresetMode == .sameStep {
            if let f = out.finalObservations { writeObservations(i, into: f, seats: seen, physics) }
            store(nextEpisode(i), i)
        }
    }
}
