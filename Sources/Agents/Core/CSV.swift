/// RFC 4180 CSV fields: quoted when they hold a comma, quote or newline
/// (agent specs contain commas).
public enum CSV {
    public static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }

    /// One line, fields joined with commas, ending in a newline.
    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }
}
