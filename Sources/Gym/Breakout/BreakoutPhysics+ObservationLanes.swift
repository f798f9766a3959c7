extension BreakoutPhysics {
    // MARK: - Observations of eight games at once (the batch's path)

    @usableFromInline typealias Lanes = SIMD8<Float>
    @usableFromInline typealias LaneMask = SIMDMask<SIMD8<Int32>>

    /// Writes the observations of the eight games `cores[0 ..< 8]` (game
    /// `g`'s cell entries, ``writeCells(_:into:)`` of its grid, at
    /// `cellValues + g × cellCount`, its ``aimColumns(_:)`` in `aim[g]`) to
    /// `o + g × stride`: what ``observe(_:cellValues:aimColumns:into:)`` writes
    /// for each, bit for bit.
    ///
    /// The head is written game by game and the cells copied; the paddle-relative
    /// features (per ball a chain of divisions, a remainder and selects)
    /// are computed for the eight games at once in float lanes
    /// (``observeRelativeLanes(_:aim:into:stride:)``).
    func observeEight(_ cores: UnsafePointer<BreakoutCore>, cellValues: UnsafePointer<Float>, aim: UnsafePointer<UInt32>,
                      into o: UnsafeMutablePointer<Float>, stride: Int) {
        for g in 0 ..< 8 {
            let out = o + g * stride
            observeHead(cores + g, into: out)
            (out + cellStart).update(from: cellValues + g * cells, count: cells)
        }
        observeRelativeLanes(cores, aim: aim, into: o + relativeStart, stride: stride)
    }

    /// ``observeRelative(_:aimColumns:into:)`` of eight games (`cores[g]`
    /// and `aim[g]`, written to `o + g × stride`), lane `g` for game `g`.
    ///
    /// Bit for bit the scalar code's values: the same operations on the same
    /// operands in the same order, every branch and every `min`/`max`
    /// replaced by a select on the same comparison (`min(a, b)` is
    /// `b < a ? b : a`, `max(a, b)` is `b >= a ? b : a`, as the standard
    /// library defines them), and empty ball slots written as zeros. Where
    /// the scalar code takes the library's remainder (an offset of at least
    /// four periods), that lane is recomputed with it. The nearest aim
    /// column is found game by game (bit scans).
    @inline(never)
    func observeRelativeLanes(_ c: UnsafePointer<BreakoutCore>, aim: UnsafePointer<UInt32>,
                              into o: UnsafeMutablePointer<Float>, stride: Int) {
        let invW = 1 / width
        let px = Self.gather(c) { $0.pointee.paddleX }
        let half = Self.gather(c) { $0.pointee.paddleHalfWidth }
        let n = Self.gather(c) { Float($0.pointee.ballCount) }
        var focusTime = Lanes(repeating: .infinity), focusCrossing = px
        var focusX = Lanes(), focusVY = Lanes()
        var hasFocus = LaneMask()
        for k in 0 ..< Int(maxBalls) {
            let active: LaneMask = Lanes(repeating: Float(k)) .< n
            guard any(active) else {
                // No game has a ball in this slot: zeros, as the scalar code writes.
                for g in 0 ..< 8 {
                    let b = o + g * stride + 3 * k
                    b[0] = 0; b[1] = 0; b[2] = 0
                }
                continue
            }
            let x = Self.gather(c) { $0.pointee.ballX[k] }
            let y = Self.gather(c) { $0.pointee.ballY[k] }
            let vx = Self.gather(c) { $0.pointee.ballVX[k] }
            let vy = Self.gather(c) { $0.pointee.ballVY[k] }
            let t = timeToFaceLanes(y: y, vy: vy)
            let crossing = crossingXLanes(x: x, vx: vx, time: t)
            let b0 = Self.unitLanes((x - px) * invW).replacing(with: 0, where: .!active)
            let b1 = Self.unitLanes((crossing - px) * invW).replacing(with: 0, where: .!active)
            let b2 = urgencyLanes(t).replacing(with: 0, where: .!active)
            for g in 0 ..< 8 {
                let b = o + g * stride + 3 * k
                b[0] = b0[g]; b[1] = b1[g]; b[2] = b2[g]
            }
            let better: LaneMask = active .& ((t .< focusTime) .| .!hasFocus)
            focusTime = focusTime.replacing(with: t, where: better)
            focusCrossing = focusCrossing.replacing(with: crossing, where: better)
            focusX = focusX.replacing(with: x, where: better)
            focusVY = focusVY.replacing(with: vy, where: better)
            hasFocus = hasFocus .| better
        }
        let noFocus: LaneMask = .!hasFocus
        let f0 = Lanes().replacing(with: 1, where: hasFocus)
        let f1 = Self.unitLanes((focusX - px) * invW).replacing(with: 0, where: noFocus)
        let f2 = Self.unitLanes((focusCrossing - px) * invW).replacing(with: 0, where: noFocus)
        let f3 = Self.unitLanes((focusCrossing - px) / (half + r)).replacing(with: 0, where: noFocus)
        let f4 = urgencyLanes(focusTime).replacing(with: 0, where: noFocus)
        let f5 = Self.unitLanes(focusVY / maxSpeed).replacing(with: 0, where: noFocus)
        let column = Lanes(Float(nearestColumn(aim[0], to: focusCrossing[0])), Float(nearestColumn(aim[1], to: focusCrossing[1])),
                           Float(nearestColumn(aim[2], to: focusCrossing[2])), Float(nearestColumn(aim[3], to: focusCrossing[3])),
                           Float(nearestColumn(aim[4], to: focusCrossing[4])), Float(nearestColumn(aim[5], to: focusCrossing[5])),
                           Float(nearestColumn(aim[6], to: focusCrossing[6])), Float(nearestColumn(aim[7], to: focusCrossing[7])))
        let f6 = Self.unitLanes(((column + 0.5) * brickW - focusCrossing) * invW).replacing(with: 0, where: column .< 0)
        for g in 0 ..< 8 {
            let f = o + g * stride + 3 * Int(maxBalls)
            f[0] = f0[g]; f[1] = f1[g]; f[2] = f2[g]; f[3] = f3[g]; f[4] = f4[g]; f[5] = f5[g]; f[6] = f6[g]
        }
    }

    /// One float of each of the eight games `c[0 ..< 8]`, lane `g` from game `g`.
    @inline(__always)
    static func gather(_ c: UnsafePointer<BreakoutCore>, _ read: (UnsafePointer<BreakoutCore>) -> Float) -> Lanes {
        Lanes(read(c), read(c + 1), read(c + 2), read(c + 3), read(c + 4), read(c + 5), read(c + 6), read(c + 7))
    }

    /// ``unit(_:)`` lane by lane.
    @inline(__always)
    static func unitLanes(_ v: Lanes) -> Lanes {
        let low = v.replacing(with: -1, where: -1 .>= v)
        return low.replacing(with: 1, where: 1 .< low)
    }

    /// ``urgency(_:)`` lane by lane.
    @inline(__always)
    func urgencyLanes(_ time: Lanes) -> Lanes {
        let u = time * paddleSpeed / width
        return u.replacing(with: 1, where: 1 .< u)
    }

    /// ``timeToFace(y:vy:)`` lane by lane (both arrivals computed, one selected).
    @inline(__always)
    func timeToFaceLanes(y: Lanes, vy: Lanes) -> Lanes {
        let drop = y - (paddleTop + r)
        var t: Lanes
        if gravity > 0 {
            t = (vy + (vy * vy + 2 * gravity * drop).squareRoot()) / gravity
        } else {
            // 0 − vy differs from the scalar −vy only for vy = 0, where
            // neither arrival is selected.
            let falling = drop / (0 - vy)
            let rising = (2 * (height - r) - y - (paddleTop + r)) / vy
            t = Lanes(repeating: .infinity).replacing(with: rising, where: vy .> 0)
            t = t.replacing(with: falling, where: vy .< 0)
        }
        return t.replacing(with: 0, where: drop .<= 0)
    }

    /// ``crossingX(x:vx:time:)`` lane by lane.
    ///
    /// The remainder's sign is taken by a select on `a < 0` instead of
    /// `Float(signOf:magnitudeOf:)`: they differ only in the sign of a zero
    /// remainder, which the crossing (`r` plus it, or a wall's distance
    /// minus it) does not keep.
    @inline(__always)
    func crossingXLanes(x: Lanes, vx: Lanes, time: Lanes) -> Lanes {
        let span = width - 2 * r
        let p = 2 * span
        let a = x - r + vx * time
        let m = a.replacing(with: 0 - a, where: a .< 0)
        let u1 = m.replacing(with: m - 2 * p, where: m .>= 2 * p)
        let u = u1.replacing(with: u1 - p, where: u1 .>= p)
        var v = u.replacing(with: 0 - u, where: a .< 0)
        let finite: LaneMask = (time .< .infinity) .& (time .> -.infinity)
        let far: LaneMask = finite .& (m .>= 4 * p)
        if any(far) {
            // Rare (a crossing four periods away): the library's remainder, as the scalar code takes it.
            for g in 0 ..< 8 where far[g] { v[g] = a[g].truncatingRemainder(dividingBy: p) }
        }
        let w = v + 2 * span
        let folded = v.replacing(with: w, where: v .< 0)
        let back = 2 * span - folded
        let crossing = r + folded.replacing(with: back, where: .!(folded .<= span))
        return crossing.replacing(with: x, where: .!finite)
    }
}
