import Agents
import Gym

/// Pong for `play`: the person on the bottom paddle, an agent on the top.
struct PongTable: PlayTable {
    let config: PongConfig
    let seed: UInt64
    let opponent: AgentSpec
    private(set) var game: PongGame
    private var agent: any Agent
    private(set) var actions: [UInt8] = []
    /// Statistics as ``PongMatch/play(config:seed:bottom:top:)`` keeps them.
    private(set) var result: PongMatchResult
    private var receiver: PongSide
    private var observation = [Float](repeating: 0, count: PongGame.observationCount)

    init(config: PongConfig, seed: UInt64, opponent: AgentSpec?) {
        self.config = config
        self.seed = seed
        guard let spec = opponent else { preconditionFailure("a Pong table needs an opponent") }
        self.opponent = spec
        game = PongGame(config: config, seed: seed)
        agent = spec.makePongAgent(config: config)
        agent.reset(seed: Seeds.stream(seed, 11))
        result = PongMatchResult(startingFrom: seed)
        receiver = game.state.ballVY < 0 ? .bottom : .top
    }

    var isOver: Bool { game.isOver }
    var snapshot: PongGame.SavedGame { game.snapshot() }
    var frameSkip: Int { config.frameSkip }
    var pushAction: Int? { nil }
    var aspect: Double { Double(config.fieldHeight / config.fieldWidth) }
    var fieldWidth: Float { config.fieldWidth }

    func action(for key: PlayKey) -> Int? {
        switch key {
        case .left: PongAction.left.rawValue
        case .right: PongAction.right.rawValue
        case .up where config.verticalMovement: PongAction.up.rawValue
        case .down where config.verticalMovement: PongAction.down.rawValue
        default: nil
        }
    }

    mutating func step(person: Int) {
        observation.withUnsafeMutableBufferPointer { game.observe(.top, into: $0) }
        let top = observation.withUnsafeBufferPointer { agent.act($0) }
        actions.append(UInt8(clamping: person))
        var events = PongEvents()
        _ = game.step(top: top, bottom: person, events: &events)
        result.hitsBottom += Int(events.hitsBottom)
        result.hitsTop += Int(events.hitsTop)
        for _ in 0 ..< Int(events.pointsBottom) {
            if receiver == .bottom { result.receiverPoints += 1 }
            receiver = .bottom
            result.pointSpeedSum += Double(events.pointSpeed)
        }
        for _ in 0 ..< Int(events.pointsTop) {
            if receiver == .top { result.receiverPoints += 1 }
            receiver = .top
            result.pointSpeedSum += Double(events.pointSpeed)
        }
        let s = game.state
        result.scoreBottom = Int(s.scoreBottom)
        result.scoreTop = Int(s.scoreTop)
        result.steps = Int(s.steps)
        result.end = s.end
    }

    func frame(scale: Float) -> GrayFrame {
        var f = game.makeFrame(scale: scale)
        game.render(into: &f)
        return f
    }

    func status(name: String) -> String {
        let s = game.state
        return "\(name) (bottom) \(s.scoreBottom) - \(s.scoreTop) \(opponent.displayName) (top)   first to \(config.maxScore)   step \(s.steps)"
    }

    var keyHelp: String {
        (config.verticalMovement ? "←/→ or a/d move, ↑/↓ or w/x forward/back" : "←/→ or a/d move")
            + ", p pause, s save and quit, q quit"
    }

    func result(name: String) -> String {
        let s = game.state
        let score = "\(s.scoreBottom)-\(s.scoreTop)"
        if s.scoreBottom > s.scoreTop { return "\(name) wins \(score) against \(opponent.displayName) (\(s.end))" }
        if s.scoreTop > s.scoreBottom { return "\(opponent.displayName) wins \(score) against \(name) (\(s.end))" }
        return "draw \(score) (\(s.end))"
    }

    func recordLine(match: Int, person: String) -> String {
        PongMatchRecord(match: match, pairing: 0, pair: match, bottom: person, top: opponent.text,
                        config: config, result: result).line
    }
}
