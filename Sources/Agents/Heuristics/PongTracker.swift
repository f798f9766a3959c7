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
    let field: TrackerField, halfPaddle: Float
    var steering: TrackerSteering

    public init(config: PongConfig, skill: Skill = Skill(), seed: UInt64 = 0) {
        self.skill = skill
        field = TrackerField(config)
        halfPaddle = config.paddleWidth / 2
        steering = TrackerSteering(skill: skill, seed: seed)
    }

    public mutating func reset(seed: UInt64) { steering.reset(seed: seed) }

    public mutating func act(_ o: UnsafeBufferPointer<Float>) -> Int { decide(o, &steering) }

    /// The action for observation `o`, steered by `steering` (this tracker's
    /// own, or its game's in a ``PongTrackerBatch``): the one form of the rules.
    @inline(__always)
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int {
        let cx = field.width / 2, cy = field.height / 2
        let ownX = o[0] * cx + cx
        let ballX = o[4] * cx + cx, ballY = o[5] * cy + cy
        // Velocities are normalised by maxBallSpeed; only their ratio matters here.
        let vx = o[6], vy = o[7]
        steering.track(incoming: vy < 0, halfWidth: halfPaddle)
        var target = ballX
        if skill.predict, vy < 0, ballY > field.faceY {
            target = PongTracker.crossing(x: ballX, y: ballY, vx: vx, vy: vy, lineY: field.faceY,
                                          minX: field.r, maxX: field.width - field.r)
        }
        switch steering.move(toward: target + steering.aimOffset, from: ownX, deadZone: field.deadZone) {
        case .left: return PongAction.left.rawValue
        case .right: return PongAction.right.rawValue
        case .stay: return PongAction.noop.rawValue
        }
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
