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
    /// ``observeHeadLanes(_:into:stride:scratch:quiet:)`` reads them
    /// (``BreakoutPhysics/laneFieldsStart`` on in the batch's lane scratch):
    /// an observation of the eight games right after a step whose frames
    /// all ran here reads them instead of gathering them again.
    ///
    /// The frames' fields are read from the games' cores and written back
    /// to them (a game that ran no frame gets its own values back).
    ///
    /// `serveFrames` is increased by the frames the serving games ran.
    @inline(__always)
    func quietLanes(_ c: UnsafeMutablePointer<BreakoutCore>, actions: UnsafePointer<Int32>, frames: Int,
                    fields: UnsafeMutablePointer<Lanes>, serveFrames: inout Int) -> Lanes {
        // Each game's case (``laneCase(_:)``): the lanes' sum counts both
        // cases at once (exact in floats).
        let kind = Self.gather(UnsafePointer(c)) { Self.laneCase($0) }
        let none = Lanes(repeating: -1)
        let cases = Lane8.sum(kind)
        guard cases != 0 else { return none }
        var eligible: LaneMask = kind .> 0
        var serving: LaneMask = kind .> 1
        let anyServing = cases >= 16
        // The serve timers count down only with the automatic serve; a
        // serving game whose timer is outside 0 ... laneTimerLimit takes no lane.
        let countsDown = anyServing && autoServe
        var timer = Lanes()
        if countsDown {
            timer = Self.gather(UnsafePointer(c)) { $0.pointee.servePending ? Float($0.pointee.serveTimer) : 0 }
            let outside: LaneMask = serving .& ((timer .< 0) .| (timer .> Float(Self.laneTimerLimit)))
            eligible = eligible .& .!outside
            serving = serving .& .!outside
        }
        var running = eligible
        let half = Self.gather(UnsafePointer(c)) { $0.pointee.paddleHalfWidth }
        var px = Self.gather(UnsafePointer(c)) { $0.pointee.paddleX }
        var cooldown = Self.gather(UnsafePointer(c)) { Float($0.pointee.pushCooldown) }
        var x = Self.gather(UnsafePointer(c)) { $0.pointee.ballX[0] }, y = Self.gather(UnsafePointer(c)) { $0.pointee.ballY[0] }
        let vx = Self.gather(UnsafePointer(c)) { $0.pointee.ballVX[0] }, vy = Self.gather(UnsafePointer(c)) { $0.pointee.ballVY[0] }
        let actionCodes = UnsafeRawPointer(actions).loadUnaligned(as: SIMD8<Int32>.self)
        let action = Lane8.floats(actionCodes)
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
        // Written back to every game's core: a game that ran no frame gets
        // its own values back (its cooldown and a run of 0 through floats,
        // exact) and keeps its last action.
        let frameCounts = SIMD8<Int32>(truncatingIfNeeded: Lane8.integers(done))
        let cooldowns = SIMD8<Int32>(truncatingIfNeeded: Lane8.integers(cooldown))
        for g in 0 ..< 8 {
            let s = c + g
            s.pointee.paddleX = px[g]
            Self.setSlot0(&s.pointee.ballX, x[g])
            Self.setSlot0(&s.pointee.ballY, y[g])
            s.pointee.pushCooldown = cooldowns[g]
            s.pointee.frames &+= frameCounts[g]
            let last = s.pointee.lastAction
            s.pointee.lastAction = frameCounts[g] != 0 ? UInt8(truncatingIfNeeded: actionCodes[g]) : last
        }
        fields[0] = px
        fields[1] = half
        fields[2] = Lanes().replacing(with: 1, where: kind .== 1)
        fields[3] = x
        fields[4] = y
        fields[5] = vx
        fields[6] = vy
        fields[Self.laneCooldownField] = cooldown
        if anyServing {
            serveFrames &+= Int(Lane8.sum(Lanes().replacing(with: done, where: serving)))
        }
        if countsDown {
            let timers = Lane8.integers(timer)
            for g in 0 ..< 8 where serving[g] { c[g].serveTimer = Int32(bitPattern: timers[g]) }
        }
        return done.replacing(with: none, where: .!eligible)
    }
}

extension BreakoutPhysics {
    /// The largest serve timer a serving game may hold to run in
    /// ``quietLanes(_:actions:frames:fields:serveFrames:)`` (counted there in floats and
    /// read back by ``Lane8/integers(_:)``, exact below 2^23).
    static let laneTimerLimit: UInt32 = 1 << 22

    /// The game's case in ``quietLanes(_:actions:frames:fields:serveFrames:)``:
    /// 1 one ball in play and no serve pending, 16 a serve pending and no
    /// ball in play (a ball count plus pending flag of 1 either way), 0
    /// neither, the episode ended or no brick left.
    @inline(__always)
    static func laneCase(_ c: UnsafePointer<BreakoutCore>) -> Float {
        let pending: Int32 = c.pointee.servePending ? 1 : 0
        let fits = c.pointee.end == .none && c.pointee.bricksLeft != 0 && c.pointee.ballCount &+ pending == 1
        return fits ? (pending == 1 ? 16 : 1) : 0
    }
}
