/// Two-player Pong: the game both sides play, stepped with one action each.
///
/// ## Field
/// A `fieldWidth × fieldHeight` rectangle (320 × 480 units in `classic`),
/// x to the right, y up. The bottom paddle's centre line is `paddleInset`
/// above the bottom edge, the top paddle's `paddleInset` below the top
/// edge. The left and right sides are walls; the top and bottom edges are
/// open. The rules of one frame are in ``PongPhysics``.
///
/// ## Returns
/// A paddle's front face returns the ball with the english
/// `dx = (ball.x − paddle.x) / englishDivisor` (horizontal velocity
/// `dx × speed`). A return at the paddle's exact centre (`dx = 0`) keeps the
/// ball's previous `dx`, the seed's rule (`if (x != 0) _dx = x;`). Every
/// preset (`classic`, `touch`, `fast`, `ale`) and every config plays this
/// rule, so the ball never travels straight up or down.
///
/// ## Actions (egocentric, per side)
/// | action | meaning |
/// |---|---|
/// | 0 | stay |
/// | 1 | move left by `paddleSpeed` (the side's own left) |
/// | 2 | move right by `paddleSpeed` |
/// | 3 | toward the centre by `paddleVerticalSpeed` (only with `verticalMovement`) |
/// | 4 | back toward the own goal line (only with `verticalMovement`) |
///
/// ``actionCount`` is 3, or 5 with `verticalMovement`.
///
/// ## Observation (egocentric, 12 floats; layout version 2)
/// Each side sees the field as if it were the bottom player: for the top
/// side x and y (and velocities) are mirrored through the field's centre.
/// The ranges are true bounds for every config in range (declared in
/// ``PongPhysics/observationLayout``; tests roll out at the edges of every
/// config range to pin them).
/// | index | meaning | range |
/// |---|---|---|
/// | 0 | own paddle x, `(x − W/2)/(W/2)` | [−1, 1] |
/// | 1 | own paddle advance from its home line, over the allowed depth | [0, 1] (0 without vertical movement) |
/// | 2 | opponent paddle x | [−1, 1] |
/// | 3 | opponent paddle advance | [0, 1] |
/// | 4 | ball x, `(x − W/2)/(W/2)` | [−1, 1] |
/// | 5 | ball y, `(y − H/2)/(H/2)`; own goal line at −1 | [−1, 1] |
/// | 6 | ball x velocity / (2 × `maxBallSpeed`) | [−1, 1] |
/// | 7 | ball y velocity / (2 × `maxBallSpeed`); negative = toward own goal | [−0.5, 0.5] |
/// | 8 | ball x − own paddle x, over W | [−1, 1] |
/// | 9 | ball speed level / `maxBallSpeed` | (0, 1] |
/// | 10 | own score / `maxScore` | [0, 1] |
/// | 11 | opponent score / `maxScore` | [0, 1] |
///
/// Both velocities share one scale, so 6 and 7 keep the ball's direction.
/// Version 1 divided 6 and 7 by `maxBallSpeed` and 8 by W/2, which let 6
/// reach ±2, 7 ±1.4 (an advancing paddle's return) and 8 ±1.7.
///
/// ## Rewards
/// +1 to a side for each point it wins, −1 for each point it loses.
///
/// ## Start
/// Paddles centred on their home lines; the ball served from the centre at
/// `serveSpeed` with random horizontal and vertical directions (drawn from
/// the serve generator in that order). Later serves: random horizontal
/// direction, vertical direction toward the side that scored.
///
/// ## Episode end
/// `terminated` (``EpisodeEnd/gameOver``) when a side reaches `maxScore`;
/// `truncated` (``EpisodeEnd/stepLimit``) after `maxSteps` agent steps.
///
/// ## Frames and actions
/// One agent step is `frameSkip` frames with the same action, rewards and
/// events summed, stopping early at game over. With
/// `stickyActionProbability` p, each frame independently keeps the previous
/// frame's action with probability p (ALE's sticky actions; own generator).
@frozen
public struct PongGame: Sendable {
    public let physics: PongPhysics
    public var state: PongState

    /// A game ready to play, seeded with `seed`.
    public init(config: PongConfig = PongConfig(), seed: UInt64 = 0) {
        physics = PongPhysics(config: config)
        state = physics.initialState(seed: seed)
    }

    @inlinable public var config: PongConfig { physics.config }
    public var actionCount: Int { physics.config.verticalMovement ? 5 : 3 }
    public static let observationCount = PongPhysics.observationCount

    /// Starts a new episode.
    public mutating func reset(seed: UInt64) {
        state = physics.initialState(seed: seed)
    }

    /// Whether the episode has ended (stepping on is a no-op).
    @inlinable public var isOver: Bool { state.end != .none }

    /// One agent step with both sides' actions (out-of-range actions act as stay).
    /// - Returns: the end flags (reward is the bottom side's) and, through
    ///   `events`, what happened.
    @inlinable @inline(__always)
    public mutating func step(top: Int, bottom: Int, events: inout PongEvents) -> StepResult {
        physics.step(&state, top: top, bottom: bottom, events: &events)
    }

    /// Same as ``step(top:bottom:events:)``, discarding events.
    @inlinable
    public mutating func step(top: Int, bottom: Int) -> StepResult {
        var events = PongEvents()
        return step(top: top, bottom: bottom, events: &events)
    }

    /// Writes `side`'s egocentric observation (12 floats) into `buffer`.
    @inlinable @inline(__always)
    public func observe(_ side: PongSide, into buffer: UnsafeMutableBufferPointer<Float>) {
        precondition(buffer.count >= PongPhysics.observationCount, "observation buffer too small")
        guard let base = buffer.baseAddress else { return }
        physics.observe(state, side: side, into: base)
    }
}
