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

/// The rules of an episode played under a variant set, as its record holds
/// them (`rules`): the set, the variant file it came from and the variant's
/// values, applied on the record's `config` (the base rules) to give the
/// rules the episode played. Its agents were made for `config` (a tracker
/// knows the base rules), as the slot engine makes them; a replay makes
/// them so again.
///
/// ```json
/// "rules": { "set": "train", "file": "Configs/variants/pong.json (shipped)", "version": 1,
///            "variant": "train~", "values": { "paddleWidth": 61.7, … } }
/// ```
/// The variant is the one its set draws for the record's seed
/// (``VariantSet/draw(episodeSeed:)``); for a set of a shipped file that is
/// checked, so a forged or mismatched entry is refused, not replayed under
/// other rules.
public struct RecordedRules: Equatable, Sendable {
    public var set: String
    /// The variant file's source (its path, or the shipped file's name) and version.
    public var file: String, version: Int
    public var variant: RuleVariant

    public init(set: String, file: String, version: Int, variant: RuleVariant) {
        self.set = set; self.file = file; self.version = version; self.variant = variant
    }

    /// The shipped file's source name for `game` (as ``RecordedRules/file`` names it).
    public static func shippedFile(game: String) -> String { "Configs/variants/\(game).json (shipped)" }

    public var json: JSONValue {
        .object([("set", .string(set)), ("file", .string(file)), ("version", .number(version)),
                 ("variant", .string(variant.name)), ("values", variant.json)])
    }

    /// The rules the episode played: the values on `base`, checked like a
    /// config, and a drawn variant of a shipped set checked against its draw for `seed`.
    func config<C: VariantConfig>(on base: C, seed: UInt64, source: String) throws(ReplayError) -> C {
        if file == Self.shippedFile(game: C.gameName), let text = ShippedVariants.text(game: C.gameName),
           let shipped = try? VariantFile<C>.decode(text, source: file).set(set, source: file) {
            let drawn = shipped.draw(episodeSeed: seed)
            func floats(_ v: RuleVariant) -> [String: Float] {
                Dictionary(uniqueKeysWithValues: v.values.map { ($0.key, Float($0.value.numeric ?? .nan)) })
            }
            guard floats(drawn) == floats(variant), drawn.name == variant.name else {
                throw .malformed(source: source, message: "\"rules\" \(variant.assignments) are not what set \"\(set)\" of \(file) draws for seed \(seed) (\(drawn.assignments)); a record's rules must be its episode's")
            }
        }
        do { return try variant.apply(to: base, source: "\(source) rules") } catch {
            throw .malformed(source: source, message: error.description)
        }
    }
}

extension RecordLine {
    /// The record's `rules` (nil when it has none: the episode played `config`).
    func rules() throws(ReplayError) -> RecordedRules? {
        guard let doc = self["rules"], doc != .null else { return nil }
        let expected = "an object {\"set\", \"file\", \"version\", \"variant\", \"values\": {key: number}}"
        guard case let .string(set)? = doc["set"], case let .string(file)? = doc["file"],
              case let .number(v, _)? = doc["version"], let version = Int(exactly: v),
              case let .string(name)? = doc["variant"], case let .object(members)? = doc["values"] else {
            throw .missing(source: source, key: "rules", expected: expected)
        }
        return RecordedRules(set: set, file: file, version: version,
                             variant: RuleVariant(name: name, values: members.map { .init(key: $0.0, value: $0.1) }))
    }
}
