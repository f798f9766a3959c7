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
    /// The set's name, and its variant file's version.
    public var set: String, version: Int
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
        let r = Reader(path: path, doc: doc, prefix: "variants.")
        let keys = try r.strings("keys")
        let lower = try r.doubles("lower", count: keys.count), upper = try r.doubles("upper", count: keys.count)
        guard zip(lower, upper).allSatisfy({ $0 <= $1 }) else { throw r.bad("upper", "at least \"lower\", key by key") }
        return PolicyContext(set: try r.string("set"), version: try r.int("version", 1 ... Int.max),
                             visible: try r.bool("visible"), features: ContextFeatures(keys: keys, lower: lower, upper: upper))
    }
}
