import Gym

/// The record of one two-player Pong game.
public struct PongMatchResult: Equatable, Sendable, Codable {
    public var seed: UInt64
    public var scoreBottom: Int
    public var scoreTop: Int
    /// Agent steps played.
    public var steps: Int
    public var end: EpisodeEnd
    public var hitsBottom: Int
    public var hitsTop: Int
    /// Points won by the side the serve was heading to.
    public var receiverPoints: Int
    /// Sum over points of the ball's speed level when the point was scored.
    public var pointSpeedSum: Double

    public var points: Int { scoreBottom + scoreTop }
    public func score(_ side: PongSide) -> Int { side == .bottom ? scoreBottom : scoreTop }
    public func hits(_ side: PongSide) -> Int { side == .bottom ? hitsBottom : hitsTop }
}

extension PongMatchResult {
    /// Books one step's events: hits, and for every point who received the
    /// serve and the ball's speed. With frameSkip > 1 several points can fall
    /// in one step; the serve after each heads to its scorer.
    @inline(__always)
    mutating func book(_ events: PongEvents, receiver: inout PongSide) {
        hitsBottom += Int(events.hitsBottom)
        hitsTop += Int(events.hitsTop)
        for _ in 0 ..< Int(events.pointsBottom) {
            if receiver == .bottom { receiverPoints += 1 }
            receiver = .bottom
            pointSpeedSum += Double(events.pointSpeed)
        }
        for _ in 0 ..< Int(events.pointsTop) {
            if receiver == .top { receiverPoints += 1 }
            receiver = .top
            pointSpeedSum += Double(events.pointSpeed)
        }
    }
}

/// Plays whole Pong games between two agents.
public enum PongMatch {
    /// Plays one game from `seed` to its end. Agents are reset with seeds
    /// derived from `seed` (streams 10 for bottom, 11 for top).
    public static func play<Bottom: Agent, Top: Agent>(
        config: PongConfig, seed: UInt64, bottom: inout Bottom, top: inout Top
    ) -> PongMatchResult {
        var game = PongGame(config: config, seed: seed)
        bottom.reset(seed: Seeds.agent(seed, seat: 0))
        top.reset(seed: Seeds.agent(seed, seat: 1))
        var result = PongMatchResult(seed: seed, scoreBottom: 0, scoreTop: 0, steps: 0, end: .none,
                                     hitsBottom: 0, hitsTop: 0, receiverPoints: 0, pointSpeedSum: 0)
        var receiver: PongSide = game.state.ballVY < 0 ? .bottom : .top
        var events = PongEvents()
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * PongGame.observationCount) { buffer in
            let n = PongGame.observationCount
            let obsBottom = UnsafeMutableBufferPointer(rebasing: buffer[0 ..< n])
            let obsTop = UnsafeMutableBufferPointer(rebasing: buffer[n ..< 2 * n])
            while true {
                game.observe(.bottom, into: obsBottom)
                game.observe(.top, into: obsTop)
                let b = bottom.act(UnsafeBufferPointer(obsBottom))
                let t = top.act(UnsafeBufferPointer(obsTop))
                let step = game.step(top: t, bottom: b, events: &events)
                result.book(events, receiver: &receiver)
                if step.isDone { break }
            }
        }
        result.scoreBottom = Int(game.state.scoreBottom)
        result.scoreTop = Int(game.state.scoreTop)
        result.steps = Int(game.state.steps)
        result.end = game.state.end
        return result
    }
}
