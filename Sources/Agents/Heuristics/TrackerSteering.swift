import Gym

/// What every tracker does with its ``TrackerSkill`` once it has chosen a
/// target x, for one game: the aim error, the reaction delay and the speed
/// cap (the rule: ``TrackerSteeringState``; this is its state for one
/// game). The trackers differ only in how they choose the target
/// (``PongTracker``, ``BreakoutTracker``); their draws all come from the
/// tracker's own generator, here.
struct TrackerSteering: TrackerSteerer, Sendable {
    /// A paddle move: toward smaller x, none, toward larger x.
    enum Move { case left, stay, right }

    let skill: TrackerSkill
    let noise: Float, speed: Float
    var rng: Xoshiro256
    /// Targets chosen in the last steps (a ring: ``delay(_:ring:head:reaction:mask:)``).
    var history: [Float]
    var head: Int32 = 0
    var aimOffset: Float = 0
    var incoming: Float = 0
    var moveCredit: Float = 0

    init(skill: TrackerSkill, seed: UInt64) {
        self.skill = skill
        noise = skill.noise; speed = skill.speed
        rng = Xoshiro256(seed: seed)
        history = [Float](repeating: .nan, count: Self.ringLength(reaction: skill.reaction))
    }

    mutating func reset(seed: UInt64) {
        rng = Xoshiro256(seed: seed)
        head = 0; aimOffset = 0; incoming = 0; moveCredit = 0
        for k in history.indices { history[k] = .nan }
    }

    mutating func nextSigned(lane _: Int) -> Float { rng.nextSigned() }

    mutating func delay(_ target: Float) -> Float {
        let reaction = Int32(skill.reaction), mask = Int32(history.count - 1)
        return history.withUnsafeMutableBufferPointer { ring in
            Self.delay(target, ring: ring.baseAddress!, head: &head, reaction: reaction, mask: mask)
        }
    }

    /// The reaction delay of one game: its ring of targets (`mask + 1`
    /// long, a power of two above `reaction`) takes this step's `target`
    /// at `head` and gives back the one taken `reaction` steps ago; `head`
    /// moves on. (Until `reaction` steps were seen that one is the NaN the
    /// ring was filled with when the episode started:
    /// ``TrackerSteeringState/steer(toward:from:deadZone:)``.)
    @inline(__always)
    static func delay(_ target: Float, ring: UnsafeMutablePointer<Float>, head: inout Int32, reaction: Int32,
                      mask: Int32) -> Float {
        ring[Int(head)] = target
        let delayed = ring[Int((head &- reaction) & mask)]
        head = (head &+ 1) & mask
        return delayed
    }

    /// The shortest ring for a delay of `reaction` steps: the least power of two above it.
    static func ringLength(reaction: Int) -> Int {
        precondition(reaction >= 0, "a reaction delay is not negative")
        return 1 << (Int.bitWidth - reaction.leadingZeroBitCount)
    }

    /// The move rule, for one game (`Float`) or eight: -1 (left) where the
    /// target is left of the paddle's centre `own` by more than `deadZone`,
    /// else +1 (right) where it is right of it by more, else 0 (stay).
    @inline(__always)
    static func direction<L: LaneFloat>(toward target: L, from own: L, deadZone: Float) -> L {
        let moves = moves(toward: target, from: own, deadZone: deadZone)
        return L.sign(plus: moves.right, minus: moves.left)
    }

    /// ``direction(toward:from:deadZone:)`` as its two conditions: `left`
    /// where it is -1, `right` where it is +1 (where both hold, as a
    /// negative dead zone allows, the direction is -1: `left` wins).
    @inline(__always)
    static func moves<L: LaneFloat>(toward target: L, from own: L, deadZone: Float)
        -> (left: L.Condition, right: L.Condition) {
        (target .< own - deadZone, target .> own + deadZone)
    }

    /// The move of a ``direction(toward:from:deadZone:)``.
    @inline(__always)
    static func move(_ direction: Float) -> Move {
        direction < 0 ? .left : direction > 0 ? .right : .stay
    }
}
