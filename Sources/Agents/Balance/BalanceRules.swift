import Gym

/// The rules a balance scenario set runs under: a config of one game.
public enum BalanceRules: Equatable, Sendable {
    case pong(PongConfig)
    case breakout(BreakoutConfig)

    /// The games balance checks know.
    public static let games = [PongConfig.gameName, BreakoutConfig.gameName]

    public var game: String {
        switch self {
        case .pong: PongConfig.gameName
        case .breakout: BreakoutConfig.gameName
        }
    }

    public var configHash: UInt64 {
        switch self {
        case let .pong(c): c.configHash
        case let .breakout(c): c.configHash
        }
    }

    /// The full effective config.
    public var json: JSONValue {
        switch self {
        case let .pong(c): c.json
        case let .breakout(c): c.json
        }
    }

    /// The named preset of `game` (first preset when `name` is nil).
    public static func preset(game: String, _ name: String?) throws(ConfigError) -> BalanceRules {
        if game == BreakoutConfig.gameName { return .breakout(try BreakoutConfig.preset(name ?? BreakoutConfig.presets[0].name)) }
        return .pong(try PongConfig.preset(name ?? PongConfig.presets[0].name))
    }

    /// A config document of `game` (see ``GameConfig/decode(_:source:)``).
    public static func decode(game: String, _ doc: JSONValue, source: String) throws(ConfigError) -> BalanceRules {
        if game == BreakoutConfig.gameName { return .breakout(try BreakoutConfig.decode(doc, source: source)) }
        return .pong(try PongConfig.decode(doc, source: source))
    }

    /// Checks that `spec` can play under these rules.
    public func check(_ spec: AgentSpec) throws(AgentSpecError) {
        switch self {
        case let .pong(c): try Pong.check(spec, config: c)
        case let .breakout(c): try Breakout.check(spec, config: c)
        }
    }
}
