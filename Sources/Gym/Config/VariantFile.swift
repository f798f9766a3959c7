/// A game's variant file (`Configs/variants/<game>.json`): named variant
/// sets over a base preset, and the one-factor sensitivity grid a
/// robustness report plays.
///
/// ```json
/// { "game": "pong", "version": 1, "preset": "classic",
///   "sets": { "train": { "sampling": "uniform", "ranges": { "paddleWidth": [48, 80] } },
///             "near":  { "sampling": "uniform", "points": [ { "name": "wide", "values": { "paddleWidth": 76 } } ] },
///             "far":   { "sampling": "uniform", "points": [ { "name": "tiny", "values": { "paddleWidth": 32 } } ] } },
///   "sensitivity": { "paddleWidth": [32, 48, 64, 80, 112] } }
/// ```
///
/// Checked like a config; every failure is one ``ConfigError`` naming the
/// file, the set, the key, the value and what is allowed:
/// - keys are the game's ``VariantConfig/variantKeys``; every value and
///   range end is within the key's own config range; a range has
///   `lower ≤ upper`, integer ends for an integer key, and every corner of
///   a ranges set (each key at either end) is a valid config on the preset;
///   every point and every sensitivity value is a valid config on it;
/// - `train` (required) is a ranges set around the preset: each range holds
///   the preset's value;
/// - `near` points lie inside `train`'s ranges (their hull) and set only
///   its keys; `far` points lie outside them in at least one key;
/// - a sensitivity key lists at least two ascending values including the
///   preset's own (the classic rules, marked on the curve).
public struct VariantFile<C: VariantConfig>: Sendable {
    /// The file format's version this code reads.
    public static var formatVersion: Int { 1 }

    /// The sets' version as the file states it (part of what a report records).
    public var version: Int
    /// The preset the variants are checked on.
    public var preset: String
    /// The sets in file order.
    public var sets: [VariantSet]
    /// Per key, the values of its one-factor curve (ascending; the preset's value among them).
    public var sensitivity: [(key: String, values: [JSONValue])]

    /// The set named `name`; an unknown name is one error naming the sets there are.
    public func set(_ name: String, source: String) throws(ConfigError) -> VariantSet {
        guard let s = sets.first(where: { $0.name == name }) else {
            throw .invalid(source: source, key: "sets",
                           message: "has no set \"\(name)\"; sets are: \(sets.map(\.name).joined(separator: ", "))")
        }
        return s
    }

    /// Decodes and checks a variant file (see the type's doc).
    public static func decode(_ text: String, source: String) throws(ConfigError) -> VariantFile {
        let doc: JSONValue
        do { doc = try JSONValue.parse(text) } catch { throw .malformed(source: source, error) }
        guard case let .object(members) = doc else { throw .notAnObject(source: source) }
        let topKeys = ["game", "version", "preset", "sets", "sensitivity"]
        for (key, _) in members where !topKeys.contains(key) {
            throw .unknownKey(source: source, key: key, allowed: topKeys)
        }
        func required(_ key: String) throws(ConfigError) -> JSONValue {
            guard let v = doc[key] else { throw .invalid(source: source, key: key, message: "is missing") }
            return v
        }
        guard case let .string(game) = try required("game") else {
            throw .wrongType(source: source, key: "game", expected: "a game name", found: (doc["game"] ?? .null).kindName)
        }
        guard game == C.gameName else {
            throw .outOfRange(source: source, key: "game", value: "\"\(game)\"", allowed: "\"\(C.gameName)\"")
        }
        let versionValue = try required("version")
        guard let version = versionValue.numeric.flatMap({ Int(exactly: $0) }), version >= 1 else {
            throw .wrongType(source: source, key: "version", expected: "a positive integer", found: versionValue.kindName)
        }
        var preset = C.presets[0].name
        if let p = doc["preset"] {
            guard case let .string(name) = p else {
                throw .wrongType(source: source, key: "preset", expected: "a preset name", found: p.kindName)
            }
            preset = name
        }
        let base = try C.preset(preset)
        guard case let .object(setMembers) = try required("sets"), !setMembers.isEmpty else {
            throw .wrongType(source: source, key: "sets", expected: "an object of named sets", found: (doc["sets"] ?? .null).kindName)
        }
        var sets: [VariantSet] = []
        for (name, value) in setMembers {
            sets.append(try decodeSet(name, value, base: base, source: "\(source): set \"\(name)\""))
        }
        var file = VariantFile(version: version, preset: preset, sets: sets, sensitivity: [])
        try file.checkHeldOut(base: base, source: source)
        if let s = doc["sensitivity"] {
            file.sensitivity = try decodeSensitivity(s, base: base, source: "\(source): sensitivity")
        }
        return file
    }

