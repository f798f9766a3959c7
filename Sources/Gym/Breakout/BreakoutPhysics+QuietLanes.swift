extension BreakoutPhysics {
    // MARK: - Quiet frames of eight games in lanes (the batch's fast path)

    /// Runs up to `frames` frames of each of the eight games `c[0 ..< 8]`
    /// (game `g` with action `actions[g]` every frame) while each frame is
    /// quiet, lane `g` for game `g`, for games with one ball in play and no
    /// gravity (``quietRun(_:action:frames:)`` of each game, eight at once)
    /// and for games waiting for a serve with no ball in play
    /// (``serveRun(_:action:frames:)`` of each game).
    /// Returns per game (lane `g`) the frames run (0 ... `frames`), or −1 for a game
    /// in neither case (its episode ended, another ball count, no brick
    /// left, with the automatic serve a serve timer outside 0 ...
    /// ``laneTimerLimit``), which is left
    /// untouched. A game whose run is
    /// shorter than `frames` stopped at a frame that is not quiet (the
    /// caller runs that frame by its tick). The state after `k` frames is
    /// that of `k` quiet frames, bit for bit, the frames' action recorded as
    /// ``frameAction(_:action:sticky:)`` records it without sticky actions.
    ///
    /// The same tests and operations as ``quietRun(_:action:frames:)`` and
    /// ``serveRun(_:action:frames:)``, lane
    /// by lane: every `min(a, b)` a select on `b < a`, every `max(a, b)` a
    /// select on `b >= a` (the standard library's definitions), `|d| < w`
    /// written as `−w < d < w`, the push cooldown and the serve timer in
    /// floats (integers far below 2^24, so exact), and
    /// ``frameIsClear(_:_:_:_:px0:pvx:half:)``'s
    /// early return as a select. A serving game's frame moves no ball and
    /// takes no push (the tick serves instead), so its lane takes the serve
    /// test in place of the ball's. Only for configs without gravity; the
    /// caller checks there are no sticky actions.
    ///
    /// The lanes' paddle x and half width, ball count (1, or 0 for a
    /// serving game), slot 0's x, y, vx and vy and
    /// the push cooldown as they end (each game's own values where it ran
    /// no frame) are also left in `fields` where
    /// ``observeHeadLanes(_:kept:into:stride:scratch:quiet:)`` reads them
    /// (``BreakoutPhysics/laneFieldsStart`` on in the batch's lane scratch):
    /// an observation of the eight games right after a step whose frames
    /// all ran here reads them instead of gathering them again.
    ///
    /// `kept` holds the eight games' ``KeptLanes``: their lane case, paddle
    /// half width and slot 0's velocity are read there, and the fields the
    /// frames change (paddle x, slot 0's x and y, push cooldown, frames,
    /// last action) are read and written there, in the held rows, not in
    /// the cores (whose copies the batch settles later); only a serving
    /// game's serve timer is read from and written to its core.
    ///
    /// `serveFrames` is increased by the frames the serving games ran.
    @inline(__always)
    func quietLanes(_ c: UnsafeMutablePointer<BreakoutCore>, actions: UnsafePointer<Int32>, frames: Int,
                    kept: KeptLanes, fields: UnsafeMutablePointer<Lanes>, serveFrames: inout Int) -> Lanes {
        // Each game's case (``keptCase``): the lanes' sum counts both cases
        // at once (exact in floats).
        let kind = kept.row(Self.keptCase)
        let none = Lanes(repeating: -1)
        let cases = Self.laneSum(kind)
        guard cases != 0 else { return none }
        var eligible: LaneMask = kind .> 0
        var serving: LaneMask = kind .> 1
        let anyServing = cases >= 16
        // The serve timers count down only with the automatic serve; a
        // serving game whose timer is outside 0 ... laneTimerLimit takes no lane.
        let countsDown = anyServing && autoServe
        var timer = Lanes()
        if countsDown {
            timer = Self.gather(c) { $0.pointee.servePending ? Float($0.pointee.serveTimer) : 0 }
            let outside: LaneMask = serving .& ((timer .< 0) .| (timer .> Float(Self.laneTimerLimit)))
            eligible = eligible .& .!outside
            serving = serving .& .!outside
        }
        var running = eligible
        let half = kept.row(Self.keptHalfWidth)
        var px = kept.row(Self.heldPaddleX)
        var cooldown = kept.row(Self.heldCooldown)
        var x = kept.row(Self.heldBallX), y = kept.row(Self.heldBallY)
        let vx = kept.row(Self.keptBallVX), vy = kept.row(Self.keptBallVY)
        let actionCodes = UnsafeRawPointer(actions).loadUnaligned(as: SIMD8<Int32>.self)
        let action = Self.floats(actionCodes)
        // paddleTarget's direction: left −1, right +1, any other action 0.
        let dir = Lanes().replacing(with: -1, where: action .== Float(BreakoutAction.left.rawValue))
            .replacing(with: 1, where: action .== Float(BreakoutAction.right.rawValue))
        let pushes: LaneMask = action .== Float(BreakoutAction.push.rawValue)
        let highX = width - half
        let wx = half + r
        let wy = paddleHalfH + r
        let reach = half + r + Self.paddleMargin
        var done = Lanes()
        for _ in 0 ..< frames {
            let next = (cooldown - 1).replacing(with: 0, where: .!(cooldown .> 0))
            var ok = running
            // A push off cooldown takes effect (a ball's frame only).
            if pushImpulse > 0 { ok = ok .& .!(pushes .& (next .== 0)) }
            // paddleTarget: min(max(px + dir × speed, half), width − half).
            let t = px + dir * paddleSpeed
            let low = t.replacing(with: half, where: half .>= t)
            let px1 = low.replacing(with: highX, where: highX .< low)
            let pvx = px1 - px
            let pxEnd = px + pvx
            let x1 = x + vx, y1 = y + vy
            let dx = x1 - pxEnd, dy = y1 - paddleY
            let squeezed: LaneMask = (dx .< wx) .& (dx .> -wx) .& (dy .< wy) .& (dy .> -wy)
            // frameIsClear.
            let lowY = y.replacing(with: y1, where: y1 .< y)
            let highY = y.replacing(with: y1, where: y1 .>= y)
            let inside: LaneMask = (x1 .>= r) .& (x1 .<= width - r) .& (y1 .<= height - r)
            let offWall: LaneMask = (highY + r .<= wallBottom) .| (lowY - r .>= wallTop)
            let inBand: LaneMask = lowY - r .< paddleTop
            let rx0 = x - px, rx1 = x1 - (px + pvx)
            let nearEnd = rx0.replacing(with: rx1, where: rx1 .< rx0)
            let farEnd = rx0.replacing(with: rx1, where: rx1 .>= rx0)
            let beside: LaneMask = (nearEnd .>= reach) .| (farEnd .<= -reach)
            let below: LaneMask = highY + r .<= paddleMissBelow
            let clear: LaneMask = inside .& offWall .& (.!inBand .| beside .| below)
            var moved = ok .& clear .& .!squeezed .& .!(y1 .< 0)
            if anyServing {
                // A serving lane's frame is quiet when it does not serve:
                // automatic serve, the timer (counted down when above 0)
                // does not reach 0; manual serve, the action is not push.
                moved = moved .& .!serving
                var served = running .& serving
                if countsDown {
                    let t1 = (timer - 1).replacing(with: 0, where: .!(timer .> 0))
                    served = served .& (t1 .> 0)
                    timer = timer.replacing(with: t1, where: served)
                } else if !autoServe {
                    served = served .& .!pushes
                }
                ok = moved .| served
            } else {
                ok = moved
            }
            // The paddle's end of frame: min(max(px1, half), width − half).
            let low1 = px1.replacing(with: half, where: half .>= px1)
            let px2 = low1.replacing(with: highX, where: highX .< low1)
            cooldown = cooldown.replacing(with: next, where: ok)
            x = x.replacing(with: x1, where: moved)
            y = y.replacing(with: y1, where: moved)
            px = px.replacing(with: px2, where: ok)
            done = done.replacing(with: done + 1, where: ok)
            running = ok
        }
        // Written back to every game's held rows: a game that ran no frame
        // gets its own values back (its cooldown and a run of 0 through
        // floats, exact) and keeps its last action.
        kept.set(Self.heldPaddleX, px)
        kept.set(Self.heldBallX, x)
        kept.set(Self.heldBallY, y)
        kept.set(Self.heldCooldown, cooldown)
        let frameCounts = SIMD8<Int32>(truncatingIfNeeded: Self.integers(done))
        kept.set(Self.heldFrames, kept.integers(Self.heldFrames) &+ frameCounts)
        kept.set(Self.heldLastAction, kept.integers(Self.heldLastAction)
            .replacing(with: actionCodes & 0xFF, where: frameCounts .!= 0))
        fields[0] = px
        fields[1] = half
        fields[2] = Lanes().replacing(with: 1, where: kind .== 1)
        fields[3] = x
        fields[4] = y
        fields[5] = vx
        fields[6] = vy
        fields[Self.laneCooldownField] = cooldown
        if anyServing {
            serveFrames &+= Int(Self.laneSum(Lanes().replacing(with: done, where: serving)))
        }
        if countsDown {
            let timers = Self.integers(timer)
            for g in 0 ..< 8 where serving[g] { c[g].serveTimer = Int32(bitPattern: timers[g]) }
        }
        return done.replacing(with: none, where: .!eligible)
    }
}

extension BreakoutPhysics {
    /// The largest serve timer a serving game may hold to run in
    /// ``quietLanes(_:actions:frames:kept:fields:serveFrames:)`` (counted there in floats and
    /// read back by ``integers(_:)``, exact below 2^23).
    static let laneTimerLimit: UInt32 = 1 << 22

    /// `Float(v[g])` in each lane `g`, element by element (a conversion by
    /// hand: docs/throughput.md).
    @inline(__always)
    static func floats(_ v: SIMD8<Int32>) -> Lanes {
        Lanes(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]), Float(v[4]), Float(v[5]), Float(v[6]), Float(v[7]))
    }

    /// Lanes holding integers 0 ..< 2^23 as those integers, without a
    /// range check: adding 2^23 puts the integer in the low 23 bits of the
    /// pattern.
    @inline(__always)
    static func integers(_ v: Lanes) -> SIMD8<UInt32> {
        unsafeBitCast(v + 0x1p23, to: SIMD8<UInt32>.self) & 0x7F_FFFF
    }
}
