/// Pong's rules as one frame of physics over a ``PongState``, with every
/// derived constant computed once from the config.
///
/// Shared by the single-game API (``PongGame``) and the batched stepping, so
/// both are the same game bit for bit.
///
/// One frame:
/// 1. Each paddle moves by its (egocentric) action, clamped to its lane:
///    horizontally it keeps a gap of at least one ball size plus one unit to
///    the side walls, so the ball can never be squeezed; vertically (with
///    `verticalMovement`) it stays in its own half.
/// 2. The ball moves by its velocity, swept against the side walls (planes)
///    and both paddles (boxes moving linearly over the frame, tested in each
///    paddle's frame; see ``Sweep``), resolving contacts in time order (at
///    most ``maxContacts`` per frame).
///    - side wall: `vx` reverses;
///    - a paddle's front face (a return): `speed += speedIncrement` capped at
///      `maxBallSpeed`; `vx = (ball.x - paddle.x) / englishDivisor × speed`;
///      `vy = speed` away from the paddle, plus the paddle's own vertical
///      velocity if it was moving toward the centre (so a paddle cannot
///      catch the ball twice);
///    - a paddle's side: the paddle stops for the rest of the frame (it
///      cannot push the ball sideways) and the ball bounces off it;
///    - a paddle's back (a ball already past it): the ball's vertical
///      velocity relative to the paddle is reflected.
///    If a frame runs out of contacts, everything stops where it is for the
///    rest of that frame.
/// 3. A ball whose centre has left through the top edge is a point for the
///    bottom side, and vice versa; the ball is re-served from the centre with
///    a random horizontal direction and the vertical direction reversed,
///    heading to the side that scored.
@frozen
public struct PongPhysics: Sendable {
    public let config: PongConfig
    @usableFromInline let width: Float, height: Float
    @usableFromInline let r: Float                  // ball half size
    @usableFromInline let halfW: Float, halfH: Float // paddle half extents
    @usableFromInline let minPaddleX: Float, maxPaddleX: Float
    @usableFromInline let homeY: Float              // bottom paddle's home centre line
    @usableFromInline let maxDepth: Float           // how far a paddle may advance from home
    @usableFromInline let hSpeed: Float, vSpeed: Float
    @usableFromInline let serveSpeed: Float, increment: Float, maxSpeed: Float
    @usableFromInline let inverseEnglish: Float
    /// Observation scales: 1/(W/2), 1/(H/2), 1/maxBallSpeed, 1/maxDepth (0
    /// without depth), 1/maxScore.
    @usableFromInline let invCX: Float, invCY: Float, invV: Float, invDepth: Float, invMax: Float
    /// Tiny gap left between the ball and a paddle after contact (units).
    @usableFromInline static let skin: Float = 1.0 / 1024
    /// Contacts resolved per frame at most (only a ball rattling between a
    /// paddle's side and a wall at top speed comes near it).
    public static let maxContacts = 16

    public init(config: PongConfig) {
        self.config = config
        width = config.fieldWidth
        height = config.fieldHeight
        r = config.ballSize / 2
        halfW = config.paddleWidth / 2
        halfH = config.paddleHeight / 2
        minPaddleX = halfW + config.ballSize + 1
        maxPaddleX = config.fieldWidth - minPaddleX
        homeY = config.paddleInset
        maxDepth = config.verticalMovement
            ? max(0, config.fieldHeight / 2 - halfH - config.ballSize - config.paddleInset) : 0
        hSpeed = config.paddleSpeed
        vSpeed = config.verticalMovement ? config.paddleVerticalSpeed : 0
        serveSpeed = config.serveSpeed
        increment = config.speedIncrement
        maxSpeed = config.maxBallSpeed
        inverseEnglish = 1 / config.englishDivisor
        invCX = 1 / (config.fieldWidth / 2)
        invCY = 1 / (config.fieldHeight / 2)
        invV = 1 / config.maxBallSpeed
        invDepth = maxDepth > 0 ? 1 / maxDepth : 0
        invMax = 1 / Float(config.maxScore)
    }

