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
    /// `steering` (``moves(_:balls:asked:wall:_:)`` for one game).
    @inline(__always)
    func decide<S: TrackerSteerer, W: BreakoutTrackerWall>(_ o: UnsafePointer<Float>, wall: W,
                                                          _ steering: inout S) -> Int {
        let m = withUnsafeMutablePointer(to: &steering) { s in
            var one = OneGameSteering(s: s)
            return moves(o, balls: maxBalls, asked: LaneFlag(true), wall: wall, &one)
        }
        if m.push.isSet { return BreakoutAction.push.rawValue }
        if m.left.isSet { return BreakoutAction.left.rawValue }
        return m.right.isSet ? BreakoutAction.right.rawValue : BreakoutAction.noop.rawValue
    }

    /// The one form of the rules, for one game (`L` = `Float`) or eight
    /// (``BreakoutStateTracker``'s lanes): from the observation entries
    /// before the brick cells `o[0 ..< 8 + 5 × balls]` (the ball slots
    /// from `balls` on out of play), the wall `wall` and the steering
    /// `steering`, whether the tracker pushes, else moves left, else right
    /// (neither: it stays), in the lanes `asked` (the others' steering is
    /// left as it was, their moves are not used). A game that pushes does
    /// not steer (its steering is left as it was); one without a ball to
    /// track steers toward the field's centre without tracking.
    @inline(__always)
    func moves<L: TrackerLane, S: BreakoutTrackerSteering, W: BreakoutTrackerWalls>(
        _ o: UnsafePointer<L>, balls: Int, asked: L.Condition, wall: W, _ steering: inout S
    ) -> (push: L.Condition, left: L.Condition, right: L.Condition) where S.L == L, W.L == L {
        let cx = field.width / 2, cy = field.height / 2
        let paddleX = o[0] * cx + cx
        let halfW = o[1] * cx
        let servePending = o[6] .> 0.5
        var push = .!servePending .& (o[5] .>= BreakoutTracker.pushAt) .& (o[4] .== 0)
        if manualServe { push = push .| servePending }
        let steers = asked .& .!push, never = L(repeating: 0) .> 0
        guard steers.holdsSomewhere else { return (push, never, never) }

        // The ball that reaches the paddle's face first (its entries).
        var bestTime = L(repeating: .infinity), tracked = never
        var ballX = L(repeating: 0), ballY = ballX, ballVX = ballX, ballVY = ballX
        for k in 0 ..< balls {
            let b = o + 8 + 5 * k
            let t = timeToFace(y: b[2] * cy + cy, vy: b[4] * maxSpeed)
            let better = (b[0] .> 0.5) .& (t .< bestTime)
            bestTime = bestTime.replacing(with: t, where: better)
            ballX = ballX.replacing(with: b[1], where: better); ballY = ballY.replacing(with: b[2], where: better)
            ballVX = ballVX.replacing(with: b[3], where: better); ballVY = ballVY.replacing(with: b[4], where: better)
            tracked = tracked .| better
        }
        var target = L(repeating: cx)
        tracked = tracked .& steers
        if tracked.holdsSomewhere {
            let x = ballX * cx + cx, y = ballY * cy + cy
            let vx = ballVX * maxSpeed, vy = ballVY * maxSpeed
            steering.track(incoming: vy .< 0, halfWidths: halfW, where: tracked)
            var aim = x
            if skill.predict {
                let predicting = tracked .& (bestTime .< .infinity) .& (bestTime .> -.infinity) .& (y .> field.faceY)
                aim = aim.replacing(with: BreakoutTracker.unfold(x + vx * bestTime, minX: field.r,
                                                                 maxX: field.width - field.r, where: predicting),
                                    where: predicting)
            }
            if skill.aim {
                aim = aim - wall.aimShifts(self, from: aim, halfW: halfW, where: tracked)
            }
            target = target.replacing(with: aim + steering.aimOffset, where: tracked)
        }
        let moves = steering.steerMoves(toward: target, from: paddleX, deadZone: field.deadZone, where: steers)
        return (push, moves.left .& steers, moves.right .& steers)
    }

    /// Frames until a ball at height `y` moving by `vy` (units/frame) reaches
    /// the paddle's face line, under gravity; a rising ball without gravity
    /// is counted as rising to the top wall and back (never: infinity).
    @inline(__always)
    func timeToFace<L: LaneFloat>(y: L, vy: L) -> L {
        let drop = y - field.faceY
        if gravity > 0 {
            // y + vy t - g t²/2 = faceY  →  t = (vy + √(vy² + 2 g drop)) / g
            let d = vy * vy + drop * (2 * gravity)
            return ((vy + d.squareRoot()) / gravity).replacing(with: .infinity, where: .!(d .>= 0))
        }
        let falling = drop / (L(repeating: 0) - vy), rising = (2 * (field.height - field.r) - y - field.faceY) / vy
        return L(repeating: .infinity).replacing(with: rising, where: vy .> 0).replacing(with: falling, where: vy .< 0)
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
        aimShift(from: x, halfW: halfW, toward: Float(column))
    }

    /// ``aimShift(from:halfW:toward:)`` of one game or eight, each lane's
    /// aim column as a float (−1: none).
    @inline(__always)
    func aimShift<L: LaneFloat>(from x: L, halfW: L, toward column: L) -> L {
        let goal = (column + 0.5) * brickWidth
        // The outgoing path has tan(angle from vertical) = offset · tanMax.
        let rise = max(wallBottom - field.faceY, 1)
        let offset = L.min(L.max((goal - x) / rise / tanMax, -0.8), 0.8)
        return (offset * (halfW + field.r)).replacing(with: 0, where: column .< 0)
    }

    /// Folds a coordinate into [minX, maxX] as wall reflections would.
    static func unfold(_ x: Float, minX: Float, maxX: Float) -> Float {
        unfold(x, minX: minX, maxX: maxX, where: LaneFlag(true))
    }

    /// ``unfold(_:minX:maxX:)`` of each lane of `x`, for the lanes where
    /// `needed` holds (the others' results are not used: no remainder is
    /// taken for them).
    @inline(__always)
    static func unfold<L: LaneFloat>(_ x: L, minX: Float, maxX: Float, where needed: L.Condition) -> L {
        let span = maxX - minX
        guard span > 0 else { return x }
        // The remainder of an offset already within one period is the offset itself.
        let a = x - minX, period = 2 * span
        let within = (a .< period) .& (a .> -period)
        var u = a.replacing(withRemainderOf: a, dividingBy: period, where: needed .& .!within)
        u = u.replacing(with: u + 2 * span, where: u .< 0)
        return u.replacing(with: 2 * span - u, where: .!(u .<= span)) + minX
    }
}
