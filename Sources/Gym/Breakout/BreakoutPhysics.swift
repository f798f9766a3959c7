/// Breakout's rules as one frame of physics over a ``BreakoutCore`` and a
/// brick grid, with every derived constant computed once from the config.
///
/// Within the module the grid is passed as a pointer to `brickRows ×
/// brickColumns` cells (see ``BrickCell``), so the single game
/// (``BreakoutGame``) and a batch that keeps all grids in one buffer run
/// the same code, bit for bit. Nothing here allocates. The per-frame rules
/// the batch's lanes share with it are in BreakoutKernels.swift.
///
/// ## One frame (``tick(_:bricks:action:events:)``)
/// 1. The push cooldown counts down. If a serve is pending it happens now
///    (automatic serve: when `serveDelay` frames have passed; manual: on the
///    push action). Otherwise the push action, when off cooldown and
///    `pushImpulse > 0`, adds `pushImpulse` to every ball's velocity in one
///    direction drawn uniformly from the push generator.
/// 2. The paddle moves by `paddleSpeed` left or right, clamped to the walls.
/// 3. Each ball in slot order: gravity is added to its vertical velocity,
///    its speed is capped at `maxBallSpeed`, and it moves along a straight
///    line swept (``Sweep``) against the side and top walls (planes), the
///    paddle (a box moving over the frame, tested in its own frame) and
///    every brick its path can reach, resolving contacts in time order (at
///    most ``maxContacts``; after that the ball rests at its last contact
///    for the rest of the frame):
///    - wall or brick face: the normal velocity reverses and is multiplied
///      by `elasticity`; with gravity off the path is then kept at least
///      `minBounceAngle` from the horizontal (speed unchanged);
///    - paddle top face: the ball leaves at the speed level at angle
///      `atan(o · cot(minBounceAngle))` from the vertical, `o ∈ [-1, 1]` the
///      hit offset from the paddle centre over (paddle half width + ball
///      half size) — as an oval paddle would deflect it;
///    - paddle side face: the horizontal velocity is reflected relative to
///      the moving paddle; a ball that has no room left between the paddle
///      and a wall (squeezed) is lost, as is a ball that the paddle ends the
///      frame overlapping;
///    - a brick: it loses one hit; at zero it breaks, scores its row's value
///      and takes effect (``BrickKind``). Explosions chain: each broken
///      explosive brick deals one hit to each of its 8 neighbours.
///    A ball whose centre ends below the bottom edge is lost.
///    Speed-ups (the hit counts in `speedUpAfterHits`, the first hit in the
///    top `speedUpRows` rows, a speed-up brick) raise the speed level by
///    `speedUpIncrement` (capped) and scale every ball's velocity by the same ratio.
///    The first ball to reach the top wall shrinks the paddle to half its
///    width with `shrinkPaddleOnTopWall`, until the next serve.
/// 4. When the last brick is gone the level is cleared: the episode ends
///    after `levels` walls, otherwise the balls are taken off, the wall is
///    rebuilt and a serve is due. Otherwise, when no ball is left, a life is
///    lost: at zero lives the episode ends, else a serve is due.
///
/// Serves reset the speed level to `ballSpeed` (and the paddle's width) and
/// launch `ballsPerServe` balls side by side just above the paddle, each at
/// a random angle within 45° (and the paddle's range) of the vertical.
///
/// A final class of constants: one instance is shared by every game (and a
/// batch) with the same config, and passing it costs one pointer (a struct
/// holding the config's arrays would be copied, and the arrays retained, by
/// calls from another module).
public final class BreakoutPhysics: Sendable {
    public let config: BreakoutConfig
    @usableFromInline let width: Float, height: Float, r: Float
    @usableFromInline let rows: Int, cols: Int, cells: Int
    @usableFromInline let brickW: Float, brickH: Float, invBrickW: Float, invBrickH: Float
    @usableFromInline let wallBottom: Float, wallTop: Float
    @usableFromInline let paddleY: Float, paddleHalfH: Float, paddleTop: Float, paddleHalfW: Float
    @usableFromInline let paddleSpeed: Float
    @usableFromInline let gravity: Float, elasticity: Float
    @usableFromInline let ballSpeed: Float, maxSpeed: Float, maxSpeedSquared: Float, increment: Float
    /// Paddle deflection: tan of the largest angle from the vertical.
    @usableFromInline let tanMax: Float
    /// Serve and released-ball spread: tan of the largest angle from the vertical.
    @usableFromInline let tanServe: Float
    @usableFromInline let sinMin: Float, cosMin: Float
    @usableFromInline let keepAngle: Bool
    @usableFromInline let rowValues: SIMD16<Int32>
    @usableFromInline let thresholds: SIMD8<Int32>, thresholdCount: Int32
    /// First row (from the bottom) of the speed-up rows; `rows` when none.
    @usableFromInline let topRowStart: Int
    /// The explicit wall in cell order, or empty.
    @usableFromInline let template: [UInt8]
    /// Cumulative shares of tough, explosive, extra-ball, speed-up bricks.
    @usableFromInline let share1: Float, share2: Float, share3: Float, share4: Float
    @usableFromInline let toughHits: Int
    @usableFromInline let maxBalls: Int32, ballsPerServe: Int
    @usableFromInline let autoServe: Bool, serveDelay: Int32
    @usableFromInline let pushImpulse: Float, pushCooldown: Int32
    @usableFromInline let shrink: Bool

