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
    /// values with the same operations, so a quiet frame's result is the
    /// tick's, bit for bit. The
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
        // Every ball tested before any is moved: a frame that is not quiet
        // must leave the state as it was.
        var quiet: UInt8 = 1
        for k in 0 ..< Int(n) {
            let b = quietBall(s, k, pxEnd: pxEnd, half: half)
            quiet &= b.quiet ? 1 : 0
        }
        guard quiet != 0 else { return false }
        s.frames &+= 1
        s.pushCooldown = cooldown
        for k in 0 ..< Int(n) {
            let b = quietBall(s, k, pxEnd: pxEnd, half: half)
            s.ballX[k] = b.x; s.ballY[k] = b.y; s.ballVX[k] = b.vx; s.ballVY[k] = b.vy
        }
        s.paddleX = min(max(px1, half), width - half)
        return true
    }

    /// Ball `k`'s quiet motion over one frame, as ``moveBall(_:_:bricks:px0:pvx:events:fastPath:)``
    /// computes it (gravity and the speed cap, then one move by the
    /// velocity), and whether it is quiet: clear, not squeezed by the paddle
    /// ending at `pxEnd` with half width `half`, not below the bottom edge.
    @inlinable @inline(__always)
    func quietBall(_ s: BreakoutCore, _ k: Int, pxEnd: Float, half: Float)
        -> (quiet: Bool, x: Float, y: Float, vx: Float, vy: Float) {
        let x = s.ballX[k], y = s.ballY[k]
        var vx = s.ballVX[k], vy = s.ballVY[k]
        if gravity > 0 {
            vy -= gravity
            capSpeed(&vx, &vy)
        }
        let x1 = x + vx, y1 = y + vy
        let squeezed = (abs(x1 - pxEnd) < half + r ? 1 : 0) & (abs(y1 - paddleY) < paddleHalfH + r ? 1 : 0) as UInt8
        let kept = (frameIsClear(x, y, vx, vy) ? 1 : 0) & ~squeezed & (y1 < 0 ? 0 : 1) as UInt8
        return (kept & 1 != 0, x1, y1, vx, vy)
    }
}
