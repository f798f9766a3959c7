extension BreakoutPhysics {
    // MARK: - Quiet frames (the batch's fast path)

    /// Advances one frame with `action` when it is quiet, and reports
    /// whether it was; a frame that is not quiet leaves `s` unchanged (then
    /// ``tick(_:bricks:action:events:fastPath:)`` runs it).
    ///
    /// A frame is quiet when ``tick(_:bricks:action:events:fastPath:)``
    /// would only count it, count the push cooldown down, move the paddle
    /// and move every ball by its velocity, with no event:
    /// - a serve is pending, no ball is in play, bricks are left and this
    ///   frame does not serve (automatic serve: the timer does not reach 0;
    ///   manual: the action is not push); or
    /// - no serve is pending, at least one ball is in play, bricks are left,
    ///   the push takes no effect, and every ball's frame is clear
    ///   (``frameIsClear(_:_:_:_:px0:pvx:half:)``, after gravity and the speed cap) and
    ///   ends neither overlapping the moved paddle nor below the bottom edge.
    ///
    /// Those are the tests ``tick(_:bricks:action:events:fastPath:)`` and
    /// ``moveBall(_:_:bricks:px0:pvx:events:fastPath:)`` make, on the same
    /// values with the same operations (lane by lane over the eight ball
    /// slots), so a quiet frame's result is the tick's, bit for bit. The
    /// grid is not read: a quiet frame costs the same whatever the wall.
    @inlinable @inline(__always)
    public func quietFrame(_ s: inout BreakoutCore, action: Int) -> Bool {
        let cooldown = s.pushCooldown > 0 ? s.pushCooldown - 1 : 0
        let isPush = action == BreakoutAction.push.rawValue
        let px0 = s.paddleX
        if s.servePending {
            guard s.ballCount == 0, s.bricksLeft != 0 else { return false }
            var timer = s.serveTimer
            if autoServe {
                if timer > 0 { timer -= 1 }
                if timer == 0 { return false }
            } else if isPush {
                return false
            }
            let px1 = paddleTarget(px0, half: s.paddleHalfWidth, action: action)
            s.frames &+= 1
            s.pushCooldown = cooldown
            s.serveTimer = timer
            s.paddleX = min(max(px1, s.paddleHalfWidth), width - s.paddleHalfWidth)
            return true
        }
        let n = s.ballCount
        if n <= 0 || s.bricksLeft == 0 || (isPush && cooldown == 0 && pushImpulse > 0) { return false }
        let half = s.paddleHalfWidth
        let px1 = paddleTarget(px0, half: half, action: action)
        let pvx = px1 - px0
        let pxEnd = px0 + pvx
        if n == 1, gravity <= 0 {
            // One ball (the common case) in scalars: the same tests as the
            // lanes below. Slots 1 ... 7 hold zeros, so the slot vectors
            // are rebuilt whole from slot 0 (vectors built whole, never by a
            // lane write: docs/throughput.md).
            let x = s.ballX[0], y = s.ballY[0], vx = s.ballVX[0], vy = s.ballVY[0]
            let x1 = x + vx, y1 = y + vy
            let squeezed = (abs(x1 - pxEnd) < half + r ? 1 : 0) & (abs(y1 - paddleY) < paddleHalfH + r ? 1 : 0) as UInt8
            let kept = (frameIsClear(x, y, vx, vy, px0: px0, pvx: pvx, half: half) ? 1 : 0) & ~squeezed & (y1 < 0 ? 0 : 1) as UInt8
            guard kept & 1 != 0 else { return false }
            s.frames &+= 1
            s.pushCooldown = cooldown
            var bx = SIMD8<Float>(), by = SIMD8<Float>()
            bx[0] = x1
            by[0] = y1
            s.ballX = bx
            s.ballY = by
            s.paddleX = min(max(px1, half), width - half)
            return true
        }
        // All eight slots at once: slots at and beyond `ballCount` are not
        // tested, and their zeros stay zeros (zero velocity, no gravity
        // added).
        // Masks come from float compares only, and vectors are built whole
        // (docs/throughput.md, "Vectors built whole").
        typealias Lanes = SIMD8<Float>
        typealias Mask = SIMDMask<SIMD8<Int32>>
        let active: Mask = Lanes(0, 1, 2, 3, 4, 5, 6, 7) .< Float(n)
        var vx = s.ballVX, vy = s.ballVY
        if gravity > 0 {
            vy = vy.replacing(with: vy - gravity, where: active)
            let s2: Lanes = vx * vx + vy * vy
            let over: Mask = s2 .> maxSpeedSquared
            if any(over) {
                let k: Lanes = maxSpeed / s2.squareRoot()
                vx = vx.replacing(with: vx * k, where: over)
                vy = vy.replacing(with: vy * k, where: over)
            }
        }
        let y = s.ballY
        let x1: Lanes = s.ballX + vx, y1: Lanes = y + vy
        let lowY: Lanes = y.replacing(with: y1, where: y1 .< y)
        let highY: Lanes = y.replacing(with: y1, where: y1 .> y)
        let lowR: Lanes = lowY - r, highR: Lanes = highY + r
        let inside: Mask = (x1 .>= r) .& (x1 .<= width - r) .& (y1 .<= height - r)
        let offWall: Mask = (highR .<= wallBottom) .| (lowR .>= wallTop)
        // The paddle missed (``frameIsClear``'s tests, lane by lane; min
        // and max as selects on the same comparisons).
        let reach = half + r + Self.paddleMargin
        let rx0: Lanes = s.ballX - px0, rx1: Lanes = x1 - (px0 + pvx)
        let nearEnd: Lanes = rx0.replacing(with: rx1, where: rx1 .< rx0)
        let farEnd: Lanes = rx0.replacing(with: rx1, where: rx1 .>= rx0)
        let missed: Mask = (nearEnd .>= reach) .| (farEnd .<= -reach) .| (highR .<= paddleMissBelow)
        let clear: Mask = inside .& ((lowR .>= paddleTop) .| missed) .& offWall
        // |d| < w written as −w < d < w (the same for every number).
        let dx: Lanes = x1 - pxEnd, dy: Lanes = y1 - paddleY
        let wx = half + r, wy = paddleHalfH + r
        let nearX: Mask = (dx .< wx) .& (dx .> -wx)
        let nearY: Mask = (dy .< wy) .& (dy .> -wy)
        let lost: Mask = (nearX .& nearY) .| (y1 .< 0)
        let failed: Mask = active .& (.!clear .| lost)
        guard !any(failed) else { return false }
        s.frames &+= 1
        s.pushCooldown = cooldown
        s.ballX = x1
        s.ballY = y1
        if gravity > 0 {
            s.ballVX = vx
            s.ballVY = vy
        }
        s.paddleX = min(max(px1, half), width - half)
        return true
    }
}

