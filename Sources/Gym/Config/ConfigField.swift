/// One documented, range-checked key of a game config.
///
/// A config type lists its fields once (``GameConfig/fields``); decoding,
/// validation, writing the effective config and the README's reference
/// table are all driven by that list, so they cannot drift apart.
public struct ConfigField<Config>: Sendable {
    public let key: String
    /// Meaning, with units.
    public let doc: String
    /// What is allowed, e.g. `2 ... 20` or `true/false`.
    public let allowed: String
    /// The two ends of a numeric field's range as JSON values (`false` and
    /// `true` for a `Bool` field); nil for a custom field (lists, layouts).
    /// What tests at the edges of the ranges read, rather than `allowed`.
    public let ends: (lower: JSONValue, upper: JSONValue)?
    /// Whether the field holds an `Int` (a numeric field that takes only integers).
    public let isInteger: Bool
    @usableFromInline let read: @Sendable (Config) -> JSONValue
    @usableFromInline let write: @Sendable (inout Config, JSONValue, String) throws(ConfigError) -> Void

    /// A `Float` field limited to `range` (inclusive; infinities and NaN are out of it).
    public static func float(_ key: String, _ path: WritableKeyPath<Config, Float> & Sendable,
                             _ range: ClosedRange<Float>, _ doc: String) -> ConfigField {
        number(key, path, range, doc, expected: "a number",
               bounds: "\(fmt(range.lowerBound)) ... \(fmt(range.upperBound))", note: "", integer: false,
               read: { .number($0) }, convert: { Float($0) })
    }

    /// An `Int` field limited to `range` (inclusive).
    public static func int(_ key: String, _ path: WritableKeyPath<Config, Int> & Sendable,
                           _ range: ClosedRange<Int>, _ doc: String) -> ConfigField {
        number(key, path, range, doc, expected: "an integer",
               bounds: "\(range.lowerBound) ... \(range.upperBound)", note: " (integer)", integer: true,
               read: { .number($0) }, convert: { Int(exactly: $0) })
    }

    /// A numeric field limited to `range`: a JSON number that `convert`
    /// takes to a `T` (nil: not `expected`, a wrong type) within `range`
    /// (else out of range, allowed: `bounds`); documented as `bounds + note`.
    static func number<T: Comparable & Sendable>(_ key: String, _ path: WritableKeyPath<Config, T> & Sendable,
                                                 _ range: ClosedRange<T>, _ doc: String, expected: String,
                                                 bounds: String, note: String, integer: Bool,
                                                 read: @escaping @Sendable (T) -> JSONValue,
                                                 convert: @escaping @Sendable (Double) -> T?) -> ConfigField {
        ConfigField(key: key, doc: doc, allowed: bounds + note, ends: (read(range.lowerBound), read(range.upperBound)),
                    isInteger: integer,
                    read: { read($0[keyPath: path]) },
                    write: { (config: inout Config, value: JSONValue, source: String) throws(ConfigError) in
                        guard case let .number(x, text) = value else {
                            throw .wrongType(source: source, key: key, expected: expected, found: value.kindName)
                        }
                        guard let v = convert(x) else {
                            throw .wrongType(source: source, key: key, expected: expected, found: text)
                        }
                        guard range.contains(v) else {
                            throw .outOfRange(source: source, key: key, value: text, allowed: bounds)
                        }
                        config[keyPath: path] = v
                    })
    }

    /// A `Bool` field.
    public static func bool(_ key: String, _ path: WritableKeyPath<Config, Bool> & Sendable,
                            _ doc: String) -> ConfigField {
        ConfigField(key: key, doc: doc, allowed: "true / false", ends: (.bool(false), .bool(true)), isInteger: false,
                    read: { .bool($0[keyPath: path]) },
                    write: { (config: inout Config, value: JSONValue, source: String) throws(ConfigError) in
                        guard case let .bool(b) = value else {
                            throw .wrongType(source: source, key: key, expected: "true or false", found: value.kindName)
                        }
                        config[keyPath: path] = b
                    })
    }

