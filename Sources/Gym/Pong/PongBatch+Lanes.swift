/// The quiet-frame path of ``PongBatch`` over eight games at once.
///
/// The same test and the same arithmetic as ``PongBatch/quietStep(_:bottom:top:)``
/// (and so as ``PongPhysics``'s fast path: `paddleTargets`, `frameIsClear`,
/// `sweptBoxesMeet`), written lane-wise: IEEE single-precision adds,
/// subtracts, multiplies and comparisons give the same bits in a SIMD lane as
/// in a scalar register, and `smin`/`smax` below are the standard library's
/// `min`/`max` (`y < x ? y : x`, `y >= x ? y : x`) lane by lane, so every
/// lane's result is bit-identical to the scalar path. Lane selects compile to
/// blends, with no data-dependent branch to mispredict. The batch tests
/// compare against ``PongGame`` step by step.
extension PongBatch {
    typealias Lanes = SIMD8<Float>
    typealias LaneInts = SIMD8<Int32>
    typealias LaneBytes = SIMD8<UInt8>
    typealias LaneMask = SIMDMask<SIMD8<Int32>>

    /// Eight games' moving state, one lane per game: what a quiet frame
    /// reads and changes (the speed level, scores and generators stay in
    /// the columns).
    struct LaneState {
        var x, y, vx, vy: Lanes
        var bx, by, tx, ty: Lanes

        /// Takes the positions of `b` (a quiet frame does not change the
        /// velocities), field by field (docs/throughput.md, "Vectors built
        /// whole").
        @inline(__always)
        mutating func take(_ b: LaneState) {
            x = b.x; y = b.y; bx = b.bx; by = b.by; tx = b.tx; ty = b.ty
        }

        /// Takes the positions of `b` in the lanes of `mask`.
        @inline(__always)
        mutating func take(_ b: LaneState, where mask: LaneMask) {
            x.replace(with: b.x, where: mask); y.replace(with: b.y, where: mask)
            bx.replace(with: b.bx, where: mask); by.replace(with: b.by, where: mask)
            tx.replace(with: b.tx, where: mask); ty.replace(with: b.ty, where: mask)
        }
    }

    /// The paddle moves of eight games' actions, in field units per frame:
    /// `horizontal(a) × hSpeed` and `vertical(a) × vSpeed` per side, the
    /// products ``PongPhysics/paddleTargets(_:_:_:_:bottom:top:)`` adds
    /// (bottom) or subtracts (top), so the targets come out the same.
    struct LaneMoves {
        var bx, by, tx, ty: Lanes
    }

    /// Games `i ..< i + 8`'s moving state from the columns.
    @inline(__always)
    func loadLanes(_ i: Int) -> LaneState {
        LaneState(x: Self.lanes(ballX, i), y: Self.lanes(ballY, i), vx: Self.lanes(ballVX, i), vy: Self.lanes(ballVY, i),
                  bx: Self.lanes(bottomX, i), by: Self.lanes(bottomY, i), tx: Self.lanes(topX, i), ty: Self.lanes(topY, i))
    }

    /// Writes the positions of `s` (what a quiet frame changes) to games
    /// `i ..< i + 8`'s columns.
    @inline(__always)
    func storePositions(_ s: LaneState, _ i: Int) {
        Self.setLanes(ballX, i, s.x); Self.setLanes(ballY, i, s.y)
        Self.setLanes(bottomX, i, s.bx); Self.setLanes(bottomY, i, s.by)
        Self.setLanes(topX, i, s.tx); Self.setLanes(topY, i, s.ty)
    }

    /// Games `i ..< i + 8` of column `c`, one lane a game (any column type:
    /// Float, Int32, UInt8).
    @inline(__always)
    static func lanes<E: SIMDScalar>(_ c: UnsafeMutablePointer<E>, _ i: Int) -> SIMD8<E> {
        UnsafeRawPointer(c + i).loadUnaligned(as: SIMD8<E>.self)
    }