    static func decodeSet(_ name: String, _ value: JSONValue, base: C, source: String) throws(ConfigError) -> VariantSet {
        guard case let .object(members) = value else {
            throw .wrongType(source: source, key: name, expected: "an object with \"sampling\" and \"ranges\" or \"points\"",
                             found: value.kindName)
        }
        let allowedKeys = ["sampling", "ranges", "points"]
        for (key, _) in members where !allowedKeys.contains(key) {
            throw .unknownKey(source: source, key: key, allowed: allowedKeys)
        }
        guard case let .string(sampling) = value["sampling"] ?? .null, VariantSet.samplingRules.contains(sampling) else {
            throw .outOfRange(source: source, key: "sampling", value: (value["sampling"]).map { $0.serialized(pretty: false) } ?? "(missing)",
                              allowed: VariantSet.samplingRules.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        switch (value["ranges"], value["points"]) {
        case let (ranges?, nil):
            return VariantSet(name: name, sampling: sampling, content: .ranges(try decodeRanges(ranges, base: base, source: source)))
        case let (nil, points?):
            return VariantSet(name: name, sampling: sampling, content: .points(try decodePoints(points, base: base, source: source)))
        default:
            throw .invalid(source: source, key: "ranges", message: "or \"points\": a set needs exactly one of the two")
        }
    }

    static func field(_ key: String, source: String) throws(ConfigError) -> ConfigField<C> {
        guard let f = C.variantField(key) else { throw .unknownKey(source: source, key: key, allowed: C.variantKeys) }
        return f
    }

    static func decodeRanges(_ value: JSONValue, base: C, source: String) throws(ConfigError) -> [VariantSet.Range] {
        guard case let .object(members) = value, !members.isEmpty else {
            throw .wrongType(source: source, key: "ranges", expected: "an object of KEY: [LOWER, UPPER]", found: value.kindName)
        }
        var ranges: [VariantSet.Range] = []
        for (key, v) in members {
            let f = try field(key, source: source)
            guard case let .array(ends) = v, ends.count == 2, case let .number(lo, loText) = ends[0],
                  case let .number(hi, hiText) = ends[1] else {
                throw .wrongType(source: source, key: key, expected: "[LOWER, UPPER] (two numbers)", found: v.serialized(pretty: false))
            }
            var probe = base
            try f.write(&probe, ends[0], source)
            try f.write(&probe, ends[1], source)
            guard lo <= hi else {
                throw .invalid(source: source, key: key, message: "= [\(loText), \(hiText)]: the lower end must not exceed the upper")
            }
            ranges.append(.init(key: key, lower: lo, upper: hi, isInteger: f.isInteger))
        }
        // Every corner of the box is a valid game on the preset.
        for corner in 0 ..< (1 << ranges.count) {
            let values = ranges.enumerated().map { k, r in
                RuleVariant.Value(key: r.key, value: rangeEnd((corner >> k) & 1 == 0 ? r.lower : r.upper, integer: r.isInteger))
            }
            let v = RuleVariant(name: "corner", values: values)
            _ = try v.apply(to: base, source: "\(source), corner \(v.assignments)")
        }
        return ranges
    }

    static func decodePoints(_ value: JSONValue, base: C, source: String) throws(ConfigError) -> [RuleVariant] {
        guard case let .array(items) = value, !items.isEmpty else {
            throw .wrongType(source: source, key: "points", expected: "a non-empty list of {\"name\": ..., \"values\": {...}}",
                             found: value.kindName)
        }
        var points: [RuleVariant] = []
        for (k, item) in items.enumerated() {
            let at = "\(source), point \(k + 1)"
            guard case let .object(m) = item, m.count == 2, case let .string(name) = item["name"] ?? .null, !name.isEmpty,
                  case let .object(values) = item["values"] ?? .null, !values.isEmpty else {
                throw .wrongType(source: at, key: "points", expected: "{\"name\": \"...\", \"values\": {KEY: VALUE, ...}}",
                                 found: item.serialized(pretty: false))
            }
            guard !points.contains(where: { $0.name == name }) else {
                throw .invalid(source: at, key: "name", message: "= \"\(name)\" is used twice; point names must be distinct")
            }
            for (key, _) in values { _ = try field(key, source: "\(source), point \"\(name)\"") }
            let v = RuleVariant(name: name, values: values.map { .init(key: $0.0, value: $0.1) })
            _ = try v.apply(to: base, source: "\(source), point \"\(name)\"")
            points.append(v)
        }
        return points
    }

    /// `train` is a ranges set holding the preset; `near` inside its ranges, `far` outside them.
    func checkHeldOut(base: C, source: String) throws(ConfigError) {
        let trainSet = try set("train", source: source)
        guard case let .ranges(train) = trainSet.content else {
            throw .invalid(source: "\(source): set \"train\"", key: "points", message: "is not allowed: train is a ranges set (\"ranges\": {KEY: [LOWER, UPPER]})")
        }
        for r in train {
            let v = (C.variantField(r.key)?.read(base)).flatMap(\.numeric) ?? .nan
            guard r.contains(v) else {
                throw .invalid(source: "\(source): set \"train\"", key: r.key,
                               message: "= [\(valueText(.number(r.lower))), \(valueText(.number(r.upper)))] does not hold the \(preset) value \(valueText(.number(v))); train ranges lie around the preset's rules")
            }
        }
        for held in sets where held.name == "near" || held.name == "far" {
            guard case let .points(points) = held.content else {
                throw .invalid(source: "\(source): set \"\(held.name)\"", key: "ranges",
                               message: "is not allowed: \(held.name) is a list of points, held out from train")
            }
            for p in points {
                let at = "\(source): set \"\(held.name)\", point \"\(p.name)\""
                let inside = p.values.map { v in train.first { $0.key == v.key }.map { r in v.value.numeric.map(r.contains) ?? false } ?? false }
                if held.name == "near", let k = inside.firstIndex(of: false) {
                    let v = p.values[k]
                    let allowed = train.first { $0.key == v.key }.map { "\(valueText(.number($0.lower))) ... \(valueText(.number($0.upper))) (train's range)" }
                        ?? "a key train varies (\(train.map(\.key).joined(separator: ", ")))"
                    throw .outOfRange(source: at, key: v.key, value: valueText(v.value), allowed: allowed)
                }
                if held.name == "far", !inside.contains(false) {
                    throw .invalid(source: at, key: p.values[0].key,
                                   message: "(\(p.assignments)) lies inside train's ranges; a far point leaves them in at least one key")
                }
            }
        }
    }

    static func decodeSensitivity(_ value: JSONValue, base: C, source: String) throws(ConfigError) -> [(key: String, values: [JSONValue])] {
        guard case let .object(members) = value else {
            throw .wrongType(source: source, key: "sensitivity", expected: "an object of KEY: [V1, V2, ...]", found: value.kindName)
        }
        var out: [(key: String, values: [JSONValue])] = []
        for (key, v) in members {
            let f = try field(key, source: source)
            guard case let .array(items) = v, items.count >= 2 else {
                throw .wrongType(source: source, key: key, expected: "a list of at least two values", found: v.serialized(pretty: false))
            }
            for item in items {
                _ = try RuleVariant(name: key, values: [.init(key: key, value: item)]).apply(to: base, source: source)
            }
            let xs = items.compactMap(\.numeric)
            guard xs.count == items.count, zip(xs, xs.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw .invalid(source: source, key: key, message: "= \(v.serialized(pretty: false)) must be ascending numbers")
            }
            let own = f.read(base)
            guard items.contains(where: { $0 == own }) else {
                throw .invalid(source: source, key: key,
                               message: "= \(v.serialized(pretty: false)) must include the preset's value \(valueText(own)) (the classic rules, marked on the curve)")
            }
            out.append((key, items))
        }
        return out
    }

    /// One variant per sensitivity value: `key` set alone (named `key=value`).
    public func sensitivityVariants(_ key: String) -> [RuleVariant] {
        (sensitivity.first { $0.key == key }?.values ?? []).map {
            RuleVariant(name: "\(key)=\(valueText($0))", values: [.init(key: key, value: $0)])
        }
    }
}

/// A range end as a field value: an integer's decimal text, else the `Float` it stands for.
func rangeEnd(_ x: Double, integer: Bool) -> JSONValue {
    integer ? .number(Int(x)) : .number(Float(x))
}
