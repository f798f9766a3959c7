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
        // Out of the paddle's band (most frames) the paddle tests cannot
        // change the result.
        if L.decidesEarly, outOfBand.holdsEverywhere { return (x1, y1, inside .& offWall) }
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

/// A run of quiet frames of one game (`Float`) or eight (`SIMD8<Float>`,
/// one game per lane): what ``BreakoutPhysics/quietFrame(_:_:falls:serving:)`` carries
/// from frame to frame, and what it reads.
struct QuietFrames<L: LaneFloat> {
    /// The paddle's centre, the push cooldown, the ball's position and
    /// velocity, the serve timer (counted down with the automatic serve)
    /// and the frames run so far: integers are counted in floats (far below
    /// 2^24, so exact).
    var px, cooldown, x, y, vx, vy, timer, done: L
    /// Where every frame so far was quiet (the run goes on).
    var running: L.Condition
    let half, direction: L
    /// Where the action is push, where a push would take effect off
    /// cooldown, and where a serve is pending with no ball in play.
    let pushes, pushers, serving: L.Condition
    /// Whether some game has gravity, has a push, is serving, counts a
    /// serve timer down (the kernel's paths taken only where some game needs them).
    let falls, pushing, anyServing, countsDown: Bool

    /// A run from these values, each game playing the rules of `rules` with
    /// `action` (as a float) every frame.
    @inline(always)
    init<K: BreakoutRuleValues>(_ px: L, cooldown: L, x: L, y: L, vx: L, vy: L, timer: L, running: L.Condition,
                                half: L, action: L, serving: L.Condition, anyServing: Bool, countsDown: Bool,
                                _ p: BreakoutPhysics, _ rules: K) where K.L == L {
        self.px = px; self.cooldown = cooldown; self.x = x; self.y = y; self.vx = vx; self.vy = vy
        self.timer = timer; done = L(repeating: 0); self.running = running; self.half = half
        direction = BreakoutPhysics.direction(action)
        pushes = action .== Float(BreakoutAction.push.rawValue)
        // The lanes whose push would take effect off cooldown: pushing
        // lanes of games with a push.
        pushers = rules.allPush(p) ? pushes : pushes .& (rules.pushImpulse(p) .> 0)
        self.serving = serving
        falls = rules.someGravity(p)
        pushing = rules.somePush(p)
        self.anyServing = anyServing
        self.countsDown = countsDown
    }
}

extension BreakoutPhysics {
    // MARK: - A quiet frame

    /// Runs up to `frames` frames of `q` (``quietFrame(_:_:falls:serving:)``)
    /// while `goesOn(q)` holds after each, and returns the frames run (each
    /// one `goesOn` held after). One loop for each combination of the paths
    /// a run may take (gravity, serving games), each with those paths fixed,
    /// so that no frame tests them.
    @inline(always)
    func quietFrames<K: BreakoutRuleValues>(_ q: inout QuietFrames<K.L>, frames: Int, _ rules: K,
                                            while goesOn: (QuietFrames<K.L>) -> Bool) -> Int {
        switch (q.falls, q.anyServing) {
        case (false, false): return quietLoop(&q, frames: frames, rules, falls: false, serving: false, goesOn)
        case (false, true): return quietLoop(&q, frames: frames, rules, falls: false, serving: true, goesOn)
        case (true, false): return quietLoop(&q, frames: frames, rules, falls: true, serving: false, goesOn)
        case (true, true): return quietLoop(&q, frames: frames, rules, falls: true, serving: true, goesOn)
        }
    }

    /// ``quietFrames(_:frames:_:while:)``'s loop for one combination of paths.
    @inline(always)
    func quietLoop<K: BreakoutRuleValues>(_ q: inout QuietFrames<K.L>, frames: Int, _ rules: K, falls: Bool,
                                          serving: Bool, _ goesOn: (QuietFrames<K.L>) -> Bool) -> Int {
        var k = 0
        while k < frames {
            quietFrame(&q, rules, falls: falls, serving: serving)
            guard goesOn(q) else { break }
            k += 1
        }
        return k
    }

    /// One frame of the run `q` where it is still running and the frame is
    /// quiet (``quietLanes(_:cores:actions:frames:serveFrames:_:)`` says
    /// when a frame is quiet): counts the push cooldown down, moves the
    /// paddle and the ball (a serving game: counts the serve timer down)
    /// and the frames run; elsewhere the run stops, its values kept.
    /// `falls` and `serving` are the run's ``QuietFrames/falls`` and
    /// ``QuietFrames/anyServing``.
    @inline(always)
    func quietFrame<K: BreakoutRuleValues>(_ q: inout QuietFrames<K.L>, _ rules: K, falls: Bool, serving: Bool) {
        let next = (q.cooldown - 1).replacing(with: 0, where: .!(q.cooldown .> 0))
        var ok = q.running
        // A push off cooldown takes effect (a ball's frame only) where the
        // game has a push.
        if q.pushing { ok = ok .& .!(q.pushers .& (next .== 0)) }
        // The tick's frame: the paddle's target, the ball's velocity and frame.
        let px1 = paddleTarget(q.px, half: q.half, direction: q.direction, rules)
        let pvx = px1 - q.px
        let v = falls ? fall(vx: q.vx, vy: q.vy, rules) : (vx: q.vx, vy: q.vy)
        let f = ballFrame(x: q.x, y: q.y, vx: v.vx, vy: v.vy, px0: q.px, pvx: pvx, half: q.half)
        var moved = ok .& f.clear .& .!ballLost(x: f.x, y: f.y, pxEnd: q.px + pvx, half: q.half)
        if serving {
            // A serving game's frame is quiet when it does not serve:
            // automatic serve, the timer (counted down when above 0) does
            // not reach 0; manual serve, the action is not push.
            moved = moved .& .!q.serving
            var served = q.running .& q.serving
            if q.countsDown {
                let t1 = (q.timer - 1).replacing(with: 0, where: .!(q.timer .> 0))
                served = served .& (t1 .> 0)
                q.timer = q.timer.replacing(with: t1, where: served)
            } else if !autoServe {
                served = served .& .!q.pushes
            }
            ok = moved .| served
        } else {
            ok = moved
        }
        q.cooldown = q.cooldown.replacing(with: next, where: ok)
        q.x = q.x.replacing(with: f.x, where: moved)
        q.y = q.y.replacing(with: f.y, where: moved)
        if falls {
            q.vx = q.vx.replacing(with: v.vx, where: moved)
            q.vy = q.vy.replacing(with: v.vy, where: moved)
        }
        q.px = q.px.replacing(with: clampPaddle(px1, half: q.half), where: ok)
        q.done = q.done.replacing(with: q.done + 1, where: ok)
        q.running = ok
    }
}