    // MARK: - Episode start and serve

    /// The state at the start of an episode seeded with `seed`.
    public func initialState(seed: UInt64) -> PongState {
        var s = PongState(ballX: 0, ballY: 0, ballVX: 0, ballVY: 0, speed: 0,
                          bottomX: width / 2, bottomY: homeY,
                          topX: width / 2, topY: height - homeY,
                          scoreBottom: 0, scoreTop: 0, steps: 0,
                          lastActionBottom: 0, lastActionTop: 0, end: .none,
                          serveRNG: Xoshiro256(seed: Seeds.stream(seed, 1)),
                          stickyRNG: Xoshiro256(seed: Seeds.stream(seed, 2)))
        let dx = s.serveRNG.sign()
        let dy = s.serveRNG.sign()
        serve(&s, dx: dx, dy: dy)
        return s
    }

    @inlinable
    func serve(_ s: inout PongState, dx: Float, dy: Float) {
        s.ballX = width / 2
        s.ballY = height / 2
        s.speed = serveSpeed
        s.ballVX = dx * serveSpeed
        s.ballVY = dy * serveSpeed
    }

    // MARK: - One frame

    /// Advances one frame with the (egocentric) actions of both sides.
    /// - Returns: the side that scored in this frame, if any.
    @inlinable @inline(__always)
    public func tick(_ s: inout PongState, bottom: Int, top: Int, events: inout PongEvents) -> PongSide? {
        // 1. Paddles: egocentric actions to field-space targets.
        var m = frameStart(ballX: s.ballX, ballY: s.ballY, ballVX: s.ballVX, ballVY: s.ballVY,
                           bottomX: s.bottomX, bottomY: s.bottomY, topX: s.topX, topY: s.topY,
                           bottom: bottom, top: top)
        // 2. Ball: swept contacts in time order (or the fast path: none).
        if isClear(m) {
            integrateClear(&m)
        } else {
            resolveContacts(&m, speed: &s.speed, events: &events)
        }
        s.ballX = m.x; s.ballY = m.y; s.ballVX = m.vx; s.ballVY = m.vy
        s.bottomX = m.endBX; s.bottomY = m.endBY; s.topX = m.endTX; s.topY = m.endTY

        // 3. Points and serve.
        if m.y > height { point(&s, for: .bottom, events: &events); return .bottom }
        if m.y < 0 { point(&s, for: .top, events: &events); return .top }
        return nil
    }

    /// Step 1 of a frame: each paddle's move for its (egocentric) action,
    /// clamped to its lane, as the frame's motion at time 0 (positions now,
    /// velocities for the whole frame; a paddle blocked by the ball stops later).
    @inlinable @inline(__always)
    func frameStart(ballX: Float, ballY: Float, ballVX: Float, ballVY: Float,
                    bottomX bx0: Float, bottomY by0: Float, topX tx0: Float, topY ty0: Float,
                    bottom: Int, top: Int) -> FrameMotion {
        let bx1 = min(max(bx0 + horizontal(bottom) * hSpeed, minPaddleX), maxPaddleX)
        let tx1 = min(max(tx0 - horizontal(top) * hSpeed, minPaddleX), maxPaddleX)
        let by1 = min(max(by0 + vertical(bottom) * vSpeed, homeY), homeY + maxDepth)
        let ty1 = max(min(ty0 - vertical(top) * vSpeed, height - homeY), height - homeY - maxDepth)
        return FrameMotion(x: ballX, y: ballY, vx: ballVX, vy: ballVY,
                           bx: bx0, by: by0, tx: tx0, ty: ty0,
                           bvx: bx1 - bx0, bvy: by1 - by0, tvx: tx1 - tx0, tvy: ty1 - ty0, t: 0)
    }

