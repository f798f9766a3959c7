/// Breakout's per-frame rules written once, for one game (`Float`) or eight
/// at a time (`SIMD8<Float>`, one game per lane; see ``LaneFloat``): the
/// paddle's target and clamp, and a ball's frame as if nothing touched with
/// the test that nothing can (the quiet test), and the test that a ball is
/// lost at the end of its frame. ``BreakoutPhysics/tick(_:bricks:action:events:)``
/// calls them with `Float`, the batch's lanes
/// (``BreakoutPhysics/quietLanes(_:cores:actions:frames:serveFrames:_:)``)
/// with eight lanes, so both are the same arithmetic bit for bit.
extension BreakoutPhysics {
    // MARK: - Paddle

    /// -1 for left (1), +1 for right (2), 0 otherwise, given the action as
    /// a float (exact: only the integers 1 and 2 convert to the floats 1
    /// and 2, so out-of-range actions act as noop).
    @inlinable @inline(always)
    static func direction<L: LaneFloat>(_ action: L) -> L {
        L.sign(plus: action .== Float(BreakoutAction.right.rawValue), minus: action .== Float(BreakoutAction.left.rawValue))
    }

    /// The paddle's centre `x` kept inside the walls for half width `half`:
    /// `min(max(x, half), width − half)`.
    @inlinable @inline(always)
    func clampPaddle<L: LaneFloat>(_ x: L, half: L) -> L {
        L.min(L.max(x, half), width - half)
    }

    /// Where the paddle at `px` with half width `half` goes this frame when
    /// moving in `direction` (``direction(_:)``): the paddle speed of `k`
    /// that way, kept inside the walls.
    @inlinable @inline(always)
    func paddleTarget<K: BreakoutRuleValues>(_ px: K.L, half: K.L, direction: K.L, _ k: K) -> K.L {
        clampPaddle(px + direction * k.paddleSpeed(self), half: half)
    }

    // MARK: - A ball's frame

    /// A ball's velocity (vx, vy) for its frame under the rules of `k`:
    /// gravity added to its vertical velocity and then its speed capped
    /// (``cappedSpeed(_:_:_:)``), where there is gravity; unchanged elsewhere.
    @inlinable @inline(always)
    func fall<K: BreakoutRuleValues>(vx: K.L, vy: K.L, _ k: K) -> (vx: K.L, vy: K.L) {
        guard k.someGravity(self) else { return (vx, vy) }
        let g = k.gravity(self)
        let fell = cappedSpeed(vx, vy - g, k)
        if k.allGravity(self) { return fell }
        let falls = g .> 0
        return (vx.replacing(with: fell.vx, where: falls), vy.replacing(with: fell.vy, where: falls))
    }

    /// (vx, vy) with its speed capped at the top speed of `k`: scaled by
    /// `maxSpeed / speed` where its square is above `maxSpeed²`.
    @inlinable @inline(always)
    func cappedSpeed<K: BreakoutRuleValues>(_ vx: K.L, _ vy: K.L, _ k: K) -> (vx: K.L, vy: K.L) {
        let s2 = vx * vx + vy * vy
        let over = s2 .> k.maxSpeedSquared(self)
        // No lane over the cap (one game: not over): nothing to scale.
        guard !(.!over).holdsEverywhere else { return (vx, vy) }
        let m = k.maxSpeed(self) / s2.squareRoot()
        return (vx.replacing(with: vx * m, where: over), vy.replacing(with: vy * m, where: over))
    }

    /// A ball at (x, y) moving by (vx, vy) this frame (after gravity and the
    /// speed cap), the paddle starting at `px0` with half width `half` and
    /// moving by `pvx`: where the ball ends if nothing touches it,
    /// `(x + vx, y + vy)`, and `clear` where nothing can. Clear: the ball
    /// crosses neither side wall nor the top wall, its swept box stays out
    /// of the wall's band (`wallBottom ... wallTop`), and it either stays
    /// out of the paddle's band (`paddleTop`) or misses the paddle by
    /// ``paddleMargin``: its path relative to the paddle starts and ends on
    /// the same side beyond the paddle's half width plus `r`, or it stays
    /// below the paddle's bottom less `r`. Where it is clear,
    /// ``resolveContacts(_:_:_:_:_:bricks:px0:pvx:events:)`` finds no plane,
    /// paddle or brick contact on its first pass (the plane and band tests
    /// are its expressions; the paddle's box, grown by `r`, is tested
    /// against the same relative path, which the margin keeps outside it
    /// whatever the rounding), so it moves the ball by exactly (vx, vy).
    @inlinable @inline(always)
    func ballFrame<L: LaneFloat>(x: L, y: L, vx: L, vy: L, px0: L, pvx: L,
                                 half: L) -> (x: L, y: L, clear: L.Condition) {
        let x1 = x + vx, y1 = y + vy
        let lowY = L.min(y, y1), highY = L.max(y, y1)
        let inside = (x1 .>= r) .& (x1 .<= width - r) .& (y1 .<= height - r)
        let offWall = (highY + r .<= wallBottom) .| (lowY - r .>= wallTop)
        let outOfBand = .!(lowY - r .< paddleTop)
        let reach = half + r + Self.paddleMargin
        let rx0 = x - px0, rx1 = x1 - (px0 + pvx)
        let beside = (L.min(rx0, rx1) .>= reach) .| (L.max(rx0, rx1) .<= 0 - reach)
        let below = highY + r .<= paddleMissBelow
        return (x1, y1, inside .& offWall .& (outOfBand .| beside .| below))
    }

    /// Where a ball at (x, y) at the end of its frame is lost: the paddle,
    /// ending at `pxEnd` with half width `half`, overlaps it (squeezed), or
    /// its centre is below the bottom edge. `|d| < w` is written as
    /// `−w < d < w` (the same for every number).
    @inlinable @inline(always)
    func ballLost<L: LaneFloat>(x: L, y: L, pxEnd: L, half: L) -> L.Condition {
        let dx = x - pxEnd, dy = y - paddleY
        let wx = half + r, wy = paddleHalfH + r
        let squeezed = (dx .< wx) .& (dx .> 0 - wx) .& (dy .< wy) .& (dy .> -wy)
        return squeezed .| (y .< 0)
    }
}
