import Gym

/// A tracker's steering, for one game (`L` = `Float`) or eight (`SIMD8<Float>`,
/// one game per lane), as the steering rule reads and writes it: the rule
/// (``track(incoming:halfWidth:)`` and ``steer(toward:from:deadZone:)``:
/// the aim error, the reaction delay, the speed cap, the move) is written
/// once, in this protocol's extension, and every form of the tracker holds
/// its state and calls it: ``TrackerSteering`` (one game, the reference),
/// ``TrackerSteeringColumns/Lanes`` (one game or eight of a batch's or a
/// group's columns). All forms make the same moves bit for bit.
///
/// Two parts stay scalar, lane by lane, because each game has its own: the
/// aim error's draw (``nextSigned(lane:)``, the game's own generator: each
/// lane draws at most once a step, so every generator draws in the order
/// of its game's steps) and the delay's ring (``delay(_:)``, each lane
/// one ``TrackerSteering/delay(_:ring:head:reaction:mask:)``). A ring holds
/// NaN (no target) where no target of the game's episode was written yet,
/// so the ring itself tells whether `reaction` steps were seen.
protocol TrackerSteeringState {
    associatedtype L: TrackerLane
    /// The skill (``TrackerSkill``): `noise` in paddle half widths, `speed`
    /// the fraction of steps that may move (the reaction delay is the ring's:
    /// ``delay(_:)``).
    var noise: L { get }
    var speed: L { get }
    /// 1 where the tracked ball came toward the tracker on the last step seen, else 0.
    var incoming: L { get set }
    /// The current aim error, field units (0 without noise).
    var aimOffset: L { get set }
    /// Moves earned by the speed cap and not yet made (below 1).
    var moveCredit: L { get set }
    /// A draw uniform in [-1, 1) from lane `j`'s generator (``Xoshiro256/nextSigned()``).
    mutating func nextSigned(lane j: Int) -> Float
    /// Each lane's target of this step into its ring; the one of `reaction`
    /// steps ago out (NaN until the episode has seen `reaction` steps: its
    /// ring is filled with NaN when it starts).
    mutating func delay(_ target: L) -> L
}

/// ``TrackerSteeringState`` of one game: what a tracker's target rules
/// (``PongTracker``, ``BreakoutTracker``) steer through.
protocol TrackerSteerer: TrackerSteeringState where L == Float {}

extension TrackerSteeringState {
    /// Notes whether the tracked ball now comes toward the tracker (`now`);
    /// where it turns toward it, with aim noise, the aim error is redrawn
    /// uniform in ±`noise` × `halfWidth` (one draw; none without noise).
    @inline(always)
    mutating func track(incoming now: L.Condition, halfWidth: Float) {
        let noise = self.noise
        let turned = now .& (incoming .< 1) .& (noise .> 0)
        incoming = L(repeating: 0).replacing(with: 1, where: now)
        guard turned.holdsSomewhere else { return }
        var offset = aimOffset
        for j in 0 ..< L.laneCount where L.holds(turned, lane: j) {
            offset[lane: j] = nextSigned(lane: j) * noise[lane: j] * halfWidth
        }
        aimOffset = offset
    }

    /// The direction (``TrackerSteering/direction(toward:from:deadZone:)``:
    /// -1, 0 or +1) toward the target chosen `reaction` steps ago (`own`,
    /// the paddle's centre, until that many steps were seen), 0 on the
    /// steps the speed cap takes away: the sign of ``steerMoves(toward:from:deadZone:)``.
    @inline(__always)
    mutating func steer(toward target: L, from own: L, deadZone: Float) -> L {
        let moves = steerMoves(toward: target, from: own, deadZone: deadZone)
        return L.sign(plus: moves.right, minus: moves.left)
    }

    /// ``steer(toward:from:deadZone:)`` as its two moves: `left` where it is
    /// -1, `right` where it is +1 and not -1 (``TrackerSteering/moves(toward:from:deadZone:)``),
    /// neither on the steps the speed cap takes away.
    @inline(always)
    mutating func steerMoves(toward target: L, from own: L, deadZone: Float) -> (left: L.Condition, right: L.Condition) {
        let ringed = delay(target)
        // Not yet `reaction` steps into the episode (a NaN from the ring):
        // toward `own`, no move. (A target that is itself NaN moves no paddle
        // either: no comparison with it holds, and the dead zone is positive.)
        let delayed = ringed.replacing(with: own, where: .!(ringed .== ringed))
        let credit = moveCredit + speed
        let moving = credit .>= 1
        moveCredit = credit.replacing(with: credit - 1, where: moving)
        let moves = TrackerSteering.moves(toward: delayed, from: own, deadZone: deadZone)
        return (moving .& moves.left, moving .& moves.right)
    }
}

extension TrackerSteerer {
    /// ``steer(toward:from:deadZone:)`` as a move.
    @inline(__always)
    mutating func move(toward target: Float, from own: Float, deadZone: Float) -> TrackerSteering.Move {
        TrackerSteering.move(steer(toward: target, from: own, deadZone: deadZone))
    }
}