    /// How far a ball's path must stay from the paddle's box (grown by the
    /// ball's half size) for ``ballFrame(x:y:vx:vy:px0:pvx:half:)`` to call
    /// the paddle missed (units): far more than the rounding of the
    /// contact test's arithmetic at the field's scale.
    @usableFromInline static let paddleMargin: Float = 1.0 / 16
    /// Below this a ball's swept box (its top, `y + r`) misses the paddle:
    /// the paddle's bottom less ``paddleMargin``.
    @usableFromInline let paddleMissBelow: Float

    /// Gap left between a ball and what it touched (units).
    @usableFromInline static let skin: Float = 1.0 / 1024
    /// Contacts resolved per ball per frame at most.
    public static let maxContacts = 16
    /// Frames a hit brick flashes (drawing only).
    public static let flashFrames: Int32 = 12

    public init(config: BreakoutConfig) {
        self.config = config
        width = config.fieldWidth
        height = config.fieldHeight
        r = config.ballSize / 2
        rows = config.brickRows
        cols = config.brickColumns
        cells = rows * cols
        brickW = config.fieldWidth / Float(cols)
        brickH = config.brickHeight
        invBrickW = 1 / brickW
        invBrickH = 1 / brickH
        wallTop = config.fieldHeight - config.wallTopGap
        wallBottom = wallTop - Float(rows) * brickH
        paddleY = config.paddleInset
        paddleHalfH = config.paddleHeight / 2
        paddleTop = config.paddleInset + config.paddleHeight / 2
        paddleHalfW = config.paddleWidth / 2
        paddleMissBelow = config.paddleInset - config.paddleHeight / 2 - BreakoutPhysics.paddleMargin
        paddleSpeed = config.paddleSpeed
        gravity = config.gravity
        elasticity = config.elasticity
        ballSpeed = config.ballSpeed
        maxSpeed = config.maxBallSpeed
        maxSpeedSquared = config.maxBallSpeed * config.maxBallSpeed
        increment = config.speedUpIncrement
        let a = Angle.sinCos(degrees: Double(config.minBounceAngle))
        sinMin = Float(a.sin)
        cosMin = Float(a.cos)
        tanMax = Float(a.cos / a.sin)
        tanServe = min(Float(a.cos / a.sin), 1)
        keepAngle = config.gravity == 0
        var values = SIMD16<Int32>()
        for (k, v) in config.rowValues.prefix(16).enumerated() { values[k] = Int32(v) }
        rowValues = values
        var t = SIMD8<Int32>()
        for (k, v) in config.speedUpAfterHits.prefix(8).enumerated() { t[k] = Int32(v) }
        thresholds = t
        thresholdCount = Int32(min(8, config.speedUpAfterHits.count))
        topRowStart = config.speedUpRows > 0 ? max(0, config.brickRows - config.speedUpRows) : config.brickRows
        var cellsFromLayout: [UInt8] = []
        if !config.layout.isEmpty {
            cellsFromLayout = [UInt8](repeating: 0, count: config.brickRows * config.brickColumns)
            for (k, line) in config.layout.enumerated() where k < config.brickRows {
                let row = config.brickRows - 1 - k
                for (col, c) in line.enumerated() where col < config.brickColumns {
                    if let kind = BrickKind(layoutCharacter: c) {
                        cellsFromLayout[row * config.brickColumns + col] =
                            BrickCell.make(kind, hits: kind == .tough ? config.toughHits : 1)
                    }
                }
            }
        }
        template = cellsFromLayout
        share1 = config.toughFraction
        share2 = share1 + config.explosiveFraction
        share3 = share2 + config.extraBallFraction
        share4 = share3 + config.speedUpFraction
        toughHits = config.toughHits
        maxBalls = Int32(config.maxBalls)
        ballsPerServe = config.ballsPerServe
        autoServe = config.autoServe
        serveDelay = Int32(config.serveDelay)
        pushImpulse = config.pushImpulse
        pushCooldown = Int32(config.pushCooldown)
        shrink = config.shrinkPaddleOnTopWall
    }

