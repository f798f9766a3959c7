import Gym

/// What every tracker does with its ``TrackerSkill`` once it has chosen a
/// target x: the aim error, the reaction delay and the speed cap. The
/// trackers differ only in how they choose the target (``PongTracker``,
/// ``BreakoutTracker``); their draws all come from the tracker's own
/// generator, here.
struct TrackerSteering: TrackerSteerer, Sendable {
    /// A paddle move: toward smaller x, none, toward larger x.
    enum Move { case left, stay, right }

    let skill: TrackerSkill
    var rng: Xoshiro256
    /// Targets chosen in the last `reaction + 1` steps (ring buffer).
    var history: [Float]
    var head = 0
    var seen = 0
    /// The current aim error, field units (0 without noise).
    private(set) var aimOffset: Float = 0
    /// Whether the tracked ball came toward the tracker on the last step seen.
    var incoming = false
    var moveCredit: Float = 0

    init(skill: TrackerSkill, seed: UInt64) {
        self.skill = skill
        rng = Xoshiro256(seed: seed)
        history = [Float](repeating: 0, count: skill.reaction + 1)
    }

    mutating func reset(seed: UInt64) {
        rng = Xoshiro256(seed: seed)
        head = 0; seen = 0; aimOffset = 0; incoming = false; moveCredit = 0
    }

    /// Notes whether the tracked ball now comes toward the tracker; on the
    /// step it turns toward it, the aim error is redrawn uniform in
    /// ±`noise` × `halfWidth` (one draw; none without noise).
    mutating func track(incoming now: Bool, halfWidth: Float) {
        if now, !incoming, skill.noise > 0 {
            aimOffset = rng.nextSigned() * skill.noise * halfWidth
        }
        incoming = now
    }

    /// The move toward the target chosen `reaction` steps ago (`own`, the
    /// paddle's centre, until that many steps were seen), held still on the
    /// steps the speed cap takes away and within `deadZone` of the target.
    mutating func move(toward target: Float, from own: Float, deadZone: Float) -> Move {
        history[head] = target
        let delayed = seen >= skill.reaction ? history[(head + 1) % history.count] : own
        head = (head + 1) % history.count
        seen += 1
        moveCredit += skill.speed
        guard moveCredit >= 1 else { return .stay }
        moveCredit -= 1
        return Self.move(Self.direction(toward: delayed, from: own, deadZone: deadZone))
    }

    /// The move rule, for one game (`Float`) or eight: -1 (left) where the
    /// target is left of the paddle's centre `own` by more than `deadZone`,
    /// else +1 (right) where it is right of it by more, else 0 (stay).
    @inline(__always)
    static func direction<L: LaneFloat>(toward target: L, from own: L, deadZone: Float) -> L {
        L.sign(plus: target .> own + deadZone, minus: target .< own - deadZone)
    }

    /// The move of a ``direction(toward:from:deadZone:)``.
    @inline(__always)
    static func move(_ direction: Float) -> Move {
        direction < 0 ? .left : direction > 0 ? .right : .stay
    }
}

/// What a tracker's target rules need of its steering (``TrackerSteering``
/// for one game, ``TrackerSteeringColumns/Cursor`` for a game of a batch):
/// the rules of ``PongTracker`` and ``BreakoutTracker`` are written once,
/// generic over it, so both forms make the same moves bit for bit.
protocol TrackerSteerer {
    /// The current aim error, field units.
    var aimOffset: Float { get }
    /// See ``TrackerSteering/track(incoming:halfWidth:)``.
    mutating func track(incoming now: Bool, halfWidth: Float)
    /// See ``TrackerSteering/move(toward:from:deadZone:)``.
    mutating func move(toward target: Float, from own: Float, deadZone: Float) -> TrackerSteering.Move
}
