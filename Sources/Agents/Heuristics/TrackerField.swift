import Gym

/// The config keys a paddle game shares, which ``TrackerField`` reads
/// (field units; ``PongConfig`` and ``BreakoutConfig`` have them all).
public protocol PaddleFieldConfig {
    var fieldWidth: Float { get }
    var fieldHeight: Float { get }
    /// Side of the square ball.
    var ballSize: Float { get }
    /// Distance from the field's edge to the paddle's centre line.
    var paddleInset: Float { get }
    /// Paddle thickness.
    var paddleHeight: Float { get }
    /// Paddle movement per frame.
    var paddleSpeed: Float { get }
}

extension PongConfig: PaddleFieldConfig {}
extension BreakoutConfig: PaddleFieldConfig {}

/// The geometry both trackers aim with, derived once from the config
/// (field units, the tracker's own side at the bottom).
struct TrackerField: Sendable {
    let width: Float, height: Float
    /// The ball's radius (half its side): how close its centre comes to a wall.
    let r: Float
    /// The line the ball's centre is on when it touches the paddle's face.
    let faceY: Float
    /// Half a step's paddle movement: nearer its target than this, the paddle stays.
    let deadZone: Float

    init(_ config: some PaddleFieldConfig) {
        width = config.fieldWidth
        height = config.fieldHeight
        r = config.ballSize / 2
        faceY = config.paddleInset + config.paddleHeight / 2 + config.ballSize / 2
        deadZone = config.paddleSpeed / 2
    }
}
