import Agents
import Foundation
import Gym

/// One game of `play` as the session loop sees it: a person's action per
/// step in, frames and status lines out, a replay record when it ends and a
/// save file when it stops early. One conformance per game
/// (``PongTable``, ``BreakoutTable``); the rules stay in Gym.
protocol PlayTable {
    associatedtype State: Codable & Sendable & Equatable
    associatedtype Config: FieldConfig & Codable
    associatedtype Game: TableGame where Game.State == State, Game.Config == Config
    typealias Save = PlaySave<State, Config>

    /// A fresh game from `seed` (the opponent, when the game has one, is
    /// seeded from it as in the tournament's games).
    init(config: Config, seed: UInt64, opponent: AgentSpec?) throws(AgentFault)

    var config: Config { get }
    var seed: UInt64 { get }
    /// The game as played so far.
    var game: Game { get }
    /// The person's actions from the first step.
    var actions: [UInt8] { get }
    /// The game's push action, nil if it has none.
    var pushAction: Int? { get }

    /// The movement action a key asks for, nil if the key does not move the paddle here.
    func action(for key: PlayKey) -> Int?
    /// One agent step with the person's action (the opponent acts through
    /// the batched contract, ``BatchAgent``; its fault ends the session).
    mutating func step(person: Int) throws(AgentFault)
    /// The status line under the field (score, lives, ...), `name` being the person's.
    func status(name: String) -> String
    /// The key help line.
    var keyHelp: String { get }
    /// The result shown on the end screen.
    func result(name: String) -> String
    /// The finished game as a replay record line (the tournament's format).
    func recordLine(match: Int, person: String) -> String
}

extension PlayTable {
    var isOver: Bool { game.isOver }
    var snapshot: Snapshot<State, Config> { game.snapshot() }
    var frameSkip: Int { config.frameSkip }
    /// Field height over width (the drawing's aspect).
    var aspect: Double { Double(config.fieldHeight / config.fieldWidth) }
    var fieldWidth: Float { config.fieldWidth }

    /// The game drawn at `scale` pixels per field unit.
    func frame(scale: Float) -> GrayFrame {
        var f = game.makeFrame(scale: scale)
        game.render(into: &f)
        return f
    }

    /// The game a save file describes: played again from its seed with the
    /// saved actions (so the opponent's own state is rebuilt), checked to
    /// arrive at the saved snapshot bit for bit.
    static func resuming(_ save: Save, opponent: AgentSpec?, path: String) throws -> Self {
        guard let actions = RecordedActions.decode(save.actions) else {
            throw CLIError("save file \(path) is corrupt: \"actions\" is not a list of runs ACTIONxCOUNT")
        }
        var table = try Self(config: save.snapshot.config, seed: save.seed, opponent: opponent)
        for a in actions {
            guard !table.isOver else { break }
            try table.step(person: Int(a))
        }
        guard table.snapshot.state == save.snapshot.state, table.actions.count == actions.count else {
            throw CLIError("save file \(path) does not match its recorded actions: its snapshot is not where they lead (edited, or saved by another build)")
        }
        return table
    }

    /// The person as an agent spec: the recorded actions and the display name.
    func personSpec(name: String) -> String {
        "recorded:actions=\(RecordedActions.encode(actions)),name=\(name)"
    }
}
