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

    @inline(__always)
    static func lanes(_ c: UnsafeMutablePointer<Float>, _ i: Int) -> Lanes {
        UnsafeRawPointer(c + i).loadUnaligned(as: Lanes.self)
    }

    @inline(__always)
    static func setLanes(_ c: UnsafeMutablePointer<Float>, _ i: Int, _ v: Lanes) {
        UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: Lanes.self)
    }

    @inline(__always)
    static func laneInts(_ c: UnsafeMutablePointer<Int32>, _ i: Int) -> LaneInts {
        UnsafeRawPointer(c + i).loadUnaligned(as: LaneInts.self)
    }

    @inline(__always)
    static func setLaneInts(_ c: UnsafeMutablePointer<Int32>, _ i: Int, _ v: LaneInts) {
        UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: LaneInts.self)
    }

    @inline(__always)
    static func laneBytes(_ c: UnsafeMutablePointer<UInt8>, _ i: Int) -> LaneBytes {
        UnsafeRawPointer(c + i).loadUnaligned(as: LaneBytes.self)
    }

    @inline(__always)
    static func setLaneBytes(_ c: UnsafeMutablePointer<UInt8>, _ i: Int, _ v: LaneBytes) {
        UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: LaneBytes.self)
    }

    /// The paddle moves of actions `bottom` and `top` (`PongPhysics.horizontal`
    /// and `vertical` lane-wise, times the paddle speeds). Actions are
    /// compared as floats: only the Int32 values 1 … 4 convert to the floats
    /// 1 … 4, so the comparisons are exact (and float compares vectorise,
    /// integer ones on SIMD8 did not). Out of line, as are
    /// ``quietFrame(_:_:allowed:_:)`` and the other lane functions:
    /// every lane select is a loop with a branch per lane until late in
    /// compilation, and past a few hundred such blocks in one function the
    /// compiler stops inlining into it, leaving calls in the middle of the
    /// lane code; each of these functions is inlined whole inside.
    @inline(never)
    static func moves(bottom: LaneInts, top: LaneInts, _ p: PongPhysics) -> LaneMoves {
        let bf = Lanes(bottom), tf = Lanes(top)
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
    ///   quiet and still needs its full step; `band` counts the steps
    ///   taken by the band form of the quiet path.
    @inline(__always)
    func quietLanes(_ i: Int, bottom: LaneInts, top: LaneInts, band: inout Int, _ p: PongPhysics) -> UInt8 {
        // A finished game (only without same-step autoreset) takes the full
        // path; then so do its seven neighbours, nothing is changed here.
        if UnsafeRawPointer(end + i).loadUnaligned(as: UInt64.self) != 0 { return 0xFF }

        // The step limit not reached: compared as floats, exact because a
        // limited episode never counts past maxSteps ≤ 10 000 000 < 2^24.
        let stepsNow = UnsafeRawPointer(steps + i).loadUnaligned(as: LaneInts.self)
        let next = stepsNow &+ 1
        let maxSteps = p.config.maxSteps
        let underLimit: LaneMask = maxSteps > 0 ? Lanes(next) .< Float(maxSteps) : LaneMask(repeating: true)

        var s = loadLanes(i)
        let m = Self.moves(bottom: bottom, top: top, p)
        let quiet: LaneMask
        if Self.staysInBand(s, allowed: underLimit, frames: 1, low: bandLow, high: bandHigh) {
            quiet = Self.bandFrame(&s, m, allowed: underLimit, p)
            band &+= Self.bits(quiet).nonzeroBitCount
        } else {
            quiet = Self.quietFrame(&s, m, allowed: underLimit, p)
        }
        storePositions(s, i)
        UnsafeMutableRawPointer(steps + i).storeBytes(of: stepsNow.replacing(with: next, where: quiet), as: LaneInts.self)
        // Every lane's last actions: the full step of a busy lane sets the
        // same values (one frame, no sticky actions) or resets the game.
        Self.setLaneBytes(lastActionBottom, i, LaneBytes(truncatingIfNeeded: bottom))
        Self.setLaneBytes(lastActionTop, i, LaneBytes(truncatingIfNeeded: top))
        return Self.bits(.!quiet)
    }

    /// One frame of ``PongPhysics``'s fast path for the lanes of `s` in
    /// `allowed` whose frame is quiet: no contact possible (`frameIsClear`)
    /// and no point; those move their ball and paddles (by `m`), every
    /// other lane is left unchanged.
    /// - Returns: the lanes that moved.
    @inline(never)
    static func quietFrame(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask, _ p: PongPhysics) -> LaneMask {
        quietFrameBody(&s, m, allowed: allowed, p)
    }

    /// Up to `frames` frames of ``quietFrame(_:_:allowed:_:)`` with the
    /// same moves, the state kept in registers, for as long as every lane
    /// in `allowed` is quiet.
    /// - Returns: the frames in which every allowed lane was quiet, and the
    ///   lanes that were quiet in the frame after them (those moved, the
    ///   others did not) when it stopped before `frames`.
    @inline(never)
    static func quietRun(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask, frames: Int,
                         _ p: PongPhysics) -> (done: Int, quiet: LaneMask) {
        var t = s
        var quiet = allowed
        var done = 0
        while done < frames {
            quiet = quietFrameBody(&t, m, allowed: allowed, p)
            if bits(allowed .& .!quiet) != 0 { break }
            done += 1
        }
        s = t
        return (done, quiet)
    }

    @inline(__always)
    static func quietFrameBody(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask, _ p: PongPhysics) -> LaneMask {
        let x = s.x, y = s.y, vx = s.vx, vy = s.vy
        let bx0 = s.bx, by0 = s.by, tx0 = s.tx, ty0 = s.ty
        // PongPhysics.paddleTargets, lane-wise.
        let bx1 = smin(smax(bx0 + m.bx, p.minPaddleX), p.maxPaddleX)
        let tx1 = smin(smax(tx0 - m.tx, p.minPaddleX), p.maxPaddleX)
        let by1 = smin(smax(by0 + m.by, p.homeY), p.homeY + p.maxDepth)
        let ty1 = smax(smin(ty0 - m.ty, p.height - p.homeY), p.height - p.homeY - p.maxDepth)

        // PongPhysics.frameIsClear, lane-wise, and no point.
        let x1 = x + vx, y1 = y + vy
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
        let clear = (x1 .>= p.r) .& (x1 .<= p.width - p.r) .& .!meetBottom .& .!meetTop
        let noPoint = .!(y1 .> p.height) .& .!(y1 .< 0)

        let quiet = clear .& noPoint .& allowed
        s.x = x.replacing(with: x1, where: quiet)
        s.y = y.replacing(with: y1, where: quiet)
        s.bx = bx0.replacing(with: bx1, where: quiet)
        s.by = by0.replacing(with: by1, where: quiet)
        s.tx = tx0.replacing(with: tx1, where: quiet)
        s.ty = ty0.replacing(with: ty1, where: quiet)
        return quiet
    }

    /// The ball heights between which no paddle can be reached and no
    /// point scored: (lowest, highest), each a unit inside the exact limits
    /// (see ``bandFrame(_:_:allowed:_:)``).
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

    /// ``quietFrame(_:_:allowed:_:)`` for lanes whose ball is inside the
    /// band (``staysInBand(_:allowed:frames:low:high:)``), where
    /// `PongPhysics.frameIsClear` reduces to its wall test: every paddle
    /// centre stays within its clamp, so a ball above `low` is above the
    /// bottom paddle's swept box plus its reach and a ball below `high`
    /// under the top paddle's (`sweptBoxesMeet` is false for both), and
    /// the ball is inside the field (no point). The same moves and the
    /// same decision per lane as ``quietFrame(_:_:allowed:_:)``, for about
    /// half the work.
    @inline(never)
    static func bandFrame(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask, _ p: PongPhysics) -> LaneMask {
        bandFrameBody(&s, m, allowed: allowed, p)
    }

    /// ``quietRun(_:_:allowed:frames:_:)`` of ``bandFrame(_:_:allowed:_:)``.
    @inline(never)
    static func bandRun(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask, frames: Int,
                        _ p: PongPhysics) -> (done: Int, quiet: LaneMask) {
        var t = s
        var quiet = allowed
        var done = 0
        while done < frames {
            quiet = bandFrameBody(&t, m, allowed: allowed, p)
            if bits(allowed .& .!quiet) != 0 { break }
            done += 1
        }
        s = t
        return (done, quiet)
    }

    @inline(__always)
    static func bandFrameBody(_ s: inout LaneState, _ m: LaneMoves, allowed: LaneMask, _ p: PongPhysics) -> LaneMask {
        let bx0 = s.bx, by0 = s.by, tx0 = s.tx, ty0 = s.ty
        let bx1 = smin(smax(bx0 + m.bx, p.minPaddleX), p.maxPaddleX)
        let tx1 = smin(smax(tx0 - m.tx, p.minPaddleX), p.maxPaddleX)
        let by1 = smin(smax(by0 + m.by, p.homeY), p.homeY + p.maxDepth)
        let ty1 = smax(smin(ty0 - m.ty, p.height - p.homeY), p.height - p.homeY - p.maxDepth)
        let x1 = s.x + s.vx
        let quiet = (x1 .>= p.r) .& (x1 .<= p.width - p.r) .& allowed
        s.x = s.x.replacing(with: x1, where: quiet)
        s.y = s.y.replacing(with: s.y + s.vy, where: quiet)
        s.bx = bx0.replacing(with: bx1, where: quiet)
        s.by = by0.replacing(with: by1, where: quiet)
        s.tx = tx0.replacing(with: tx1, where: quiet)
        s.ty = ty0.replacing(with: ty1, where: quiet)
        return quiet
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

    /// Bit `j` set for every lane `j` set in `m` (a horizontal sum: reading
    /// the lanes one by one went through memory). A mask is stored as its
    /// integer lanes, all ones where set, so its bits mask `laneBits`
    /// directly (a `replacing` here is a loop of branches until late in
    /// compilation, and counts against the inlining budget of its callers).
    @inline(__always)
    static func bits(_ m: LaneMask) -> UInt8 {
        UInt8(truncatingIfNeeded: (laneBits & unsafeBitCast(m, to: LaneInts.self)).wrappedSum())
    }

    /// The lanes whose bit is set in `bits`.
    @inline(__always)
    static func mask(_ bits: UInt8) -> LaneMask {
        Lanes(LaneInts(repeating: Int32(bits)) & laneBits) .!= 0
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
