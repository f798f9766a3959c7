/// The quiet-frame path of ``PongBatch`` over eight games at once.
///
/// Each frame is ``PongPhysics``'s kernel (PongKernels.swift: moves, the
/// quiet test and motion) in eight lanes, bit for bit the one-game kernel
/// that ``PongPhysics/tick(_:bottom:top:events:)`` runs (see ``LaneFloat``);
/// this file holds the runs of quiet frames and the choice of the test's
/// form. The batch tests compare against ``PongGame`` step by step.
extension PongBatch {
    typealias Lanes = Lane8.Floats
    typealias LaneInts = Lane8.Ints
    typealias LaneMask = Lane8.Mask
    /// Eight games' moving state, one lane per game: what a quiet frame
    /// reads and changes (the speed level, scores and generators stay in
    /// the columns).
    typealias LaneState = PongFrame<Lanes>
    /// Eight games' paddle moves of one frame.
    typealias LaneMoves = PongMoves<Lanes>
    /// Eight games' rule values.
    typealias RuleLanes = PongRuleLanes<Lanes>

    /// Each game's rule values loaded from the batch's rule columns (``GameRuleColumns``).
    typealias GameRules = GameRuleColumns<RuleLanes>

    /// Games `i ..< i + 8`'s moving state from the columns.
    @inline(__always)
    func loadLanes(_ i: Int) -> LaneState {
        LaneState(x: Lane8.load(ballX, i), y: Lane8.load(ballY, i), vx: Lane8.load(ballVX, i), vy: Lane8.load(ballVY, i),
                  bx: Lane8.load(bottomX, i), by: Lane8.load(bottomY, i), tx: Lane8.load(topX, i), ty: Lane8.load(topY, i))
    }

    /// Writes the positions of `s` (what a quiet frame changes) to games
    /// `i ..< i + 8`'s columns.
    @inline(__always)
    func storePositions(_ s: LaneState, _ i: Int) {
        Lane8.store(s.x, ballX, i); Lane8.store(s.y, ballY, i)
        Lane8.store(s.bx, bottomX, i); Lane8.store(s.by, bottomY, i)
        Lane8.store(s.tx, topX, i); Lane8.store(s.ty, topY, i)
    }

    /// Steps the games `i ..< i + 8` whose one-frame step is quiet (running,
    /// under the step limit, and a quiet frame: ``PongPhysics/quietFrame(_:_:_:_:)``)
    /// and leaves the others unchanged.
    /// - Returns: a bit per lane (bit `j` for game `i + j`) that was not
    ///   quiet and still needs its full step.
    @inline(__always)
    func quietLanes<K: PongRuleValues>(_ i: Int, bottom: LaneInts, top: LaneInts, _ counts: inout PathFrames,
                                       _ p: PongPhysics, _ k: K) -> UInt8 where K.L == Lanes {
        let stepsNow = Lane8.load(steps, i)
        let next = stepsNow &+ 1
        // A finished game (only without same-step autoreset: an idle slot's,
        // or one waiting for its next-step restart) takes the full path and
        // keeps its state; its neighbours stay here.
        let running = Lane8.anySet(end.base, i) ? Lane8.widen(Lane8.load(end, i)) .== 0 : Lane8.Mask(repeating: true)
        let underLimit = .!p.reachesStepLimit(Lane8.floats(next)) .& running

        var s = loadLanes(i)
        let m = SameActions(bottom: bottom, top: top, moves: p.moves(bottom: Lane8.floats(bottom), top: Lane8.floats(top), k))
        let banded = p.staysInBand(s, allowed: underLimit, frames: 1, band: band)
        let flat = p.flatPaddles(s, allowed: underLimit)
        let quiet = Self.quietRun(&s, m, from: 0, allowed: underLimit, frames: 1, band: banded, flat: flat, p, k).quiet
        counts.addQuiet(Lane8.bits(quiet).nonzeroBitCount, band: banded, flat: flat)
        storePositions(s, i)
        Lane8.store(stepsNow.replacing(with: next, where: quiet), steps, i)
        // Every running lane's last actions: the full step of a busy lane
        // sets the same values (one frame, no sticky actions) or resets the game.
        let lastBottom = Lane8.widen(Lane8.load(lastActionBottom, i)), lastTop = Lane8.widen(Lane8.load(lastActionTop, i))
        Lane8.store(Lane8.narrow(lastBottom.replacing(with: bottom, where: running)), lastActionBottom, i)
        Lane8.store(Lane8.narrow(lastTop.replacing(with: top, where: running)), lastActionTop, i)
        return Lane8.bits(.!quiet)
    }