    /// Whether the frame starting at `m` (time 0) has no contact at all:
    /// neither paddle within reach and no side wall crossed. Then the
    /// contact loop would find nothing on its first pass (rem = 1, dt = 1)
    /// and just integrate everything over the whole frame, which
    /// ``integrateClear(_:)`` does with the same arithmetic, so the fast path
    /// is bit-identical (pinned by the golden and batch tests).
    @inlinable @inline(__always)
    func isClear(_ m: FrameMotion) -> Bool {
        let reachX = halfW + r, reachY = halfH + r
        return (Self.outOfReach(m.y, by: m.vy - m.bvy, of: m.by, reach: reachY)
                || Self.outOfReach(m.x, by: m.vx - m.bvx, of: m.bx, reach: reachX))
            && (Self.outOfReach(m.y, by: m.vy - m.tvy, of: m.ty, reach: reachY)
                || Self.outOfReach(m.x, by: m.vx - m.tvx, of: m.tx, reach: reachX))
            && Sweep.pointVsPlane(m.x, by: m.vx, plane: m.vx > 0 ? width - r : r) == nil
    }

    /// The whole frame without contact (see ``isClear(_:)``).
    @inlinable @inline(__always)
    func integrateClear(_ m: inout FrameMotion) {
        m.x += m.vx; m.y += m.vy
        m.bx += m.bvx; m.by += m.bvy; m.tx += m.tvx; m.ty += m.tvy
        m.t = 1
    }

    /// A point for `side`: score, event, and the serve toward the scorer.
    @usableFromInline @inline(never)
    func point(_ s: inout PongState, for side: PongSide, events: inout PongEvents) {
        if side == .bottom {
            s.scoreBottom += 1
            events.pointsBottom += 1
            events.pointSpeed = s.speed
            serve(&s, dx: s.serveRNG.sign(), dy: -1)
        } else {
            s.scoreTop += 1
            events.pointsTop += 1
            events.pointSpeed = s.speed
            serve(&s, dx: s.serveRNG.sign(), dy: 1)
        }
    }

