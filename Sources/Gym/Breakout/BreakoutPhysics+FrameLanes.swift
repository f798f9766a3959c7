extension BreakoutPhysics {
    // MARK: - Quiet frames of eight games in lanes (the batch's fast path)

    /// Runs up to `frames` frames of each of the eight games `i ..< i + 8`
    /// of a batch (``BreakoutBatch/Columns`` in `columns`, the rest of each
    /// in its core `c[0 ..< 8]`), game `g` with action `actions[g]` every
    /// frame, while each frame is
    /// quiet, lane `g` for game `g` under the rules in lane `g` of `rules`,
    /// for games with one ball in play and for games waiting for a serve
    /// with no ball in play.
    /// Returns per game (lane `g`) the frames run (0 ... `frames`), or −1 for
    /// a game in neither case (its episode ended, another ball count, no
    /// brick left, with the automatic serve a serve timer outside 0 ...
    /// ``laneTimerLimit``), which is left untouched. A game whose run is
    /// shorter than `frames` stopped at a frame that is not quiet (the
    /// caller runs that frame by its tick).
    ///
    /// Each frame is ``quietFrame(_:_:falls:serving:)``, the kernel a game outside the
    /// lanes runs at `Float` (``quietRun(_:action:frames:severalBalls:)``).
    /// A frame is quiet when ``tick(_:bricks:action:events:)`` would only
    /// count it, count the push cooldown down, move the paddle and move the
    /// ball by its velocity, with no event: for a game with a ball, the push
    /// takes no effect (or the game has no push) and the ball's frame, its
    /// velocity after gravity (``fall(vx:vy:_:)``), is clear
    /// (``ballFrame(x:y:vx:vy:px0:pvx:half:)``) and does not lose it
    /// (``ballLost(x:y:pxEnd:half:)``); for a serving game, the frame does
    /// not serve (automatic serve: the timer, counted down when above 0,
    /// does not reach 0; manual: the action is not push). The kernels are
    /// the tick's, the push cooldown and the serve timer are counted in
    /// floats (integers far below 2^24, so exact), so the state after `k`
    /// frames is that of `k` ticks, bit for bit (gravity changes the ball's
    /// velocity frame by frame, as the tick does), the frames' action recorded
    /// as ``frameAction(_:action:sticky:)`` records it without sticky
    /// actions. The caller checks there are no sticky actions.
    ///
    /// The frames' fields are read from the games' columns and written
    /// back to them (a game that ran no frame gets its own values back);
    /// of the cores, only the serving games' serve timers are read and
    /// written.
    ///
    /// `serveFrames` is increased by the frames the serving games ran.
    @inline(always)
    func quietLanes<K: BreakoutRuleValues>(_ group: UnsafeMutablePointer<BreakoutBatch.LaneGroup>,
                                           cores c: UnsafeMutablePointer<BreakoutCore>, actions: UnsafePointer<Int32>,
                                           frames: Int, serveFrames: inout Int, _ rules: K) -> Lanes where K.L == Lanes {
        // Each game's case (``laneCases(_:)``): the lanes' sum counts both
        // cases at once (exact in floats).
        let kind = Self.laneCases(group)
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
            // Read for the serving lanes only (the others' timers are not used).
            timer = Self.gather(UnsafePointer(c)) { Float($0.pointee.serveTimer) }
            let outside: LaneMask = serving .& ((timer .< 0) .| (timer .> Float(Self.laneTimerLimit)))
            eligible = eligible .& .!outside
            serving = serving .& .!outside
        }
        let half = group.pointee.halfWidth
        let actionCodes = UnsafeRawPointer(actions).loadUnaligned(as: SIMD8<Int32>.self)
        let action = Lane8.floats(actionCodes)
        var q = QuietFrames(group.pointee.paddleX, cooldown: Lane8.floats(group.pointee.cooldown),
                            x: group.pointee.ballX, y: group.pointee.ballY, vx: group.pointee.ballVX,
                            vy: group.pointee.ballVY, timer: timer, running: eligible, half: half, action: action,
                            serving: serving, anyServing: anyServing, countsDown: countsDown, self, rules)
        _ = quietFrames(&q, frames: frames, rules) { _ in true }
        let px = q.px, x = q.x, y = q.y, vx = q.vx, vy = q.vy, cooldown = q.cooldown, done = q.done
        let falls = q.falls
        // Written back to every game's columns: a game that ran no frame
        // gets its own values back (its cooldown and a run of 0 through
        // floats, exact) and keeps its last action. Both counts are below
        // 2^23, so their unsigned bits are the signed integers'.
        let frameCounts = unsafeBitCast(Lane8.integers(done), to: SIMD8<Int32>.self)
        group.pointee.paddleX = px
        group.pointee.ballX = x
        group.pointee.ballY = y
        if falls {
            group.pointee.ballVX = vx
            group.pointee.ballVY = vy
        }
        group.pointee.cooldown = unsafeBitCast(Lane8.integers(cooldown), to: SIMD8<Int32>.self)
        group.pointee.frames = group.pointee.frames &+ frameCounts
        let last = Lane8.widen(group.pointee.lastAction)
        group.pointee.lastAction = Lane8.narrow(last.replacing(with: actionCodes, where: frameCounts .!= 0))
        if anyServing {
            serveFrames &+= Int(Lane8.sum(Lanes().replacing(with: done, where: serving)))
        }
        if countsDown {
            let timers = Lane8.integers(q.timer)
            for g in 0 ..< 8 where serving[g] { c[g].serveTimer = Int32(bitPattern: timers[g]) }
        }
        return done.replacing(with: none, where: .!eligible)
    }
}

