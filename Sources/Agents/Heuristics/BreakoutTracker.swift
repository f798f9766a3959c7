import Gym

/// The heuristic Breakout player: keeps the ball on the paddle, optionally
/// aims its returns at the remaining bricks, serves when a manual serve is
/// due and pushes when the no-progress watchdog is near.
///
/// It reads only the observation (see ``BreakoutGame``) plus the config's
/// geometry (in a batch, the same entries from the batch's state:
/// ``BreakoutStateTracker``). Each step it picks the ball that reaches the paddle's face
/// first (balls falling before rising ones; gravity included), predicts
/// where that ball crosses the face line (walls unfolded; bricks ignored),
/// and moves the paddle under it. With `aim`, it offsets the paddle so the
/// hit-position rule sends the ball toward the column with the most hits
/// left (ties: the nearest). Skill knobs as for ``PongTracker``:
/// - `reaction`: steps of delay: it acts on the target it chose `reaction` steps ago;
/// - `noise`: aim error, uniform in ±`noise` paddle half widths, redrawn
///   whenever the tracked ball turns downward (own generator);
/// - `speed`: fraction of steps on which it may move, in (0, 1];
/// - `predict`: aim at the predicted crossing point rather than the ball.
public struct BreakoutTracker: Agent, Sendable {
    public typealias Skill = TrackerSkill

    public let skill: Skill
    let field: TrackerField, maxSpeed: Float
    let gravity: Float, tanMax: Float, wallBottom: Float, brickWidth: Float
    let maxBalls: Int, rows: Int, cols: Int, bricksStart: Int, manualServe: Bool
    /// Push when the watchdog observation passes this fraction.
    static let pushAt: Float = 0.75
    var steering: TrackerSteering

    public init(config: BreakoutConfig, skill: Skill = Skill(), seed: UInt64 = 0) {
        self.skill = skill
        field = TrackerField(config)
        maxSpeed = config.maxBallSpeed
        gravity = config.gravity
        let a = Angle.sinCos(degrees: Double(config.minBounceAngle))
        tanMax = Float(a.cos / a.sin)
        wallBottom = config.wallBottom
        brickWidth = config.brickWidth
        maxBalls = config.maxBalls
        rows = config.brickRows
        cols = config.brickColumns
        bricksStart = 8 + 5 * config.maxBalls
        manualServe = !config.autoServe
        steering = TrackerSteering(skill: skill, seed: seed)
    }

    public mutating func reset(seed: UInt64) { steering.reset(seed: seed) }

    public mutating func act(_ o: UnsafeBufferPointer<Float>) -> Int { decide(o, &steering) }

    /// The action for observation `o`, steered by `steering` (this tracker's
    /// own, or its game's in a ``TrackerBatch``).
    @inline(__always)
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int {
        guard let head = o.baseAddress else { return BreakoutAction.noop.rawValue }
        return decide(head, wall: ObservedWall(cells: head + bricksStart), &steering)
    }

    /// The action for the observation whose entries before the brick cells
    /// are `o` (``bricksStart`` floats) and whose wall is `wall`, steered by
    /// `steering`: the one form of the rules.
    @inline(__always)
    func decide<S: TrackerSteerer, W: BreakoutTrackerWall>(_ o: UnsafePointer<Float>, wall: W,
                                                          _ steering: inout S) -> Int {
        let cx = field.width / 2, cy = field.height / 2
        let paddleX = o[0] * cx + cx
        let halfW = o[1] * cx
        let servePending = o[6] > 0.5
        if servePending, manualServe { return BreakoutAction.push.rawValue }
        let inPlay = !servePending
        if inPlay, o[5] >= BreakoutTracker.pushAt, o[4] == 0 { return BreakoutAction.push.rawValue }

        // The ball that reaches the paddle's face first.
        var best = -1
        var bestTime = Float.infinity
        for k in 0 ..< maxBalls where o[8 + 5 * k] > 0.5 {
            let y = o[10 + 5 * k] * cy + cy, vy = o[12 + 5 * k] * maxSpeed
            let t = timeToFace(y: y, vy: vy)
            if t < bestTime { bestTime = t; best = k }
        }
        var target = cx
        if best >= 0 {
            let b = 8 + 5 * best
            let x = o[b + 1] * cx + cx, y = o[b + 2] * cy + cy
            let vx = o[b + 3] * maxSpeed, vy = o[b + 4] * maxSpeed
            steering.track(incoming: LaneFlag(vy < 0), halfWidth: halfW)
            target = x
            if skill.predict, bestTime.isFinite, y > field.faceY {
                target = BreakoutTracker.unfold(x + vx * bestTime, minX: field.r, maxX: field.width - field.r)
            }
            if skill.aim {
                target -= wall.aimShift(self, from: target, halfW: halfW)
            }
            target += steering.aimOffset
        }
        switch steering.move(toward: target, from: paddleX, deadZone: field.deadZone) {
        case .left: return BreakoutAction.left.rawValue
        case .right: return BreakoutAction.right.rawValue
        case .stay: return BreakoutAction.noop.rawValue
        }
    }

