import Agents
import Gym

/// What the commands read of any game's config: the field's geometry
/// (``PaddleFieldConfig``) and the frames per agent step.
protocol FieldConfig: GameConfig, PaddleFieldConfig {
    /// Frames per agent step (1 ... 16).
    var frameSkip: Int { get }
}

extension PongConfig: FieldConfig {}
extension BreakoutConfig: FieldConfig {}
