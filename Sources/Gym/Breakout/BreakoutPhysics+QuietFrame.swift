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
    ///   (``frameIsClear(_:_:_:_:)``, after gravity and the speed cap) and
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
        var vx = s.ballVX, vy = s.ballVY
        if gravity > 0 {
            vy -= gravity
            let s2 = vx * vx + vy * vy
            let over = s2 .> maxSpeedSquared
            if any(over) {
                let k = maxSpeed / s2.squareRoot()
                vx.replace(with: vx * k, where: over)
                vy.replace(with: vy * k, where: over)
            }
        }
        let x = s.ballX, y = s.ballY
        let x1: SIMD8<Float> = x + vx, y1: SIMD8<Float> = y + vy
        let lowY: SIMD8<Float> = y.replacing(with: y1, where: y1 .< y)
        let highY: SIMD8<Float> = y.replacing(with: y1, where: y1 .> y)
        let active: SIMDMask<SIMD8<Int32>> = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7) .< n
        let lowR: SIMD8<Float> = lowY - r, highR: SIMD8<Float> = highY + r
        let inside: SIMDMask<SIMD8<Int32>> = (x1 .>= r) .& (x1 .<= width - r) .& (y1 .<= height - r)
        let offWall: SIMDMask<SIMD8<Int32>> = (highR .<= wallBottom) .| (lowR .>= wallTop)
        let clear: SIMDMask<SIMD8<Int32>> = inside .& (lowR .>= paddleTop) .& offWall
        // |d| < w written as −w < d < w (the same for every number).
        let dx: SIMD8<Float> = x1 - pxEnd, dy: SIMD8<Float> = y1 - paddleY
        let wx = half + r, wy = paddleHalfH + r
        let nearX: SIMDMask<SIMD8<Int32>> = (dx .< wx) .& (dx .> -wx)
        let nearY: SIMDMask<SIMD8<Int32>> = (dy .< wy) .& (dy .> -wy)
        let lost: SIMDMask<SIMD8<Int32>> = (nearX .& nearY) .| (y1 .< 0)
        let kept: SIMDMask<SIMD8<Int32>> = clear .& .!lost
        guard all(kept .| .!active) else { return false }
        s.frames &+= 1
        s.pushCooldown = cooldown
        s.ballX.replace(with: x1, where: active)
        s.ballY.replace(with: y1, where: active)
        if gravity > 0 {
            s.ballVX.replace(with: vx, where: active)
            s.ballVY.replace(with: vy, where: active)
        }
        s.paddleX = min(max(px1, half), width - half)
        return true
    }
}