    /// Writes `v` to games `i ..< i + 8` of column `c`.
    @inline(__always)
    static func setLanes<E: SIMDScalar>(_ c: UnsafeMutablePointer<E>, _ i: Int, _ v: SIMD8<E>) {
        UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: SIMD8<E>.self)
    }

    /// `LaneInts(truncatingIfNeeded: b)`, lane by lane in the source so
    /// that it is compiled for these types (a conversion by hand:
    /// docs/throughput.md).
    @inline(__always)
    static func widen(_ b: LaneBytes) -> LaneInts {
        LaneInts(Int32(b[0]), Int32(b[1]), Int32(b[2]), Int32(b[3]), Int32(b[4]), Int32(b[5]), Int32(b[6]), Int32(b[7]))
    }

    /// `Lanes(v)` (each lane converted to the nearest float), as ``widen(_:)``.
    @inline(__always)
    static func floats(_ v: LaneInts) -> Lanes {
        Lanes(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
    }

    /// `LaneBytes(truncatingIfNeeded: v)`, as ``widen(_:)``.
    @inline(__always)
    static func narrow(_ v: LaneInts) -> LaneBytes {
        LaneBytes(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
                  UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
                  UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]))
    }

    /// The paddle moves of actions `bottom` and `top` (`PongPhysics.horizontal`
    /// and `vertical` lane-wise, times the paddle speeds). Actions are
    /// compared as floats: only the Int32 values 1 … 4 convert to the floats
    /// 1 … 4, so the comparisons are exact float compares. Out of line, as
    /// are ``run(_:_:allowed:frames:_:_:)`` and the other lane functions:
    /// kernels of bounded size (docs/throughput.md), each inlined whole
    /// inside.
    @inline(never)
    static func moves(bottom: LaneInts, top: LaneInts, _ p: PongPhysics) -> LaneMoves {
        let bf = floats(bottom), tf = floats(top)
        // Without vertical movement (vSpeed 0) the vertical moves are ±0,
        // which leave a paddle's (nonzero) height as it is: 0 does the same.
        guard p.vSpeed != 0 else {
            return LaneMoves(bx: horizontal(bf) * p.hSpeed, by: .zero, tx: horizontal(tf) * p.hSpeed, ty: .zero)
        }
        return LaneMoves(bx: horizontal(bf) * p.hSpeed, by: vertical(bf) * p.vSpeed,
                         tx: horizontal(tf) * p.hSpeed, ty: vertical(tf) * p.vSpeed)
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
        let underLimit: LaneMask = maxSteps > 0 ? Self.floats(next) .< Float(maxSteps) : LaneMask(repeating: true)

        var s = loadLanes(i)
        let m = Self.moves(bottom: bottom, top: top, p)
        let banded = Self.staysInBand(s, allowed: underLimit, frames: 1, low: bandLow, high: bandHigh)
        let flat = Self.flatPaddles(s, allowed: underLimit, p)
        let quiet = Self.quietRun(&s, m, allowed: underLimit, frames: 1, band: banded, flat: flat, p).quiet
        let taken = Self.bits(quiet).nonzeroBitCount
        if banded { band &+= taken }
        if flat { flatCount &+= taken }
        storePositions(s, i)
        UnsafeMutableRawPointer(steps + i).storeBytes(of: stepsNow.replacing(with: next, where: quiet), as: LaneInts.self)
        // Every lane's last actions: the full step of a busy lane sets the
        // same values (one frame, no sticky actions) or resets the game.
        Self.setLanes(lastActionBottom, i, Self.narrow(bottom))
        Self.setLanes(lastActionTop, i, Self.narrow(top))
        return Self.bits(.!quiet)
    }

    /// Up to `frames` frames of ``PongPhysics``'s fast path for the lanes
    /// of `s` in `allowed`, frame `f`'s moves `m.moves(f)`, the state
    /// kept in registers, for as long as every allowed lane's frame is quiet:
    /// no contact possible (`frameIsClear`) and no point. In the frame that
    /// stops it the quiet lanes move and the others do not; lanes not
    /// allowed never change. `band` takes the band form of the test
    /// (``band(_:)``: every allowed ball stays, for all `frames`, where no
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
        return (bits(quiet) == bits(allowed) ? 1 : 0, quiet)
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
            if bits(allowed .& .!clear) != 0 {
                quiet = allowed .& clear
                t.take(next, where: quiet)
                break
            }
            t.take(next)
            done += 1
        }
        if bits(allowed) == 0xFF { s.take(t) } else { s.take(t, where: allowed) }
        return (done, quiet)
    }

    /// One frame of ``PongPhysics``'s fast path in every lane of `s`: the
    /// state after it, and the lanes whose frame is quiet (only those may
    /// keep it).
    @inline(__always)
    static func frame<Form: QuietFrameForm>(_ s: LaneState, _ m: LaneMoves, _ p: PongPhysics,
                                            _: Form.Type) -> (next: LaneState, quiet: LaneMask) {
        let x = s.x, y = s.y, vx = s.vx, vy = s.vy
        let bx0 = s.bx, by0 = s.by, tx0 = s.tx, ty0 = s.ty
        // PongPhysics.paddleTargets, lane-wise; flat paddles are at their
        // only heights, where the clamps keep them.
        let bx1 = smin(smax(bx0 + m.bx, p.minPaddleX), p.maxPaddleX)
        let tx1 = smin(smax(tx0 - m.tx, p.minPaddleX), p.maxPaddleX)
        let by1 = Form.flat ? by0 : smin(smax(by0 + m.by, p.homeY), p.homeY + p.maxDepth)
        let ty1 = Form.flat ? ty0 : smax(smin(ty0 - m.ty, p.height - p.homeY), p.height - p.homeY - p.maxDepth)
        let x1 = x + vx, y1 = y + vy
        let walls = (x1 .>= p.r) .& (x1 .<= p.width - p.r)
        let next = LaneState(x: x1, y: y1, vx: vx, vy: vy, bx: bx1, by: by1, tx: tx1, ty: ty1)
        if Form.band { return (next, walls) }

        // PongPhysics.frameIsClear, lane-wise, and no point.
        let margin: Float = 0.01
        let reachX = p.r + p.halfW + margin, reachY = p.r + p.halfH + margin
        // `PongPhysics.sweptBoxesMeet` for each paddle, its minima and
        // maxima taken apart into comparisons (the same test, exactly:
        // `min(a, b) < c` is `a < c || b < c`, `max(a, b) > c` is
        // `a > c || b > c`, and `max(a, b) + r` is `max(a + r, b + r)`, as
        // rounding is monotonic), which needs no lane selects.
        let meetBottom = Self.below(x, x1, bx0 + reachX, bx1 + reachX) .& Self.above(x, x1, bx0 - reachX, bx1 - reachX)
            .& Self.below(y, y1, by0 + reachY, by1 + reachY) .& Self.above(y, y1, by0 - reachY, by1 - reachY)
        let meetTop = Self.below(x, x1, tx0 + reachX, tx1 + reachX) .& Self.above(x, x1, tx0 - reachX, tx1 - reachX)
            .& Self.below(y, y1, ty0 + reachY, ty1 + reachY) .& Self.above(y, y1, ty0 - reachY, ty1 - reachY)
        let noPoint = .!(y1 .> p.height) .& .!(y1 .< 0)
        return (next, walls .& .!meetBottom .& .!meetTop .& noPoint)
    }

    /// Whether every lane of `s` in `allowed` has its paddles at the only
    /// heights they can take: without a depth range (`maxDepth` 0) the
    /// clamps of ``PongPhysics/paddleTargets(_:_:_:_:bottom:top:)`` put the
    /// bottom paddle at `homeY` and the top one at `height − homeY` whatever
    /// the move, so a paddle already there stays there, bit for bit.
    @inline(__always)
    static func flatPaddles(_ s: LaneState, allowed: LaneMask, _ p: PongPhysics) -> Bool {
        p.maxDepth == 0 && all(((s.by .== p.homeY) .& (s.ty .== p.height - p.homeY)) .| .!allowed)
    }

    /// The ball heights between which no paddle can be reached and no
    /// point scored: (lowest, highest), each a unit inside the exact limits
    /// (see ``QuietFrameForm``).
    static func band(_ p: PongPhysics) -> (low: Float, high: Float) {
        let reachY = p.r + p.halfH + 0.01
        // The highest a bottom paddle's centre can be, and the lowest a top
        // paddle's (their clamps in `PongPhysics.paddleTargets`).
        let bottomTop = p.homeY + p.maxDepth
        let topBottom = p.height - p.homeY - p.maxDepth
        return ((bottomTop + reachY) + 1, (topBottom - reachY) - 1)
    }

    /// Whether every lane of `s` in `allowed` keeps its ball inside the
    /// band `low ... high` (``band(_:)``) for `frames` frames at its current
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

    /// `min(a0, a1) < max(c0, c1)` in every lane.
    @inline(__always)
    static func below(_ a0: Lanes, _ a1: Lanes, _ c0: Lanes, _ c1: Lanes) -> LaneMask {
        (a0 .< c0) .| (a0 .< c1) .| (a1 .< c0) .| (a1 .< c1)
    }

    /// `max(a0, a1) > min(c0, c1)` in every lane.
    @inline(__always)
    static func above(_ a0: Lanes, _ a1: Lanes, _ c0: Lanes, _ c1: Lanes) -> LaneMask {
        (a0 .> c0) .| (a0 .> c1) .| (a1 .> c0) .| (a1 .> c1)
    }

    /// Bit `j` set for every lane `j` set in `m` (a horizontal sum, a
    /// reduction by hand). A mask is stored as its integer lanes, all ones
    /// where set, so its bits mask `laneBits` directly, with no select.
    @inline(__always)
    static func bits(_ m: LaneMask) -> UInt8 {
        UInt8(truncatingIfNeeded: (laneBits & unsafeBitCast(m, to: LaneInts.self)).wrappedSum())
    }

    /// The lanes whose bit is set in `bits`.
    @inline(__always)
    static func mask(_ bits: UInt8) -> LaneMask {
        floats(LaneInts(repeating: Int32(bits)) & laneBits) .!= 0
    }

    /// Lane `j`'s bit, `1 << j`, in every lane.
    @inline(__always)
    static var laneBits: LaneInts { LaneInts(1, 2, 4, 8, 16, 32, 64, 128) }

    /// `PongPhysics.horizontal` lane-wise: 1 → −1, 2 → +1, else 0.
    @inline(__always)
    static func horizontal(_ a: Lanes) -> Lanes {
        Lanes(repeating: 0).replacing(with: 1, where: a .== 2).replacing(with: -1, where: a .== 1)
    }

    /// `PongPhysics.vertical` lane-wise: 3 → +1, 4 → −1, else 0.
    @inline(__always)
    static func vertical(_ a: Lanes) -> Lanes {
        Lanes(repeating: 0).replacing(with: 1, where: a .== 3).replacing(with: -1, where: a .== 4)
    }

    /// The standard library's `min(x, y)` (`y < x ? y : x`) in every lane.
    @inline(__always)
    static func smin(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .< x) }
    @inline(__always)
    static func smin(_ x: Lanes, _ y: Float) -> Lanes { smin(x, Lanes(repeating: y)) }

    /// The standard library's `max(x, y)` (`y >= x ? y : x`) in every lane.
    @inline(__always)
    static func smax(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .>= x) }
    @inline(__always)
    static func smax(_ x: Lanes, _ y: Float) -> Lanes { smax(x, Lanes(repeating: y)) }
}

