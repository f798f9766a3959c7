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
    /// own, or its game's in a ``TrackerBatch`` or ``PongLaneTracker``).
    @inline(__always)
    func decide<S: TrackerSteerer>(_ o: UnsafeBufferPointer<Float>, _ steering: inout S) -> Int {
        let aim = aim(ownX: o[0], ballX: o[4], ballY: o[5], vx: o[6], vy: o[7])
        let direction = Self.steer(&steering, own: aim.own, target: aim.target, incoming: aim.incoming,
                                   halfPaddle: halfPaddle, deadZone: field.deadZone)
        return Self.action(TrackerSteering.move(direction))
    }

    /// The Pong tracker's steering of one game or eight (every form's: the
    /// reference's ``decide(_:_:)``, ``PongLaneTracker``'s games,
    /// ``PongTrackerSeats``' lanes): the aim error redrawn where the ball
    /// turns toward the tracker, then the direction toward `target` plus
    /// the aim error (``TrackerSteeringState/steer(toward:from:deadZone:)``).
    @inline(__always)
    static func steer<S: TrackerSteeringState>(_ steering: inout S, own: S.L, target: S.L, incoming: S.L.Condition,
                                               halfPaddle: Float, deadZone: Float) -> S.L {
        let moves = steerMoves(&steering, own: own, target: target, incoming: incoming, halfPaddle: halfPaddle,
                               deadZone: deadZone)
        return S.L.sign(plus: moves.right, minus: moves.left)
    }

    /// ``steer(_:own:target:incoming:halfPaddle:deadZone:)`` as its two
    /// moves (``TrackerSteeringState/steerMoves(toward:from:deadZone:)``).
    @inline(always)
    static func steerMoves<S: TrackerSteeringState>(_ steering: inout S, own: S.L, target: S.L,
                                                    incoming: S.L.Condition, halfPaddle: Float, deadZone: Float)
        -> (left: S.L.Condition, right: S.L.Condition) {
        steering.track(incoming: incoming, halfWidth: halfPaddle)
        return steering.steerMoves(toward: target + steering.aimOffset, from: own, deadZone: deadZone)
    }

    /// The one form of the tracker's per-frame rule, for one game (`Float`)
    /// or eight (``PongLaneTracker``): from a seat's observation entries
    /// (own paddle x `ownX`, ball x, y, vx, vy: entries 0, 4, 5, 6, 7), its
    /// paddle's centre and the x it aims at (before the aim error), both in
    /// field units of the seat's own frame, and whether the ball comes
    /// toward it.
    @inline(__always)
    func aim<L: LaneFloat>(ownX: L, ballX: L, ballY: L, vx: L, vy: L) -> (own: L, target: L, incoming: L.Condition) {
        Self.aim(field, predict: skill.predict, ownX: ownX, ballX: ballX, ballY: ballY, vx: vx, vy: vy)
    }

    /// ``aim(ownX:ballX:ballY:vx:vy:)`` of a tracker with geometry `field`
    /// that predicts (`predict`) or not (inlined whole: in a caller's lane
    /// loop the tracker is not copied per call).
    @inline(always)
    static func aim<L: LaneFloat>(_ field: TrackerField, predict: Bool, ownX: L, ballX: L, ballY: L, vx: L, vy: L)
        -> (own: L, target: L, incoming: L.Condition) {
        let seen = sight(field, ownX: ownX, ballX: ballX, ballY: ballY, vy: vy)
        guard predict else { return (seen.own, seen.x, seen.incoming) }
        return (seen.own, target(field, seen, vx: vx, vy: vy, predicting: seen.incoming), seen.incoming)
    }

    /// ``aim(_:predict:ownX:ballX:ballY:vx:vy:)`` of eight seats (or one)
    /// each predicting or not: predicting where `predicts` holds.
    @inline(always)
    static func aim<L: LaneFloat>(_ field: TrackerField, predicting predicts: L.Condition, ownX: L, ballX: L, ballY: L,
                                  vx: L, vy: L) -> (own: L, target: L, incoming: L.Condition) {
        let seen = sight(field, ownX: ownX, ballX: ballX, ballY: ballY, vy: vy)
        return (seen.own, target(field, seen, vx: vx, vy: vy, predicting: seen.incoming .& predicts), seen.incoming)
    }

    /// ``aim(_:predicting:ownX:ballX:ballY:vx:vy:)`` of both seats of the
    /// same games, `bottom`'s entries and `top`'s (the bottom seat's view
    /// mirrored: every entry negated, the own paddle the opponent's), each
    /// seat predicting where its `predicts` holds: the crossing is taken
    /// once for both. The ball comes toward at most one seat of a game
    /// (`vy < 0` in that seat's view, and the views' `vy` are each other's
    /// negation), so each lane predicts for at most one seat, and the one
    /// crossing, from that seat's entries in each lane, is that seat's, bit
    /// for bit: a lane's crossing reads only its own entries.
    @inline(always)
    static func aim<L: LaneFloat>(_ field: TrackerField, bottom: (ownX: L, ballX: L, ballY: L, vx: L, vy: L),
                                  top: (ownX: L, ballX: L, ballY: L, vx: L, vy: L),
                                  predicting predicts: (bottom: L.Condition, top: L.Condition))
        -> (bottom: (own: L, target: L, incoming: L.Condition), top: (own: L, target: L, incoming: L.Condition)) {
        let seenB = sight(field, ownX: bottom.ownX, ballX: bottom.ballX, ballY: bottom.ballY, vy: bottom.vy)
        let seenT = sight(field, ownX: top.ownX, ballX: top.ballX, ballY: top.ballY, vy: top.vy)
        let predictedB = predicted(field, seenB, predicting: seenB.incoming .& predicts.bottom)
        let predictedT = predicted(field, seenT, predicting: seenT.incoming .& predicts.top)
        let meets = crossing(field, x: seenB.x.replacing(with: seenT.x, where: predictedT),
                             y: seenB.y.replacing(with: seenT.y, where: predictedT),
                             vx: bottom.vx.replacing(with: top.vx, where: predictedT),
                             vy: bottom.vy.replacing(with: top.vy, where: predictedT), where: predictedB .| predictedT)
        return ((seenB.own, seenB.x.replacing(with: meets, where: predictedB), seenB.incoming),
                (seenT.own, seenT.x.replacing(with: meets, where: predictedT), seenT.incoming))
    }

    /// The aim's view of the field: the paddle's centre `own`, the ball at
    /// (`x`, `y`) in field units, and whether it comes toward the paddle.
    @inline(always)
    static func sight<L: LaneFloat>(_ field: TrackerField, ownX: L, ballX: L, ballY: L, vy: L)
        -> (own: L, x: L, y: L, incoming: L.Condition) {
        let cx = field.width / 2, cy = field.height / 2
        // Velocities are normalised by maxBallSpeed; only their ratio matters here.
        return (ownX * cx + cx, ballX * cx + cx, ballY * cy + cy, vy .< 0)
    }

    /// The x the aim takes: where the ball will cross the paddle's face
    /// line, in the lanes where `predicting` holds and the ball is beyond
    /// that line, else the ball's x.
    @inline(always)
    static func target<L: LaneFloat>(_ field: TrackerField, _ seen: (own: L, x: L, y: L, incoming: L.Condition),
                                     vx: L, vy: L, predicting: L.Condition) -> L {
        let predicted = predicted(field, seen, predicting: predicting)
        let meets = crossing(field, x: seen.x, y: seen.y, vx: vx, vy: vy, where: predicted)
        return seen.x.replacing(with: meets, where: predicted)
    }

    /// The lanes whose aim takes the crossing: where `predicting` holds
    /// and the ball is beyond the paddle's face line.
    @inline(always)
    static func predicted<L: LaneFloat>(_ field: TrackerField, _ seen: (own: L, x: L, y: L, incoming: L.Condition),
                                        predicting: L.Condition) -> L.Condition {
        predicting .& (seen.y .> field.faceY)
    }

    /// Where the ball at (`x`, `y`) moving by (`vx`, `vy`) crosses the
    /// paddle's face line of `field`, in the lanes where `mask` holds.
    @inline(always)
    static func crossing<L: LaneFloat>(_ field: TrackerField, x: L, y: L, vx: L, vy: L, where mask: L.Condition) -> L {
        crossing(x: x, y: y, vx: vx, vy: vy, lineY: field.faceY, minX: field.r, maxX: field.width - field.r,
                 where: mask)
    }

    /// Pong's actions for eight steering directions (each -1, 0 or +1:
    /// ``TrackerSteering/direction(toward:from:deadZone:)``), lane `j` as
    /// ``action(_:)`` of ``TrackerSteering/move(_:)`` of lane `j`.
    @inline(__always)
    static func actions(_ direction: SIMD8<Float>) -> SIMD8<Int32> {
        SIMD8<Int32>(repeating: Int32(action(.stay)))
            .replacing(with: Int32(action(.left)), where: direction .< 0)
            .replacing(with: Int32(action(.right)), where: direction .> 0)
    }

    /// Pong's actions for eight lanes' moves (``TrackerSteeringState/steerMoves(toward:from:deadZone:)``),
    /// lane `j` as ``actions(_:)`` of their sign: left where `left` holds, else right where `right` does.
    @inline(__always)
    static func actions(_ moves: (left: SIMDMask<SIMD8<Int32>>, right: SIMDMask<SIMD8<Int32>>)) -> SIMD8<Int32> {
        SIMD8<Int32>(repeating: Int32(action(.stay)))
            .replacing(with: Int32(action(.right)), where: moves.right)
            .replacing(with: Int32(action(.left)), where: moves.left)
    }

    /// Pong's action for a steering move.
    @inline(__always)
    static func action(_ move: TrackerSteering.Move) -> Int {
        switch move {
        case .left: PongAction.left.rawValue
        case .right: PongAction.right.rawValue
        case .stay: PongAction.noop.rawValue
        }
    }

    /// Where a ball at (x, y) moving by (vx, vy), vy < 0, crosses the line
    /// `y = lineY`, reflecting off walls at `minX` and `maxX` (the ball
    /// centre's limits).
    public static func crossing(x: Float, y: Float, vx: Float, vy: Float, lineY: Float,
                                minX: Float, maxX: Float) -> Float {
        crossing(x: x, y: y, vx: vx, vy: vy, lineY: lineY, minX: minX, maxX: maxX, where: LaneFlag(true))
    }

    /// ``crossing(x:y:vx:vy:lineY:minX:maxX:)`` in every lane where `mask`
    /// holds (other lanes: any value). The reflections unfold on a line of
    /// period `p = 2 (maxX − minX)`: the position is `u` modulo `p`, `u`'s
    /// `truncatingRemainder`, taken exactly without a division where
    /// `|u| < 2p` (`u` itself inside `(−p, p)`, `u ∓ p` within one more
    /// period: exact by Sterbenz's lemma, and of `u`'s sign as the remainder
    /// is) and lane by lane elsewhere. At `u = −p` the remainder is −0 and
    /// `u + p` is +0: the same crossing, `minX` (`±0 + minX`).
    @inline(always)
    static func crossing<L: LaneFloat>(x: L, y: L, vx: L, vy: L, lineY: Float, minX: Float, maxX: Float,
                                       where mask: L.Condition) -> L {
        let t = (lineY - y) / vy
        let span = maxX - minX
        guard span > 0 else { return x }
        let p = 2 * span
        let u0 = x - minX + vx * t
        // |u0| < 2p (a NaN fails it); beyond, the remainder replaces u.
        let near = (u0 .> -2 * p) .& (u0 .< 2 * p)
        var u = u0.replacing(with: u0 - p, where: u0 .>= p).replacing(with: u0 + p, where: u0 .<= -p)
        u = u.replacing(withRemainderOf: u0, dividingBy: p, where: mask .& .!near)
        u = u.replacing(with: u + p, where: u .< 0)
        return u.replacing(with: p - u, where: u .> span) + minX
    }
}
