import Agents
import Foundation
import Gym

/// One game of `play` as the session loop sees it: a person's action per
/// step in, frames and status lines out, a replay record when it ends and a
/// save file when it stops early. One conformance per game
/// (``PongTable``, ``BreakoutTable``); the rules stay in Gym.
protocol PlayTable {
    associatedtype State: Codable & Sendable & Equatable
    associatedtype Config: GameConfig & Codable
    typealias Save = PlaySave<State, Config>

    /// A fresh game from `seed` (the opponent, when the game has one, is
    /// seeded from it as in the tournament's games).
    init(config: Config, seed: UInt64, opponent: AgentSpec?)

    var config: Config { get }
    var seed: UInt64 { get }
    /// The person's actions from the first step.
    var actions: [UInt8] { get }
    var isOver: Bool { get }
    var snapshot: Snapshot<State, Config> { get }
    var frameSkip: Int { get }
    /// The game's push action, nil if it has none.
    var pushAction: Int? { get }
    /// Field height over width (the drawing's aspect).
    var aspect: Double { get }

    /// The movement action a key asks for, nil if the key does not move the paddle here.
    func action(for key: PlayKey) -> Int?
    /// One agent step with the person's action.
    mutating func step(person: Int)
    /// The game drawn at `scale` pixels per field unit.
    func frame(scale: Float) -> GrayFrame
    var fieldWidth: Float { get }
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
    /// The game a save file describes: played again from its seed with the
    /// saved actions (so the opponent's own state is rebuilt), checked to
    /// arrive at the saved snapshot bit for bit.
    static func resuming(_ save: Save, opponent: AgentSpec?, path: String) throws -> Self {
        guard let actions = RecordedActions.decode(save.actions) else {
            throw CLIError("save file \(path) is corrupt: \"actions\" is not a list of runs ACTIONxCOUNT")
        }
        var table = Self(config: save.snapshot.config, seed: save.seed, opponent: opponent)
        for a in actions {
            guard !table.isOver else { break }
            table.step(person: Int(a))
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

/// Breakout for `play`: the person alone against the wall.
struct BreakoutTable: PlayTable {
    let config: BreakoutConfig
    let seed: UInt64
    private(set) var game: BreakoutGame
    private(set) var actions: [UInt8] = []
    private(set) var events = BreakoutEvents()

    init(config: BreakoutConfig, seed: UInt64, opponent _: AgentSpec?) {
        self.config = config
        self.seed = seed
        game = BreakoutGame(config: config, seed: seed)
    }

    var isOver: Bool { game.isOver }
    var snapshot: BreakoutGame.SavedGame { game.snapshot() }
    var frameSkip: Int { config.frameSkip }
    var pushAction: Int? { BreakoutAction.push.rawValue }
    var aspect: Double { Double(config.fieldHeight / config.fieldWidth) }
    var fieldWidth: Float { config.fieldWidth }

    func action(for key: PlayKey) -> Int? {
        switch key {
        case .left: BreakoutAction.left.rawValue
        case .right: BreakoutAction.right.rawValue
        default: nil
        }
    }

    mutating func step(person: Int) {
        actions.append(UInt8(clamping: person))
        var e = BreakoutEvents()
        _ = game.step(person, events: &e)
        events.accumulate(e)
    }

    func frame(scale: Float) -> GrayFrame {
        var f = game.makeFrame(scale: scale)
        game.render(into: &f)
        return f
    }

    func status(name: String) -> String {
        let s = game.state.core
        let serve = s.servePending && !config.autoServe ? "   space serves" : ""
        return "\(name)   score \(s.score)   lives \(s.lives)   walls \(s.levelsCleared)/\(config.levels)   bricks \(s.bricksLeft)   step \(s.steps)\(serve)"
    }

    var keyHelp: String { "←/→ or a/d move, space push/serve, p pause, s save and quit, q quit" }

    func result(name: String) -> String {
        let s = game.state.core
        return "\(name) scored \(s.score), cleared \(s.levelsCleared) of \(config.levels) walls in \(s.steps) steps (\(s.end))"
    }

    func recordLine(match: Int, person: String) -> String {
        let episode = BreakoutEpisode(index: match, seed: seed, final: game.state.core, events: events)
        return BreakoutEpisodeRecord(agent: person, episode: match, config: config, result: episode).line
    }
}
