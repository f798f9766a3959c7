import Gym

/// The `variants` key of a ``TrainConfig``: train across a variant set, each
/// training episode under the rules its episode seed draws
/// (``RuleContext/rules(episodeSeed:)``), optionally with the context
/// visible to the policy (its features appended to the observation).
///
/// ```json
/// "variants": { "set": "train", "file": "Configs/variants/pong.json", "visible": true }
/// ```
/// `set` names a set of the variant file (required); `file` is a variant
/// file (default, or `null`: the game's shipped `Configs/variants/<game>.json`);
/// `visible` appends the context features (default `false`).
public struct TrainVariants: Equatable, Sendable {
    /// The set's name in its file ("train").
    public var set: String
    /// The variant file's path; nil: the game's shipped file.
    public var file: String?
    /// Whether the policy sees the context features.
    public var visible: Bool

    public init(set: String, file: String? = nil, visible: Bool = false) {
        self.set = set; self.file = file; self.visible = visible
    }

    /// The members the key allows, in documented order.
    public static let keys = ["set", "file", "visible"]
    /// What the key allows, for its error lines.
    public static let allowed = "null or an object {\"set\": name, \"file\": path or null, \"visible\": true or false}"

    public var json: JSONValue {
        .object([("set", .string(set)), ("file", file.map { .string($0) } ?? .null), ("visible", .bool(visible))])
    }

    /// Decodes the key's value (`null`: no variants); each mistake is one error naming `variants.<member>`.
    static func decode(_ v: JSONValue, source: String) throws(ConfigError) -> TrainVariants? {
        switch v {
        case .null: return nil
        case let .object(members):
            for (key, _) in members where !keys.contains(key) {
                throw .unknownKey(source: source, key: "variants.\(key)", allowed: keys.map { "variants.\($0)" })
            }
            guard let setValue = v["set"] else {
                throw .invalid(source: source, key: "variants", message: "needs \"set\": the name of a variant set of the file (e.g. \"train\")")
            }
            guard case let .string(set) = setValue, !set.isEmpty else {
                throw .wrongType(source: source, key: "variants.set", expected: "the name of a variant set (e.g. \"train\")",
                                 found: setValue.kindName)
            }
            var file: String?
            switch v["file"] ?? .null {
            case .null: file = nil
            case let .string(path) where !path.isEmpty: file = path
            case let other:
                throw .wrongType(source: source, key: "variants.file", expected: "a variant file's path or null (the game's shipped file)",
                                 found: other == .string("") ? "an empty string" : other.kindName)
            }
            var visible = false
            switch v["visible"] ?? .bool(false) {
            case let .bool(b): visible = b
            case let other:
                throw .wrongType(source: source, key: "variants.visible", expected: "true or false", found: other.kindName)
            }
            return TrainVariants(set: set, file: file, visible: visible)
        default:
            throw .wrongType(source: source, key: "variants", expected: allowed, found: v.kindName)
        }
    }
}
