/// A Breakout action.
public enum BreakoutAction: Int, CaseIterable, Sendable {
    case noop = 0, left = 1, right = 2
    /// The push impulse (when off cooldown), or the serve when `autoServe` is off.
    case push = 3

    /// `allCases.count`, computed once: reading `allCases.count` builds the
    /// array, which a debug build does at every call (a heap allocation in
    /// the step loop).
    public static let count = allCases.count
}

/// Everything of a Breakout game but the brick grid: fixed size, no
/// references, so a batch can store many of them flat (or as
/// structure-of-arrays) next to one contiguous buffer of brick cells.
///
/// Balls are kept packed in slots `0 ..< ballCount` (a lost ball is replaced
/// by the last one), so the slot order is a pure function of the game.
@frozen
public struct BreakoutCore: Hashable, Codable, Sendable {
    // Field order: what every frame and step reads or writes (paddle,
    // counters, flags) comes first, in the bytes before the 32-byte aligned
    // ball vectors, then the counters a step or its observation reads; the
    // rarely read fields follow, ordered so the struct has no holes and its
    // stride is a whole number of 64-byte cache lines (``BreakoutBatch``
    // starts its cores on a line, so each game's hot fields take the
    // fewest lines).
    /// Paddle centre x and current half width (units).
    public var paddleX: Float, paddleHalfWidth: Float
    public var ballCount: Int32
    /// Bricks left in the current wall.
    public var bricksLeft: Int32
    /// Agent steps and frames taken in this episode.
    public var steps: Int32, frames: Int32
    /// Frames left until the push works again (0 = ready).
    public var pushCooldown: Int32
    /// No ball is in play and a serve is due.
    public var servePending: Bool
    /// The action applied on the previous frame (for sticky actions).
    public var lastAction: UInt8
    /// Set once the episode has ended; stepping a finished game is a no-op.
    public var end: EpisodeEnd
    /// Ball centres and velocities by slot (units, units/frame); slots at and
    /// beyond `ballCount` are zero.
    public var ballX: SIMD8<Float>, ballY: SIMD8<Float>, ballVX: SIMD8<Float>, ballVY: SIMD8<Float>
    /// Agent steps since the last brick hit (the watchdog's count).
    public var stepsSinceProgress: Int32
    /// Frames left until an automatic serve (while `servePending`).
    public var serveTimer: Int32
    /// The speed level (units/frame): `ballSpeed` at each serve plus speed-ups, capped.
    public var speed: Float
    public var score: Int32
    public var lives: Int32
    public var levelsCleared: Int32
    /// Ball brick hits since the last serve (for `speedUpAfterHits`), and how
    /// many of those thresholds have been passed.
    public var hitsSinceServe: Int32, speedUpsPassed: Int32
    /// The last bricks hit (a ring of 8): their cells and the frame until
    /// which each flashes. Drawing only; no effect on play.
    public var flashCell: SIMD8<Int16>, flashUntil: SIMD8<Int32>
    /// A ball has hit a brick in the top `speedUpRows` rows since the serve.
    public var reachedTopRows: Bool
    /// The paddle is shrunk (after a ball reached the top wall).
    public var paddleShrunk: Bool
    /// The flash ring's next slot.
    public var flashHead: UInt8
    /// Serve angles and extra-ball directions.
    public var serveRNG: Xoshiro256
    /// Push directions.
    public var pushRNG: Xoshiro256
    /// Sticky-action draws.
    public var stickyRNG: Xoshiro256
    /// Brick kinds of drawn walls.
    public var wallRNG: Xoshiro256
}

/// The complete state of a Breakout game, generators included: a plain
/// value, so copying it is a snapshot and equal states step identically.
public struct BreakoutState: Hashable, Codable, Sendable {
    public var core: BreakoutCore
    /// The brick grid, `brickRows × brickColumns` cells, bottom row first
    /// (see ``BrickCell``).
    public var bricks: [UInt8]

    public init(core: BreakoutCore, bricks: [UInt8]) {
        self.core = core
        self.bricks = bricks
    }

