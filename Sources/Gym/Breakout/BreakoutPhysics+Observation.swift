extension BreakoutPhysics {
    // MARK: - Observation

    /// Length of the observation vector:
    /// 15 + 8 × `maxBalls` + `brickRows × brickColumns`.
    public static func observationCount(for config: BreakoutConfig) -> Int {
        15 + 8 * config.maxBalls + config.brickRows * config.brickColumns
    }

    /// Length of this game's observation vector.
    @inlinable public var observationCount: Int { 15 + 8 * Int(maxBalls) + cells }

    /// Index of the first paddle-relative feature (after the brick cells).
    @inlinable public var relativeStart: Int { 8 + 5 * Int(maxBalls) + cells }

    /// Writes the observation (see ``BreakoutGame``'s table; bounds in
    /// ``observationLayout``) into `o`. Entries that can reach a bound are
    /// clamped to it: a product with a precomputed reciprocal can pass it by
    /// a rounding step.
    /// Always inlined: as a call, the state would be copied for it (`o`
    /// might alias it), which cost more than writing the observation.
    @inlinable @inline(__always)
    public func observe(_ s: BreakoutCore, bricks: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<Float>) {
        observeHead(s, into: o)
        writeCells(bricks, into: o + cellStart)
        observeRelative(s, aimColumns: aimColumns(bricks), into: o + relativeStart)
    }

    /// The entries before the brick cells (indices 0 ..< ``cellStart``).
    @inlinable @inline(__always)
    func observeHead(_ s: BreakoutCore, into o: UnsafeMutablePointer<Float>) {
        let cx = width / 2, cy = height / 2
        let invCX = 1 / cx, invCY = 1 / cy, invV = 1 / maxSpeed
        o[0] = (s.paddleX - cx) * invCX
        o[1] = min(s.paddleHalfWidth * invCX, 0.5)
        o[2] = Float(s.lives) / Float(config.lives)
        o[3] = Float(s.levelsCleared) / Float(config.levels)
        o[4] = pushCooldown > 0 ? Float(s.pushCooldown) / Float(pushCooldown) : 0
        o[5] = config.watchdogSteps > 0 ? min(1, Float(s.stepsSinceProgress) / Float(config.watchdogSteps)) : 0
        o[6] = s.servePending ? 1 : 0
        o[7] = min(s.speed * invV, 1)
        let n = Int(s.ballCount)
        for k in 0 ..< Int(maxBalls) {
            let b = o + 8 + 5 * k
            if k < n {
                b[0] = 1
                b[1] = (s.ballX[k] - cx) * invCX
                b[2] = min(max((s.ballY[k] - cy) * invCY, -1), 1)
                b[3] = min(max(s.ballVX[k] * invV, -1), 1)
                b[4] = min(max(s.ballVY[k] * invV, -1), 1)
            } else {
                b[0] = 0; b[1] = 0; b[2] = 0; b[3] = 0; b[4] = 0
            }
        }
    }

    /// Index of the first brick cell in the observation.
    @inlinable public var cellStart: Int { 8 + 5 * Int(maxBalls) }

    /// Writes the brick cells' entries (hits left / `toughHits`, ``cellCount`` floats).
    @inlinable @inline(__always)
    func writeCells(_ bricks: UnsafePointer<UInt8>, into g: UnsafeMutablePointer<Float>) {
        let invHits = 1 / Float(toughHits)
        for k in 0 ..< cells { g[k] = Float(bricks[k] & BrickCell.hitsMask) * invHits }
    }

    /// ``observe(_:bricks:into:)`` with the grid's ``aimColumns(_:)`` given:
    /// a batch keeps it per game and recomputes it only when a brick changes.
    @inlinable @inline(__always)
    func observe(_ s: BreakoutCore, bricks: UnsafePointer<UInt8>, aimColumns: UInt32,
                 into o: UnsafeMutablePointer<Float>) {
        observeHead(s, into: o)
        writeCells(bricks, into: o + cellStart)
        observeRelative(s, aimColumns: aimColumns, into: o + relativeStart)
    }

    /// The columns with the most hits left (bit `c` for column `c`; 0 with
    /// no brick): the candidates of the aim feature (``BreakoutGame``'s
    /// table, F + 6), which takes the one nearest the focus crossing.
    ///
    /// Sums each column's hits row by row in one 32-lane byte vector (a
    /// column holds at most 16 rows × 7 hits = 112: no overflow).
    /// - Complexity: O(rows) vector operations.
    @inlinable
    public func aimColumns(_ bricks: UnsafePointer<UInt8>) -> UInt32 {
        let lanes = columnLanes
        var sums = SIMD32<UInt8>()
        let raw = UnsafeRawPointer(bricks)
        for row in 0 ..< rows {
            let start = row * cols
            var v: SIMD32<UInt8>
            if start + 32 <= cells {
                v = raw.loadUnaligned(fromByteOffset: start, as: SIMD32<UInt8>.self)
            } else {
                v = SIMD32<UInt8>()
                for c in 0 ..< cols { v[c] = bricks[start + c] }
            }
            sums &+= v & lanes
        }
        let most = sums.max()
        guard most > 0 else { return 0 }
        var mask: UInt32 = 0
        for c in 0 ..< cols where sums[c] == most { mask |= 1 << UInt32(c) }
        return mask
    }

    /// The paddle-relative features (``BreakoutGame``'s table from
    /// ``relativeStart``): per ball slot, and for the ball that reaches the
    /// paddle's face first (the focus ball), where it is and where it will
    /// cross the face line relative to the paddle, how soon, and where the
    /// bricks are.
    @inlinable @inline(__always)
    func observeRelative(_ s: BreakoutCore, aimColumns: UInt32, into o: UnsafeMutablePointer<Float>) {
        let invW = 1 / width
        let px = s.paddleX
        let n = Int(s.ballCount)
        var focus = -1
        var focusTime = Float.infinity, focusCrossing = px
        for k in 0 ..< Int(maxBalls) {
            let b = o + 3 * k
            guard k < n else { b[0] = 0; b[1] = 0; b[2] = 0; continue }
            let t = timeToFace(y: s.ballY[k], vy: s.ballVY[k])
            let crossing = crossingX(x: s.ballX[k], vx: s.ballVX[k], time: t)
            b[0] = Self.unit((s.ballX[k] - px) * invW)
            b[1] = Self.unit((crossing - px) * invW)
            b[2] = urgency(t)
            if t < focusTime || focus < 0 { focus = k; focusTime = t; focusCrossing = crossing }
        }
        let f = o + 3 * Int(maxBalls)
        if focus >= 0 {
            f[0] = 1
            f[1] = Self.unit((s.ballX[focus] - px) * invW)
            f[2] = Self.unit((focusCrossing - px) * invW)
            f[3] = Self.unit((focusCrossing - px) / (s.paddleHalfWidth + r))
            f[4] = urgency(focusTime)
            f[5] = Self.unit(s.ballVY[focus] / maxSpeed)
        } else {
            f[0] = 0; f[1] = 0; f[2] = 0; f[3] = 0; f[4] = 0; f[5] = 0
        }
        // The column with the most hits left (ties: the one nearest the
        // crossing, then the leftmost), relative to the crossing.
        var bestColumn = -1
        var bestDistance = Float.infinity
        var candidates = aimColumns
        while candidates != 0 {
            let col = candidates.trailingZeroBitCount
            candidates &= candidates &- 1
            let distance = abs((Float(col) + 0.5) * brickW - focusCrossing)
            if bestColumn < 0 || distance < bestDistance { bestColumn = col; bestDistance = distance }
        }
        f[6] = bestColumn < 0 ? 0 : Self.unit(((Float(bestColumn) + 0.5) * brickW - focusCrossing) * invW)
    }

    /// Frames until a ball at height `y` moving by `vy` reaches the
    /// paddle's face line (`paddleTop + r`) under gravity; without gravity a
    /// rising ball is counted up to the top wall and back (bricks ignored).
    /// 0 for a ball already at or below the line, infinity if it never gets there.
    @inlinable
    func timeToFace(y: Float, vy: Float) -> Float {
        let drop = y - (paddleTop + r)
        if drop <= 0 { return 0 }
        if gravity > 0 {
            // y + vy t − g t²/2 = face  →  t = (vy + √(vy² + 2 g drop)) / g
            return (vy + (vy * vy + 2 * gravity * drop).squareRoot()) / gravity
        }
        if vy < 0 { return drop / -vy }
        if vy > 0 { return (2 * (height - r) - y - (paddleTop + r)) / vy }
        return .infinity
    }

    /// Where a ball at `x` moving by `vx` is after `time` frames, the side
    /// walls reflecting it perfectly (`x` itself for an infinite time).
    @inlinable
    func crossingX(x: Float, vx: Float, time: Float) -> Float {
        guard time.isFinite else { return x }
        let span = width - 2 * r
        var u = (x - r + vx * time).truncatingRemainder(dividingBy: 2 * span)
        if u < 0 { u += 2 * span }
        return r + (u <= span ? u : 2 * span - u)
    }

    /// Arrival time as the share of the field the paddle can cross before
    /// it: `time × paddleSpeed / fieldWidth`, at most 1.
    @inlinable
    func urgency(_ time: Float) -> Float {
        min(time * paddleSpeed / width, 1)
    }

    /// `v` clamped to [−1, 1].
    @inlinable
    static func unit(_ v: Float) -> Float { min(max(v, -1), 1) }
}
