/// The rules and geometry of a Pong game. All lengths are field units, all
/// speeds field units per step (one step is one frame at 60 frames/s).
///
/// The defaults are the `classic` preset: the original iOS game's rules
/// (a 320 × 480 field, serve speed 2, +0.5 per paddle hit up to 10,
/// english `dx = (ball.x - paddle.x) / 32`, a return at the exact centre
/// keeping the previous `dx`). The other presets change only the values
/// below; the rules of ``PongPhysics`` hold in all of them.
public struct PongConfig: GameConfig, Hashable, Codable {
    public static let gameName = "pong"

    public var fieldWidth: Float = 320
    public var fieldHeight: Float = 480
    public var paddleWidth: Float = 64
    public var paddleHeight: Float = 12
    /// Distance from the field's edge to a paddle's centre line.
    public var paddleInset: Float = 24
    /// Side of the square ball.
    public var ballSize: Float = 10
    /// Horizontal paddle movement per step for a left/right action.
    public var paddleSpeed: Float = 6
    /// Whether paddles may also move up/down within their own half.
    public var verticalMovement: Bool = false
    /// Vertical paddle movement per step for an up/down action.
    public var paddleVerticalSpeed: Float = 4
    public var serveSpeed: Float = 2
    public var speedIncrement: Float = 0.5
    public var maxBallSpeed: Float = 10
    /// The english divisor: on a hit, `dx = (ball.x - paddle.x) / englishDivisor`
    /// (0 at the exact centre keeps the previous `dx`).
    public var englishDivisor: Float = 32
    public var maxScore: Int = 11
    /// Truncation: agent steps per episode (0 = no limit).
    public var maxSteps: Int = 30_000
    /// Action repeat (ALE's frameskip): frames per agent step, rewards summed.
    public var frameSkip: Int = 1
    /// Probability that a frame repeats the previous frame's action instead of
    /// the chosen one (ALE v5 uses 0.25; default 0).
    public var stickyActionProbability: Float = 0

    public init() {}

    public static let fields: [ConfigField<PongConfig>] = [
        .float("fieldWidth", \.fieldWidth, 160 ... 1280, "field width (units)"),
        .float("fieldHeight", \.fieldHeight, 160 ... 1920, "field height (units)"),
        .float("paddleWidth", \.paddleWidth, 8 ... 256, "paddle width (units)"),
        .float("paddleHeight", \.paddleHeight, 2 ... 40, "paddle thickness (units)"),
        .float("paddleInset", \.paddleInset, 4 ... 200, "distance from the field edge to the paddle's centre line (units)"),
        .float("ballSize", \.ballSize, 2 ... 40, "side of the square ball (units)"),
        .float("paddleSpeed", \.paddleSpeed, 0.5 ... 32, "horizontal paddle speed (units/step)"),
        .bool("verticalMovement", \.verticalMovement, "paddles may also move up/down within their own half (actions 3 and 4)"),
        .float("paddleVerticalSpeed", \.paddleVerticalSpeed, 0.5 ... 16, "vertical paddle speed (units/step)"),
        .float("serveSpeed", \.serveSpeed, 0.5 ... 20, "ball speed at each serve (units/step, per axis)"),
        .float("speedIncrement", \.speedIncrement, 0 ... 5, "ball speed added by each paddle hit (units/step)"),
        .float("maxBallSpeed", \.maxBallSpeed, 1 ... 40, "cap on the ball speed (units/step)"),
        .float("englishDivisor", \.englishDivisor, 4 ... 256, "on a paddle hit dx = (ball.x - paddle.x) / englishDivisor"),
        .int("maxScore", \.maxScore, 1 ... 99, "points that win the game"),
        .int("maxSteps", \.maxSteps, 0 ... 10_000_000, "agent steps before the episode is truncated (0 = never)"),
        .int("frameSkip", \.frameSkip, 1 ... 16, "frames per agent step (action repeat; rewards summed)"),
        .float("stickyActionProbability", \.stickyActionProbability, 0 ... 1, "chance a frame repeats the previous action (ALE sticky actions)"),
    ]

    public static let presets: [(name: String, config: PongConfig)] = {
        let classic = PongConfig()
        var touch = classic
        touch.verticalMovement = true
        var fast = classic
        fast.serveSpeed = 4
        fast.speedIncrement = 1
        fast.maxBallSpeed = 16
        fast.paddleSpeed = 8
        var ale = classic
        ale.frameSkip = 4
        ale.stickyActionProbability = 0.25
        ale.maxScore = 21
        return [("classic", classic), ("touch", touch), ("fast", fast), ("ale", ale)]
    }()

    public func checkRelations(source: String) throws(ConfigError) {
        if maxBallSpeed < serveSpeed {
            throw .invalid(source: source, key: "maxBallSpeed",
                           message: "= \(fmt(maxBallSpeed)) must be at least serveSpeed (\(fmt(serveSpeed)))")
        }
        // A return adds an advancing paddle's speed to the ball's, capped at
        // maxBallSpeed: the ball must still outrun the paddle.
        if verticalMovement, paddleVerticalSpeed >= maxBallSpeed {
            throw .invalid(source: source, key: "paddleVerticalSpeed",
                           message: "= \(fmt(paddleVerticalSpeed)) must be below maxBallSpeed (\(fmt(maxBallSpeed))) with verticalMovement, so a returned ball outruns the paddle")
        }
        // Each paddle keeps a gap of at least one ball between itself and the
        // side wall, and the field must leave room to play between the paddles.
        if paddleWidth + 4 * ballSize + 4 > fieldWidth {
            throw .invalid(source: source, key: "paddleWidth",
                           message: "= \(fmt(paddleWidth)) leaves no room beside the paddle: paddleWidth + 4 × ballSize + 4 must not exceed fieldWidth (\(fmt(fieldWidth)))")
        }
        // English may at most double the horizontal speed: |dx| <= 2 at the
        // paddle's edge, so the ball cannot cross the field many times a frame.
        if (paddleWidth + ballSize) / 2 / englishDivisor > 2 {
            throw .invalid(source: source, key: "englishDivisor",
                           message: "= \(fmt(englishDivisor)) is too small for paddleWidth \(fmt(paddleWidth)): (paddleWidth + ballSize) / 2 / englishDivisor must not exceed 2")
        }
        if paddleInset + paddleHeight / 2 + 2 * ballSize > fieldHeight / 4 {
            throw .invalid(source: source, key: "paddleInset",
                           message: "= \(fmt(paddleInset)) puts the paddle too far into the field: paddleInset + paddleHeight/2 + 2 × ballSize must not exceed fieldHeight/4 (\(fmt(fieldHeight / 4)))")
        }
    }
}
