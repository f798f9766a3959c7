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

    /// Steps the games `i ..< i + 8` whose one-frame step is quiet (see
    /// ``quietStep(_:bottom:top:)``) and leaves the others unchanged.
    /// - Returns: a bit per lane (bit `j` for game `i + j`) that was not
    ///   quiet and still needs its full step; `band` and `flat` count the
    ///   steps taken by the band and flat forms of the quiet path.
    @inline(__always)
    func quietLanes(_ i: Int, bottom: LaneInts, top: LaneInts, band: inout Int, flat flatCount: inout Int,
                    _ p: PongPhysics) -> UInt8 {
        // A finished game (only without same-step autoreset) takes the full
        // path; then so do its seven neighbours, nothing is changed here.
        if UnsafeRawPointer(end + i).loadUnaligned(as: UInt64.self) != 0 { return 0xFF }

        // The step limit not reached: compared as floats, exact because a
        // limited episode never counts past maxSteps ≤ 10 000 000 < 2^24.
        let stepsNow = UnsafeRawPointer(steps + i).loadUnaligned(as: LaneInts.self)
        let next = stepsNow &+ 1
        let maxSteps = p.config.maxSteps
        let underLimit: LaneMask = maxSteps > 0 ? Lane8.floats(next) .< Float(maxSteps) : LaneMask(repeating: true)

        var s = loadLanes(i)
        let m = p.moves(bottom: Lane8.floats(bottom), top: Lane8.floats(top))
        let banded = Self.staysInBand(s, allowed: underLimit, frames: 1, low: bandLow, high: bandHigh)
        let flat = Self.flatPaddles(s, allowed: underLimit, p)
        let quiet = Self.quietRun(&s, m, allowed: underLimit, frames: 1, band: banded, flat: flat, p).quiet
        let taken = Lane8.bits(quiet).nonzeroBitCount
        if banded { band &+= taken }
        if flat { flatCount &+= taken }
        storePositions(s, i)
        UnsafeMutableRawPointer(steps + i).storeBytes(of: stepsNow.replacing(with: next, where: quiet), as: LaneInts.self)
        // Every lane's last actions: the full step of a busy lane sets the
        // same values (one frame, no sticky actions) or resets the game.
        Lane8.store(Lane8.narrow(bottom), lastActionBottom, i)
        Lane8.store(Lane8.narrow(top), lastActionTop, i)
        return Lane8.bits(.!quiet)
    }

    /// Up to `frames` frames of ``PongPhysics``'s fast path for the lanes
    /// of `s` in `allowed`, frame `f`'s moves `m.moves(f)`, the state
    /// kept in registers, for as long as every allowed lane's frame is quiet:
    /// no contact possible (``PongPhysics/frame(_:_:_:)``) and no point. In the frame that
    /// stops it the quiet lanes move and the others do not; lanes not
    /// allowed never change. `band` takes the band form of the test
    /// (``PongPhysics/quietBand``: every allowed ball stays, for all `frames`, where no
    /// paddle reaches); `flat`, which needs every allowed lane's paddles at
    /// their only heights (``flatPaddles(_:allowed:_:)``), skips the
    /// paddles' vertical moves.
    /// - Returns: the frames in which every allowed lane was quiet, and the
    ///   allowed lanes that were quiet in the frame after them (all of
    ///   them when it ran `frames`).
    @inline(__always)
    static func quietRun<Moves: LaneMoveSource>(_ s: inout LaneState, _ m: Moves, allowed: LaneMask, frames: Int,
                                                band: Bool, flat: Bool, _ p: PongPhysics) -> (done: Int, quiet: LaneMask) {
        switch (band, flat) {
        case (false, false): quietRun(&s, m, allowed: allowed, frames: frames, p, ExactFrame.self)
        case (false, true): quietRun(&s, m, allowed: allowed, frames: frames, p, ExactFlatFrame.self)
        case (true, false): quietRun(&s, m, allowed: allowed, frames: frames, p, BandFrame.self)
        case (true, true): quietRun(&s, m, allowed: allowed, frames: frames, p, BandFlatFrame.self)
        }
    }

    /// ``quietRun(_:_:allowed:frames:band:flat:_:)`` for one form: a run,
    /// or a single frame on its own (without the run's loop and its copies).
    @inline(__always)
    static func quietRun<Form: QuietFrameForm, Moves: LaneMoveSource>(
        _ s: inout LaneState, _ m: Moves, allowed: LaneMask, frames: Int, _ p: PongPhysics, _ form: Form.Type
    ) -> (done: Int, quiet: LaneMask) {
        guard frames == 1 else { return run(&s, m, allowed: allowed, frames: frames, p, form) }
        let quiet = single(&s, m, allowed: allowed, p, form)
        return (Lane8.bits(quiet) == Lane8.bits(allowed) ? 1 : 0, quiet)
    }

    /// One frame of ``run(_:_:allowed:frames:_:_:)``: the allowed lanes
    /// whose frame is quiet move, the others do not.
    /// - Returns: the lanes that moved.
    @inline(never)
    static func single<Form: QuietFrameForm, Moves: LaneMoveSource>(_ s: inout LaneState, _ m: Moves, allowed: LaneMask,
                                                                    _ p: PongPhysics, _ form: Form.Type) -> LaneMask {
        let (next, clear) = frame(s, m.moves(0), p, form)
        let quiet = clear .& allowed
        s.take(next, where: quiet)
        return quiet
    }

    /// ``quietRun(_:_:allowed:frames:band:flat:_:)`` for one form of the
    /// test. Each frame is computed for every lane and kept only when every
    /// allowed lane was quiet, so the frames that continue the run select
    /// nothing; the stopping frame selects its quiet lanes, and the lanes
    /// not allowed get their start values back at the end.
    @inline(never)
    static func run<Form: QuietFrameForm, Moves: LaneMoveSource>(
        _ s: inout LaneState, _ m: Moves, allowed: LaneMask, frames: Int, _ p: PongPhysics, _ form: Form.Type
    ) -> (done: Int, quiet: LaneMask) {
        var t = s
        var quiet = allowed
        var done = 0
        while done < frames {
            let (next, clear) = frame(t, m.moves(done), p, form)
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

    /// One quiet frame in every lane of `s` (``PongPhysics``'s kernel in
    /// `Form`, and no point): the state after it, and the lanes whose frame
    /// is quiet (only those may keep it).
    @inline(__always)
    static func frame<Form: QuietFrameForm>(_ s: LaneState, _ m: LaneMoves, _ p: PongPhysics,
                                            _ form: Form.Type) -> (next: LaneState, quiet: LaneMask) {
        let (next, clear) = p.frame(s, m, form)
        return (next, Form.band ? clear : clear .& p.inField(next.y))
    }

    /// Whether every lane of `s` in `allowed` has its paddles at the only
    /// heights they can take: without a depth range (`maxDepth` 0) the
    /// clamps of ``PongPhysics/frame(_:_:_:)`` put the
    /// bottom paddle at `homeY` and the top one at `height − homeY` whatever
    /// the move, so a paddle already there stays there, bit for bit.
    @inline(__always)
    static func flatPaddles(_ s: LaneState, allowed: LaneMask, _ p: PongPhysics) -> Bool {
        p.maxDepth == 0 && all(((s.by .== p.homeY) .& (s.ty .== p.height - p.homeY)) .| .!allowed)
    }

    /// Whether every lane of `s` in `allowed` keeps its ball inside the
    /// band `low ... high` (``PongPhysics/quietBand``) for `frames` frames at its current
    /// vertical velocity: the ball moves by `vy` a frame, so it stays
    /// between `y − frames·|vy|` and `y + frames·|vy|` (up to rounding, some
    /// thousandths of a unit after at most 16 frames; the band's unit of
    /// slack covers it).
    @inline(__always)
    static func staysInBand(_ s: LaneState, allowed: LaneMask, frames: Int, low: Float, high: Float) -> Bool {
        let reach = Float(frames) * s.vy.replacing(with: -s.vy, where: s.vy .< 0)
        let inside = ((s.y - reach) .>= low) .& ((s.y + reach) .<= high)
        return all(inside .| .!allowed)
    }
}

/// Where a quiet run takes each frame's paddle moves: the same moves every
/// frame (``PongBatch/LaneMoves`` itself, a step without sticky actions) or
/// one set per frame (``PongBatch/FrameMoves``, a sticky step's).
protocol LaneMoveSource {
    /// The moves of frame `frame` of the run (0 for its first).
    func moves(_ frame: Int) -> PongBatch.LaneMoves
}

extension PongMoves: LaneMoveSource where L == SIMD8<Float> {
    @inline(__always)
    func moves(_: Int) -> PongMoves<L> { self }
}

extension PongBatch {
    /// Per-frame moves in memory, from a frame of ``PongBatch/frameMoves`` on.
    struct FrameMoves: LaneMoveSource {
        let first: UnsafePointer<LaneMoves>

        @inline(__always)
        func moves(_ frame: Int) -> LaneMoves { first[frame] }
    }
}

extension PongFrame where L == SIMD8<Float> {
    /// Takes the positions of `b` (a quiet frame does not change the
    /// velocities), field by field.
    @inline(__always)
    mutating func take(_ b: PongFrame) {
        x = b.x; y = b.y; bx = b.bx; by = b.by; tx = b.tx; ty = b.ty
    }

    /// Takes the positions of `b` in the lanes of `mask`.
    @inline(__always)
    mutating func take(_ b: PongFrame, where mask: Lane8.Mask) {
        x.replace(with: b.x, where: mask); y.replace(with: b.y, where: mask)
        bx.replace(with: b.bx, where: mask); by.replace(with: b.by, where: mask)
        tx.replace(with: b.tx, where: mask); ty.replace(with: b.ty, where: mask)
    }
}