extension BreakoutPhysics {
    /// The largest serve timer a serving game may hold to run in
    /// ``quietLanes(_:cores:actions:frames:serveFrames:_:)`` (counted there in floats and
    /// read back by ``Lane8/integers(_:)``, exact below 2^23).
    static let laneTimerLimit: UInt32 = 1 << 22

    /// Each game's case in ``quietLanes(_:cores:actions:frames:serveFrames:_:)``,
    /// lane `g` for game `g`: 1 one ball in play and no serve pending, 16 a
    /// serve pending and no ball in play (a ball count plus pending flag of
    /// 1 either way), 0 neither, the episode ended or no brick left. The
    /// fields are loaded as integers and compared as floats (exact: a
    /// nonzero integer converts to a nonzero float, and a count plus a flag
    /// is 1 only from 0 and 1 or 1 and 0).
    @inline(always)
    static func laneCases(_ group: UnsafePointer<BreakoutBatch.LaneGroup>) -> Lanes {
        let pending = Lane8.floats(Lane8.widen(group.pointee.pending))
        let ended = Lane8.floats(Lane8.widen(group.pointee.end))
        let left = Lane8.floats(group.pointee.bricksLeft)
        let balls = Lane8.floats(group.pointee.ballCount)
        let fits = (ended .== 0) .& .!(left .== 0) .& (balls + pending .== 1)
        return Lanes().replacing(with: Lanes(repeating: 1).replacing(with: 16, where: pending .== 1), where: fits)
    }
}

extension BreakoutPhysics {
    /// Lane 0 of a ball-slot vector, read as one float in memory (a vector
    /// of floats is its lanes in order, so its first float is lane 0).
    @inline(always)
    static func slot0(_ v: inout SIMD8<Float>) -> Float {
        withUnsafeMutablePointer(to: &v) { Self.lane0($0).pointee }
    }

    /// Sets lane 0 of a ball-slot vector by one float store.
    @inline(always)
    static func setSlot0(_ v: inout SIMD8<Float>, _ value: Float) {
        withUnsafeMutablePointer(to: &v) { Self.lane0($0).pointee = value }
    }

    /// Lane 0 of the vector at `v`, as a pointer to that float in place.
    @inline(always)
    static func lane0(_ v: UnsafeMutablePointer<SIMD8<Float>>) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(v).assumingMemoryBound(to: Float.self)
    }
}
