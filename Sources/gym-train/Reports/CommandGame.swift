import Agents
import Foundation
import Gym

/// What gym-train needs of a game beyond Agents' ``PlayableGame``: the
/// lines, tables and files its commands write for that game. One
/// conformance per game (Reports/PongReports.swift, Reports/BreakoutReports.swift);
/// the commands are generic over it, and ``GameKind/game`` is the one place
/// that maps a `--game` name to its type.
protocol CommandGame: PlayableGame {
    /// Frames per agent step under `config` (for the × real time figures).
    static func frameSkip(_ config: Config) -> Int
    /// `eval`'s files (episodes.csv, summary.json) and printed summary.
    static func reportEval(_ records: [Record], _ run: EvalRun, config: Config) throws
}

/// What an `eval` run was: the context every game's report needs.
struct EvalRun {
    var folder: ResultsFolder
    var agent: AgentSpec
    /// The opponent (two-seat games only).
    var opponent: AgentSpec?
    var seed: UInt64
    var workers: Int
    var seconds: Double
    /// Frames per agent step (for the × real time figure).
    var frameSkip: Int
}

extension GameKind {
    /// The game's type: the one dispatch from a `--game` name.
    var game: any CommandGame.Type {
        switch self {
        case .pong: Pong.self
        case .breakout: Breakout.self
        }
    }
}
