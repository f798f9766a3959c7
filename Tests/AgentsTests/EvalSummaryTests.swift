import Testing
import Gym
@testable import Agents

@Suite struct EvalSummaryTests {
    /// One game from the agent's side: its score, the opponent's, and how the game ended.
    func game(_ index: Int, agent: Int, opponent: Int, end: EpisodeEnd) -> PongEvalEpisode {
        let side: PongSide = index % 2 == 0 ? .bottom : .top
        let match = PongMatchResult(seed: UInt64(index), scoreBottom: side == .bottom ? agent : opponent,
                                    scoreTop: side == .bottom ? opponent : agent, steps: 100, end: end,
                                    hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0)
        return PongEvalEpisode(index: index, match: match, agentSide: side)
    }

    @Test func wholeGameWinsAreCountedApartFromLeadsAtTruncation() {
        let results = [
            game(0, agent: 11, opponent: 3, end: .gameOver),   // whole-game win
            game(1, agent: 11, opponent: 9, end: .gameOver),   // whole-game win (top side)
            game(2, agent: 4, opponent: 11, end: .gameOver),   // whole-game loss
            game(3, agent: 2, opponent: 0, end: .stepLimit),   // lead at truncation
            game(4, agent: 1, opponent: 1, end: .stepLimit),   // level at truncation
            game(5, agent: 0, opponent: 3, end: .stepLimit),   // behind at truncation
        ]
        let s = PongEvalSummary(results)
        #expect(s.wins == 3 && s.draws == 1 && s.losses == 2)
        #expect(s.wholeGameWins == 2 && s.wholeGameLosses == 1)
        #expect(s.truncated == 3 && s.truncatedAhead == 1 && s.truncatedLevel == 1 && s.truncatedBehind == 1)
        #expect(s.wholeGameWinRate == 2.0 / 6.0)
        #expect(s.winRate == 3.5 / 6.0)
        #expect(s.wholeGameWinRateLow < s.wholeGameWinRate && s.wholeGameWinRate < s.wholeGameWinRateHigh)
    }

    @Test func leadsAtTruncationAreNotWholeGameWins() {
        let results = (0 ..< 4).map { game($0, agent: 3, opponent: 0, end: .stepLimit) }
        let s = PongEvalSummary(results)
        #expect(s.winRate == 1)
        #expect(s.wholeGameWins == 0 && s.wholeGameWinRate == 0 && s.truncatedAhead == 4)
    }
}