    /// A field with its own reading and writing (lists, strings, layouts).
    public static func custom(_ key: String, allowed: String, _ doc: String,
                              read: @escaping @Sendable (Config) -> JSONValue,
                              write: @escaping @Sendable (inout Config, JSONValue, String) throws(ConfigError) -> Void)
        -> ConfigField
    {
        ConfigField(key: key, doc: doc, allowed: allowed, ends: nil, isInteger: false, read: read, write: write)
    }
}

@usableFromInline
func fmt(_ x: Float) -> String {
    x == x.rounded() && abs(x) < 1e7 ? String(Int(x)) : "\(x)"
}

/// A game configuration: a value type with documented, range-checked fields
/// and named presets.
public protocol GameConfig: Sendable, Equatable {
    /// The game's name as used on the command line ("pong", "breakout").
    static var gameName: String { get }
    /// Every key, in the order they are documented and written.
    static var fields: [ConfigField<Self>] { get }
    /// Named presets; the first is the default.
    static var presets: [(name: String, config: Self)] { get }
    /// Checks that involve several fields; single fields are range-checked
    /// by ``fields``.
    func checkRelations(source: String) throws(ConfigError)
}

extension GameConfig {
    /// The preset named `name`.
    public static func preset(_ name: String) throws(ConfigError) -> Self {
        guard let p = presets.first(where: { $0.name == name }) else {
            throw .unknownPreset(game: gameName, name: name, allowed: presets.map(\.name))
        }
        return p.config
    }

    /// The names of all presets.
    public static var presetNames: [String] { presets.map(\.name) }

    /// Decodes a config document strictly: an optional `"preset"` key names
    /// the base (default: the first preset), every other key overrides one
    /// field; unknown keys, wrong types and out-of-range values throw.
    /// - Parameter source: a name for messages, e.g. the file path.
    public static func decode(_ text: String, source: String) throws(ConfigError) -> Self {
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw .malformed(source: source, error) }
        return try decode(doc, source: source)
    }

    /// Decodes an already parsed document (see ``decode(_:source:)``).
    public static func decode(_ doc: JSONValue, source: String) throws(ConfigError) -> Self {
        guard case let .object(members) = doc else { throw .notAnObject(source: source) }
        var config = presets[0].config
        if let p = doc["preset"] {
            guard case let .string(name) = p else {
                throw .wrongType(source: source, key: "preset", expected: "a preset name",
                                 found: p.kindName)
            }
            config = try preset(name)
        }
        for (key, value) in members where key != "preset" {
            guard let field = fields.first(where: { $0.key == key }) else {
                throw .unknownKey(source: source, key: key, allowed: ["preset"] + fields.map(\.key))
            }
            try field.write(&config, value, source)
        }
        try config.checkRelations(source: source)
        return config
    }

    /// Range-checks every field and their relations (for configs built in code).
    public func validate(source: String = "config") throws(ConfigError) {
        var copy = self
        for field in Self.fields { try field.write(&copy, field.read(self), source) }
        try checkRelations(source: source)
    }

    /// The full effective config as a JSON object, keys in documented order.
    public var json: JSONValue {
        .object(Self.fields.map { ($0.key, $0.read(self)) })
    }

    /// A stable 64-bit hash of the effective config (FNV-1a over its compact
    /// JSON), recorded in checkpoints and baselines to detect mismatches.
    public var configHash: UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in json.serialized(pretty: false).utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    /// The reference table (Markdown) for the README and `gym-train config --reference`.
    public static var referenceTable: String {
        var out = "| key | allowed | meaning |\n|---|---|---|\n"
        for f in fields { out += "| `\(f.key)` | \(f.allowed) | \(f.doc) |\n" }
        return out
    }
}
