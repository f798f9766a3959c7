/// One rule assignment: values for some of a game's variant keys
/// (``VariantConfig/variantKeys``), applied on top of a base config.
public struct RuleVariant: Equatable, Sendable {
    /// One key and its value (a JSON number, or `true`/`false` for a Boolean key).
    public struct Value: Equatable, Sendable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) { self.key = key; self.value = value }
    }

    /// The variant's name in reports ("wide-paddle"); a drawn variant's is its set's name and draw.
    public var name: String
    /// The values in the order the set lists its keys.
    public var values: [Value]

    public init(name: String, values: [Value]) {
        self.name = name; self.values = values
    }

    /// The classic rules of a report: no key changed.
    public static let classic = RuleVariant(name: "classic", values: [])

    /// `key=value` pairs joined by commas ("paddleWidth=48, serveSpeed=2.5"); "classic" for none.
    public var assignments: String {
        values.isEmpty ? "classic" : values.map { "\($0.key)=\(valueText($0.value))" }.joined(separator: ", ")
    }

    /// The value of `key`, nil when the variant leaves it alone.
    public subscript(key: String) -> JSONValue? { values.first { $0.key == key }?.value }

    /// `base` with this variant's values set and the result checked like a
    /// config (ranges and relations); errors name `source`, the key and the value.
    public func apply<C: VariantConfig>(to base: C, source: String) throws(ConfigError) -> C {
        var config = base
        for v in values {
            guard let field = C.variantField(v.key) else {
                throw .unknownKey(source: source, key: v.key, allowed: C.variantKeys)
            }
            try field.write(&config, v.value, source)
        }
        try config.checkRelations(source: source)
        return config
    }

    /// The values as a JSON object (key order kept).
    public var json: JSONValue { .object(values.map { ($0.key, $0.value) }) }
}

/// A value as a report writes it: a whole number without a fraction
/// ("64"), another number in its own shortest text, `true`/`false`.
func valueText(_ v: JSONValue) -> String {
    switch v {
    case let .number(x, text): x == x.rounded() && abs(x) < 1e7 ? String(Int(x)) : text
    case let .bool(b): b ? "true" : "false"
    default: v.serialized(pretty: false)
    }
}
