import Gym

/// One replayable record line (a JSON object: a Pong match, a Breakout
/// episode) and its fields, each read with one clear error naming the line
/// and the key (``ReplayError``).
struct RecordLine {
    let doc: JSONValue
    /// Names the line in errors, e.g. `matches.jsonl:12`.
    let source: String

    /// Parses `line`.
    init(_ line: String, source: String) throws(ReplayError) {
        do { doc = try JSONValue.parse(line) } catch { throw .malformed(source: source, message: error.description) }
        self.source = source
    }

    subscript(key: String) -> JSONValue? { doc[key] }

    func int(_ key: String) throws(ReplayError) -> Int {
        guard case let .number(x, _)? = doc[key], let i = Int(exactly: x) else { throw .missing(source: source, key: key, expected: "an integer") }
        return i
    }

    /// The string at `key`; `expected` says what it must be in the error.
    func string(_ key: String, expected: String = "a string") throws(ReplayError) -> String {
        guard case let .string(s)? = doc[key] else { throw .missing(source: source, key: key, expected: expected) }
        return s
    }

    /// `seed`, read from its exact text (every `UInt64` survives).
    func seed() throws(ReplayError) -> UInt64 {
        guard case let .number(_, seedText)? = doc["seed"], let seed = UInt64(seedText) else {
            throw .missing(source: source, key: "seed", expected: "an unsigned 64-bit integer")
        }
        return seed
    }

    /// `config` decoded as `C`, checked against `configHash` where the record has one.
    func config<C: GameConfig>(_: C.Type) throws(ReplayError) -> C {
        guard let configDoc = doc["config"] else { throw .missing(source: source, key: "config", expected: "a config object") }
        let config: C
        do { config = try C.decode(configDoc, source: "\(source) config") } catch {
            throw .malformed(source: source, message: error.description)
        }
        if case let .string(hash)? = doc["configHash"], hash != String(config.configHash, radix: 16) {
            throw .malformed(source: source, message: "configHash \(hash) does not match its config (\(String(config.configHash, radix: 16)))")
        }
        return config
    }

    /// The ``EpisodeEnd`` named `text`, the record's `end` (nil: absent or not a string).
    func end(_ text: String?) throws(ReplayError) -> EpisodeEnd {
        guard let end = EpisodeEnd.allCases.first(where: { $0.description == text }) else {
            throw .missing(source: source, key: "end", expected: "one of \(EpisodeEnd.allCases.map(\.description).joined(separator: ", "))")
        }
        return end
    }
}

/// A match record that cannot be replayed.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(source: String, message: String)
    case missing(source: String, key: String, expected: String)
    case unsupported(source: String, message: String)

    public var description: String {
        switch self {
        case let .malformed(source, message): "\(source): \(message)"
        case let .missing(source, key, expected): "\(source): \"\(key)\" must be \(expected)"
        case let .unsupported(source, message): "\(source): \(message)"
        }
    }
}