    // MARK: - Episode start, walls and serves

    /// Number of brick cells (the grid buffer's length).
    @inlinable public var cellCount: Int { cells }

    /// Starts an episode seeded with `seed`: fills `s` and the grid `bricks`
    /// (``cellCount`` cells). The first serve is pending.
    func reset(_ s: inout BreakoutCore, bricks: UnsafeMutablePointer<UInt8>, seed: UInt64) {
        s = BreakoutCore(
            paddleX: width / 2, paddleHalfWidth: paddleHalfW, ballCount: 0, bricksLeft: 0,
            steps: 0, frames: 0, pushCooldown: 0, servePending: true, lastAction: 0, end: .none,
            ballX: .zero, ballY: .zero, ballVX: .zero, ballVY: .zero,
            stepsSinceProgress: 0, serveTimer: serveDelay,
            speed: ballSpeed, score: 0, lives: Int32(config.lives), levelsCleared: 0,
            hitsSinceServe: 0, speedUpsPassed: 0, flashCell: SIMD8(repeating: -1), flashUntil: .zero,
            reachedTopRows: false, paddleShrunk: false, flashHead: 0,
            serveRNG: Xoshiro256(seed: Seeds.stream(seed, Seeds.serveStream)),
            pushRNG: Xoshiro256(seed: Seeds.stream(seed, Seeds.pushStream)),
            stickyRNG: Xoshiro256(seed: Seeds.stream(seed, Seeds.stickyStream)),
            wallRNG: Xoshiro256(seed: Seeds.stream(seed, Seeds.wallStream)))
        layWall(&s, bricks: bricks)
    }

    /// The state at the start of an episode seeded with `seed`.
    public func initialState(seed: UInt64) -> BreakoutState {
        var bricks = [UInt8](repeating: 0, count: cells)
        var core = BreakoutCore(
            paddleX: 0, paddleHalfWidth: 0, ballCount: 0, bricksLeft: 0, steps: 0, frames: 0,
            pushCooldown: 0, servePending: false, lastAction: 0, end: .none,
            ballX: .zero, ballY: .zero, ballVX: .zero, ballVY: .zero, stepsSinceProgress: 0, serveTimer: 0,
            speed: 0, score: 0, lives: 0, levelsCleared: 0, hitsSinceServe: 0, speedUpsPassed: 0,
            flashCell: .zero, flashUntil: .zero, reachedTopRows: false, paddleShrunk: false,
            flashHead: 0, serveRNG: Xoshiro256(seed: 0),
            pushRNG: Xoshiro256(seed: 0), stickyRNG: Xoshiro256(seed: 0), wallRNG: Xoshiro256(seed: 0))
        bricks.withUnsafeMutableBufferPointer { b in
            if let base = b.baseAddress { reset(&core, bricks: base, seed: seed) }
        }
        return BreakoutState(core: core, bricks: bricks)
    }

