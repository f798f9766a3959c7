/// A user mistake in a configuration, as one sentence naming the key, the
/// value and what is allowed.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(source: String, JSONSyntaxError)
    case notAnObject(source: String)
    case unknownKey(source: String, key: String, allowed: [String])
    case wrongType(source: String, key: String, expected: String, found: String)
    case outOfRange(source: String, key: String, value: String, allowed: String)
    case unknownPreset(game: String, name: String, allowed: [String])
    case invalid(source: String, key: String, message: String)

    public var description: String {
        switch self {
        case let .malformed(source, e):
            "\(source): \(e)"
        case let .notAnObject(source):
            "\(source): a config must be a JSON object ({ \"key\": value, ... })"
        case let .unknownKey(source, key, allowed):
            "\(source): unknown key \"\(key)\"; valid keys are: \(allowed.joined(separator: ", "))"
        case let .wrongType(source, key, expected, found):
            "\(source): \"\(key)\" must be \(expected), found \(found)"
        case let .outOfRange(source, key, value, allowed):
            "\(source): \"\(key)\" = \(value) is out of range; allowed: \(allowed)"
        case let .unknownPreset(game, name, allowed):
            "unknown \(game) preset \"\(name)\"; presets are: \(allowed.joined(separator: ", "))"
        case let .invalid(source, key, message):
            "\(source): \"\(key)\" \(message)"
        }
    }
}
