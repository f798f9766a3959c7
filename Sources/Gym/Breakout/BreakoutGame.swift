/// Single-agent Breakout: a paddle at the bottom, a wall of bricks at the
/// top, walls left, right and top; the bottom edge is open.
///
/// ## Field
/// A `fieldWidth × fieldHeight` rectangle (320 × 480 units in `classic`),
/// x to the right, y up. The paddle's centre line is `paddleInset` above the
/// bottom edge. The wall's top is `wallTopGap` below the top wall; it has
/// `brickRows × brickColumns` bricks of `fieldWidth / brickColumns ×
/// brickHeight` units. The rules of one frame are in ``BreakoutPhysics``;
/// the brick kinds in ``BrickKind``.
///
/// ## Actions
/// | action | meaning |
/// |---|---|
/// | 0 | noop |
/// | 1 | move left by `paddleSpeed` |
/// | 2 | move right by `paddleSpeed` |
/// | 3 | push: every ball gets `pushImpulse` in one seeded random direction (then `pushCooldown` frames of cooldown); serves when `autoServe` is off |
///
/// ## Observation (`15 + 8 × maxBalls + brickRows × brickColumns` floats; layout version 2)
/// The ranges are true bounds for every config in range (declared in
/// ``BreakoutPhysics/observationLayout``; tests roll out at the edges of
/// every config range to pin them). `C = 8 + 5·maxBalls + cells` is the
/// start of the paddle-relative features (``BreakoutPhysics/relativeStart``),
/// which version 2 added after version 1's entries (those are unchanged):
/// inputs a linear policy can use directly.
/// | index | meaning | range |
/// |---|---|---|
/// | 0 | paddle x, `(x − W/2)/(W/2)` | [−1, 1] |
/// | 1 | paddle half width / (W/2) (halved while shrunk) | (0, 0.5] |
/// | 2 | lives left / `lives` | [0, 1] |
/// | 3 | walls cleared / `levels` | [0, 1] |
/// | 4 | push cooldown left / `pushCooldown` (0 = ready) | [0, 1] |
/// | 5 | watchdog: steps without a brick hit / `watchdogSteps` (0 when off) | [0, 1] |
/// | 6 | 1 while a serve is pending (no ball in play), else 0 | {0, 1} |
/// | 7 | speed level / `maxBallSpeed` | (0, 1] |
/// | 8 + 5k | ball slot k in play (k < `maxBalls`): 1 or 0 (all five values 0 when empty) | {0, 1} |
/// | 9 + 5k | ball k x, `(x − W/2)/(W/2)` | [−1, 1] |
/// | 10 + 5k | ball k y, `(y − H/2)/(H/2)` | [−1, 1] |
/// | 11 + 5k | ball k x velocity / `maxBallSpeed` | [−1, 1] |
/// | 12 + 5k | ball k y velocity / `maxBallSpeed` | [−1, 1] |
/// | 8 + 5·maxBalls + c | brick cell c (row-major, bottom row first): hits left / `toughHits` | [0, 1] |
/// | C + 3k | ball k x − paddle x, over W (0 when the slot is empty) | [−1, 1] |
/// | C + 1 + 3k | ball k's predicted crossing of the paddle's face line − paddle x, over W | [−1, 1] |
/// | C + 2 + 3k | ball k's arrival: frames until it reaches the face line × `paddleSpeed` / W, at most 1 | [0, 1] |
/// | F = C + 3·maxBalls | 1 while a ball is in play (the focus ball: the one arriving first), else 0 (then F … F + 5 are 0) | {0, 1} |
/// | F + 1 | focus ball x − paddle x, over W | [−1, 1] |
/// | F + 2 | focus ball's predicted crossing − paddle x, over W | [−1, 1] |
/// | F + 3 | the same over (paddle half width + ball half size): the hit offset if the paddle stays, clamped | [−1, 1] |
/// | F + 4 | focus ball's arrival (as C + 2 + 3k) | [0, 1] |
/// | F + 5 | focus ball y velocity / `maxBallSpeed` | [−1, 1] |
/// | F + 6 | aim: centre x of the column with the most hits left (ties: nearest the crossing) − the focus crossing (paddle x without a ball), over W; 0 with no brick | [−1, 1] |
///
/// Predictions: a falling ball's straight path (with gravity, its
/// parabola) to the face line `paddleInset + paddleHeight/2 + ballSize/2`,
/// the side walls reflecting it perfectly; a rising ball without gravity
/// is counted up to the top wall and back; bricks are ignored. A ball at
/// or below the face line arrives now (0).
///
/// ## Rewards
/// The points of the bricks broken in the step: each brick scores its row's
/// entry of `rowValues` (listed from the bottom row up), whether a ball or
/// an explosion broke it. Nothing is subtracted for a lost life.
///
/// ## Start
/// Paddle centred, a fresh wall (the explicit `layout`, or kinds drawn from
/// the fractions with the wall generator), `lives` lives, no ball in play
/// and a serve pending: automatic after `serveDelay` frames, or on the push
/// action when `autoServe` is off.
///
/// ## Episode end
/// `terminated` with ``EpisodeEnd/livesExhausted`` when the last life is
/// lost, or ``EpisodeEnd/levelsCleared`` when the `levels`-th wall is
/// cleared (earlier walls are rebuilt, the balls taken off and a serve
/// follows; no life is lost). `truncated` with ``EpisodeEnd/stepLimit``
/// after `maxSteps` agent steps, or ``EpisodeEnd/watchdog`` after
/// `watchdogSteps` agent steps without any brick hit (by default a ball
/// looping between paddle and walls without reaching the wall counts as no
/// progress: that loop is what the push action is for; with
/// `watchdogPaddleResets` a paddle contact is progress too). The events
/// (``lastEvents``) count bricks broken by kind, brick hits, paddle hits,
/// balls lost, lives lost, walls cleared and pushes used.
///
/// ## Frames and actions
/// One agent step is `frameSkip` frames with the same action, rewards and
/// events summed, stopping early at the episode's end. With
/// `stickyActionProbability` p, each frame keeps the previous frame's action
/// with probability p (ALE's sticky actions; own generator).
///
/// ## Generators
/// Seeded from `reset(seed:)` as streams of the seed: serve angles and
/// released balls (1), sticky actions (2), push directions (3), drawn walls (4).
public struct BreakoutGame: Environment, Sendable {
    public typealias Config = BreakoutConfig
    public typealias Events = BreakoutEvents