    /// Folds every bit of the state into 64 bits (FNV-1a over bit patterns):
    /// equal fingerprints along a trajectory are how tests pin determinism.
    public var fingerprint: UInt64 {
        let c = core
        var h = Fingerprint()
        h.add(c.paddleX); h.add(c.paddleHalfWidth)
        for k in 0 ..< BreakoutConfig.ballSlots {
            h.add(c.ballX[k]); h.add(c.ballY[k]); h.add(c.ballVX[k]); h.add(c.ballVY[k])
        }
        for v in [c.ballCount, c.score, c.lives, c.levelsCleared, c.bricksLeft, c.steps, c.frames,
                  c.hitsSinceServe, c.speedUpsPassed, c.serveTimer, c.pushCooldown, c.stepsSinceProgress] {
            h.add(UInt32(bitPattern: v))
        }
        h.add(c.speed)
        var flags: UInt32 = c.servePending ? 1 : 0
        if c.reachedTopRows { flags |= 2 }
        if c.paddleShrunk { flags |= 4 }
        flags |= UInt32(c.lastAction) << 8
        flags |= UInt32(c.end.rawValue) << 16
        flags |= UInt32(c.flashHead) << 24
        h.add(flags)
        for k in 0 ..< 8 {
            h.add(UInt32(UInt16(bitPattern: c.flashCell[k]))); h.add(UInt32(bitPattern: c.flashUntil[k]))
        }
        for g in [c.serveRNG, c.pushRNG, c.stickyRNG, c.wallRNG] {
            h.add(g.s0); h.add(g.s1); h.add(g.s2); h.add(g.s3)
        }
        for b in bricks { h.add(UInt32(b)) }
        return h.value
    }
}

/// Counters of what happened during one agent step.
@frozen
public struct BreakoutEvents: Equatable, Sendable {
    /// Points scored (the reward).
    public var points: Int32 = 0
    /// Ball hits on bricks (each contact once, whether or not it broke the brick).
    public var brickHits: Int32 = 0
    /// Bricks broken, by kind (by a ball or by an explosion).
    public var brokenNormal: Int32 = 0, brokenTough: Int32 = 0, brokenExplosive: Int32 = 0
    public var brokenExtraBall: Int32 = 0, brokenSpeedUp: Int32 = 0
    /// Returns off the paddle's top face.
    public var paddleHits: Int32 = 0
    /// Balls that left the field (or were squeezed beside the paddle).
    public var ballsLost: Int32 = 0
    public var livesLost: Int32 = 0
    public var levelsCleared: Int32 = 0
    /// Pushes that took effect.
    public var pushes: Int32 = 0
    /// Balls released by extra-ball bricks.
    public var ballsReleased: Int32 = 0
    /// Speed-ups applied (hit counts, top rows, speed-up bricks).
    public var speedUps: Int32 = 0

    @inlinable public init() {}

    /// All bricks broken.
    @inlinable public var bricksBroken: Int32 {
        brokenNormal + brokenTough + brokenExplosive + brokenExtraBall + brokenSpeedUp
    }

    /// Bricks of `kind` broken.
    @inlinable public func broken(_ kind: BrickKind) -> Int32 {
        switch kind {
        case .normal: brokenNormal
        case .tough: brokenTough
        case .explosive: brokenExplosive
        case .extraBall: brokenExtraBall
        case .speedUp: brokenSpeedUp
        }
    }

    /// Adds `other`'s counts (to total the events of many steps). The sums
    /// wrap (`&+`): with no step limit and no watchdog an episode can run
    /// for ever, and a count such as paddle hits then grows without bound
    /// (a total past `Int32.max` wraps instead of trapping).
    @inlinable
    public mutating func accumulate(_ other: BreakoutEvents) {
        points &+= other.points; brickHits &+= other.brickHits
        brokenNormal &+= other.brokenNormal; brokenTough &+= other.brokenTough
        brokenExplosive &+= other.brokenExplosive; brokenExtraBall &+= other.brokenExtraBall
        brokenSpeedUp &+= other.brokenSpeedUp; paddleHits &+= other.paddleHits; ballsLost &+= other.ballsLost
        livesLost &+= other.livesLost; levelsCleared &+= other.levelsCleared; pushes &+= other.pushes
        ballsReleased &+= other.ballsReleased; speedUps &+= other.speedUps
    }

    @inlinable mutating func countBroken(_ kind: BrickKind) {
        switch kind {
        case .normal: brokenNormal += 1
        case .tough: brokenTough += 1
        case .explosive: brokenExplosive += 1
        case .extraBall: brokenExtraBall += 1
        case .speedUp: brokenSpeedUp += 1
        }
    }
}
