/// ``PongBatch``'s eight-lane path for agent steps of several frames
/// (`frameSkip` > 1) or with sticky actions: the frames of ``PongPhysics/step(_:top:bottom:events:)``
/// in the same order with the same draws, the eight games' positions and
/// velocities in registers across the frames of the step, going back to
/// the columns only for a game's full frame. The batch tests compare
/// against ``PongGame`` step by step in every frame setting.
extension PongBatch {
    /// One agent step of the games `i ..< i + 8` (games already finished
    /// take ``fullStep(_:bottom:top:_:_:)``), writing every output but the
    /// observations; the caller has stored a quiet step's outputs (zeros)
    /// for all eight.
    @inline(__always)
    func framesLanes<K: PongRuleValues>(_ i: Int, bottom: LaneInts, top: LaneInts, _ out: VectorStepOutput<PongEvents>,
                                        _ seen: Int, _ counts: inout PathFrames, _ p: PongPhysics, _ k: K) where K.L == Lanes {
        // The running games, as a mask and as bits.
        let started = Lane8.floats(Lane8.widen(Lane8.load(end, i))) .== 0
        let startedBits = Lane8.bits(started)
        if startedBits != 0xFF {
            Lane8.forEachLane(in: ~startedBits) { j in fullStep(i + j, bottom: Int(bottom[j]), top: Int(top[j]), out, seen) }
            if startedBits == 0 { return }
        }
        let sticky = p.config.stickyActionProbability
        let touched: UInt8
        if sticky == 0 {
            let same = SameActions(bottom: bottom, top: top, moves: p.moves(bottom: Lane8.floats(bottom), top: Lane8.floats(top), k))
            touched = runFrames(i, same, started: started, &counts, p, k)
        } else {
            let frames = p.config.frameSkip
            drawActions(i, bottom: bottom, top: top, frames: frames, sticky, p, k)
            counts.laneDraws &+= frames &* startedBits.nonzeroBitCount
            touched = runFrames(i, DrawnActions(actions: frameActions.base, moves: frameMoves.base), started: started, &counts, p, k)
        }
        // The step counter and the step limit of every game that ran.
        let stepsNow = Lane8.load(steps, i)
        let next = stepsNow.replacing(with: stepsNow &+ 1, where: started)
        Lane8.store(next, steps, i)
        let endsNow = Lane8.floats(Lane8.widen(Lane8.load(end, i)))
        let limited = started .& (endsNow .== 0) .& p.reachesStepLimit(Lane8.floats(next))
        let limitedBits = Lane8.bits(limited)
        Lane8.forEachLane(in: limitedBits) { j in end[i + j] = EpisodeEnd.stepLimit.rawValue }
        Lane8.forEachLane(in: touched | limitedBits) { j in
            finishStep(i + j, events: laneEvents[j], out, seen)
            laneEvents[j] = PongEvents()
        }
    }