    /// Lays a fresh wall: the explicit layout, or one kind per cell drawn
    /// (one draw per cell, bottom row first) from the wall generator.
    @usableFromInline
    func layWall(_ s: inout BreakoutCore, bricks: UnsafeMutablePointer<UInt8>) {
        if !template.isEmpty {
            for k in 0 ..< cells { bricks[k] = template[k] }
        } else {
            for k in 0 ..< cells {
                let u = s.wallRNG.nextUnit()
                let kind: BrickKind = u < share1 ? .tough : u < share2 ? .explosive
                    : u < share3 ? .extraBall : u < share4 ? .speedUp : .normal
                bricks[k] = BrickCell.make(kind, hits: kind == .tough ? toughHits : 1)
            }
        }
        var left: Int32 = 0
        for k in 0 ..< cells where bricks[k] != 0 { left += 1 }
        s.bricksLeft = left
        s.reachedTopRows = false
    }

    /// Launches `ballsPerServe` balls above the paddle at the serve speed.
    @usableFromInline
    func serve(_ s: inout BreakoutCore) {
        s.servePending = false
        s.serveTimer = 0
        s.speed = ballSpeed
        s.hitsSinceServe = 0
        s.speedUpsPassed = 0
        s.reachedTopRows = false
        if s.paddleShrunk {
            s.paddleShrunk = false
            s.paddleHalfWidth = paddleHalfW
            s.paddleX = min(max(s.paddleX, paddleHalfW), width - paddleHalfW)
        }
        let n = ballsPerServe
        for k in 0 ..< n {
            let offset = (Float(k) - Float(n - 1) / 2) * 3 * r
            let x = min(max(s.paddleX + offset, r), width - r)
            let tx = s.serveRNG.nextSigned() * tanServe
            let m = ballSpeed / (1 + tx * tx).squareRoot()
            addBall(&s, x: x, y: paddleTop + r + 1, vx: tx * m, vy: m)
        }
    }

    @inlinable
    func addBall(_ s: inout BreakoutCore, x: Float, y: Float, vx: Float, vy: Float) {
        let k = Int(s.ballCount)
        guard k < BreakoutConfig.ballSlots else { return }
        s.ballX[k] = x; s.ballY[k] = y; s.ballVX[k] = vx; s.ballVY[k] = vy
        s.ballCount += 1
    }

    /// Removes the ball in slot `i`; the last ball takes its slot.
    @inlinable
    func removeBall(_ s: inout BreakoutCore, _ i: Int) {
        let last = Int(s.ballCount) - 1
        s.ballX[i] = s.ballX[last]; s.ballY[i] = s.ballY[last]
        s.ballVX[i] = s.ballVX[last]; s.ballVY[i] = s.ballVY[last]
        s.ballX[last] = 0; s.ballY[last] = 0; s.ballVX[last] = 0; s.ballVY[last] = 0
        s.ballCount -= 1
    }

    // MARK: - One agent step

    /// One agent step: `frameSkip` frames (stopping at the episode's end),
    /// sticky actions, then the step limit and the watchdog.
    /// - Returns: the reward (points scored) and end flags; `events` holds
    ///   what happened (reset at the start).
    @inlinable
    func step(_ s: inout BreakoutCore, bricks: UnsafeMutablePointer<UInt8>, action: Int,
              events: inout BreakoutEvents) -> StepResult {
        events = BreakoutEvents()
        if s.end != .none {
            return StepResult(reward: 0, terminated: !s.end.isTruncation, truncated: s.end.isTruncation, end: s.end)
        }
        let sticky = config.stickyActionProbability
        for _ in 0 ..< config.frameSkip {
            let a = frameAction(&s, action: action, sticky: sticky)
            tick(&s, bricks: bricks, action: a, events: &events)
            if s.end != .none { break }
        }
        return finishStep(&s, events: events)
    }

    /// The action of one frame: `action`, or with the sticky-action
    /// probability `sticky` the previous frame's (one draw from the sticky
    /// generator when `sticky > 0`); recorded as the frame's action.
    @inlinable @inline(__always)
    public func frameAction(_ s: inout BreakoutCore, action: Int, sticky: Float) -> Int {
        var a = action
        if sticky > 0, s.stickyRNG.chance(sticky) { a = Int(s.lastAction) }
        s.lastAction = UInt8(truncatingIfNeeded: a)
        return a
    }

