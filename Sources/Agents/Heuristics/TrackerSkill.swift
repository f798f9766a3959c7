/// The one skill model of the heuristic trackers (``PongTracker``,
/// ``BreakoutTracker``): knobs that make graded opponents from one heuristic.
/// - `reaction`: steps of delay: it acts on the target it chose `reaction` steps ago;
/// - `noise`: aim error, uniform in ±`noise` paddle half widths, redrawn
///   whenever the ball turns toward it (from the agent's own generator);
/// - `speed`: fraction of steps on which it may move, in (0, 1];
/// - `predict`: aim at the predicted crossing point rather than the ball;
/// - `aim` (Breakout only): aim the return at the remaining bricks.
public struct TrackerSkill: Equatable, Sendable, Codable {
    public var reaction: Int = 0
    public var noise: Float = 0
    public var speed: Float = 1
    public var predict: Bool = true
    /// Breakout only: aim the return at the remaining bricks.
    public var aim: Bool = true
    public init(reaction: Int = 0, noise: Float = 0, speed: Float = 1, predict: Bool = true, aim: Bool = true) {
        self.reaction = reaction; self.noise = noise; self.speed = speed; self.predict = predict; self.aim = aim
    }
    /// Allowed ranges of the knobs.
    public static let reactionRange = 0 ... 30
    public static let noiseRange: ClosedRange<Float> = 0 ... 4
    public static let speedRange: ClosedRange<Float> = 0.05 ... 1
}