    /// The frames of a step of the `started` games among `i ..< i + 8`:
    /// runs of quiet frames with the state in registers, stopping at the
    /// first frame with a busy game, whose full frames run through the
    /// columns. Stores the positions, the last actions and (with sticky
    /// actions) the generators.
    /// - Returns: the games in which anything happened (bit `j` for game `i + j`).
    @inline(__always)
    func runFrames<A: FrameActions, K: PongRuleValues>(_ i: Int, _ a: A, started: LaneMask, _ counts: inout PathFrames,
                                                       _ p: PongPhysics, _ k: K) -> UInt8 where K.L == Lanes {
        let frames = p.config.frameSkip
        var allowed = started
        var running = Lane8.bits(started)
        var touched: UInt8 = 0
        // The state of the eight games (finished ones included: never
        // allowed, so their lanes do not change) and their last actions.
        var s = loadLanes(i)
        var lastB = Lane8.widen(Lane8.load(lastActionBottom, i))
        var lastT = Lane8.widen(Lane8.load(lastActionTop, i))
        // While every running ball stays in the band no paddle can reach,
        // the quiet test is the walls' alone; after any full frame the
        // exact test again. Paddles at their only heights stay there
        // (checked again after any full frame).
        var banded = p.staysInBand(s, allowed: allowed, frames: frames, band: band)
        var flat = p.flatPaddles(s, allowed: allowed)
        var f = 0
        while f < frames && running != 0 {
            let (done, quiet) = Self.quietRun(&s, a, from: f, allowed: allowed, frames: frames - f,
                                              band: banded, flat: flat, p, k)
            // The quiet frames, with the quiet games of a frame with a busy
            // game (those have moved).
            let busy = done == frames - f ? 0 : running & ~Lane8.bits(quiet)
            counts.addQuiet(done &* running.nonzeroBitCount &+ (busy == 0 ? 0 : running.nonzeroBitCount &- busy.nonzeroBitCount),
                            band: banded, flat: flat)
            f += done
            if f == frames { break }
            banded = false
            let (b, t) = a.actions(f)
            // The busy games' full frames through the columns; a game that
            // ends stops (and its draws with it) and keeps this frame's
            // actions as its last.
            storePositions(s, i)
            Lane8.forEachLane(in: busy) { j in
                if fullFrame(i + j, bottom: Int(b[j]), top: Int(t[j]), events: &laneEvents[j]) {
                    running &= ~(1 << UInt8(j))
                    allowed[j] = false
                    lastB[j] = b[j] & 0xFF
                    lastT[j] = t[j] & 0xFF
                    if A.drawn { redrawSticky(i + j, frames: f + 1, p.config.stickyActionProbability) }
                }
            }
            touched |= busy
            s = loadLanes(i)
            flat = p.flatPaddles(s, allowed: allowed)
            f += 1
        }
        if A.drawn { storeDrawn(i, played: running) }
        storePositions(s, i)
        // The last frame's actions' bytes (a game that ended has its own).
        let (b, t) = a.actions(frames - 1)
        Lane8.store(Lane8.narrow(lastB.replacing(with: b & 0xFF, where: allowed)), lastActionBottom, i)
        Lane8.store(Lane8.narrow(lastT.replacing(with: t & 0xFF, where: allowed)), lastActionTop, i)
        return touched
    }

    /// Game `i`'s full frame (``PongPhysics/playFrame(_:bottom:top:events:)``
    /// under its rules on its columns), its events added to `events`.
    /// - Returns: whether the game ended.
    @inline(never)
    func fullFrame(_ i: Int, bottom: Int, top: Int, events: inout PongEvents) -> Bool {
        var s = load(i)
        let over = physics(i).playFrame(&s, bottom: bottom, top: top, events: &events)
        store(s, i)
        return over
    }
}

/// Each frame's actions and paddle moves of a step of eight games.
protocol FrameActions {
    /// Whether the actions come from sticky draws (``PongBatch/drawActions(_:bottom:top:frames:_:_:_:)``).
    static var drawn: Bool { get }
    /// Frame `f`'s actions (bottom and top seats).
    func actions(_ f: Int) -> (bottom: PongBatch.LaneInts, top: PongBatch.LaneInts)
    /// Frame `f`'s paddle moves.
    func moves(_ f: Int) -> PongBatch.LaneMoves
}

extension PongBatch {
    /// The chosen actions in every frame (no sticky actions).
    struct SameActions: FrameActions {
        let bottom, top: LaneInts
        let moves: LaneMoves
        static var drawn: Bool { false }
        @inline(__always) func actions(_: Int) -> (bottom: LaneInts, top: LaneInts) { (bottom, top) }
        @inline(__always) func moves(_: Int) -> LaneMoves { moves }
    }

    /// Each frame's actions and moves from a sticky step's draws
    /// (``frameActions``, ``frameMoves``).
    struct DrawnActions: FrameActions {
        let actions: UnsafePointer<LaneInts>
        let moves: UnsafePointer<LaneMoves>
        static var drawn: Bool { true }
        @inline(__always) func actions(_ f: Int) -> (bottom: LaneInts, top: LaneInts) { (actions[2 * f], actions[2 * f + 1]) }
        @inline(__always) func moves(_ f: Int) -> LaneMoves { moves[f] }
    }
}