extension BreakoutPhysics {
    // MARK: - Runs of quiet frames (one ball, no gravity)

    /// Runs up to `frames` frames with `action` while each is quiet, for a
    /// game with one ball in play and no gravity (``quietFrame(_:action:)``'s
    /// scalar case), the ball, paddle and cooldown kept in registers;
    /// returns the frames run (0 when the game is not in that case). The
    /// state after `k` frames is that of `k` quiet frames, bit for bit (the
    /// same tests and operations; the ball slots beyond the first hold
    /// zeros and stay untouched); the first frame that is not quiet is left
    /// to the caller, and the frames' action is not recorded (the caller
    /// records it as ``frameAction(_:action:sticky:)`` does).
    @inlinable @inline(always)
    public func quietRun(_ s: inout BreakoutCore, action: Int, frames: Int) -> Int {
        guard !s.servePending, s.ballCount == 1, s.bricksLeft != 0, gravity <= 0 else { return 0 }
        let isPush = action == BreakoutAction.push.rawValue
        let half = s.paddleHalfWidth
        var px = s.paddleX, cooldown = s.pushCooldown
        var x = Self.slot0(&s.ballX), y = Self.slot0(&s.ballY)
        let vx = Self.slot0(&s.ballVX), vy = Self.slot0(&s.ballVY)
        var k = 0
        while k < frames {
            let next = cooldown > 0 ? cooldown - 1 : 0
            if isPush && next == 0 && pushImpulse > 0 { break }
            let px1 = paddleTarget(px, half: half, action: action)
            let pvx = px1 - px
            let pxEnd = px + pvx
            let x1 = x + vx, y1 = y + vy
            let squeezed = (abs(x1 - pxEnd) < half + r ? 1 : 0) & (abs(y1 - paddleY) < paddleHalfH + r ? 1 : 0) as UInt8
            let kept = (frameIsClear(x, y, vx, vy, px0: px, pvx: pvx, half: half) ? 1 : 0) & ~squeezed & (y1 < 0 ? 0 : 1) as UInt8
            guard kept & 1 != 0 else { break }
            cooldown = next
            x = x1
            y = y1
            px = min(max(px1, half), width - half)
            k += 1
        }
        if k > 0 {
            Self.endRun(&s, frames: k, cooldown: cooldown, paddleX: px)
            Self.setSlot0(&s.ballX, x)
            Self.setSlot0(&s.ballY, y)
        }
        return k
    }
}

