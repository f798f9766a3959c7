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
    @inlinable @inline(__always) public var relativeStart: Int { 8 + 5 * Int(maxBalls) + cells }

    /// Writes the observation (see ``BreakoutGame``'s table; bounds in
    /// ``observationLayout``) into `o`.
    /// Always inlined, so that the state is not copied for the call (`o`
    /// might alias it).
    @inlinable @inline(__always)
    func observe(_ s: BreakoutCore, bricks: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<Float>) {
        withUnsafePointer(to: s) { observe($0, bricks: bricks, aimColumns: aimColumns(bricks), into: o) }
    }

    /// ``observe(_:bricks:into:)`` of the game whose state is at `c`, with
    /// its grid's ``aimColumns(_:)`` given: a batch keeps it per game,
    /// recomputed only when a brick changes, so the wall is not scanned here.
    /// Read through the pointer field by field: taken by value, the whole
    /// state would be copied first (`o` might alias it).
    @inlinable @inline(__always)
    func observe(_ c: UnsafePointer<BreakoutCore>, bricks: UnsafePointer<UInt8>, aimColumns: UInt32,
                 into o: UnsafeMutablePointer<Float>) {
        let n = Float(c.pointee.ballCount), slots = Int(c.pointee.ballCount)
        observeHead(c, into: o)
        writeCells(bricks, into: o + cellStart)
        let r = o + relativeStart
        let crossing = relativeEntries(paddleX: c.pointee.paddleX, halfWidth: c.pointee.paddleHalfWidth, count: n,
                                       slots: slots, ball: { (c.pointee.ballX[$0], c.pointee.ballY[$0],
                                                              c.pointee.ballVX[$0], c.pointee.ballVY[$0]) },
                                       SameRules()) { r[$0] = $1 }
        let near = Self.candidates(aimColumns, around: Int(placeColumn(crossing)))
        r[aimEntry] = aimEntry(column: nearerColumn(crossing, left: near.left, right: near.right), crossing: crossing)
    }

    /// Writes the entries before the brick cells (``cellStart`` floats: the
    /// head and every ball slot) of the game whose state is at `c` into `o`,
    /// as ``observe(_:bricks:aimColumns:into:)`` writes them.
    @inlinable @inline(__always)
    func observeHead(_ c: UnsafePointer<BreakoutCore>, into o: UnsafeMutablePointer<Float>) {
        let n = Float(c.pointee.ballCount)
        headEntries(paddleX: c.pointee.paddleX, halfWidth: c.pointee.paddleHalfWidth, lives: Float(c.pointee.lives),
                    levels: Float(c.pointee.levelsCleared), cooldown: Float(c.pointee.pushCooldown),
                    sinceProgress: Float(c.pointee.stepsSinceProgress), servePending: c.pointee.servePending ? 1 : 0,
                    speed: c.pointee.speed, SameRules()) { o[$0] = $1 }
        for k in 0 ..< Int(maxBalls) {
            let e = slotEntries(x: c.pointee.ballX[k], y: c.pointee.ballY[k], vx: c.pointee.ballVX[k],
                                vy: c.pointee.ballVY[k], active: Float(k) .< n, SameRules())
            let b = o + 8 + 5 * k
            b[0] = e.0; b[1] = e.1; b[2] = e.2; b[3] = e.3; b[4] = e.4
        }
    }

    // MARK: - Entries, for one game or eight (see ``LaneFloat``)

    /// Head entries 0 ..< 8 (``BreakoutGame``'s table: paddle, half width,
    /// lives and walls cleared as shares of the config's, push cooldown,
    /// watchdog, serve pending, speed level) from the fields given as
    /// floats, `servePending` 1 or 0, under the rules of `k`, written by
    /// `write(index, value)`.
    /// Entries that can reach a bound are clamped to it: a product with a
    /// precomputed reciprocal can pass it by a rounding step.
    @inlinable @inline(always)
    func headEntries<K: BreakoutRuleValues>(paddleX px: K.L, halfWidth: K.L, lives: K.L, levels: K.L, cooldown: K.L,
                                            sinceProgress: K.L, servePending: K.L, speed: K.L, _ k: K,
                                            write: (Int, K.L) -> Void) {
        typealias L = K.L
        let cx = width / 2
        let invCX = 1 / cx
        let zero = L(repeating: 0)
        write(0, (px - cx) * invCX)
        write(1, L.min(halfWidth * invCX, 0.5))
        write(2, lives / k.lives(self))
        write(3, levels / Float(config.levels))
        write(4, pushCooldown > 0 ? cooldown / Float(pushCooldown) : zero)
        write(5, config.watchdogSteps > 0 ? L.min(L(repeating: 1), sinceProgress / Float(config.watchdogSteps)) : zero)
        write(6, servePending)
        write(7, L.min(speed * k.invMaxSpeed(self), 1))
    }

    /// A ball slot's entries (in play, x, y, vx, vy; zeros where `active`
    /// does not hold) under the rules of `k`.
    @inlinable @inline(always)
    func slotEntries<K: BreakoutRuleValues>(x: K.L, y: K.L, vx: K.L, vy: K.L, active: K.L.Condition,
                                            _ k: K) -> (K.L, K.L, K.L, K.L, K.L) {
        typealias L = K.L
        let cx = width / 2, cy = height / 2
        let invCX = 1 / cx, invCY = 1 / cy, invV = k.invMaxSpeed(self)
        let idle = .!active
        return (L(repeating: 0).replacing(with: 1, where: active),
                ((x - cx) * invCX).replacing(with: 0, where: idle),
                Self.unit((y - cy) * invCY).replacing(with: 0, where: idle),
                Self.unit(vx * invV).replacing(with: 0, where: idle),
                Self.unit(vy * invV).replacing(with: 0, where: idle))
    }

    /// The paddle-relative features (``BreakoutGame``'s table from
    /// ``relativeStart``, written by `write(index from there, value)`): per
    /// ball slot, and for the ball that reaches the paddle's face first
    /// (the focus ball; ties: the lower slot), where it is and where it
    /// will cross the face line relative to the paddle, how soon, and where
    /// the bricks are (the last entry, ``aimEntry``, is the caller's:
    /// ``aimEntry(column:crossing:)`` of the aim column nearest the
    /// returned focus crossing). `count` is the balls in play; slots from
    /// `slots` on are in play in no game given and written as zeros without
    /// computing them; the rules are those of `rules`. Returns the focus ball's
    /// crossing (the paddle's x without one).
    @inlinable @inline(always)
    func relativeEntries<K: BreakoutRuleValues>(paddleX px: K.L, halfWidth half: K.L, count n: K.L, slots: Int,
                                                ball: (Int) -> (x: K.L, y: K.L, vx: K.L, vy: K.L), _ rules: K,
                                                write: (Int, K.L) -> Void) -> K.L {
        typealias L = K.L
        let invW = 1 / width
        let zero = L(repeating: 0)
        var focusTime = L(repeating: .infinity), focusCrossing = px, focusX = zero, focusVY = zero
        var hasFocus = zero .> 0
        for k in 0 ..< Int(maxBalls) {
            guard k < slots else {
                write(3 * k, zero); write(3 * k + 1, zero); write(3 * k + 2, zero)
                continue
            }
            let active = L(repeating: Float(k)) .< n, idle = .!active
            let b = ball(k)
            let t = timeToFace(y: b.y, vy: b.vy, rules)
            let crossing = crossingX(x: b.x, vx: b.vx, time: t)
            write(3 * k, Self.unit((b.x - px) * invW).replacing(with: 0, where: idle))
            write(3 * k + 1, Self.unit((crossing - px) * invW).replacing(with: 0, where: idle))
            write(3 * k + 2, urgency(t, rules).replacing(with: 0, where: idle))
            let better = active .& ((t .< focusTime) .| .!hasFocus)
            focusTime = focusTime.replacing(with: t, where: better)
            focusCrossing = focusCrossing.replacing(with: crossing, where: better)
            focusX = focusX.replacing(with: b.x, where: better)
            focusVY = focusVY.replacing(with: b.vy, where: better)
            hasFocus = hasFocus .| better
        }
        let f = 3 * Int(maxBalls), none = .!hasFocus
        write(f, zero.replacing(with: 1, where: hasFocus))
        write(f + 1, Self.unit((focusX - px) * invW).replacing(with: 0, where: none))
        write(f + 2, Self.unit((focusCrossing - px) * invW).replacing(with: 0, where: none))
        write(f + 3, Self.unit((focusCrossing - px) / (half + r)).replacing(with: 0, where: none))
        write(f + 4, urgency(focusTime, rules).replacing(with: 0, where: none))
        write(f + 5, Self.unit(focusVY / rules.maxSpeed(self)).replacing(with: 0, where: none))
        return focusCrossing
    }

    /// The last paddle-relative entry's index (from ``relativeStart``).
    @inlinable @inline(__always) var aimEntry: Int { 3 * Int(maxBalls) + 6 }

    /// The last paddle-relative entry: the aim column (the column with the
    /// most hits left nearest the crossing, ties to the leftmost; −1 with
    /// no brick) relative to the focus crossing, 0 without a column.
    @inlinable @inline(always)
    func aimEntry<L: LaneFloat>(column: L, crossing: L) -> L {
        Self.unit(((column + 0.5) * brickW - crossing) * (1 / width)).replacing(with: 0, where: column .< 0)
    }

    /// Index of the first brick cell in the observation.
    @inlinable public var cellStart: Int { 8 + 5 * Int(maxBalls) }

    /// Writes the brick cells' entries (``cellEntries(_:)``, ``cellCount``
    /// floats) of the grid `bricks`: sixteen at a time
    /// (``Lane8/writeBlocks(into:count:_:)``), or, for a wall of fewer than
    /// sixteen cells, its cells read into sixteen lanes whose first
    /// ``cellCount`` are written, so that every cell takes the same kernel.
    @usableFromInline @inline(__always)
    func writeCells(_ bricks: UnsafePointer<UInt8>, into g: UnsafeMutablePointer<Float>) {
        guard cells >= 16 else {
            var few = SIMD16<UInt8>()
            for k in 0 ..< cells { few[k] = bricks[k] }
            let e = cellEntries(few)
            for k in 0 ..< cells { g[k] = e[k] }
            return
        }
        let from = UnsafeRawPointer(bricks)
        Lane8.writeBlocks(into: g, count: cells) { cellEntries(from.loadUnaligned(fromByteOffset: $0, as: SIMD16<UInt8>.self)) }
    }

    /// Sixteen cells' observation entries from their bytes (``BrickCell``):
    /// hits left / `toughHits` (a byte 0, no brick: 0).
    @inline(__always)
    func cellEntries(_ cells: SIMD16<UInt8>) -> SIMD16<Float> {
        let h = cells & BrickCell.hitsMask
        return SIMD16(Float(h[0]), Float(h[1]), Float(h[2]), Float(h[3]), Float(h[4]), Float(h[5]), Float(h[6]),
                      Float(h[7]), Float(h[8]), Float(h[9]), Float(h[10]), Float(h[11]), Float(h[12]), Float(h[13]),
                      Float(h[14]), Float(h[15])) * (1 / Float(toughHits))
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
    func aimColumns(_ bricks: UnsafePointer<UInt8>) -> UInt32 {
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

    /// The column of `candidates` (bit `c` for column `c`) whose centre
    /// `(c + 0.5) × brickW` is nearest `x` (ties: the leftmost), or −1 with
    /// no candidate.
    @inlinable @inline(__always)
    func nearestColumn(_ candidates: UInt32, to x: Float) -> Int {
        let near = Self.candidates(candidates, around: Int(placeColumn(x)))
        return Int(nearerColumn(x, left: near.left, right: near.right))
    }

    /// The last candidate at or left of column `j` and the first right of
    /// it (−1 where there is none), `j` in −1 ..< `brickColumns`.
    @inlinable @inline(always)
    static func candidates(_ candidates: UInt32, around j: Int) -> (left: Float, right: Float) {
        let low = candidates & ((UInt32(1) << UInt32(j + 1)) &- 1)
        let high = candidates & ~low
        return (low == 0 ? -1 : Float(31 - low.leadingZeroBitCount), high == 0 ? -1 : Float(high.trailingZeroBitCount))
    }

    /// The nearest column to `x` among candidates, ties to the leftmost, −1
    /// with none, the argmin of `|centre − x|` over the candidates in
    /// column order as a scan would find it, is
    /// ``nearerColumn(_:left:right:)`` of the last candidate at or left of
    /// column ``placeColumn(_:)`` and the first right of it.
    ///
    /// Distances fall while centres stay at or left of `x` and rise after
    /// (the centres are increasing; neighbouring ones differ by a brick's
    /// width, far more than a rounding step), so only two candidates can
    /// be nearest: the last at or left of `x` and the first right of it.
    /// `x` is placed among the centres by a guess, `x × (1 / brickW) + 0.5`
    /// clamped to 0 ... columns (NaN gives 0) and truncated, corrected by
    /// one step: the guess is within a few rounding steps of `x / brickW +
    /// 0.5` (at most columns, so those steps are far below 1), and the
    /// rounded centres within one step of `(c + 0.5) × brickW`, so it is off
    /// by at most one column, too far or too near, never both.
    @inlinable @inline(always)
    func placeColumn<L: LaneFloat>(_ x: L) -> L {
        let columns = Float(cols)
        let g = x * invBrickW + 0.5
        let clamped = L(repeating: 0).replacing(with: g.replacing(with: columns, where: .!(g .<= columns)), where: g .>= 0)
        let j = clamped.rounded(.towardZero) - 1
        let tooFar = (j .>= 0) .& ((j + 0.5) * brickW .> x)
        let tooNear = (j + 1 .< columns) .& ((j + 1 + 0.5) * brickW .<= x)
        return j.replacing(with: j - 1, where: tooFar).replacing(with: j + 1, where: tooNear)
    }

    /// Of the candidates `left` (at or left of `x`) and `right` (right of
    /// it), −1 where there is none, the nearer to `x`: `right` only when
    /// strictly nearer or alone.
    @inlinable @inline(always)
    func nearerColumn<L: LaneFloat>(_ x: L, left: L, right: L) -> L {
        let dl = (left + 0.5) * brickW - x, dr = (right + 0.5) * brickW - x
        let nearer = L.max(dr, 0 - dr) .< L.max(dl, 0 - dl)
        let takeRight = (right .>= 0) .& (.!(left .>= 0) .| nearer)
        return left.replacing(with: right, where: takeRight)
    }

    /// Frames until a ball at height `y` moving by `vy` reaches the
    /// paddle's face line (`paddleTop + r`) under gravity; without gravity a
    /// rising ball is counted up to the top wall and back (bricks ignored).
    /// 0 for a ball already at or below the line, infinity if it never
    /// gets there. Without gravity one division: the arrival's distance
    /// over the speed toward it (`0 − vy` is `−vy` for every `vy < 0`).
    /// Gravity is that of `k`: lanes with and without it take each their
    /// own formula.
    @inlinable @inline(always)
    func timeToFace<K: BreakoutRuleValues>(y: K.L, vy: K.L, _ k: K) -> K.L {
        typealias L = K.L
        let drop = y - (paddleTop + r)
        let g = k.gravity(self)
        // y + vy t − g t²/2 = face  →  t = (vy + √(vy² + 2 g drop)) / g
        func fallTime() -> L { (vy + (vy * vy + drop * (g * 2)).squareRoot()) / g }
        var t: L
        if k.allGravity(self) {
            t = fallTime()
        } else {
            let falling = vy .< 0
            let rising = 2 * (height - r) - y - (paddleTop + r)
            t = rising.replacing(with: drop, where: falling) / vy.replacing(with: 0 - vy, where: falling)
            t = t.replacing(with: .infinity, where: .!falling .& .!(vy .> 0))
        }
        if k.someGravity(self) && !k.allGravity(self) { t = t.replacing(with: fallTime(), where: g .> 0) }
        return t.replacing(with: 0, where: drop .<= 0)
    }

    /// Where a ball at `x` moving by `vx` is after `time` frames, the side
    /// walls reflecting it perfectly (`x` itself for a time that is not
    /// finite). The offset's remainder modulo two spans is exact: at most
    /// two subtractions of `p` or `2p` while `|a| < 4p` (each exact:
    /// Sterbenz's lemma), else the library's; its sign is taken by a select
    /// on `a < 0` (a zero remainder's sign, which that drops, is not kept
    /// by the crossing).
    @inlinable @inline(always)
    func crossingX<L: LaneFloat>(x: L, vx: L, time: L) -> L {
        let span = width - 2 * r
        let p = 2 * span
        let a = x - r + vx * time
        let m = a.replacing(with: 0 - a, where: a .< 0)
        let u1 = m.replacing(with: m - 2 * p, where: m .>= 2 * p)
        let u = u1.replacing(with: u1 - p, where: u1 .>= p)
        let finite = (time .< .infinity) .& (time .> -.infinity)
        let v = u.replacing(with: 0 - u, where: a .< 0)
            .replacing(withRemainderOf: a, dividingBy: p, where: finite .& (m .>= 4 * p))
        let folded = v.replacing(with: v + 2 * span, where: v .< 0)
        let crossing = folded.replacing(with: 2 * span - folded, where: .!(folded .<= span)) + r
        return crossing.replacing(with: x, where: .!finite)
    }

    /// Arrival time as the share of the field the paddle can cross before
    /// it: `time × paddleSpeed / fieldWidth` (the paddle speed of `k`), at most 1.
    @inlinable @inline(always)
    func urgency<K: BreakoutRuleValues>(_ time: K.L, _ k: K) -> K.L {
        K.L.min(time * k.paddleSpeed(self) / width, 1)
    }

    /// `v` clamped to [−1, 1].
    @inlinable @inline(always)
    static func unit<L: LaneFloat>(_ v: L) -> L { L.min(L.max(v, -1), 1) }
}