    public let physics: BreakoutPhysics
    public var state: BreakoutState
    /// Events of the last step.
    public var lastEvents = BreakoutEvents()

    /// A game ready to play, seeded with `seed`.
    public init(config: BreakoutConfig = BreakoutConfig(), seed: UInt64 = 0) {
        physics = BreakoutPhysics(config: config)
        state = physics.initialState(seed: seed)
    }

    @inlinable public var config: BreakoutConfig { physics.config }
    public var observationCount: Int { physics.observationCount }
    public var actionCount: Int { BreakoutAction.count }

    /// Whether the episode has ended (stepping on is a no-op).
    @inlinable public var isOver: Bool { state.core.end != .none }

    /// Starts a new episode.
    public mutating func reset(seed: UInt64) {
        state = physics.initialState(seed: seed)
        lastEvents = BreakoutEvents()
    }

    /// One agent step (out-of-range actions act as noop); events in ``lastEvents``.
    @inlinable
    public mutating func step(_ action: Int) -> StepResult {
        // `self` keeps the physics alive for the whole call, so the local
        // reference needs no reference counting.
        unowned(unsafe) let physics = self.physics
        var events = BreakoutEvents()
        let result = withUnsafeMutablePointer(to: &state) { s in
            s.pointee.bricks.withUnsafeMutableBufferPointer { bricks -> StepResult in
                guard let base = bricks.baseAddress else {
                    return StepResult(reward: 0, terminated: false, truncated: false, end: .none)
                }
                return physics.step(&s.pointee.core, bricks: base, action: action, events: &events)
            }
        }
        lastEvents = events
        return result
    }

    /// One agent step, reporting what happened through `events`.
    @inlinable
    public mutating func step(_ action: Int, events: inout BreakoutEvents) -> StepResult {
        let result = step(action)
        events = lastEvents
        return result
    }

    /// Writes the observation into `buffer` (at least ``observationCount`` floats).
    /// Always inlined, so that the game is not copied for the call
    /// (`buffer` might alias it).
    @inlinable @inline(__always)
    public func observe(into buffer: UnsafeMutableBufferPointer<Float>) {
        precondition(buffer.count >= physics.observationCount, "observation buffer too small")
        guard let base = buffer.baseAddress else { return }
        state.bricks.withUnsafeBufferPointer { b in
            if let bricks = b.baseAddress { physics.observe(state.core, bricks: bricks, into: base) }
        }
    }
}
