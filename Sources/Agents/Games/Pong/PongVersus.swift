import Gym

/// Single-agent Pong: the agent plays `side` against a built-in `opponent`
/// (any ``Agent``). Observations are the agent's egocentric ones (see
/// ``PongGame``), the reward is the agent's points won minus lost, and the
/// episode ends as the two-player game does.
public struct PongVersus<Opponent: Agent>: Environment {
    public typealias Config = PongConfig
    public typealias Events = PongEvents

    public var game: PongGame
    public var opponent: Opponent
    /// The side the agent plays.
    public var side: PongSide
    public private(set) var lastEvents = PongEvents()
    var opponentObservation: [Float]

    public init(config: PongConfig, opponent: Opponent, side: PongSide = .bottom, seed: UInt64 = 0) {
        game = PongGame(config: config, seed: seed)
        self.opponent = opponent
        self.side = side
        opponentObservation = [Float](repeating: 0, count: PongGame.observationCount)
        self.opponent.reset(seed: Seeds.agent(seed, seat: 1))
    }

    public var config: PongConfig { game.config }
    public var observationCount: Int { PongGame.observationCount }
    public var actionCount: Int { game.actionCount }

    /// Starts an episode; the opponent's generator is seeded from `seed` too.
    public mutating func reset(seed: UInt64) {
        game.reset(seed: seed)
        opponent.reset(seed: Seeds.agent(seed, seat: 1))
        lastEvents = PongEvents()
    }

    public mutating func step(_ action: Int) -> StepResult {
        let other = side.opponent
        let game = self.game
        let opponentAction = opponentObservation.withUnsafeMutableBufferPointer { buffer in
            game.observe(other, into: buffer)
            return opponent.act(UnsafeBufferPointer(buffer))
        }
        var result = side == .bottom
            ? self.game.step(top: opponentAction, bottom: action, events: &lastEvents)
            : self.game.step(top: action, bottom: opponentAction, events: &lastEvents)
        if side == .top { result.reward = -result.reward }
        return result
    }

    public func observe(into buffer: UnsafeMutableBufferPointer<Float>) {
        game.observe(side, into: buffer)
    }

    public func render(into frame: inout GrayFrame) {
        game.render(into: &frame)
    }
}