    /// Frames until a ball at height `y` moving by `vy` (units/frame) reaches
    /// the paddle's face line, under gravity; a rising ball without gravity
    /// is counted as rising to the top wall and back.
    func timeToFace(y: Float, vy: Float) -> Float {
        let drop = y - field.faceY
        if gravity > 0 {
            // y + vy t - g t²/2 = faceY  →  t = (vy + √(vy² + 2 g drop)) / g
            let d = vy * vy + 2 * gravity * drop
            return d >= 0 ? (vy + d.squareRoot()) / gravity : .infinity
        }
        if vy < 0 { return drop / -vy }
        if vy > 0 { return (2 * (field.height - field.r) - y - field.faceY) / vy }
        return .infinity
    }

    /// How far to move the paddle's centre past the ball so that the return
    /// heads for the column with the most hits left (0 when no brick is
    /// left), the wall read from its cell entries `cells`.
    func aimShift(from x: Float, halfW: Float, cells: UnsafePointer<Float>) -> Float {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: cols) { sums in
            guard let sum = sums.baseAddress else { return 0 }
            sumColumns(cells, into: sum)
            return aimShift(from: x, halfW: halfW, toward: aimColumn(from: x, columnHits: sum))
        }
    }

    /// Each column's hits left (`sum[col]`) from the wall's cell entries
    /// `cells`, summed row by row (0 + row 0 + row 1 + …), all columns at
    /// once: the rows are contiguous, so the adds are vector adds.
    func sumColumns(_ cells: UnsafePointer<Float>, into sum: UnsafeMutablePointer<Float>) {
        sum.initialize(repeating: 0, count: cols)
        for row in 0 ..< rows {
            let line = cells + row * cols
            for col in 0 ..< cols { sum[col] += line[col] }
        }
    }

    /// The column with the most hits left (`columnHits[col]`; hits within
    /// 10⁻⁶ of each other count as equal, column by column from the left),
    /// the nearest to `x` of those (ties: the leftmost), or −1 with no brick.
    func aimColumn(from x: Float, columnHits: UnsafePointer<Float>) -> Int {
        var bestColumn = -1
        var bestHits: Float = 0
        var bestDistance = Float.infinity
        for col in 0 ..< cols {
            let hits = columnHits[col]
            let distance = abs(centre(col) - x)
            if hits > bestHits + 1e-6 || (hits > 0 && abs(hits - bestHits) <= 1e-6 && distance < bestDistance) {
                bestColumn = col; bestHits = hits; bestDistance = distance
            }
        }
        return bestColumn
    }

    /// Column `col`'s centre x.
    @inline(__always)
    func centre(_ col: Int) -> Float { (Float(col) + 0.5) * brickWidth }

    /// ``aimShift(from:halfW:cells:)`` once its aim column `column` is known (−1: none).
    func aimShift(from x: Float, halfW: Float, toward column: Int) -> Float {
        guard column >= 0 else { return 0 }
        let goal = centre(column)
        // The outgoing path has tan(angle from vertical) = offset · tanMax.
        let rise = max(wallBottom - field.faceY, 1)
        let offset = min(max((goal - x) / rise / tanMax, -0.8), 0.8)
        return offset * (halfW + field.r)
    }

    /// Folds a coordinate into [minX, maxX] as wall reflections would.
    static func unfold(_ x: Float, minX: Float, maxX: Float) -> Float {
        let span = maxX - minX
        guard span > 0 else { return x }
        // The remainder of an offset already within one period is the offset itself.
        let a = x - minX, period = 2 * span
        var u = abs(a) < period ? a : a.truncatingRemainder(dividingBy: period)
        if u < 0 { u += 2 * span }
        return minX + (u <= span ? u : 2 * span - u)
    }
}