    /// The end of an agent step whose frames have run (`events` holds what
    /// they did): counts the step, then the step limit and the watchdog.
    @inlinable @inline(__always)
    public func finishStep(_ s: inout BreakoutCore, events: BreakoutEvents) -> StepResult {
        s.steps &+= 1
        let progress = events.brickHits > 0 || (config.watchdogPaddleResets && events.paddleHits > 0)
        s.stepsSinceProgress = progress ? 0 : s.stepsSinceProgress &+ 1
        if s.end == .none { s.end = limitEnd(steps: s.steps, stepsSinceProgress: s.stepsSinceProgress) }
        return StepResult(reward: Float(events.points), terminated: s.end != .none && !s.end.isTruncation,
                          truncated: s.end.isTruncation, end: s.end)
    }

    /// The end a running game reaches at the close of a step after which it
    /// has taken `steps` steps, `stepsSinceProgress` of them without
    /// progress: `.stepLimit` at `maxSteps`, else `.watchdog` at
    /// `watchdogSteps` (a limit of 0 is off), else `.none`.
    @inlinable @inline(__always)
    public func limitEnd(steps: Int32, stepsSinceProgress: Int32) -> EpisodeEnd {
        if config.maxSteps > 0, Int(steps) >= config.maxSteps { return .stepLimit }
        if config.watchdogSteps > 0, Int(stepsSinceProgress) >= config.watchdogSteps { return .watchdog }
        return .none
    }

    // MARK: - One frame

    /// Advances one frame with `action` (out-of-range actions act as noop).
    @inlinable
    func tick(_ s: inout BreakoutCore, bricks: UnsafeMutablePointer<UInt8>, action: Int,
              events: inout BreakoutEvents) {
        s.frames &+= 1
        if s.pushCooldown > 0 { s.pushCooldown -= 1 }
        // 1. Serve or push.
        if s.servePending {
            if autoServe {
                if s.serveTimer > 0 { s.serveTimer -= 1 }
                if s.serveTimer == 0 { serve(&s) }
            } else if action == BreakoutAction.push.rawValue {
                serve(&s)
            }
        } else if action == BreakoutAction.push.rawValue, s.pushCooldown == 0, s.ballCount > 0, pushImpulse > 0 {
            push(&s)
            events.pushes += 1
        }
        // 2. Paddle.
        let px0 = s.paddleX
        let px1 = paddleTarget(px0, half: s.paddleHalfWidth, direction: Self.direction(Float(action)))
        let pvx = px1 - px0
        // 3. Balls.
        var i = 0
        while i < Int(s.ballCount) {
            if moveBall(&s, i, bricks: bricks, px0: px0, pvx: pvx, events: &events) {
                i += 1
            } else {
                removeBall(&s, i)
                events.ballsLost += 1
            }
        }
        s.paddleX = clampPaddle(px1, half: s.paddleHalfWidth)
        // 4. Level cleared, life lost.
        if s.bricksLeft == 0 {
            clearLevel(&s, bricks: bricks, events: &events)
        } else if s.ballCount == 0, !s.servePending {
            s.lives -= 1
            events.livesLost += 1
            if s.lives <= 0 {
                s.end = .livesExhausted
            } else {
                s.servePending = true
                s.serveTimer = serveDelay
            }
        }
    }

    @usableFromInline
    func clearLevel(_ s: inout BreakoutCore, bricks: UnsafeMutablePointer<UInt8>, events: inout BreakoutEvents) {
        s.levelsCleared += 1
        events.levelsCleared += 1
        if Int(s.levelsCleared) >= config.levels {
            s.end = .levelsCleared
            return
        }
        layWall(&s, bricks: bricks)
        while s.ballCount > 0 { removeBall(&s, Int(s.ballCount) - 1) }
        s.servePending = true
        s.serveTimer = serveDelay
    }