    /// The swept contacts of the rest of a frame, in time order, from frame
    /// time `m.t` (out of line: most frames take the fast path in ``tick``).
    @usableFromInline @inline(never)
    func resolveContacts(_ m: inout FrameMotion, speed: inout Float, events: inout PongEvents) {
        var x = m.x, y = m.y, vx = m.vx, vy = m.vy
        var bx = m.bx, by = m.by, tx = m.tx, ty = m.ty
        var bvx = m.bvx, bvy = m.bvy, tvx = m.tvx, tvy = m.tvy
        var t = m.t
        let grownHalf = Vec2(halfW + r, halfH + r)
        var contacts = 0
        while true {
            let rem = 1 - t
            guard contacts < PongPhysics.maxContacts else {
                // Out of contacts (a ball rattling in a narrow gap): everything
                // stops where it is for the rest of the frame, touching nothing.
                bvx = 0; bvy = 0; tvx = 0; tvy = 0
                break
            }
            var hitT: Float = 2
            var hitKind = 0        // 1 wall, 2 bottom paddle, 3 top paddle
            var hitFace = Sweep.Face.left
            // Side walls: the ball's centre stays within [r, width - r].
            let dx = vx * rem
            if let w = Sweep.pointVsPlane(x, by: dx, plane: dx > 0 ? width - r : r), w < hitT {
                hitT = w; hitKind = 1
            }
            // Each paddle, in its own frame.
            if let h = Sweep.pointVsBox(from: Vec2(x, y), by: Vec2((vx - bvx) * rem, (vy - bvy) * rem),
                                        box: Box(center: Vec2(bx, by), half: grownHalf)), h.t < hitT {
                hitT = h.t; hitKind = 2; hitFace = h.face
            }
            if let h = Sweep.pointVsBox(from: Vec2(x, y), by: Vec2((vx - tvx) * rem, (vy - tvy) * rem),
                                        box: Box(center: Vec2(tx, ty), half: grownHalf)), h.t < hitT {
                hitT = h.t; hitKind = 3; hitFace = h.face
            }
            let dt = hitKind == 0 ? rem : hitT * rem
            x += vx * dt; y += vy * dt
            bx += bvx * dt; by += bvy * dt; tx += tvx * dt; ty += tvy * dt
            t += dt
            if hitKind == 0 { break }
            contacts += 1
            events.contacts += 1
            if hitKind == 1 {
                x = vx > 0 ? width - r : r
                vx = -vx
                events.wallBounces += 1
                continue
            }
            let isBottom = hitKind == 2
            let px = isBottom ? bx : tx, py = isBottom ? by : ty
            let front: Sweep.Face = isBottom ? .top : .bottom
            if hitFace == front {
                // A return: the classic rule.
                let away: Float = isBottom ? 1 : -1
                let pvy = isBottom ? bvy : tvy
                speed = min(speed + increment, maxSpeed)
                vx = (x - px) * inverseEnglish * speed
                vy = away * speed + (pvy * away > 0 ? pvy : 0)
                y = py + away * (grownHalf.y + PongPhysics.skin)
                if isBottom { events.hitsBottom += 1 } else { events.hitsTop += 1 }
            } else if hitFace == .left || hitFace == .right {
                // A side: the paddle cannot push the ball sideways, it stops;
                // the ball bounces off it as off a wall.
                let outward: Float = hitFace == .right ? 1 : -1
                if isBottom { bvx = 0 } else { tvx = 0 }
                if vx * outward < 0 { vx = -vx }
                x = px + outward * (grownHalf.x + PongPhysics.skin)
            } else {
                // The back: the ball's velocity relative to the paddle reflects.
                let pvy = isBottom ? bvy : tvy
                vy = 2 * pvy - vy
                y = py + (hitFace == .top ? 1 : -1) * (grownHalf.y + PongPhysics.skin)
            }
        }
        m = FrameMotion(x: x, y: y, vx: vx, vy: vy, bx: bx, by: by, tx: tx, ty: ty,
                        bvx: bvx, bvy: bvy, tvx: tvx, tvy: tvy, t: t)
    }

    /// Whether a coordinate moving from `y` by `dy` over a frame stays more
    /// than one unit away from the slab `[center - reach, center + reach]`
    /// (on either axis): then ``Sweep/pointVsBox(from:by:box:)`` against a
    /// box spanning that slab cannot report a contact (on that axis its
    /// entry time would exceed 1 or its exit time be negative; the one-unit
    /// margin dwarfs the rounding of `y + dy`).
    @inlinable
    static func outOfReach(_ y: Float, by dy: Float, of center: Float, reach: Float) -> Bool {
        let end = y + dy
        return max(y, end) < center - reach - 1 || min(y, end) > center + reach + 1
    }

    // MARK: - One agent step

    /// One agent step: `frameSkip` frames with the same (egocentric) actions,
    /// each frame possibly keeping the previous frame's action (sticky
    /// actions, drawn from the state's own generator), stopping early at game
    /// over; then the step counter and the step limit. The single code path
    /// of both ``PongGame`` and ``PongBatch``.
    /// - Parameter events: reset, then filled with what happened.
    /// - Returns: the bottom side's reward and the end flags. Stepping a
    ///   finished game is a no-op that repeats its end flags.
    @inlinable @inline(__always)
    public func step(_ state: inout PongState, bottom: Int, top: Int, events: inout PongEvents) -> StepResult {
        events = PongEvents()
        if state.end != .none {
            return StepResult(reward: 0, terminated: !state.end.isTruncation,
                              truncated: state.end.isTruncation, end: state.end)
        }
        let sticky = config.stickyActionProbability
        for _ in 0 ..< config.frameSkip {
            var b = bottom, t = top
            if sticky > 0 {
                if state.stickyRNG.chance(sticky) { b = Int(state.lastActionBottom) }
                if state.stickyRNG.chance(sticky) { t = Int(state.lastActionTop) }
            }
            state.lastActionBottom = UInt8(truncatingIfNeeded: b)
            state.lastActionTop = UInt8(truncatingIfNeeded: t)
            if tick(&state, bottom: b, top: t, events: &events) != nil,
               state.scoreBottom >= config.maxScore || state.scoreTop >= config.maxScore {
                state.end = .gameOver
                break
            }
        }
        state.steps &+= 1
        if state.end == .none, config.maxSteps > 0, Int(state.steps) >= config.maxSteps {
            state.end = .stepLimit
        }
        return StepResult(reward: Float(events.pointsBottom - events.pointsTop),
                          terminated: state.end == .gameOver, truncated: state.end == .stepLimit,
                          end: state.end)
    }

