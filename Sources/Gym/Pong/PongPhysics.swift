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
///      `maxBallSpeed`; `vx = dx × speed` with the english
///      `dx = (ball.x - paddle.x) / englishDivisor`, except that a return at
///      the paddle's exact centre (`dx = 0`) keeps the ball's previous
///      `dx = vx / speed` (its horizontal direction and slope; the seed's
///      `if (x != 0) _dx = x;`). This holds in every config and preset, so
///      once served (`|dx| = 1`) the ball never moves straight up or down;
///      `vy = min(speed + advance, maxBallSpeed)` away from the paddle,
///      `advance` being the paddle's own movement toward the centre this
///      frame (0 unless it advances; only with `verticalMovement`). The
///      config keeps `paddleVerticalSpeed < maxBallSpeed`, so the returned
///      ball outruns the paddle and cannot be caught twice;
///    - a paddle's side: the paddle stops for the rest of the frame (it
///      cannot push the ball sideways) and the ball bounces off it;
///    - a paddle's back (a ball already past it): the ball's vertical
///      velocity relative to the paddle is reflected, capped at
///      `maxBallSpeed`.
///    So `|vy| ≤ maxBallSpeed` and `|vx| ≤ 2 × speed` always (the config
///    keeps english at most 2: `(paddleWidth + ballSize) / 2 ≤ 2 × englishDivisor`).
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
    }

    // MARK: - Episode start and serve

    /// The state at the start of an episode seeded with `seed`.
    public func initialState(seed: UInt64) -> PongState {
        var s = PongState(ballX: 0, ballY: 0, ballVX: 0, ballVY: 0, speed: 0,
                          bottomX: width / 2, bottomY: homeY,
                          topX: width / 2, topY: height - homeY,
                          scoreBottom: 0, scoreTop: 0, steps: 0,
                          lastActionBottom: 0, lastActionTop: 0, end: .none,
                          serveRNG: Xoshiro256(seed: Seeds.stream(seed, Seeds.serveStream)),
                          stickyRNG: Xoshiro256(seed: Seeds.stream(seed, Seeds.stickyStream)))
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

    // MARK: - One agent step

    /// One agent step: `frameSkip` frames with the same actions (each frame
    /// may keep the previous frame's action with `stickyActionProbability`,
    /// drawn from the state's sticky generator), stopping at game over; then
    /// the step counter and the step limit. Stepping a finished game does
    /// nothing. Out-of-range actions act as stay.
    /// - Returns: the bottom side's reward and the end flags; `events` holds
    ///   what happened.
    @inlinable
    public func step(_ state: inout PongState, top: Int, bottom: Int, events: inout PongEvents) -> StepResult {
        events = PongEvents()
        if state.end != .none {
            return StepResult(reward: 0, terminated: !state.end.isTruncation,
                              truncated: state.end.isTruncation, end: state.end)
        }
        let sticky = config.stickyActionProbability
        for _ in 0 ..< config.frameSkip {
            var b = bottom, t = top
            if sticky > 0 {
                (b, t) = Self.stickyActions(&state.stickyRNG.words, chosen: (bottom, top),
                                            last: (Int(state.lastActionBottom), Int(state.lastActionTop)),
                                            scaled: sticky * 0x1p24, .standard)
            }
            state.lastActionBottom = UInt8(truncatingIfNeeded: b)
            state.lastActionTop = UInt8(truncatingIfNeeded: t)
            if playFrame(&state, bottom: b, top: t, events: &events) { break }
        }
        state.steps &+= 1
        if state.end == .none, reachesStepLimit(Float(state.steps)).isSet {
            state.end = .stepLimit
        }
        return StepResult(reward: Float(events.pointsBottom - events.pointsTop),
                          terminated: state.end == .gameOver, truncated: state.end == .stepLimit,
                          end: state.end)
    }

    // MARK: - One frame

    /// One frame (``tick(_:bottom:top:events:)``) and the game's end: a
    /// point that brings a side to `maxScore` ends the game.
    /// - Returns: whether the game ended.
    @inlinable
    func playFrame(_ s: inout PongState, bottom: Int, top: Int, events: inout PongEvents) -> Bool {
        let maxScore = Int32(config.maxScore)
        guard tick(&s, bottom: bottom, top: top, events: &events) != nil,
              s.scoreBottom >= maxScore || s.scoreTop >= maxScore else { return false }
        s.end = .gameOver
        return true
    }

    /// Advances one frame with the (egocentric) actions of both sides.
    /// - Returns: the side that scored in this frame, if any.
    @inlinable
    public func tick(_ s: inout PongState, bottom: Int, top: Int, events: inout PongEvents) -> PongSide? {
        // 1. Paddles: egocentric actions to moves and targets, each clamped
        // to its lane (``frame(_:_:_:_:)``).
        // 2. Ball: a frame in which no contact can happen only moves;
        // otherwise the contacts are resolved in time order.
        let k = SameRules<Float>()
        let (next, clear) = frame(PongFrame(s), moves(bottom: Float(bottom), top: Float(top), k), ExactFrame.self, k)
        if clear.isSet {
            s.ballX = next.x; s.ballY = next.y
            s.bottomX = next.bx; s.bottomY = next.by; s.topX = next.tx; s.topY = next.ty
        } else {
            resolveContacts(&s, bottomTarget: Vec2(next.bx, next.by), topTarget: Vec2(next.tx, next.ty), events: &events)
        }

        // 3. Points and serve.
        if s.ballY > height {
            s.scoreBottom += 1
            events.pointsBottom += 1
            events.pointSpeed = s.speed
            serve(&s, dx: s.serveRNG.sign(), dy: -1)
            return .bottom
        }
        if s.ballY < 0 {
            s.scoreTop += 1
            events.pointsTop += 1
            events.pointSpeed = s.speed
            serve(&s, dx: s.serveRNG.sign(), dy: 1)
            return .top
        }
        return nil
    }

    /// The ball's motion over one frame with swept contacts resolved in time
    /// order (``tick``'s frames that are not clear): walls, paddle fronts (returns),
    /// sides and backs; paddles move linearly from their positions in `s` to
    /// their targets unless the ball blocks them.
    @usableFromInline @inline(never)
    func resolveContacts(_ s: inout PongState, bottomTarget: Vec2, topTarget: Vec2, events: inout PongEvents) {
        // Paddle positions at the current time of the frame and their
        // velocities for the rest of it (a paddle blocked by the ball stops).
        var bx = s.bottomX, by = s.bottomY, tx = s.topX, ty = s.topY
        var bvx = bottomTarget.x - bx, bvy = bottomTarget.y - by
        var tvx = topTarget.x - tx, tvy = topTarget.y - ty
        var x = s.ballX, y = s.ballY, vx = s.ballVX, vy = s.ballVY
        var t: Float = 0
        let grownHalf = Vec2(halfW + r, halfH + r)
        var contacts = 0
        // A paddle that stopped (blocked by the ball, or the frame ran out
        // of contacts) ends where it stopped; otherwise exactly at its target.
        var frozen = false, bottomStopped = false, topStopped = false
        while true {
            let rem = 1 - t
            guard contacts < PongPhysics.maxContacts else {
                // Out of contacts (a ball rattling in a narrow gap): everything
                // stops where it is for the rest of the frame, touching nothing.
                bvx = 0; bvy = 0; tvx = 0; tvy = 0
                frozen = true
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
                let before = s.speed
                s.speed = min(s.speed + increment, maxSpeed)
                // English sets the direction factor dx = vx / speed; zero
                // english (the exact centre) keeps the previous one, as the
                // seed's `if (x != 0) _dx = x;` does, so no return leaves
                // straight up or down.
                let english = (x - px) * inverseEnglish
                vx = (english != 0 ? english : vx / before) * s.speed
                // An advancing paddle adds its advance to the ball's speed
                // away from it, up to maxBallSpeed; as paddleVerticalSpeed <
                // maxBallSpeed (checked), the ball still outruns the paddle.
                vy = away * min(s.speed + max(pvy * away, 0), maxSpeed)
                y = py + away * (grownHalf.y + PongPhysics.skin)
                if isBottom { events.hitsBottom += 1 } else { events.hitsTop += 1 }
            } else if hitFace == .left || hitFace == .right {
                // A side: the paddle cannot push the ball sideways, it stops;
                // the ball bounces off it as off a wall.
                let outward: Float = hitFace == .right ? 1 : -1
                if isBottom { bvx = 0; bottomStopped = true } else { tvx = 0; topStopped = true }
                if vx * outward < 0 { vx = -vx }
                x = px + outward * (grownHalf.x + PongPhysics.skin)
            } else {
                // The back: the ball's velocity relative to the paddle
                // reflects, capped at maxBallSpeed (still faster than the
                // retreating paddle, as paddleVerticalSpeed < maxBallSpeed).
                let pvy = isBottom ? bvy : tvy
                vy = min(max(2 * pvy - vy, -maxSpeed), maxSpeed)
                y = py + (hitFace == .top ? 1 : -1) * (grownHalf.y + PongPhysics.skin)
            }
        }
        s.ballX = x; s.ballY = y; s.ballVX = vx; s.ballVY = vy
        s.bottomX = frozen || bottomStopped ? bx : bottomTarget.x
        s.bottomY = frozen ? by : bottomTarget.y
        s.topX = frozen || topStopped ? tx : topTarget.x
        s.topY = frozen ? ty : topTarget.y
    }

    // MARK: - Observation

    /// Length of the observation vector.
    public static let observationCount = 12

    /// The constants ``observe(_:side:into:)`` scales by (batches that write
    /// observations lane-wise use the same ones, so the same bits): the
    /// field's centre `cx`, `cy` and the reciprocals of `cx`, `cy`, the
    /// width, the top speed, twice the top speed, the paddles' depth range
    /// (0 without vertical movement) and `maxScore`.
    @inlinable @inline(__always)
    var observationScales: (cx: Float, cy: Float, invCX: Float, invCY: Float, invW: Float, invS: Float,
                            invV: Float, invDepth: Float, invMax: Float) {
        let cx = width / 2, cy = height / 2
        return (cx, cy, 1 / cx, 1 / cy, 1 / width, 1 / maxSpeed, 1 / (2 * maxSpeed),
                maxDepth > 0 ? 1 / maxDepth : 0, 1 / Float(config.maxScore))
    }

    /// Writes `side`'s egocentric observation (``observation(_:speed:scoreBottom:scoreTop:side:_:)``).
    @inlinable @inline(__always)
    public func observe(_ s: PongState, side: PongSide, into o: UnsafeMutablePointer<Float>) {
        let f = observation(PongFrame(s), speed: s.speed, scoreBottom: Float(s.scoreBottom),
                            scoreTop: Float(s.scoreTop), side: side, SameRules())
        o[0] = f.f0; o[1] = f.f1; o[2] = f.f2; o[3] = f.f3; o[4] = f.f4; o[5] = f.f5
        o[6] = f.f6; o[7] = f.f7; o[8] = f.f8; o[9] = f.f9; o[10] = f.f10; o[11] = f.f11
    }
}
