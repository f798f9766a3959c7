import Agents
import Gym

extension Pong: RobustnessGame {
    /// Per episode: the agent's points, all points, and 1 for a whole game won
    /// (the agent reached maxScore; a truncated game is not won).
    static let robustnessColumns = ["agentPoints", "points", "won"]
    /// The share of points the agent won (the headline), and its whole-game win rate.
    static let robustnessScores: [(name: String, ratio: PairedBootstrap.Ratio)] = [
        ("pointShare", .init(numerator: 0, denominator: 1)), ("winRate", .init(numerator: 2)),
    ]

    static func robustnessRow(_ r: PongMatchResult, seat: Int) -> [Int] {
        let mine = seat == 0 ? r.scoreBottom : r.scoreTop, theirs = seat == 0 ? r.scoreTop : r.scoreBottom
        return [mine, r.points, r.end == .gameOver && mine > theirs ? 1 : 0]
    }
}
