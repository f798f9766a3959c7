import Agents
import Gym

extension Breakout: RobustnessGame {
    /// Per episode: the score, the bricks broken, the lives used (those lost,
    /// plus the one in play when the episode ended otherwise), and 1 when at
    /// least one level was cleared.
    static let robustnessColumns = ["score", "bricks", "livesUsed", "cleared"]
    /// The mean score (the headline), bricks per life used, and the level-clear rate.
    static let robustnessScores: [(name: String, ratio: PairedBootstrap.Ratio)] = [
        ("score", .init(numerator: 0)), ("bricksPerLife", .init(numerator: 1, denominator: 2)),
        ("clearRate", .init(numerator: 3)),
    ]

    static func robustnessRow(_ r: BreakoutEpisode, seat _: Int) -> [Int] {
        let livesUsed = r.livesLost + (r.end == .livesExhausted ? 0 : 1)
        return [r.score, Int(r.events.bricksBroken), livesUsed, r.levelsCleared > 0 ? 1 : 0]
    }
}
