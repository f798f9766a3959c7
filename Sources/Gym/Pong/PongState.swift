/// A Pong action, egocentric: every side sees itself as the bottom player,
/// so `left` is toward the player's own left and `up` toward the centre line.
public enum PongAction: Int, CaseIterable, Sendable {
    case noop = 0, left = 1, right = 2
    /// Toward the centre line (only with `verticalMovement`).
    case up = 3
    /// Back toward the own goal line (only with `verticalMovement`).
    case down = 4
}

/// A side of the Pong field.
public enum PongSide: Int, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case bottom = 0, top = 1

    /// The other side.
    @inlinable public var opponent: PongSide { self == .bottom ? .top : .bottom }
    /// +1 for bottom, -1 for top: multiplies field-space x and y to get the
    /// side's egocentric frame.
    @inlinable public var mirror: Float { self == .bottom ? 1 : -1 }

    public var description: String { self == .bottom ? "bottom" : "top" }
}

/// The complete state of a Pong game, generators included: a plain value,
/// so copying it is a snapshot and equal states step identically.
@frozen
public struct PongState: Hashable, Codable, Sendable {
    /// Ball centre and velocity (units, units/frame).
    public var ballX: Float, ballY: Float, ballVX: Float, ballVY: Float
    /// The ball's speed level (units/frame): serve speed plus increments, capped.
    public var speed: Float
    /// Paddle centres (units).
    public var bottomX: Float, bottomY: Float, topX: Float, topY: Float
    public var scoreBottom: Int32, scoreTop: Int32
    /// Agent steps taken in this episode.
    public var steps: Int32
    /// The action applied on the previous frame, per side (for sticky actions).
    public var lastActionBottom: UInt8, lastActionTop: UInt8
    /// Set once the episode has ended; stepping a finished game is a no-op.
    public var end: EpisodeEnd
    /// Serve directions.
    public var serveRNG: Xoshiro256
    /// Sticky-action draws (a separate stream, so turning sticky actions on
    /// does not change the serves).
    public var stickyRNG: Xoshiro256

    /// Folds every bit of the state into 64 bits (FNV-1a over bit patterns):
    /// equal fingerprints along a trajectory are how tests pin determinism.
    public var fingerprint: UInt64 {
        var h = Fingerprint()
        for f in [ballX, ballY, ballVX, ballVY, speed, bottomX, bottomY, topX, topY] { h.add(f.bitPattern) }
        h.add(UInt32(bitPattern: scoreBottom)); h.add(UInt32(bitPattern: scoreTop)); h.add(UInt32(bitPattern: steps))
        h.add(UInt32(lastActionBottom) << 8 | UInt32(lastActionTop)); h.add(UInt32(end.rawValue))
        for w in [serveRNG.s0, serveRNG.s1, serveRNG.s2, serveRNG.s3, stickyRNG.s0, stickyRNG.s1, stickyRNG.s2, stickyRNG.s3] {
            h.add(w)
        }
        return h.value
    }
}

/// Counters of what happened during one agent step.
@frozen
public struct PongEvents: Equatable, Sendable {
    /// Paddle face hits (returns) by each side.
    public var hitsBottom: Int32 = 0, hitsTop: Int32 = 0
    /// Points won by each side.
    public var pointsBottom: Int32 = 0, pointsTop: Int32 = 0
    /// Side-wall bounces.
    public var wallBounces: Int32 = 0
    /// Every contact resolved (walls, paddle faces, sides and backs).
    public var contacts: Int32 = 0
    /// Ball speed (units/frame, the speed level) when the last point in this
    /// step was scored; 0 if none.
    public var pointSpeed: Float = 0

    @inlinable public init() {}

    @inlinable public func hits(_ side: PongSide) -> Int32 { side == .bottom ? hitsBottom : hitsTop }
    @inlinable public func points(_ side: PongSide) -> Int32 { side == .bottom ? pointsBottom : pointsTop }
}