    /// Adds `pushImpulse` to every ball in one uniformly random direction
    /// (rejection-sampled in the unit disc from the push generator).
    @usableFromInline
    func push(_ s: inout BreakoutCore) {
        var ux: Float = 0, uy: Float = 0, d2: Float = 0
        repeat {
            ux = s.pushRNG.nextSigned()
            uy = s.pushRNG.nextSigned()
            d2 = ux * ux + uy * uy
        } while d2 > 1 || d2 < 1e-4
        let k = pushImpulse / d2.squareRoot()
        for j in 0 ..< Int(s.ballCount) {
            var vx = s.ballVX[j] + ux * k, vy = s.ballVY[j] + uy * k
            keepPlayable(&vx, &vy)
            s.ballVX[j] = vx; s.ballVY[j] = vy
        }
        s.pushCooldown = pushCooldown
    }

    /// Caps the speed at `maxBallSpeed`.
    @inlinable
    func capSpeed(_ vx: inout Float, _ vy: inout Float) {
        let s2 = vx * vx + vy * vy
        if s2 > maxSpeedSquared {
            let k = maxSpeed / s2.squareRoot()
            vx *= k; vy *= k
        }
    }

    /// With gravity off, keeps the path at least `minBounceAngle` from the
    /// horizontal (speed and signs kept); then caps the speed.
    @inlinable
    func keepPlayable(_ vx: inout Float, _ vy: inout Float) {
        if keepAngle {
            let s2 = vx * vx + vy * vy
            if vy * vy < s2 * sinMin * sinMin {
                let speed = s2.squareRoot()
                vy = (vy < 0 ? -speed : speed) * sinMin
                vx = (vx < 0 ? -speed : speed) * cosMin
            }
        }
        capSpeed(&vx, &vy)
    }

    /// Moves ball `i` through one frame. - Returns: whether it is still in play.
    ///
    /// A ball whose frame is clear (``ballFrame(x:y:vx:vy:px0:pvx:half:)``,
    /// most frames) only moves; any other runs ``resolveContacts``. A ball
    /// the paddle ends the frame overlapping, or below the bottom edge, is
    /// lost (``ballLost(x:y:pxEnd:half:)``).
    @inlinable @inline(__always)
    func moveBall(_ s: inout BreakoutCore, _ i: Int, bricks: UnsafeMutablePointer<UInt8>,
                  px0: Float, pvx: Float, events: inout BreakoutEvents) -> Bool {
        var x = s.ballX[i], y = s.ballY[i], vx = s.ballVX[i], vy = s.ballVY[i]
        if gravity > 0 {
            vy -= gravity
            capSpeed(&vx, &vy)
        }
        let frame = ballFrame(x: x, y: y, vx: vx, vy: vy, px0: px0, pvx: pvx, half: s.paddleHalfWidth)
        if frame.clear.isSet {
            x = frame.x
            y = frame.y
        } else if !resolveContacts(&s, &x, &y, &vx, &vy, bricks: bricks, px0: px0, pvx: pvx, events: &events) {
            return false
        }
        if ballLost(x: x, y: y, pxEnd: px0 + pvx, half: s.paddleHalfWidth).isSet { return false }
        s.ballX[i] = x; s.ballY[i] = y; s.ballVX[i] = vx; s.ballVY[i] = vy
        return true
    }

