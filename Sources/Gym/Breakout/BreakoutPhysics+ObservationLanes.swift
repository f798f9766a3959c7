extension BreakoutPhysics {
    // MARK: - Observations of eight games at once (the batch's path)

    @usableFromInline typealias Lanes = SIMD8<Float>
    @usableFromInline typealias LaneMask = SIMDMask<SIMD8<Int32>>

    /// Writes the observations of the eight games `cores[0 ..< 8]` (game
    /// `g`'s cell entries — ``writeCells(_:into:)`` of its grid — at
    /// `entries + g × stride + cellStart`, in a row of its own whose other
    /// entries are 0, its ``aimColumns(_:)`` in `aim[g]`) to
    /// `o + g × stride`, `stride` being ``observationCount``: what
    /// ``observe(_:bricks:aimColumns:into:)`` writes for each, bit for bit.
    /// `scratch` holds ``laneScratchCount`` lane vectors (the caller's, so
    /// nothing is allocated here).
    ///
    /// The head (ball slots included) is computed for the eight games at
    /// once in float lanes (``observeHeadLanes(_:into:stride:scratch:quiet:)``),
    /// the cell entries copied with their rows, eight floats at a time
    /// (``copyRows(_:into:count:)``), before the rest is written; the
    /// paddle-relative features (per ball a chain of divisions, a remainder
    /// and selects) are computed for the eight games at once in float lanes
    /// (``observeRelativeLanes(aim:fields:most:into:stride:scratch:)``).
    func observeEight(_ cores: UnsafePointer<BreakoutCore>, cells entries: UnsafePointer<Float>, aim: UnsafePointer<UInt32>,
                      into o: UnsafeMutablePointer<Float>, stride: Int,
                      scratch: UnsafeMutablePointer<Lanes>) {
        observeEightLanes(cores, cells: entries, aim: aim, into: o, stride: stride, scratch: scratch,
                          quiet: false)
    }

    /// ``observeEight(_:cells:aim:into:stride:scratch:)`` of eight games
    /// whose step ran every frame in lanes
    /// (``quietLanes(_:actions:frames:fields:serveFrames:)``, which left their paddle,
    /// ball and cooldown lanes in `scratch` from ``laneFieldsStart`` on)
    /// and was finished without an end: each has one ball in play and no
    /// serve pending, or no ball in play and a serve pending, so those
    /// fields are taken from `scratch` instead of being gathered again from
    /// the cores, the same values bit for bit.
    func observeQuietEight(_ cores: UnsafePointer<BreakoutCore>, cells entries: UnsafePointer<Float>,
                           aim: UnsafePointer<UInt32>, into o: UnsafeMutablePointer<Float>, stride: Int,
                           scratch: UnsafeMutablePointer<Lanes>) {
        observeEightLanes(cores, cells: entries, aim: aim, into: o, stride: stride, scratch: scratch,
                          quiet: true)
    }

    /// The body of both: `quiet` as in
    /// ``observeHeadLanes(_:into:stride:scratch:quiet:)``.
    @inline(always)
    func observeEightLanes(_ cores: UnsafePointer<BreakoutCore>, cells entries: UnsafePointer<Float>,
                           aim: UnsafePointer<UInt32>, into o: UnsafeMutablePointer<Float>, stride: Int,
                           scratch: UnsafeMutablePointer<Lanes>, quiet: Bool) {
        // The eight games' rows with their cells, copied whole (the rows are
        // contiguous in both); the head and the paddle-relative entries
        // are then written over the rest.
        assert(stride == observationCount, "eight rows of an observation each")
        Lane8.copyRows(entries, into: o, count: 8 &* stride)
        let most = observeHeadLanes(cores, into: o, stride: stride, scratch: scratch, quiet: quiet)
        // The fields both passes read, gathered by the head (or left by the lanes).
        let fields = UnsafePointer(scratch + Self.laneFieldsStart)
        observeRelativeLanes(aim: aim, fields: fields, most: most, into: o + relativeStart, stride: stride,
                             scratch: scratch)
    }

    /// ``observeHead(_:into:)`` (paddle, lives, levels, cooldown, watchdog,
    /// serve, speed, then the ball slots) of eight games, lane `g` for game
    /// `g`, written to the games' rows by ``storeRows(_:count:into:stride:)``: the same
    /// operations on the same operands (the divisions lane by lane), every
    /// `min` replaced by a select on the comparison the library's
    /// `min(a, b)` makes (`b < a ? b : a`) and every `max(a, b)` by one on
    /// `b >= a`; a slot a game does not use is written as zeros, as the
    /// scalar code writes it, except the slots none of the eight games
    /// uses: those are not written (the rows copied before hold zeros
    /// there). A cooldown of 0 gives +0 either way (0
    /// divided by a positive count). `scratch` takes the entries, and from
    /// ``laneFieldsStart`` on the gathered fields
    /// ``observeRelativeLanes(aim:fields:most:into:stride:scratch:)`` reads:
    /// paddle x, paddle half width, ball count, then each slot's x, y, vx,
    /// vy (only the slots some game uses). Returns the most balls any of
    /// the eight games has.
    ///
    /// `quiet`: the eight games' steps all ran in lanes and did not end
    /// (see ``observeQuietEight(_:cells:aim:into:stride:scratch:)``):
    /// paddle x, half width, ball count, slot 0 and the push cooldown are
    /// read from the fields ``quietLanes(_:actions:frames:fields:serveFrames:)`` left;
    /// each lane has one ball and no serve pending, or no ball and a
    /// serve pending.
    @inline(always)
    func observeHeadLanes(_ c: UnsafePointer<BreakoutCore>, into o: UnsafeMutablePointer<Float>,
                          stride: Int, scratch: UnsafeMutablePointer<Lanes>, quiet: Bool) -> Int32 {
        let cx = width / 2
        let invCX = 1 / cx, invV = 1 / maxSpeed
        let one = Lanes(repeating: 1), zero = Lanes()
        let fields = scratch + Self.laneFieldsStart
        let px: Lanes, halfWidth: Lanes
        if quiet {
            px = fields[0]
            halfWidth = fields[1]
        } else {
            px = Self.gather(c) { $0.pointee.paddleX }
            halfWidth = Self.gather(c) { $0.pointee.paddleHalfWidth }
            fields[0] = px
            fields[1] = halfWidth
        }
        scratch[0] = (px - cx) * invCX
        let half = halfWidth * invCX
        scratch[1] = half.replacing(with: 0.5, where: 0.5 .< half)
        // Lives, levels and speed: countEntries' operations.
        scratch[2] = Self.gather(c) { Float($0.pointee.lives) } / Float(config.lives)
        scratch[3] = Self.gather(c) { Float($0.pointee.levelsCleared) } / Float(config.levels)
        if pushCooldown > 0 {
            let cooldown = quiet ? fields[Self.laneCooldownField] : Self.gather(c) { Float($0.pointee.pushCooldown) }
            scratch[4] = cooldown / Float(pushCooldown)
        } else {
            scratch[4] = zero
        }
        if config.watchdogSteps > 0 {
            let since = Self.gather(c) { Float($0.pointee.stepsSinceProgress) }
            let w = since / Float(config.watchdogSteps)
            scratch[5] = one.replacing(with: w, where: w .< 1)
        } else {
            scratch[5] = zero
        }
        // Quiet: a lane's serve is pending iff it has no ball in play.
        scratch[6] = quiet ? one - fields[2] : Self.gather(c) { $0.pointee.servePending ? 1 : 0 }
        let speed = Self.gather(c) { $0.pointee.speed } * (1 / maxSpeed)
        scratch[7] = speed.replacing(with: 1, where: 1 .< speed)
        let cy = height / 2
        let invCY = 1 / cy
        let n: Lanes
        var most: Int32 = 0
        if quiet {
            n = fields[2]
            most = Lane8.sum(n) != 0 ? 1 : 0
        } else {
            n = Self.gather(c) { Float($0.pointee.ballCount) }
            fields[2] = n
            for g in 0 ..< 8 { most = Swift.max(most, c[g].ballCount) }
        }
        // Slots no game uses are left as the copied rows hold them: zeros,
        // as the scalar code writes.
        for k in 0 ..< Int(most) {
            let b = scratch + 8 + 5 * k
            let idle: LaneMask = .!(Lanes(repeating: Float(k)) .< n)
            let slot = fields + 3 + 4 * k
            let x: Lanes, y: Lanes, vx: Lanes, vy: Lanes
            if quiet {
                // Slot 0 only (most is 1 at most).
                x = slot[0]; y = slot[1]; vx = slot[2]; vy = slot[3]
            } else {
                x = Self.gather(c) { $0.pointee.ballX[k] }
                y = Self.gather(c) { $0.pointee.ballY[k] }
                vx = Self.gather(c) { $0.pointee.ballVX[k] }
                vy = Self.gather(c) { $0.pointee.ballVY[k] }
                slot[0] = x; slot[1] = y; slot[2] = vx; slot[3] = vy
            }
            b[0] = one.replacing(with: 0, where: idle)
            b[1] = ((x - cx) * invCX).replacing(with: 0, where: idle)
            b[2] = Self.unitLanes((y - cy) * invCY).replacing(with: 0, where: idle)
            b[3] = Self.unitLanes(vx * invV).replacing(with: 0, where: idle)
            b[4] = Self.unitLanes(vy * invV).replacing(with: 0, where: idle)
        }
        Lane8.storeRows(scratch, count: 8 + 5 * Int(most), into: o, stride: stride)
        return most
    }

    /// Lane vectors ``observeEight(_:cells:aim:into:stride:scratch:)``
    /// needs as scratch: one per entry of a game's head or of its
    /// paddle-relative features, whichever are more, then the gathered
    /// fields (from ``laneFieldsStart``: three, four per ball slot, and the
    /// push cooldown ``quietLanes(_:actions:frames:fields:serveFrames:)`` leaves).
    @usableFromInline static let laneScratchCount = laneFieldsStart + laneCooldownField + 1

    /// The push cooldown's place among the fields (after the ball slots).
    static let laneCooldownField = 3 + 4 * BreakoutConfig.ballSlots

    /// Where the gathered fields start in the scratch (after the entries).
    static let laneFieldsStart = Swift.max(8 + 5 * BreakoutConfig.ballSlots, 3 * BreakoutConfig.ballSlots + 7)

    /// ``observeRelative(_:aimColumns:into:)`` of eight games (game `g`'s
    /// fields in lane `g` of `fields`, its aim candidates in `aim[g]`,
    /// written to `o + g × stride`).
    ///
    /// Bit for bit the scalar code's values: the same operations on the same
    /// operands in the same order, every branch and every `min`/`max`
    /// replaced by a select on the same comparison (`min(a, b)` is
    /// `b < a ? b : a`, `max(a, b)` is `b >= a ? b : a`, as the standard
    /// library defines them), and empty ball slots written as zeros (the
    /// slots none of the eight games uses only as far as a transpose needs:
    /// the rows copied before hold zeros there). Where
    /// the scalar code takes the library's remainder (an offset of at least
    /// four periods), that lane is recomputed with it. The nearest aim
    /// column is the scan ``nearestColumn(_:to:)`` equals, in lanes
    /// (``nearestColumnLanes(_:to:)``). Each entry's eight values go to
    /// `scratch` (one lane vector per entry), and the games' rows are
    /// written from there four entries at a time by four-by-four transposes
    /// (``storeRows(_:count:into:stride:)``), not lane by lane. The games'
    /// fields come from `fields`, as
    /// ``observeHeadLanes(_:into:stride:scratch:quiet:)`` gathered them
    /// (outside the entries this writes); `most` is the most balls any of
    /// the eight games has, as that function returned it.
    @inline(never)
    func observeRelativeLanes(aim: UnsafePointer<UInt32>, fields: UnsafePointer<Lanes>, most: Int32,
                              into o: UnsafeMutablePointer<Float>, stride: Int, scratch: UnsafeMutablePointer<Lanes>) {
        let invW = 1 / width
        let px = fields[0], half = fields[1], n = fields[2]
        var focusTime = Lanes(repeating: .infinity), focusCrossing = px
        var focusX = Lanes(), focusVY = Lanes()
        var hasFocus = LaneMask()
        let balls = Int(maxBalls)
        // Slot k is used by some game iff k < most (a scalar test, no mask
        // reduction).
        for k in 0 ..< balls {
            let b = scratch + 3 * k
            let active: LaneMask = Lanes(repeating: Float(k)) .< n
            guard k < Int(most) else {
                // No game has a ball in this slot: zeros, as the scalar code writes.
                b[0] = Lanes(); b[1] = Lanes(); b[2] = Lanes()
                continue
            }
            let slot = fields + 3 + 4 * k
            let x = slot[0], y = slot[1], vx = slot[2], vy = slot[3]
            let t = timeToFaceLanes(y: y, vy: vy)
            let crossing = crossingXLanes(x: x, vx: vx, time: t)
            b[0] = Self.unitLanes((x - px) * invW).replacing(with: 0, where: .!active)
            b[1] = Self.unitLanes((crossing - px) * invW).replacing(with: 0, where: .!active)
            b[2] = urgencyLanes(t).replacing(with: 0, where: .!active)
            let better: LaneMask = active .& ((t .< focusTime) .| .!hasFocus)
            focusTime = focusTime.replacing(with: t, where: better)
            focusCrossing = focusCrossing.replacing(with: crossing, where: better)
            focusX = focusX.replacing(with: x, where: better)
            focusVY = focusVY.replacing(with: vy, where: better)
            hasFocus = hasFocus .| better
        }
        let noFocus: LaneMask = .!hasFocus
        let f = scratch + 3 * balls
        f[0] = Lanes().replacing(with: 1, where: hasFocus)
        f[1] = Self.unitLanes((focusX - px) * invW).replacing(with: 0, where: noFocus)
        f[2] = Self.unitLanes((focusCrossing - px) * invW).replacing(with: 0, where: noFocus)
        f[3] = Self.unitLanes((focusCrossing - px) / (half + r)).replacing(with: 0, where: noFocus)
        f[4] = urgencyLanes(focusTime).replacing(with: 0, where: noFocus)
        f[5] = Self.unitLanes(focusVY / maxSpeed).replacing(with: 0, where: noFocus)
        let column = nearestColumnLanes(UnsafeRawPointer(aim).loadUnaligned(as: SIMD8<UInt32>.self), to: focusCrossing)
        f[6] = Self.unitLanes(((column + 0.5) * brickW - focusCrossing) * invW).replacing(with: 0, where: column .< 0)
        // The slots no game uses are zeros in the copied rows (and in
        // `scratch`, for a transpose that runs into them).
        Lane8.storeRows(scratch, count: 3 * balls + 7, skipping: 3 * Int(most) ..< 3 * balls, into: o, stride: stride)
    }

    /// ``nearestColumn(_:to:)`` lane by lane (`candidates[g]` and `x[g]`;
    /// −1 where a game has no candidate): the scan that function equals
    /// (every candidate in column order, a strictly nearer one replacing
    /// the choice), run from the highest column down with a nearer or
    /// equally near one replacing it (the same choice: the lowest column
    /// of least distance), on the same distances `|(c + 0.5) × brickW − x|`. Only the
    /// columns between the lowest and the highest candidate of any lane are
    /// scanned; no branch depends on a lane.
    ///
    /// A column that is not a lane's candidate is at a NaN distance in that
    /// lane (never taken), and the running best distance starts at
    /// infinity instead of "none yet": for a finite `x` every candidate's
    /// distance is finite, so the first candidate is taken as it would be, and
    /// each column costs one compare and one select on the chain from
    /// column to column. A lane whose `x` is not finite (never in play)
    /// takes the scalar function.
    @inline(always)
    func nearestColumnLanes(_ candidates: SIMD8<UInt32>, to x: Lanes) -> Lanes {
        var best = Lanes(repeating: -1), bestDistance = Lanes(repeating: .infinity)
        let union = candidates[0] | candidates[1] | candidates[2] | candidates[3]
            | candidates[4] | candidates[5] | candidates[6] | candidates[7]
        guard union != 0 else { return best }
        // x − x is +0 in every finite lane and NaN in any other; their sum
        // is 0 only when every lane is finite (a reduction by hand).
        let probe = x - x
        guard Lane8.sum(probe) == 0 else {
            return nearestColumnLanesOneByOne(candidates, to: x)
        }
        if cols <= Self.placedColumnsLimit {
            return nearestColumnPlacedLanes(candidates, to: x)
        }
        let first = union.trailingZeroBitCount, last = 31 - union.leadingZeroBitCount
        // Each column's candidate bits in the sign bit, highest column
        // first: the select reads the sign bit, so the test is one shift
        // (arithmetic, giving a whole-lane mask) and the next column's bit
        // one shift more.
        var bits = SIMD8<Int32>(truncatingIfNeeded: candidates &<< UInt32(31 - last))
        // A column that is not a candidate is at a NaN distance: never
        // taken (no comparison with NaN holds).
        let unset = Lanes(repeating: .nan)
        // The column number in every lane (counted in floats: exact).
        var column = Lanes(repeating: Float(last))
        // Columns left to scan (at least one: the union is not empty),
        // counted down without an overflow check.
        var left = last &- first &+ 1
        repeat {
            let isCandidate = unsafeBitCast(bits &>> 31, to: LaneMask.self)
            bits &<<= 1
            let distance = unset.replacing(with: Lane8.magnitude((column + 0.5) * brickW - x), where: isCandidate)
            // From the highest column down, a nearer or equally near
            // candidate replaces the choice: the lowest of the nearest
            // ones is kept, as the scan in column order keeps it.
            let take: LaneMask = distance .<= bestDistance
            bestDistance = bestDistance.replacing(with: distance, where: take)
            best = best.replacing(with: column, where: take)
            column -= 1
            left &-= 1
        } while left != 0
        return best
    }

    /// The widest wall ``nearestColumnPlacedLanes(_:to:)`` takes: its
    /// candidate sets below `1 << 24` convert to floats exactly.
    static let placedColumnsLimit = 24

    /// ``nearestColumn(_:to:)`` lane by lane, the way that function finds
    /// it (for finite `x` and walls of at most ``placedColumnsLimit``
    /// columns): `x` placed among the column centres by the same first
    /// guess and the same correction, then the last candidate at or left
    /// of it and the first right of it, the same distances and the same
    /// choice (the right one only when strictly nearer or alone; −1
    /// without candidates).
    ///
    /// The correction is one step here (that function's loop takes as
    /// many as needed): the guess `x × (1 / brickW) + 0.5`, clamped to
    /// 0 ... columns, is within a few rounding steps of `x / brickW + 0.5`
    /// (at most columns, so those steps are far below 1), and the rounded
    /// centres within one step of `(c + 0.5) × brickW`: the truncated
    /// guess is off by at most one column, too far or too near, never both
    /// (the centres increase).
    ///
    /// The highest set bit of a candidate set and the lowest (isolated as
    /// `v & −v`) are read from the exponents of their exact float
    /// conversions, since the lanes have no bit scans. Out of line, a
    /// kernel of its own (docs/throughput.md, "Kernels of bounded size").
    @inline(never)
    func nearestColumnPlacedLanes(_ candidates: SIMD8<UInt32>, to x: Lanes) -> Lanes {
        let columns = Lanes(repeating: Float(cols))
        let g = x * invBrickW + 0.5
        // The guess's clamp to 0 ... cols (g is finite), then truncation:
        // j is the last column at or left of x by the guess.
        let clamped = Lanes().replacing(with: g.replacing(with: columns, where: .!(g .<= columns)), where: g .>= 0)
        var j = clamped.rounded(.towardZero) - 1
        let tooFar: LaneMask = (j .>= 0) .& ((j + 0.5) * brickW .> x)
        let tooNear: LaneMask = (j + 1 .< columns) .& ((j + 1 + 0.5) * brickW .<= x)
        j = j.replacing(with: j - 1, where: tooFar).replacing(with: j + 1, where: tooNear)
        let t = j + 1
        // Columns 0 ... j: the low t bits.
        let low = candidates & ((SIMD8<UInt32>(repeating: 1) &<< Lane8.integers(t)) &- 1)
        let high = candidates & ~low
        // Both sets and the right one's lowest bit as floats (exact), tested
        // for zero and read for their highest bit as floats.
        let lowSet = Lanes(SIMD8<Int32>(truncatingIfNeeded: low))
        let rightBit = Lanes(SIMD8<Int32>(truncatingIfNeeded: high & (0 &- high)))
        let left = Self.highestBit(lowSet), right = Self.highestBit(rightBit)
        let leftDistance = Lane8.magnitude((left + 0.5) * brickW - x)
        let rightDistance = Lane8.magnitude((right + 0.5) * brickW - x)
        let hasLeft: LaneMask = lowSet .> 0, hasRight: LaneMask = rightBit .> 0
        let takeRight = hasRight .& (.!hasLeft .| (rightDistance .< leftDistance))
        return left.replacing(with: right, where: takeRight).replacing(with: -1, where: .!(hasLeft .| hasRight))
    }

    /// The index of the highest set bit of each lane of `v` (positive
    /// integers, exact: their exponents), as a float; meaningless for 0.
    @inline(always)
    static func highestBit(_ v: Lanes) -> Lanes {
        Lanes((unsafeBitCast(v, to: SIMD8<Int32>.self) &>> 23) &- 127)
    }

    /// ``nearestColumn(_:to:)`` of each lane (out of line: rare).
    @inline(never)
    func nearestColumnLanesOneByOne(_ candidates: SIMD8<UInt32>, to x: Lanes) -> Lanes {
        var best = Lanes()
        for g in 0 ..< 8 { best[g] = Float(nearestColumn(candidates[g], to: x[g])) }
        return best
    }

    /// One float of each of the eight games `c[0 ..< 8]`, lane `g` from game `g`.
    @inline(always)
    static func gather(_ c: UnsafePointer<BreakoutCore>, _ read: (UnsafePointer<BreakoutCore>) -> Float) -> Lanes {
        Lanes(read(c), read(c + 1), read(c + 2), read(c + 3), read(c + 4), read(c + 5), read(c + 6), read(c + 7))
    }

    /// ``unit(_:)`` lane by lane.
    @inline(always)
    static func unitLanes(_ v: Lanes) -> Lanes {
        let low = v.replacing(with: -1, where: -1 .>= v)
        return low.replacing(with: 1, where: 1 .< low)
    }

    /// ``urgency(_:)`` lane by lane.
    @inline(always)
    func urgencyLanes(_ time: Lanes) -> Lanes {
        let u = time * paddleSpeed / width
        return u.replacing(with: 1, where: 1 .< u)
    }

    /// ``timeToFace(y:vy:)`` lane by lane (both arrivals computed, one selected).
    @inline(always)
    func timeToFaceLanes(y: Lanes, vy: Lanes) -> Lanes {
        let drop = y - (paddleTop + r)
        var t: Lanes
        if gravity > 0 {
            t = (vy + (vy * vy + 2 * gravity * drop).squareRoot()) / gravity
        } else {
            // One division per lane: the selected arrival's numerator and
            // denominator (falling: drop / −vy, rising: its distance / vy),
            // the same operation as the scalar code's for that lane. 0 − vy
            // is −vy for every vy < 0.
            let falling: LaneMask = vy .< 0
            let rising = 2 * (height - r) - y - (paddleTop + r)
            t = rising.replacing(with: drop, where: falling) / vy.replacing(with: 0 - vy, where: falling)
            t = t.replacing(with: .infinity, where: .!falling .& .!(vy .> 0))
        }
        return t.replacing(with: 0, where: drop .<= 0)
    }

    /// ``crossingX(x:vx:time:)`` lane by lane.
    ///
    /// The remainder's sign is taken by a select on `a < 0` instead of
    /// `Float(signOf:magnitudeOf:)`: they differ only in the sign of a zero
    /// remainder, which the crossing (`r` plus it, or a wall's distance
    /// minus it) does not keep.
    @inline(always)
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
        // Any far lane: the sum of 1 per far lane (a reduction by hand).
        if Lane8.sum(Lanes().replacing(with: 1, where: far)) != 0 {
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