extension BreakoutPhysics {
    /// Lane 0 of a ball-slot vector, read as one float in memory (as a
    /// vector read, the whole vector was loaded and kept for the write back).
    @inlinable @inline(always)
    static func slot0(_ v: inout SIMD8<Float>) -> Float {
        withUnsafeMutablePointer(to: &v) { UnsafeRawPointer($0).load(as: Float.self) }
    }

    /// Writes back what every run of `k > 0` quiet frames changes: the
    /// frame count, the push cooldown and the paddle (the run's own
    /// registers are written by the run).
    @inlinable @inline(always)
    static func endRun(_ s: inout BreakoutCore, frames k: Int, cooldown: Int32, paddleX px: Float) {
        s.frames &+= Int32(truncatingIfNeeded: k)
        s.pushCooldown = cooldown
        s.paddleX = px
    }

    /// Sets lane 0 of a ball-slot vector by one float store (a lane write
    /// of the vector was a load, a blend and a 32-byte store).
    @inlinable @inline(always)
    static func setSlot0(_ v: inout SIMD8<Float>, _ value: Float) {
        withUnsafeMutablePointer(to: &v) { UnsafeMutableRawPointer($0).storeBytes(of: value, as: Float.self) }
    }
}

extension BreakoutPhysics {
    // MARK: - Runs of quiet serve frames (no ball in play)

    /// Runs up to `frames` frames with `action` while each is quiet, for a
    /// game whose serve is pending with no ball in play and bricks left
    /// (``quietFrame(_:action:)``'s first case), the paddle, cooldown and
    /// serve timer kept in registers; returns the frames run (0 when the
    /// game is not in that case). The state after `k` frames is that of `k`
    /// quiet frames, bit for bit (the same tests and operations); the first
    /// frame that is not quiet (the serve: the timer reaching 0, or the push
    /// action without automatic serve) is left to the caller, and the
    /// frames' action is not recorded (the caller records it as
    /// ``frameAction(_:action:sticky:)`` does).
    @inlinable @inline(always)
    public func serveRun(_ s: inout BreakoutCore, action: Int, frames: Int) -> Int {
        guard s.servePending, s.ballCount == 0, s.bricksLeft != 0 else { return 0 }
        if !autoServe && action == BreakoutAction.push.rawValue { return 0 }
        let half = s.paddleHalfWidth
        var px = s.paddleX, cooldown = s.pushCooldown, timer = s.serveTimer
        var k = 0
        while k < frames {
            var t = timer
            if autoServe {
                if t > 0 { t -= 1 }
                if t == 0 { break }
            }
            let px1 = paddleTarget(px, half: half, action: action)
            cooldown = cooldown > 0 ? cooldown - 1 : 0
            timer = t
            px = min(max(px1, half), width - half)
            k += 1
        }
        if k > 0 {
            Self.endRun(&s, frames: k, cooldown: cooldown, paddleX: px)
            s.serveTimer = timer
        }
        return k
    }
}
