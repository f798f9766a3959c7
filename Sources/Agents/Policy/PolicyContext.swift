import Gym

/// The variant set a policy was trained across (a checkpoint's `variants`):
/// the set's name and its file's version, whether the context was visible,
/// and the context features' keys and spans.
///
/// ```json
/// "variants": { "set": "train", "version": 1, "visible": true,
///               "keys": ["paddleWidth", …], "lower": [48, …], "upper": [80, …] }
/// ```
/// A visible policy reads the game's observation followed by the context
/// features of the rules its game plays (``ContextFeatures``, with these
/// spans), so its inputs are the game's observation count plus the keys';
/// wherever it plays (eval, robustness, tournaments) it is given them
/// (``ContextFeatureAgent``). A hidden one reads the game's observation alone.
public struct PolicyContext: Equatable, Sendable {
    public var set: String
    /// The variant file's version.
    public var version: Int
    public var visible: Bool
    public var features: ContextFeatures

    public init(set: String, version: Int, visible: Bool, features: ContextFeatures) {
        self.set = set; self.version = version; self.visible = visible; self.features = features
    }

    /// Floats the policy reads after the game's observation.
    public var featureCount: Int { visible ? features.count : 0 }

    /// The checkpoint member (see the type's doc).
    public var json: JSONValue {
        .object([("set", .string(set)), ("version", .number(version)), ("visible", .bool(visible)),
                 ("keys", .array(features.keys.map { .string($0) })),
                 ("lower", .array(features.lower.map { .number($0) })),
                 ("upper", .array(features.upper.map { .number($0) }))])
    }

    /// Decodes a checkpoint's `variants` (errors name the file and the field).
    static func decode(_ doc: JSONValue, path: String) throws(CheckpointError) -> PolicyContext {
        func bad(_ key: String, _ expected: String) -> CheckpointError {
            .corrupt(path: path, reason: "field \"variants.\(key)\" must be \(expected)")
        }
        guard case let .string(set)? = doc["set"] else { throw bad("set", "a string") }
        guard case let .number(_, versionText)? = doc["version"], let version = Int(versionText), version >= 1 else {
            throw bad("version", "a positive integer")
        }
        guard case let .bool(visible)? = doc["visible"] else { throw bad("visible", "true or false") }
        guard case let .array(keyValues)? = doc["keys"] else { throw bad("keys", "an array of strings") }
        var keys: [String] = []
        for k in keyValues {
            guard case let .string(s) = k else { throw bad("keys", "an array of strings") }
            keys.append(s)
        }
        func ends(_ key: String) throws(CheckpointError) -> [Double] {
            guard case let .array(items)? = doc[key], items.count == keys.count else {
                throw bad(key, "an array of \(keys.count) numbers (one per key)")
            }
            var out: [Double] = []
            for item in items {
                guard case let .number(_, text) = item, let x = Double(text), x.isFinite else {
                    throw bad(key, "an array of finite numbers")
                }
                out.append(x)
            }
            return out
        }
        let lower = try ends("lower"), upper = try ends("upper")
        guard zip(lower, upper).allSatisfy({ $0 <= $1 }) else { throw bad("upper", "at least \"lower\", key by key") }
        return PolicyContext(set: set, version: version, visible: visible,
                             features: ContextFeatures(keys: keys, lower: lower, upper: upper))
    }
}
