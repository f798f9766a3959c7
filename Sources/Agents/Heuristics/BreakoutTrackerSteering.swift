import Gym

/// The steering ``BreakoutTracker``'s rules (``BreakoutTracker/moves(_:balls:asked:wall:_:)``)
/// steer through, for one game (`L` = `Float`) or eight: the steering rule
/// (``TrackerSteeringState``) applied in some lanes only (a game that
/// pushes does not steer, one without a ball to track does not track),
/// each lane's aim error drawn for its own paddle's half width.
protocol BreakoutTrackerSteering: TrackerSteeringState {
    /// ``TrackerSteeringState/track(incoming:halfWidth:)`` in the lanes
    /// where `lanes` holds, lane `j` with half width `halfWidths[j]`; the
    /// other lanes' steering stays as it was.
    mutating func track(incoming now: L.Condition, halfWidths: L, where lanes: L.Condition)
    /// ``TrackerSteeringState/steerMoves(toward:from:deadZone:)`` in the
    /// lanes where `lanes` holds; the other lanes' steering stays as it was
    /// (their moves are not used).
    mutating func steerMoves(toward target: L, from own: L, deadZone: Float, where lanes: L.Condition)
        -> (left: L.Condition, right: L.Condition)
}

/// One game's steering, a ``TrackerSteerer`` reached through a pointer
/// (its own tracker's ``TrackerSteering``, or its game's columns): the rule
/// applied to it where its one lane is asked for.
struct OneGameSteering<S: TrackerSteerer>: BreakoutTrackerSteering {
    let s: UnsafeMutablePointer<S>

    var noise: Float { s.pointee.noise }
    var speed: Float { s.pointee.speed }
    var incoming: Float { get { s.pointee.incoming } nonmutating set { s.pointee.incoming = newValue } }
    var aimOffset: Float { get { s.pointee.aimOffset } nonmutating set { s.pointee.aimOffset = newValue } }
    var moveCredit: Float { get { s.pointee.moveCredit } nonmutating set { s.pointee.moveCredit = newValue } }
    func nextSigned(lane j: Int) -> Float { s.pointee.nextSigned(lane: j) }
    func delay(_ target: Float) -> Float { s.pointee.delay(target) }

    @inline(__always)
    func track(incoming now: LaneFlag, halfWidths: Float, where lanes: LaneFlag) {
        if lanes.isSet { s.pointee.track(incoming: now, halfWidth: halfWidths) }
    }

    @inline(__always)
    func steerMoves(toward target: Float, from own: Float, deadZone: Float, where lanes: LaneFlag)
        -> (left: LaneFlag, right: LaneFlag) {
        guard lanes.isSet else { return (LaneFlag(false), LaneFlag(false)) }
        return s.pointee.steerMoves(toward: target, from: own, deadZone: deadZone)
    }
}

/// The steering of games `g ..< g + 8` of a ``TrackerSteeringColumns``
/// whose games each keep their own ring (not ``TrackerSteeringColumns/sharedClock``),
/// lane `j` game `g + j`, the rule applied in the lanes asked for only: a
/// column entry is written, a ring takes a target and its head moves on,
/// only in those lanes. It lives within a call on the columns, so it holds
/// them without counting a reference.
struct MaskedSteeringLanes: BreakoutTrackerSteering {
    typealias L = SIMD8<Float>
    unowned(unsafe) let c: TrackerSteeringColumns
    let g: Int
    /// The lanes the rule is applied in.
    var lanes = L.Condition(repeating: false)
    /// Each lane's paddle half width, and the lanes that drew an aim error
    /// in this ``track(incoming:halfWidths:where:)``: the rule draws for
    /// a half width of 1 (an exact product), each drawn lane's error is
    /// scaled by its own half width as it is stored.
    var halfWidths = L(), drawn = L.Condition(repeating: false)

    @inline(__always)
    init(_ c: TrackerSteeringColumns, _ g: Int) {
        precondition(!c.sharedClock, "each game keeps its own ring")
        precondition(g >= 0 && g + 8 <= c.games, "games \(g) ..< \(g + 8) are not all the columns' \(c.games) games")
        self.c = c; self.g = g
    }

    var noise: L { L(loading: c.noise.base + g) }
    var speed: L { L(loading: c.speed.base + g) }
    var incoming: L {
        @inline(__always) get { L(loading: c.incoming.base + g) }
        @inline(__always) nonmutating set { store(newValue, c.incoming.base) }
    }
    var aimOffset: L {
        @inline(__always) get { L(loading: c.aimOffset.base + g) }
        @inline(__always) nonmutating set {
            store(newValue.replacing(with: newValue * halfWidths, where: drawn), c.aimOffset.base)
        }
    }
    var moveCredit: L {
        @inline(__always) get { L(loading: c.moveCredit.base + g) }
        @inline(__always) nonmutating set { store(newValue, c.moveCredit.base) }
    }

    /// `value` into these games' entries of `column`, in the lanes asked for.
    @inline(__always)
    func store(_ value: L, _ column: UnsafeMutablePointer<Float>) {
        L(loading: column + g).replacing(with: value, where: lanes).store(to: column + g)
    }

    @inline(__always)
    mutating func nextSigned(lane j: Int) -> Float {
        drawn[j] = true
        return c.generators[g + j].nextSigned()
    }

    /// Each asked lane's target into its game's ring, the one of `reaction`
    /// steps ago out (NaN in the warm-up; the other lanes: their target
    /// back), through the columns' scratch.
    @inline(__always)
    func delay(_ target: L) -> L {
        let t = c.scratch.base, asked = lanes, g = self.g
        target.store(to: t)
        // Guaranteed for the call (the columns outlive it) without a retain.
        Unmanaged.passUnretained(c)._withUnsafeGuaranteedRef { $0.delay(t, games: g, 8) { asked[$0] } }
        return L(loading: t)
    }

    @inline(__always)
    mutating func track(incoming now: L.Condition, halfWidths: L, where lanes: L.Condition) {
        self.lanes = lanes
        self.halfWidths = halfWidths
        drawn = L.Condition(repeating: false)
        track(incoming: now .& lanes, halfWidth: 1)
    }

    @inline(__always)
    mutating func steerMoves(toward target: L, from own: L, deadZone: Float, where lanes: L.Condition)
        -> (left: L.Condition, right: L.Condition) {
        self.lanes = lanes
        return steerMoves(toward: target, from: own, deadZone: deadZone)
    }
}
