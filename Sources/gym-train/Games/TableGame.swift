import Agents
import Gym

/// What the commands read of any game's config: the field's geometry
/// (``PaddleFieldConfig``) and the frames per agent step.
protocol FieldConfig: GameConfig, PaddleFieldConfig {
    /// Frames per agent step (1 ... 16).
    var frameSkip: Int { get }
}

/// What `play` needs of a game's single-game type (``PongGame``,
/// ``BreakoutGame``): whether it ended, its snapshot and its picture.
protocol TableGame {
    associatedtype State: SnapshotState & Equatable where State.Config == Config
    associatedtype Config: FieldConfig & Codable
    var config: Config { get }
    var isOver: Bool { get }
    func snapshot() -> Snapshot<State, Config>
    /// A blank frame of the field at `scale` pixels per field unit.
    func makeFrame(scale: Float) -> GrayFrame
    /// Draws the state into `frame`.
    func render(into frame: inout GrayFrame)
}

extension PongConfig: FieldConfig {}
extension BreakoutConfig: FieldConfig {}
extension PongGame: TableGame {}
extension BreakoutGame: TableGame {}