    /// The ball's motion over one frame with swept contacts resolved in time
    /// order (``moveBall``'s frames that are not clear): updates the ball's position
    /// and velocity. - Returns: `false` when the ball is squeezed between
    /// the paddle and a wall (lost), else `true`.
    @usableFromInline @inline(never)
    func resolveContacts(_ s: inout BreakoutCore, _ x: inout Float, _ y: inout Float,
                         _ vx: inout Float, _ vy: inout Float, bricks: UnsafeMutablePointer<UInt8>,
                         px0: Float, pvx: Float, events: inout BreakoutEvents) -> Bool {
        let skin = BreakoutPhysics.skin
        var t: Float = 0
        var contacts = 0
        while true {
            let rem = 1 - t
            let dx = vx * rem, dy = vy * rem
            var hitT: Float = 2
            var hit = 0 // 1 side wall, 2 top wall, 3 paddle, 4 brick
            var face = Sweep.Face.left
            var cell = 0
            if dx != 0, let w = Sweep.pointVsPlane(x, by: dx, plane: dx > 0 ? width - r : r) {
                hitT = w; hit = 1
            }
            if dy > 0, let w = Sweep.pointVsPlane(y, by: dy, plane: height - r), w < hitT {
                hitT = w; hit = 2
            }
            let lowY = min(y, y + dy), highY = max(y, y + dy)
            let halfW = s.paddleHalfWidth
            if lowY - r < paddleTop {
                let box = Box(center: Vec2(px0 + pvx * t, paddleY), half: Vec2(halfW + r, paddleHalfH + r))
                if let h = Sweep.pointVsBox(from: Vec2(x, y), by: Vec2((vx - pvx) * rem, dy), box: box), h.t < hitT {
                    hitT = h.t; hit = 3; face = h.face
                }
            }
            if highY + r > wallBottom, lowY - r < wallTop {
                let slack: Float = 1.0 / 64
                let c0 = max(0, Int((min(x, x + dx) - r - slack) * invBrickW))
                let c1 = min(cols - 1, Int((max(x, x + dx) + r + slack) * invBrickW))
                let r0 = max(0, Int((lowY - r - slack - wallBottom) * invBrickH))
                let r1 = min(rows - 1, Int((highY + r + slack - wallBottom) * invBrickH))
                if r0 <= r1, c0 <= c1 {
                    let half = Vec2(brickW / 2 + r, brickH / 2 + r)
                    for row in r0 ... r1 {
                        let cy = wallBottom + (Float(row) + 0.5) * brickH
                        for col in c0 ... c1 where bricks[row * cols + col] & BrickCell.hitsMask != 0 {
                            let box = Box(center: Vec2((Float(col) + 0.5) * brickW, cy), half: half)
                            if let h = Sweep.pointVsBox(from: Vec2(x, y), by: Vec2(dx, dy), box: box), h.t < hitT {
                                hitT = h.t; hit = 4; face = h.face; cell = row * cols + col
                            }
                        }
                    }
                }
            }
            if hit == 0 {
                x += dx
                y += dy
                break
            }
            contacts += 1
            let dt = hitT * rem
            x += vx * dt
            y += vy * dt
            t += dt
            switch hit {
            case 1:
                x = dx > 0 ? width - r : r
                vx = -vx * elasticity
                keepPlayable(&vx, &vy)
            case 2:
                y = height - r
                vy = -vy * elasticity
                keepPlayable(&vx, &vy)
                if shrink, !s.paddleShrunk {
                    s.paddleShrunk = true
                    s.paddleHalfWidth = paddleHalfW / 2
                }
            case 3:
                let px = px0 + pvx * t
                switch face {
                case .top:
                    let offset = min(max((x - px) / (halfW + r), -1), 1)
                    let tx = offset * tanMax
                    let m = s.speed / (1 + tx * tx).squareRoot()
                    vx = tx * m
                    vy = m
                    y = paddleTop + r + skin
                    events.paddleHits += 1
                case .left, .right:
                    vx = 2 * pvx - vx
                    x = px + (face == .right ? 1 : -1) * (halfW + r + skin)
                    if x < r || x > width - r { return false } // squeezed against a wall
                    capSpeed(&vx, &vy)
                case .bottom:
                    vy = -vy * elasticity
                    y = paddleY - paddleHalfH - r - skin
                    capSpeed(&vx, &vy)
                }
            default:
                let col = cell % cols, row = cell / cols
                let left = Float(col) * brickW, bottom = wallBottom + Float(row) * brickH
                switch face {
                case .left: x = left - r - skin; vx = -vx * elasticity
                case .right: x = left + brickW + r + skin; vx = -vx * elasticity
                case .bottom: y = bottom - r - skin; vy = -vy * elasticity
                case .top: y = bottom + brickH + r + skin; vy = -vy * elasticity
                }
                let before = s.speed
                hitBrick(&s, cell: cell, bricks: bricks, events: &events)
                if s.speed != before {
                    let k = s.speed / before
                    vx *= k; vy *= k
                }
                keepPlayable(&vx, &vy)
            }
            if contacts >= BreakoutPhysics.maxContacts { break }
        }
        return true
    }

    // MARK: - Bricks