    /// -1 for left, +1 for right, 0 otherwise (egocentric).
    @inlinable
    func horizontal(_ action: Int) -> Float {
        action == 1 ? -1 : (action == 2 ? 1 : 0)
    }

    /// +1 toward the centre, -1 back, 0 otherwise (egocentric).
    @inlinable
    func vertical(_ action: Int) -> Float {
        action == 3 ? 1 : (action == 4 ? -1 : 0)
    }

    // MARK: - Observation

    /// Length of the observation vector.
    public static let observationCount = 12

    /// Writes `side`'s egocentric observation (see ``PongGame``'s table).
    @inlinable @inline(__always)
    public func observe(_ s: PongState, side: PongSide, into o: UnsafeMutablePointer<Float>) {
        let m = side.mirror
        let cx = width / 2, cy = height / 2
        let ownX = side == .bottom ? s.bottomX : s.topX
        let oppX = side == .bottom ? s.topX : s.bottomX
        let ownDepth = side == .bottom ? s.bottomY - homeY : (height - homeY) - s.topY
        let oppDepth = side == .bottom ? (height - homeY) - s.topY : s.bottomY - homeY
        let ownScore = side == .bottom ? s.scoreBottom : s.scoreTop
        let oppScore = side == .bottom ? s.scoreTop : s.scoreBottom
        o[0] = (ownX - cx) * invCX * m
        o[1] = ownDepth * invDepth
        o[2] = (oppX - cx) * invCX * m
        o[3] = oppDepth * invDepth
        o[4] = (s.ballX - cx) * invCX * m
        o[5] = (s.ballY - cy) * invCY * m
        o[6] = s.ballVX * invV * m
        o[7] = s.ballVY * invV * m
        o[8] = (s.ballX - ownX) * invCX * m
        o[9] = s.speed * invV
        o[10] = Float(ownScore) * invMax
        o[11] = Float(oppScore) * invMax
    }
}

/// The moving parts of one Pong frame at frame time `t` in [0, 1]: the ball,
/// the paddles' positions at `t` and their velocities for the rest of the
/// frame (units, units/frame).
@frozen @usableFromInline
struct FrameMotion {
    @usableFromInline var x, y, vx, vy: Float
    @usableFromInline var bx, by, tx, ty: Float
    @usableFromInline var bvx, bvy, tvx, tvy: Float
    @usableFromInline var t: Float

    /// The paddles' positions at the end of the frame.
    @inlinable var endBX: Float { bx + bvx * (1 - t) }
    @inlinable var endBY: Float { by + bvy * (1 - t) }
    @inlinable var endTX: Float { tx + tvx * (1 - t) }
    @inlinable var endTY: Float { ty + tvy * (1 - t) }

    @inlinable
    init(x: Float, y: Float, vx: Float, vy: Float, bx: Float, by: Float, tx: Float, ty: Float,
         bvx: Float, bvy: Float, tvx: Float, tvy: Float, t: Float) {
        self.x = x; self.y = y; self.vx = vx; self.vy = vy
        self.bx = bx; self.by = by; self.tx = tx; self.ty = ty
        self.bvx = bvx; self.bvy = bvy; self.tvx = tvx; self.tvy = tvy
        self.t = t
    }
}
