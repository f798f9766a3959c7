/// A JSON document as a value, with a small strict parser and a writer.
///
/// The gym parses its own JSON (instead of Foundation's `JSONSerialization`)
/// for three reasons: errors name the line and column, numbers and booleans
/// are never confused, and object keys keep their order (so an effective
/// config is written back in a stable, documented order). It stays
/// Foundation-free, like the rest of the core.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, with the exact text it was written as (so a 64-bit seed
    /// survives the trip through `Double`).
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; duplicate keys are rejected by the parser.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x, _), .number(y, _)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A number value written in its shortest round-trip form.
    public static func number(_ x: Double) -> JSONValue { .number(x, text: JSONValue.format(x)) }
    public static func number(_ x: Float) -> JSONValue { .number(Double(x), text: "\(x)") }
    public static func number(_ x: Int) -> JSONValue { .number(Double(x), text: String(x)) }
    public static func number(_ x: UInt64) -> JSONValue { .number(Double(x), text: String(x)) }

    static func format(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member named `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}

/// Where a JSON document is malformed.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "malformed JSON at line \(line), column \(column): \(message)" }
}

// MARK: - Parsing

extension JSONValue {
    /// Parses a complete JSON document (RFC 8259). Trailing garbage,
    /// duplicate keys, and nesting deeper than 64 levels are errors.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.i < parser.bytes.count { throw parser.error("unexpected text after the document") }
        return value
    }
}

struct JSONParser {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for b in bytes[..<min(i, bytes.count)] {
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let lit = Array(literal.utf8)
        guard i + lit.count <= bytes.count, Array(bytes[i ..< i + lit.count]) == lit else {
            throw error("invalid value (expected a string, number, object, array, true, false or null)")
        }
        i += lit.count
        return value
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 64 else { throw error("nesting deeper than 64 levels") }
        guard let c = peek else { throw error("unexpected end of input") }
        switch c {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return try number()
        default: throw error("invalid value (expected a string, number, object, array, true, false or null)")
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let keyStart = i
            let key = try string()
            if members.contains(where: { $0.0 == key }) {
                i = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}' in object")
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']' in array")
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("unterminated string") }
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw error("unterminated string") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count,
                          let code = UInt32(String(decoding: bytes[i ..< i + 4], as: UTF8.self), radix: 16)
                    else { throw error("invalid \\u escape") }
                    i += 4
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0 ..< 0x20:
                i -= 1
                throw error("control character in string")
            default:
                out.append(c)
            }
        }
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while let c = p.peek, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { p.i += 1 }
            return p.i - s
        }
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("invalid number") }
        if intDigits > 1, bytes[i - intDigits] == UInt8(ascii: "0") { throw error("leading zero in number") }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("invalid number: digits expected in exponent") }
        }
        let text = String(decoding: bytes[start ..< i], as: UTF8.self)
        guard let value = Double(text) else { i = start; throw error("invalid number") }
        return .number(value, text: text)
    }
}

// MARK: - Writing

extension JSONValue {
    /// The document as text: two-space indentation, members in order.
    public func serialized(indent: Int = 0, pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: indent, pretty: pretty)
        return out
    }

    func write(into out: inout String, indent: Int, pretty: Bool) {
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closePad = pretty ? String(repeating: "  ", count: indent) : ""
        let nl = pretty ? "\n" : ""
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(_, text): out += text
        case let .string(s): JSONValue.writeString(s, into: &out)
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            let scalarOnly = items.allSatisfy { if case .array = $0 { false } else if case .object = $0 { false } else { true } }
            if scalarOnly {
                out += "["
                for (k, item) in items.enumerated() {
                    if k > 0 { out += pretty ? ", " : "," }
                    item.write(into: &out, indent: indent + 1, pretty: pretty)
                }
                out += "]"
                return
            }
            out += "[" + nl
            for (k, item) in items.enumerated() {
                out += pad
                item.write(into: &out, indent: indent + 1, pretty: pretty)
                out += (k + 1 < items.count ? "," : "") + nl
            }
            out += closePad + "]"
        case let .object(members):
            if members.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (k, (key, value)) in members.enumerated() {
                out += pad
                JSONValue.writeString(key, into: &out)
                out += pretty ? ": " : ":"
                value.write(into: &out, indent: indent + 1, pretty: pretty)
                out += (k + 1 < members.count ? "," : "") + nl
            }
            out += closePad + "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        // Nothing to escape (every key, name and spec the gym writes): the text as it is.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