    /// Up to `frames` quiet frames (``PongPhysics/quietFrame(_:_:_:_:)``) for
    /// the lanes of `s` in `allowed`, the `k`-th with the moves
    /// `a.moves(first + k)`, the state kept in registers, for as long as
    /// every allowed lane's frame is quiet. In the frame that stops it the
    /// quiet lanes move and the others do not; lanes not allowed never
    /// change. `band` and `flat` choose the test's form (``QuietFrameForm``;
    /// ``PongPhysics/staysInBand(_:allowed:frames:band:)`` and
    /// ``PongPhysics/flatPaddles(_:allowed:)`` say when each holds).
    /// - Returns: the frames in which every allowed lane was quiet, and the
    ///   allowed lanes that were quiet in the frame after them (all of
    ///   them when it ran `frames`).
    @inline(__always)
    static func quietRun<A: FrameActions, K: PongRuleValues>(
        _ s: inout LaneState, _ a: A, from first: Int, allowed: LaneMask, frames: Int, band: Bool, flat: Bool,
        _ p: PongPhysics, _ k: K
    ) -> (done: Int, quiet: LaneMask) where K.L == Lanes {
        switch (band, flat) {
        case (false, false): quietRun(&s, a, from: first, allowed: allowed, frames: frames, p, k, ExactFrame.self)
        case (false, true): quietRun(&s, a, from: first, allowed: allowed, frames: frames, p, k, ExactFlatFrame.self)
        case (true, false): quietRun(&s, a, from: first, allowed: allowed, frames: frames, p, k, BandFrame.self)
        case (true, true): quietRun(&s, a, from: first, allowed: allowed, frames: frames, p, k, BandFlatFrame.self)
        }
    }

    /// ``quietRun(_:_:from:allowed:frames:band:flat:_:_:)`` for one form: a
    /// run, or a single frame on its own (without the run's loop and its copies).
    @inline(__always)
    static func quietRun<Form: QuietFrameForm, A: FrameActions, K: PongRuleValues>(
        _ s: inout LaneState, _ a: A, from first: Int, allowed: LaneMask, frames: Int, _ p: PongPhysics, _ k: K,
        _ form: Form.Type
    ) -> (done: Int, quiet: LaneMask) where K.L == Lanes {
        guard frames == 1 else { return run(&s, a, from: first, allowed: allowed, frames: frames, p, k, form) }
        let quiet = single(&s, a.moves(first), allowed: allowed, p, k, form)
        return (Lane8.bits(quiet) == Lane8.bits(allowed) ? 1 : 0, quiet)
    }

    /// One quiet frame: the allowed lanes whose frame is quiet move, the
    /// others do not.
    /// - Returns: the lanes that moved.
    @inline(never)
    static func single<Form: QuietFrameForm, K: PongRuleValues>(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask,
                                                                _ p: PongPhysics, _ k: K, _ form: Form.Type) -> LaneMask
        where K.L == Lanes {
        let (next, clear) = p.quietFrame(s, m, form, k)
        let quiet = clear .& allowed
        s.take(next, where: quiet)
        return quiet
    }

    /// A run of quiet frames in one form. Each frame is computed for every
    /// lane and kept only when every allowed lane was quiet, so the frames
    /// that continue the run select nothing; the stopping frame selects its
    /// quiet lanes, and the lanes not allowed get their start values back
    /// at the end.
    @inline(never)
    static func run<Form: QuietFrameForm, A: FrameActions, K: PongRuleValues>(
        _ s: inout LaneState, _ a: A, from first: Int, allowed: LaneMask, frames: Int, _ p: PongPhysics, _ k: K,
        _ form: Form.Type
    ) -> (done: Int, quiet: LaneMask) where K.L == Lanes {
        var t = s
        var quiet = allowed
        var done = 0
        while done < frames {
            let (next, clear) = p.quietFrame(t, a.moves(first + done), form, k)
            if Lane8.bits(allowed .& .!clear) != 0 {
                quiet = allowed .& clear
                t.take(next, where: quiet)
                break
            }
            t.take(next)
            done += 1
        }
        if Lane8.bits(allowed) == 0xFF { s.take(t) } else { s.take(t, where: allowed) }
        return (done, quiet)
    }
}
