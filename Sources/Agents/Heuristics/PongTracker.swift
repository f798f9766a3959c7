import Gym

/// The heuristic Pong player: moves its paddle toward the ball, or toward
/// where the ball will cross its paddle line (walls included), with skill
/// knobs that make graded opponents.
///
/// It reads only the egocentric observation (see ``PongGame``), so it plays
/// either side. Skill knobs:
/// - `reaction`: steps of delay, it acts on what it saw `reaction` steps ago;
/// - `noise`: aim error, uniform in ±`noise` paddle half-widths, redrawn each
///   time the ball turns toward it (from the agent's own generator);
/// - `speed`: fraction of steps on which it may move, in (0, 1];
/// - `predict`: aim at the predicted crossing point rather than the ball.
public struct PongTracker: Agent, Sendable {
    public typealias Skill = TrackerSkill

    public let skill: Skill
    let width: Float, height: Float, halfPaddle: Float, faceY: Float, r: Float, deadZone: Float
    var rng: Xoshiro256
    /// Targets seen in the last `reaction + 1` steps (ring buffer).
    var history: [Float]
    var head = 0
    var seen = 0
    var aimOffset: Float = 0
    var approaching = false
    var moveCredit: Float = 0

    public init(config: PongConfig, skill: Skill = Skill(), seed: UInt64 = 0) {
        self.skill = skill
        width = config.fieldWidth
        height = config.fieldHeight
        halfPaddle = config.paddleWidth / 2
        r = config.ballSize / 2
        faceY = config.paddleInset + config.paddleHeight / 2 + config.ballSize / 2
        deadZone = config.paddleSpeed / 2
        rng = Xoshiro256(seed: seed)
        history = [Float](repeating: 0, count: skill.reaction + 1)
    }

    public mutating func reset(seed: UInt64) {
        rng = Xoshiro256(seed: seed)
        head = 0; seen = 0; aimOffset = 0; approaching = false; moveCredit = 0
    }

    public mutating func act(_ o: UnsafeBufferPointer<Float>) -> Int {
        let cx = width / 2, cy = height / 2
        let ownX = o[0] * cx + cx
        let ballX = o[4] * cx + cx, ballY = o[5] * cy + cy
        // Velocities are normalised by maxBallSpeed; only their ratio matters here.
        let vx = o[6], vy = o[7]
        let nowApproaching = vy < 0
        if nowApproaching && !approaching, skill.noise > 0 {
            aimOffset = rng.nextSigned() * skill.noise * halfPaddle
        }
        approaching = nowApproaching
        var target = ballX
        if skill.predict, vy < 0, ballY > faceY {
            target = PongTracker.crossing(x: ballX, y: ballY, vx: vx, vy: vy, lineY: faceY,
                                          minX: r, maxX: width - r)
        }
        target += aimOffset
        // Reaction delay: act on the target seen `reaction` steps ago.
        history[head] = target
        let delayed = seen >= skill.reaction ? history[(head + 1) % history.count] : ownX
        head = (head + 1) % history.count
        seen += 1
        // Speed cap: move on a `speed` fraction of the steps.
        moveCredit += skill.speed
        guard moveCredit >= 1 else { return PongAction.noop.rawValue }
        moveCredit -= 1
        if delayed < ownX - deadZone { return PongAction.left.rawValue }
        if delayed > ownX + deadZone { return PongAction.right.rawValue }
        return PongAction.noop.rawValue
    }

    /// Where a ball at (x, y) moving by (vx, vy), vy < 0, crosses the line
    /// `y = lineY`, reflecting off walls at `minX` and `maxX` (the ball
    /// centre's limits).
    public static func crossing(x: Float, y: Float, vx: Float, vy: Float, lineY: Float,
                                minX: Float, maxX: Float) -> Float {
        let t = (lineY - y) / vy
        let span = maxX - minX
        guard span > 0 else { return x }
        // Unfold the reflections: position on a line of period 2·span.
        var u = (x - minX + vx * t).truncatingRemainder(dividingBy: 2 * span)
        if u < 0 { u += 2 * span }
        return minX + (u <= span ? u : 2 * span - u)
    }
}
