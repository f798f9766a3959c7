import Gym

/// A heuristic Breakout player: keeps the paddle under the ball that will
/// reach the paddle line first (its crossing predicted with wall
/// reflections, gravity ignored), and pushes to serve or to break a loop.
///
/// It reads only the observation (see ``BreakoutGame``) and takes the same
/// skill knobs as ``PongTracker`` (`reaction` steps of delay, aim `noise`
/// in paddle half-widths redrawn on every paddle hit from its own
/// generator, `speed` fraction of steps it may move, `predict` or chase).
/// Push (action 3): when a serve is pending, and when the watchdog is more
/// than half way to truncating the episode and the push is ready.
public struct BreakoutTracker: Agent, Sendable {
    public let skill: PongTracker.Skill
    let maxBalls: Int
    /// Paddle line, ball radius and dead zone in observation units (x over W/2, y over H/2).
    let lineY: Float, r: Float, deadZone: Float, ratioYX: Float
    var rng: Xoshiro256
    var history: [Float]
    var head = 0, seen = 0
    var aimOffset: Float = 0
    var wasRising = false
    var moveCredit: Float = 0

    public init(config: BreakoutConfig, skill: PongTracker.Skill = PongTracker.Skill(), seed: UInt64 = 0) {
        self.skill = skill
        maxBalls = config.maxBalls
        let cx = config.fieldWidth / 2, cy = config.fieldHeight / 2
        lineY = (config.paddleInset + config.paddleHeight / 2 + config.ballSize / 2 - cy) / cy
        r = config.ballSize / 2 / cx
        deadZone = config.paddleSpeed / 2 / cx
        // Velocities are both over maxBallSpeed; a y step in observation units is (H/2)/(W/2) times an x step.
        ratioYX = cy / cx
        rng = Xoshiro256(seed: seed)
        history = [Float](repeating: 0, count: skill.reaction + 1)
    }

    public mutating func reset(seed: UInt64) {
        rng = Xoshiro256(seed: seed)
        head = 0; seen = 0; aimOffset = 0; wasRising = false; moveCredit = 0
    }

    public mutating func act(_ o: UnsafeBufferPointer<Float>) -> Int {
        let paddleX = o[0], halfWidth = o[1]
        if o[6] > 0.5 { return BreakoutAction.push.rawValue }
        if o[5] > 0.5, o[4] == 0 { return BreakoutAction.push.rawValue }
        // The ball to play: the descending one that reaches the line first, else the lowest.
        var target = paddleX
        var best = Float.infinity
        var rising = true
        for k in 0 ..< maxBalls where o[8 + 5 * k] > 0.5 {
            let x = o[9 + 5 * k], y = o[10 + 5 * k], vx = o[11 + 5 * k], vy = o[12 + 5 * k]
            let time: Float = vy < 0 ? (y - lineY) * ratioYX / -vy : 1e6 + y
            guard time < best else { continue }
            best = time
            rising = vy >= 0
            if skill.predict, vy < 0, y > lineY {
                target = PongTracker.crossing(x: x, y: y * ratioYX, vx: vx, vy: vy, lineY: lineY * ratioYX,
                                              minX: -1 + r, maxX: 1 - r)
            } else {
                target = x
            }
        }
        if rising && !wasRising, skill.noise > 0 { aimOffset = rng.nextSigned() * skill.noise * halfWidth }
        wasRising = rising
        target += aimOffset
        history[head] = target
        let delayed = seen >= skill.reaction ? history[(head + 1) % history.count] : paddleX
        head = (head + 1) % history.count
        seen += 1
        moveCredit += skill.speed
        guard moveCredit >= 1 else { return BreakoutAction.noop.rawValue }
        moveCredit -= 1
        if delayed < paddleX - deadZone { return BreakoutAction.left.rawValue }
        if delayed > paddleX + deadZone { return BreakoutAction.right.rawValue }
        return BreakoutAction.noop.rawValue
    }
}