/// A form of the quiet-frame test of ``PongBatch/run(_:_:allowed:frames:_:_:)``,
/// fixed at compile time (each form is compiled on its own, with its
/// branches folded away).
///
/// The band form: for lanes whose ball is inside the band
/// (``PongBatch/staysInBand(_:allowed:frames:low:high:)``),
/// `PongPhysics.frameIsClear` reduces to its wall test: every paddle centre
/// stays within its clamp, so a ball above `low` is above the bottom
/// paddle's swept box plus its reach and a ball below `high` under the top
/// paddle's (`sweptBoxesMeet` is false for both), and the ball is inside
/// the field (no point). The same moves and the same decision per lane as
/// the exact form, for about half the work. The flat form: paddles that
/// cannot leave their heights (``PongBatch/flatPaddles(_:allowed:_:)``)
/// keep them, and their vertical bounds are the same every frame.
protocol QuietFrameForm {
    /// The band form (the wall test alone).
    static var band: Bool { get }
    /// The paddles' heights are fixed.
    static var flat: Bool { get }
}

enum ExactFrame: QuietFrameForm { static var band: Bool { false }; static var flat: Bool { false } }
enum ExactFlatFrame: QuietFrameForm { static var band: Bool { false }; static var flat: Bool { true } }
enum BandFrame: QuietFrameForm { static var band: Bool { true }; static var flat: Bool { false } }
enum BandFlatFrame: QuietFrameForm { static var band: Bool { true }; static var flat: Bool { true } }

/// Where a quiet run takes each frame's paddle moves: the same moves every
/// frame (``PongBatch/LaneMoves`` itself, a step without sticky actions) or
/// one set per frame (``PongBatch/FrameMoves``, a sticky step's).
protocol LaneMoveSource {
    /// The moves of frame `frame` of the run (0 for its first).
    func moves(_ frame: Int) -> PongBatch.LaneMoves
}

extension PongBatch.LaneMoves: LaneMoveSource {
    @inline(__always)
    func moves(_: Int) -> PongBatch.LaneMoves { self }
}

extension PongBatch {
    /// Per-frame moves in memory, from a frame of ``PongBatch/frameMoves`` on.
    struct FrameMoves: LaneMoveSource {
        let first: UnsafePointer<LaneMoves>

        @inline(__always)
        func moves(_ frame: Int) -> LaneMoves { first[frame] }
    }
}
