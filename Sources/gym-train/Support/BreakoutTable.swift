import Agents
import Gym

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
