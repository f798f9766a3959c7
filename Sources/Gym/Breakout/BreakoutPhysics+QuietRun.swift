extension BreakoutPhysics {
    // MARK: - Quiet frames of one game (the batch's frames outside the lanes)

    /// Runs up to `frames` frames of game `s` with `action` while each is
    /// quiet (``quietLanes(_:cores:actions:frames:serveFrames:_:)`` says when
    /// a frame is), for a game with balls in play or waiting for a serve
    /// with no ball in play, by the lanes' kernel (``quietFrame(_:_:falls:serving:)``): at
    /// `Float` for one ball or a serve, the lanes' cases; in eight lanes,
    /// one per ball slot, for several balls, a frame quiet when every
    /// ball's is (the tick moves each ball on its own, and the paddle and
    /// the cooldown once). So the state after `k` frames is that of `k`
    /// ticks, bit for bit. Returns the frames run, 0 for a game in no case
    /// (its episode ended, no brick left, a ball in play and a serve
    /// pending, with the automatic serve a serve timer outside 0 ...
    /// ``laneTimerLimit``); the first frame that is not quiet is left to
    /// the caller, and the frames' action is not recorded (the caller
    /// records it). The caller checks there are no sticky actions.
    ///
    /// `severalBalls` is increased by the frames run with several balls.
    @inline(always)
    func quietRun(_ s: inout BreakoutCore, action: Int, frames: Int, severalBalls: inout Int) -> Int {
        let serving = s.servePending
        guard s.end == .none, s.bricksLeft != 0 else { return 0 }
        if s.ballCount > 1, !serving {
            let k = quietSlots(&s, action: action, frames: frames)
            severalBalls &+= k
            return k
        }
        guard s.ballCount + (serving ? 1 : 0) == 1 else { return 0 }
        let countsDown = serving && autoServe
        if countsDown, s.serveTimer < 0 || UInt32(s.serveTimer) > Self.laneTimerLimit { return 0 }
        let rules = SameRules<Float>()
        var q = QuietFrames(s.paddleX, cooldown: Float(s.pushCooldown), x: Self.slot0(&s.ballX),
                            y: Self.slot0(&s.ballY), vx: Self.slot0(&s.ballVX), vy: Self.slot0(&s.ballVY),
                            timer: Float(s.serveTimer), running: LaneFlag(true), half: s.paddleHalfWidth,
                            action: Float(action), serving: LaneFlag(serving), anyServing: serving,
                            countsDown: countsDown, self, rules)
        let k = quietFrames(&q, frames: frames, rules) { $0.running.isSet }
        guard k > 0 else { return 0 }
        s.frames &+= Int32(k)
        s.pushCooldown = Int32(q.cooldown)
        s.paddleX = q.px
        Self.setSlot0(&s.ballX, q.x)
        Self.setSlot0(&s.ballY, q.y)
        if q.falls {
            Self.setSlot0(&s.ballVX, q.vx)
            Self.setSlot0(&s.ballVY, q.vy)
        }
        if countsDown { s.serveTimer = Int32(q.timer) }
        return k
    }

    /// ``quietRun(_:action:frames:severalBalls:)`` for a game with several
    /// balls and no serve pending: lane `j` for ball slot `j`, the paddle,
    /// the cooldown and the action the same in every lane, a frame run
    /// only when every ball in play runs it (a lane of an empty slot runs
    /// none, so its zeros stay).
    @inline(never)
    func quietSlots(_ s: inout BreakoutCore, action: Int, frames: Int) -> Int {
        let rules = SameRules<Lanes>()
        let inPlay: LaneMask = Lanes(0, 1, 2, 3, 4, 5, 6, 7) .< Float(s.ballCount)
        var q = QuietFrames(Lanes(repeating: s.paddleX), cooldown: Lanes(repeating: Float(s.pushCooldown)),
                            x: s.ballX, y: s.ballY, vx: s.ballVX, vy: s.ballVY, timer: Lanes(), running: inPlay,
                            half: Lanes(repeating: s.paddleHalfWidth), action: Lanes(repeating: Float(action)),
                            serving: LaneMask(), anyServing: false, countsDown: false, self, rules)
        var k = 0
        while k < frames {
            var next = q
            quietFrame(&next, rules, falls: q.falls, serving: false)
            guard !(inPlay .& .!next.running).holdsSomewhere else { break }
            q = next
            k += 1
        }
        guard k > 0 else { return 0 }
        s.frames &+= Int32(k)
        s.pushCooldown = Int32(q.cooldown[0])
        s.paddleX = q.px[0]
        s.ballX = q.x
        s.ballY = q.y
        if q.falls {
            s.ballVX = q.vx
            s.ballVY = q.vy
        }
        return k
    }
}