    /// A ball hit `cell`: counts the hit, applies speed-ups, damages the brick
    /// and resolves any chain of explosions.
    @usableFromInline
    func hitBrick(_ s: inout BreakoutCore, cell: Int, bricks: UnsafeMutablePointer<UInt8>,
                  events: inout BreakoutEvents) {
        events.brickHits += 1
        s.hitsSinceServe += 1
        if s.speedUpsPassed < thresholdCount, s.hitsSinceServe >= thresholds[Int(s.speedUpsPassed)] {
            s.speedUpsPassed += 1
            raiseSpeed(&s, events: &events)
        }
        if cell / cols >= topRowStart, !s.reachedTopRows {
            s.reachedTopRows = true
            raiseSpeed(&s, events: &events)
        }
        if damage(&s, cell: cell, bricks: bricks, events: &events) {
            // Explosions: damage pending cells until none is left (each
            // explosive brick that breaks marks its neighbours again).
            var pending = true
            while pending {
                pending = false
                for k in 0 ..< cells where bricks[k] & BrickCell.pending != 0 {
                    bricks[k] &= ~BrickCell.pending
                    pending = true
                    _ = damage(&s, cell: k, bricks: bricks, events: &events)
                }
            }
        }
    }

    /// Takes one hit off the brick in `cell`; breaks it at zero (score,
    /// flash, effect). - Returns: whether it exploded (marked neighbours).
    @usableFromInline
    func damage(_ s: inout BreakoutCore, cell: Int, bricks: UnsafeMutablePointer<UInt8>,
                events: inout BreakoutEvents) -> Bool {
        let c = bricks[cell]
        let hits = c & BrickCell.hitsMask
        guard hits > 0 else { return false }
        flash(&s, cell: cell)
        if hits > 1 {
            bricks[cell] = c - 1
            return false
        }
        bricks[cell] = 0
        s.bricksLeft -= 1
        let row = cell / cols
        let value = rowValues[row]
        s.score += value
        events.points += value
        let kind = BrickCell.kind(c)
        events.countBroken(kind)
        switch kind {
        case .explosive:
            let col = cell % cols
            var marked = false
            for nr in max(0, row - 1) ... min(rows - 1, row + 1) {
                for nc in max(0, col - 1) ... min(cols - 1, col + 1) where nr != row || nc != col {
                    let n = nr * cols + nc
                    if bricks[n] & BrickCell.hitsMask != 0 {
                        bricks[n] |= BrickCell.pending
                        marked = true
                    }
                }
            }
            return marked
        case .extraBall:
            if s.ballCount < maxBalls {
                let col = cell % cols
                let tx = s.serveRNG.nextSigned() * tanServe
                let m = s.speed / (1 + tx * tx).squareRoot()
                addBall(&s, x: (Float(col) + 0.5) * brickW, y: wallBottom + (Float(row) + 0.5) * brickH, vx: tx * m, vy: -m)
                events.ballsReleased += 1
            }
        case .speedUp:
            raiseSpeed(&s, events: &events)
        case .normal, .tough:
            break
        }
        return false
    }

    @usableFromInline
    func flash(_ s: inout BreakoutCore, cell: Int) {
        let k = Int(s.flashHead & 7)
        s.flashCell[k] = Int16(truncatingIfNeeded: cell)
        s.flashUntil[k] = s.frames &+ BreakoutPhysics.flashFrames
        s.flashHead = (s.flashHead &+ 1) & 7
    }

    /// Raises the speed level by `speedUpIncrement` (capped) and scales every
    /// ball's stored velocity by the same ratio.
    @usableFromInline
    func raiseSpeed(_ s: inout BreakoutCore, events: inout BreakoutEvents) {
        let old = s.speed
        let new = min(old + increment, maxSpeed)
        guard new > old else { return }
        s.speed = new
        events.speedUps += 1
        let k = new / old
        for j in 0 ..< Int(s.ballCount) {
            var vx = s.ballVX[j] * k, vy = s.ballVY[j] * k
            capSpeed(&vx, &vy)
            s.ballVX[j] = vx; s.ballVY[j] = vy
        }
    }
}

/// Each game of a batch keeps its physics in a ``PerGameRules``.
extension BreakoutPhysics: GamePhysics {}
