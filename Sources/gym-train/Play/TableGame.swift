import Agents
import Gym

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

extension PongGame: TableGame {}
extension BreakoutGame: TableGame {}
