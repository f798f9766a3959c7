/// ``PongBatch``'s eight-lane path for agent steps of several frames
/// (`frameSkip` > 1) or with sticky actions: the frames of ``PongPhysics/step(_:top:bottom:events:)``,
/// in the same order with the same draws, eight games at a time.
///
/// The eight games' positions and velocities stay in registers across the
/// frames of the step ("lanes"). With sticky actions every running game
/// first makes the whole step's draws from its own generator (per frame
/// bottom, then top, as the reference does; see `PongBatch+Sticky`), which
/// give each frame's moves. Then every game whose frame is quiet takes
/// ``quietRun(_:_:allowed:frames:band:flat:_:)`` (the fast path's arithmetic, lane-wise)
/// and only when some game's frame is not quiet do the lanes go back to the
/// columns, for that game's full ``PongPhysics/tick(_:bottom:top:events:)``
/// (a game that reaches `maxScore` stops). After the frames, the step
/// counter and the step limit; games in which anything happened (a full
/// frame, an end) get their outputs from their summed events, the others
/// keep the zeros of a quiet step. The batch tests compare against
/// ``PongGame`` step by step in every frame setting.
extension PongBatch {
    /// One agent step of the running games `i ..< i + 8` (games already
    /// finished take ``fullStep(_:bottom:top:_:_:)``), writing every output
    /// but the observations; the caller has stored a quiet step's outputs
    /// (zeros) for all eight.
    /// - Returns: the frames that took the quiet path, how many of those
    ///   its band and its flat forms, and the game frames whose sticky
    ///   draws were made lane-wise.
    @inline(__always)
    func framesLanes(_ i: Int, bottom: LaneInts, top: LaneInts, _ out: VectorStepOutput<PongEvents>, _ seen: Int,
                     _ p: PongPhysics) -> (quiet: Int, band: Int, flat: Int, laneDraws: Int) {
        let lanes = Lanes.scalarCount
        // The running games, as a mask and as bits (masks from float
        // compares: integer compares on SIMD8 went lane by lane through memory).
        let startedMask = Lane8.floats(Lane8.widen(Lane8.load(end, i))) .== 0
        var allowed = startedMask
        var running = Lane8.bits(allowed)
        if running != 0xFF {
            for j in 0 ..< lanes where running >> UInt8(j) & 1 == 0 {
                fullStep(i + j, bottom: Int(bottom[j]), top: Int(top[j]), out, seen)
            }
            if running == 0 { return (0, 0, 0, 0) }
        }
        var touched: UInt8 = 0
        var quietCount = 0, bandCount = 0, flatCount = 0, laneDrawCount = 0
        let sticky = p.config.stickyActionProbability
        let maxScore = Int32(p.config.maxScore)
        // The state of the eight games (finished ones included: never
        // allowed, so their lanes do not change) and their last actions.
        var s = loadLanes(i)
        var lastB = Lane8.widen(Lane8.load(lastActionBottom, i))
        var lastT = Lane8.widen(Lane8.load(lastActionTop, i))
        let chosen = p.moves(bottom: Lane8.floats(bottom), top: Lane8.floats(top))
        // While every running ball stays in the band no paddle can reach,
        // the quiet test is the walls' alone; after any full frame the
        // exact test again.
        var banded = Self.staysInBand(s, allowed: allowed, frames: p.config.frameSkip, low: bandLow, high: bandHigh)
        // Paddles at their only heights stay there (checked again after
        // any full frame).
        var flat = Self.flatPaddles(s, allowed: allowed, p)
        if sticky == 0 {
            // The same actions every frame: runs of quiet frames with the
            // state in registers, stopping at the first frame with a busy game.
            var remaining = p.config.frameSkip
            while remaining > 0 && running != 0 {
                let (done, quiet) = Self.quietRun(&s, chosen, allowed: allowed, frames: remaining,
                                                  band: banded, flat: flat, p)
                let busy = done == remaining ? 0 : running & ~Lane8.bits(quiet)
                // The quiet frames, with the quiet games of a frame with a
                // busy game (those have moved).
                let taken = done &* running.nonzeroBitCount &+ (busy == 0 ? 0 : running.nonzeroBitCount &- busy.nonzeroBitCount)
                quietCount &+= taken
                if banded { bandCount &+= taken }
                if flat { flatCount &+= taken }
                remaining -= done
                if remaining == 0 { break }
                banded = false
                fullFrames(i, busy: busy, bottom: bottom, top: top, &s, &running, &allowed, &touched, p, maxScore: maxScore)
                flat = Self.flatPaddles(s, allowed: allowed, p)
                remaining -= 1
            }
            lastB = lastB.replacing(with: bottom & 0xFF, where: startedMask)
            lastT = lastT.replacing(with: top & 0xFF, where: startedMask)
        } else {
            // Sticky actions: the step's draws and every frame's moves
            // first (PongBatch+Sticky), then runs of quiet frames as above,
            // each frame with its own moves.
            let frames = p.config.frameSkip
            drawKeeps(i, frames: frames, sticky)
            stickyFrames(i, bottom: bottom, top: top, oldB: lastB, oldT: lastT, frames: frames, p)
            laneDrawCount &+= frames &* running.nonzeroBitCount
            var f = 0
            while f < frames && running != 0 {
                let (done, quiet) = Self.quietRun(&s, FrameMoves(first: frameMoves + f), allowed: allowed,
                                                  frames: frames - f, band: banded, flat: flat, p)
                let remaining = frames - f
                let busy = done == remaining ? 0 : running & ~Lane8.bits(quiet)
                let taken = done &* running.nonzeroBitCount &+ (busy == 0 ? 0 : running.nonzeroBitCount &- busy.nonzeroBitCount)
                quietCount &+= taken
                if banded { bandCount &+= taken }
                if flat { flatCount &+= taken }
                f += done
                if f == frames { break }
                banded = false
                let b = frameActions[2 * f], t = frameActions[2 * f + 1]
                let before = running
                fullFrames(i, busy: busy, bottom: b, top: t, &s, &running, &allowed, &touched, p, maxScore: maxScore)
                // A game that ended drew for the frames it played only,
                // and keeps this frame's actions as its last.
                var ended = before & ~running
                while ended != 0 {
                    let j = ended.trailingZeroBitCount
                    ended &= ended - 1
                    redrawSticky(i + j, frames: f + 1, sticky)
                    lastB[j] = b[j] & 0xFF
                    lastT[j] = t[j] & 0xFF
                }
                flat = Self.flatPaddles(s, allowed: allowed, p)
                f += 1
            }
            storeDrawn(i, played: running)
            // The last frame's actions' bytes (a game that ended has its own).
            lastB = lastB.replacing(with: frameActions[2 * frames - 2] & 0xFF, where: allowed)
            lastT = lastT.replacing(with: frameActions[2 * frames - 1] & 0xFF, where: allowed)
        }
        storePositions(s, i)
        Lane8.store(Lane8.narrow(lastB), lastActionBottom, i)
        Lane8.store(Lane8.narrow(lastT), lastActionTop, i)
        // The step counter and the step limit of every game that ran (the
        // limit compared as floats: exact, a limited episode never counts
        // past maxSteps ≤ 10 000 000 < 2^24).
        let stepsNow = Lane8.load(steps, i)
        let next = stepsNow.replacing(with: stepsNow &+ 1, where: startedMask)
        Lane8.store(next, steps, i)
        let maxSteps = p.config.maxSteps
        if maxSteps > 0 {
            let endsNow = Lane8.floats(Lane8.widen(Lane8.load(end, i)))
            let limited = startedMask .& (endsNow .== 0) .& (Lane8.floats(next) .>= Float(maxSteps))
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
        return (quietCount, bandCount, flatCount, laneDrawCount)
    }

    /// The full frames of the `busy` games among `i ..< i + 8` (bit `j`
    /// for game `i + j`) with this frame's actions, through the columns:
    /// the lanes `s` go back to the columns first and are loaded again
    /// after; a game that ends leaves `running` and `allowed`, and every
    /// busy game is `touched` (its outputs come from its events).
    @inline(__always)
    func fullFrames(_ i: Int, busy: UInt8, bottom: LaneInts, top: LaneInts, _ s: inout LaneState,
                    _ running: inout UInt8, _ allowed: inout LaneMask, _ touched: inout UInt8,
                    _ p: PongPhysics, maxScore: Int32) {
        storePositions(s, i)
        var busy = busy
        while busy != 0 {
            let j = busy.trailingZeroBitCount
            busy &= busy - 1
            if fullFrame(i + j, bottom: Int(bottom[j]), top: Int(top[j]), events: &laneEvents[j], p, maxScore: maxScore) {
                running &= ~(1 << UInt8(j))
                allowed[j] = false
            }
            touched |= 1 << UInt8(j)
        }
        s = loadLanes(i)
    }

    /// Game `i`'s full frame (``PongPhysics/tick(_:bottom:top:events:)``
    /// on its columns), its events added to `events`.
    /// - Returns: whether the game ended (a side reached `maxScore`).
    @inline(never)
    func fullFrame(_ i: Int, bottom: Int, top: Int, events: inout PongEvents, _ p: PongPhysics, maxScore: Int32) -> Bool {
        var s = load(i)
        var over = false
        if p.tick(&s, bottom: bottom, top: top, events: &events) != nil,
           s.scoreBottom >= maxScore || s.scoreTop >= maxScore {
            s.end = .gameOver
            over = true
        }
        store(s, i)
        return over
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
