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

    /// Steps the games `i ..< i + 8` whose step is quiet (see
    /// ``quietStep(_:bottom:top:)``) and leaves the others unchanged.
    /// - Returns: a bit per lane (bit `j` for game `i + j`) that was not
    ///   quiet and still needs its full step.
    @inline(__always)
    func quietLanes(_ i: Int, bottom: LaneInts, top: LaneInts, _ p: PongPhysics) -> UInt8 {
        func load(_ c: UnsafeMutablePointer<Float>) -> Lanes { UnsafeRawPointer(c + i).loadUnaligned(as: Lanes.self) }
        func store(_ c: UnsafeMutablePointer<Float>, _ v: Lanes) { UnsafeMutableRawPointer(c + i).storeBytes(of: v, as: Lanes.self) }
        let x = load(ballX), y = load(ballY), vx = load(ballVX), vy = load(ballVY)
        let bx0 = load(bottomX), by0 = load(bottomY), tx0 = load(topX), ty0 = load(topY)

        // A finished game (only without auto-reset) takes the full path;
        // then so do its seven neighbours, nothing is changed here.
        if UnsafeRawPointer(end + i).loadUnaligned(as: UInt64.self) != 0 { return 0xFF }

        // PongPhysics.paddleTargets, lane-wise. Actions are compared as
        // floats: only the Int32 values 1 … 4 convert to the floats 1 … 4, so
        // the comparisons are exact (and float compares vectorise, integer
        // ones on SIMD8 did not).
        let bf = Lanes(bottom), tf = Lanes(top)
        let hb = Self.horizontal(bf), ht = Self.horizontal(tf)
        let vb = Self.vertical(bf), vt = Self.vertical(tf)
        let bx1 = Self.smin(Self.smax(bx0 + hb * p.hSpeed, p.minPaddleX), p.maxPaddleX)
        let tx1 = Self.smin(Self.smax(tx0 - ht * p.hSpeed, p.minPaddleX), p.maxPaddleX)
        let by1 = Self.smin(Self.smax(by0 + vb * p.vSpeed, p.homeY), p.homeY + p.maxDepth)
        let ty1 = Self.smax(Self.smin(ty0 - vt * p.vSpeed, p.height - p.homeY), p.height - p.homeY - p.maxDepth)

        // PongPhysics.frameIsClear, lane-wise, and no point.
        let x1 = x + vx, y1 = y + vy
        let margin: Float = 0.01
        let reachX = p.r + p.halfW + margin, reachY = p.r + p.halfH + margin
        let ballMinX = Self.smin(x, x + vx), ballMaxX = Self.smax(x, x + vx)
        let ballMinY = Self.smin(y, y + vy), ballMaxY = Self.smax(y, y + vy)
        // `PongPhysics.sweptBoxesMeet` for each paddle (written out: a
        // helper taking eight vectors was not inlined and passed them in memory).
        let meetBottom = (ballMinX .< Self.smax(bx0, bx1) + reachX) .& (ballMaxX .> Self.smin(bx0, bx1) - reachX)
            .& (ballMinY .< Self.smax(by0, by1) + reachY) .& (ballMaxY .> Self.smin(by0, by1) - reachY)
        let meetTop = (ballMinX .< Self.smax(tx0, tx1) + reachX) .& (ballMaxX .> Self.smin(tx0, tx1) - reachX)
            .& (ballMinY .< Self.smax(ty0, ty1) + reachY) .& (ballMaxY .> Self.smin(ty0, ty1) - reachY)
        let clear = (x1 .>= p.r) .& (x1 .<= p.width - p.r) .& .!meetBottom .& .!meetTop
        let noPoint = .!(y1 .> p.height) .& .!(y1 .< 0)

        // The step limit not reached: compared as floats, exact because a
        // limited episode never counts past maxSteps ≤ 10 000 000 < 2^24.
        let stepsNow = UnsafeRawPointer(steps + i).loadUnaligned(as: LaneInts.self)
        let next = stepsNow &+ 1
        let maxSteps = p.config.maxSteps
        let underLimit: LaneMask = maxSteps > 0 ? Lanes(next) .< Float(maxSteps) : LaneMask(repeating: true)

        let quiet = clear .& noPoint .& underLimit
        store(ballX, x.replacing(with: x1, where: quiet))
        store(ballY, y.replacing(with: y1, where: quiet))
        store(bottomX, bx0.replacing(with: bx1, where: quiet))
        store(bottomY, by0.replacing(with: by1, where: quiet))
        store(topX, tx0.replacing(with: tx1, where: quiet))
        store(topY, ty0.replacing(with: ty1, where: quiet))
        UnsafeMutableRawPointer(steps + i).storeBytes(of: stepsNow.replacing(with: next, where: quiet), as: LaneInts.self)
        // Every lane's last actions: the full step of a busy lane sets the
        // same values (one frame, no sticky actions) or resets the game.
        for j in 0 ..< Lanes.scalarCount {
            lastActionBottom[i + j] = UInt8(truncatingIfNeeded: bottom[j])
            lastActionTop[i + j] = UInt8(truncatingIfNeeded: top[j])
        }

        var busy: UInt8 = 0
        for j in 0 ..< Lanes.scalarCount where !quiet[j] { busy |= 1 << UInt8(j) }
        return busy
    }

    /// `PongPhysics.observe` for side `side` of games `i ..< i + 8`, written
    /// to `out` (12 floats per game, game `g` at `g × 12`): the same
    /// expressions lane-wise (same operations in the same order, so the same
    /// bits), then transposed four games at a time into whole rows.
    @inline(__always)
    func observeLanes(_ i: Int, side: PongSide, into out: UnsafeMutablePointer<Float>, _ p: PongPhysics) {
        func load(_ c: UnsafeMutablePointer<Float>) -> Lanes { UnsafeRawPointer(c + i).loadUnaligned(as: Lanes.self) }
        func loadInts(_ c: UnsafeMutablePointer<Int32>) -> Lanes { Lanes(UnsafeRawPointer(c + i).loadUnaligned(as: LaneInts.self)) }
        let m = side.mirror
        let cx = p.width / 2, cy = p.height / 2
        let invCX = 1 / cx, invCY = 1 / cy, invW = 1 / p.width
        let invS = 1 / p.maxSpeed, invV = 1 / (2 * p.maxSpeed)
        let invDepth = p.maxDepth > 0 ? 1 / p.maxDepth : 0
        let invMax = 1 / Float(p.config.maxScore)
        let bx = load(bottomX), by = load(bottomY), tx = load(topX), ty = load(topY)
        let x = load(ballX), y = load(ballY)
        let bottomIsOwn = side == .bottom
        let ownX = bottomIsOwn ? bx : tx, oppX = bottomIsOwn ? tx : bx
        let bottomDepth = by - p.homeY, topDepth = (p.height - p.homeY) - ty
        let ownDepth = bottomIsOwn ? bottomDepth : topDepth, oppDepth = bottomIsOwn ? topDepth : bottomDepth
        let sb = loadInts(scoreBottom), st = loadInts(scoreTop)
        let f0 = (ownX - cx) * invCX * m
        let f1 = Self.smin(ownDepth * invDepth, 1)
        let f2 = (oppX - cx) * invCX * m
        let f3 = Self.smin(oppDepth * invDepth, 1)
        let f4 = (x - cx) * invCX * m
        let f5 = Self.smin(Self.smax((y - cy) * invCY * m, -1), 1)
        let f6 = Self.smin(Self.smax(load(ballVX) * invV * m, -1), 1)
        let f7 = Self.smin(Self.smax(load(ballVY) * invV * m, -0.5), 0.5)
        let f8 = (x - ownX) * invW * m
        let f9 = Self.smin(load(speed) * invS, 1)
        let f10 = (bottomIsOwn ? sb : st) * invMax
        let f11 = (bottomIsOwn ? st : sb) * invMax
        @inline(__always)
        func rows(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>, at k: Int, first g: Int) {
            for j in 0 ..< 4 {
                UnsafeMutableRawPointer(out + (i + g + j) * 12 + k).storeBytes(of: SIMD4(a[j], b[j], c[j], d[j]), as: SIMD4<Float>.self)
            }
        }
        rows(f0.lowHalf, f1.lowHalf, f2.lowHalf, f3.lowHalf, at: 0, first: 0)
        rows(f4.lowHalf, f5.lowHalf, f6.lowHalf, f7.lowHalf, at: 4, first: 0)
        rows(f8.lowHalf, f9.lowHalf, f10.lowHalf, f11.lowHalf, at: 8, first: 0)
        rows(f0.highHalf, f1.highHalf, f2.highHalf, f3.highHalf, at: 0, first: 4)
        rows(f4.highHalf, f5.highHalf, f6.highHalf, f7.highHalf, at: 4, first: 4)
        rows(f8.highHalf, f9.highHalf, f10.highHalf, f11.highHalf, at: 8, first: 4)
    }

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
