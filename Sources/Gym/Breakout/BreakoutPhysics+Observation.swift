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
    /// Always inlined, so that the state is not copied for the call (`o`
    /// might alias it; docs/throughput.md, "No copies of a game").
    @inlinable @inline(__always)
    public func observe(_ s: BreakoutCore, bricks: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<Float>) {
        withUnsafePointer(to: s) { observeHead($0, into: o) }
        writeCells(bricks, into: o + cellStart)
        observeRelative(s, aimColumns: aimColumns(bricks), into: o + relativeStart)
    }

    /// The entries before the brick cells (indices 0 ..< ``cellStart``) of
    /// the game whose state is at `c`. Read through the pointer field by
    /// field: taken by value, the whole state would be copied first (`o`
    /// might alias it).
    @inlinable @inline(__always)
    func observeHead(_ c: UnsafePointer<BreakoutCore>, into o: UnsafeMutablePointer<Float>) {
        let cx = width / 2
        let invCX = 1 / cx
        o[0] = (c.pointee.paddleX - cx) * invCX
        o[1] = min(c.pointee.paddleHalfWidth * invCX, 0.5)
        let counts = countEntries(c)
        o[2] = counts.lives
        o[3] = counts.levels
        // A cooldown of 0 gives 0 / pushCooldown = +0 without the division
        // (a game whose push is ready, or that never pushes).
        let cooldown = c.pointee.pushCooldown
        o[4] = pushCooldown > 0 && cooldown != 0 ? Float(cooldown) / Float(pushCooldown) : 0
        o[5] = config.watchdogSteps > 0 ? min(1, Float(c.pointee.stepsSinceProgress) / Float(config.watchdogSteps)) : 0
        o[6] = c.pointee.servePending ? 1 : 0
        o[7] = counts.speed
        observeBallSlots(c, into: o)
    }

    /// Head entries 2, 3 and 7 of the game whose state is at `c`: lives
    /// and walls cleared as shares of the config's, and the speed level
    /// over the speed cap, at most 1.
    @inlinable @inline(__always)
    func countEntries(_ c: UnsafePointer<BreakoutCore>) -> (lives: Float, levels: Float, speed: Float) {
        (Float(c.pointee.lives) / Float(config.lives), Float(c.pointee.levelsCleared) / Float(config.levels),
         min(c.pointee.speed * (1 / maxSpeed), 1))
    }

    /// The ball slots' entries of the head (indices 8 ..< ``cellStart``)
    /// of the game whose state is at `c`.
    @inlinable @inline(__always)
    func observeBallSlots(_ c: UnsafePointer<BreakoutCore>, into o: UnsafeMutablePointer<Float>) {
        let cx = width / 2, cy = height / 2
        let invCX = 1 / cx, invCY = 1 / cy, invV = 1 / maxSpeed
        let n = Int(c.pointee.ballCount)
        for k in 0 ..< Int(maxBalls) {
            let b = o + 8 + 5 * k
            if k < n {
                b[0] = 1
                b[1] = (c.pointee.ballX[k] - cx) * invCX
                b[2] = min(max((c.pointee.ballY[k] - cy) * invCY, -1), 1)
                b[3] = min(max(c.pointee.ballVX[k] * invV, -1), 1)
                b[4] = min(max(c.pointee.ballVY[k] * invV, -1), 1)
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

    /// ``observe(_:bricks:into:)`` of the game whose state is at `c`, with
    /// its grid's ``aimColumns(_:)`` given: a batch keeps it per game,
    /// recomputed only when a brick changes, so the wall is not scanned here.
    @inlinable @inline(__always)
    func observe(_ c: UnsafePointer<BreakoutCore>, bricks: UnsafePointer<UInt8>, aimColumns: UInt32,
                 into o: UnsafeMutablePointer<Float>) {
        observeHead(c, into: o)
        writeCells(bricks, into: o + cellStart)
        observeRelative(c.pointee, aimColumns: aimColumns, into: o + relativeStart)
    }

    /// The columns with the most hits left (bit `c` for column `c`; 0 with
    /// no brick): the candidates of the aim feature (``BreakoutGame``'s
    /// table, F + 6), which takes the one nearest the focus crossing.
    ///
    /// Sums each column's hits row by row, eight columns to a 64-bit word,
    /// one byte per column (a column holds at most 16 rows × 7 hits = 112,
    /// so no byte carries into the next).
    /// - Complexity: O(rows × ⌈columns / 8⌉ + columns).
    @inlinable
    public func aimColumns(_ bricks: UnsafePointer<UInt8>) -> UInt32 {
        let hits: UInt64 = 0x0707_0707_0707_0707
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
        for row in 0 ..< rows {
            let start = row * cols
            s0 &+= word(bricks, at: start, columns: cols) & hits
            if cols > 8 { s1 &+= word(bricks, at: start + 8, columns: cols - 8) & hits }
            if cols > 16 { s2 &+= word(bricks, at: start + 16, columns: cols - 16) & hits }
            if cols > 24 { s3 &+= word(bricks, at: start + 24, columns: cols - 24) & hits }
        }
        var most: UInt64 = 0, mask: UInt32 = 0
        for c in 0 ..< cols {
            let w = c < 8 ? s0 : c < 16 ? s1 : c < 24 ? s2 : s3
            let v = (w >> UInt64(8 * (c & 7))) & 0xFF
            if v > most {
                most = v; mask = 1 << UInt32(c)
            } else if v == most, v > 0 {
                mask |= 1 << UInt32(c)
            }
        }
        return mask
    }

    /// The cells `at ..< at + min(columns, 8)` of the grid as one
    /// little-endian word (cell `at` in the low byte), the bytes beyond
    /// zero; never reads past the grid's last cell.
    @inlinable @inline(__always)
    func word(_ bricks: UnsafePointer<UInt8>, at start: Int, columns: Int) -> UInt64 {
        let n = min(columns, 8)
        if start + 8 <= cells {
            let w = UnsafeRawPointer(bricks + start).loadUnaligned(as: UInt64.self).littleEndian
            return n == 8 ? w : w & ((1 << UInt64(8 * n)) - 1)
        }
        var w: UInt64 = 0
        for k in 0 ..< n { w |= UInt64(bricks[start + k]) << UInt64(8 * k) }
        return w
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
        let bestColumn = nearestColumn(aimColumns, to: focusCrossing)
        f[6] = bestColumn < 0 ? 0 : Self.unit(((Float(bestColumn) + 0.5) * brickW - focusCrossing) * invW)
    }

    /// The column of `candidates` (bit `c` for column `c`) whose centre
    /// `(c + 0.5) × brickW` is nearest `x` (ties: the leftmost), or −1 with
    /// no candidate: the argmin of `|centre − x|` over the candidates in
    /// column order, as a scan would find it.
    ///
    /// Distances fall while centres stay at or left of `x` and rise after
    /// (the centres are increasing; neighbouring ones differ by a brick's
    /// width, far more than a rounding step), so only two candidates can
    /// be nearest: the last at or left of `x` and the first right of it.
    /// - Complexity: O(1) (a few steps to place `x` among the centres).
    @inlinable @inline(__always)
    func nearestColumn(_ candidates: UInt32, to x: Float) -> Int {
        guard candidates != 0 else { return -1 }
        // j: the last column whose centre is at or left of x (−1: none).
        // A first guess (truncating a value clamped to 0 ... cols; NaN
        // gives 0), corrected by the exact tests below.
        let g = x * invBrickW + 0.5
        var j = Int(g >= 0 ? (g <= Float(cols) ? g : Float(cols)) : 0) - 1
        let tooFar = j >= 0 && (Float(j) + 0.5) * brickW > x
        let tooNear = j + 1 < cols && (Float(j + 1) + 0.5) * brickW <= x
        if tooFar || tooNear { j = settleColumn(j, to: x) }
        let low = j < 0 ? 0 : candidates & (UInt32.max >> UInt32(31 - j))
        let high = candidates & ~low
        // Both candidates' distances computed and the choice made by
        // selects (which one is nearer is a coin flip for the predictor).
        // An empty side gives column −1 (low) or 32 (high), never chosen.
        let left = 31 - low.leadingZeroBitCount, right = high.trailingZeroBitCount
        let leftDistance = abs((Float(left) + 0.5) * brickW - x)
        let rightDistance = abs((Float(right) + 0.5) * brickW - x)
        let hasLeft: UInt8 = low != 0 ? 1 : 0, hasRight: UInt8 = high != 0 ? 1 : 0
        let nearer: UInt8 = rightDistance < leftDistance ? 1 : 0
        return hasRight & (~hasLeft | nearer) & 1 != 0 ? right : left
    }

    /// The last column whose centre is at or left of `x` (−1: none),
    /// stepping from `j`: the rare correction of
    /// ``nearestColumn(_:to:)``'s first guess. Out of line and apart from
    /// the guess's test, so that the usual case (no step) stays
    /// straight-line code.
    @inline(never) @usableFromInline
    func settleColumn(_ j: Int, to x: Float) -> Int {
        var j = j
        while j >= 0, (Float(j) + 0.5) * brickW > x { j -= 1 }
        while j + 1 < cols, (Float(j + 1) + 0.5) * brickW <= x { j += 1 }
        return j
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
        // Both arrivals computed and one selected: whether a ball falls
        // or rises is a coin flip for the branch predictor.
        let falling = drop / -vy
        let rising = (2 * (height - r) - y - (paddleTop + r)) / vy
        return vy < 0 ? falling : vy > 0 ? rising : .infinity
    }

    /// Where a ball at `x` moving by `vx` is after `time` frames, the side
    /// walls reflecting it perfectly (`x` itself for an infinite time).
    @inlinable
    func crossingX(x: Float, vx: Float, time: Float) -> Float {
        guard time.isFinite else { return x }
        let span = width - 2 * r
        let v = Self.remainder(x - r + vx * time, 2 * span)
        let w = v + 2 * span
        let u = v < 0 ? w : v
        let back = 2 * span - u
        return r + (u <= span ? u : back)
    }

    /// `a.truncatingRemainder(dividingBy: p)` for `p > 0`, exactly (the
    /// remainder is exact): by at most two subtractions of `p` or `2p`
    /// while `|a| < 4p` (each exact: Sterbenz's lemma), else the library's.
    @inlinable @inline(__always)
    static func remainder(_ a: Float, _ p: Float) -> Float {
        let m = a.magnitude
        guard m < 4 * p else { return a.truncatingRemainder(dividingBy: p) }
        let m2 = m - 2 * p
        let u1 = m >= 2 * p ? m2 : m
        let u2 = u1 - p
        let u = u1 >= p ? u2 : u1
        return Float(signOf: a, magnitudeOf: u)
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
