import Foundation

extension JSONValue {
    /// JSON text for this value.
    ///
    /// Pretty output indents by two spaces, puts one key per line, writes arrays of
    /// scalars on one line and ends without a newline. Object keys keep their order.
    /// Strings escape `"`, `\` and control characters only (non-ASCII stays UTF-8,
    /// `/` is not escaped). Integral numbers below 2^53 are written without a fraction
    /// (`256`, not `256.0`); other numbers use the shortest text that reads back to the
    /// same `Double`; non-finite numbers become `null`.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    /// UTF-8 JSON text for this value, with a trailing newline when `pretty`.
    public func serializedData(pretty: Bool = true) -> Data {
        Data((serialized(pretty: pretty) + (pretty ? "\n" : "")).utf8)
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.numberText(n)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
            } else if !pretty || elements.allSatisfy(\.isScalar) {
                out += "["
                for (i, element) in elements.enumerated() {
                    if i > 0 { out += pretty ? ", " : "," }
                    element.write(into: &out, pretty: pretty, indent: indent)
                }
                out += "]"
            } else {
                let inner = String(repeating: " ", count: indent + 2)
                out += "[\n"
                for (i, element) in elements.enumerated() {
                    out += inner
                    element.write(into: &out, pretty: pretty, indent: indent + 2)
                    out += i == elements.count - 1 ? "\n" : ",\n"
                }
                out += String(repeating: " ", count: indent) + "]"
            }
        case .object(let object):
            if object.isEmpty {
                out += "{}"
            } else if !pretty {
                out += "{"
                for (i, entry) in object.entries.enumerated() {
                    if i > 0 { out += "," }
                    JSONValue.writeString(entry.key, into: &out)
                    out += ":"
                    entry.value.write(into: &out, pretty: false, indent: 0)
                }
                out += "}"
            } else {
                let inner = String(repeating: " ", count: indent + 2)
                out += "{\n"
                for (i, entry) in object.entries.enumerated() {
                    out += inner
                    JSONValue.writeString(entry.key, into: &out)
                    out += ": "
                    entry.value.write(into: &out, pretty: true, indent: indent + 2)
                    out += i == object.count - 1 ? "\n" : ",\n"
                }
                out += String(repeating: " ", count: indent) + "}"
            }
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// The JSON text of `n`: shortest round-trip digits, integers without a fraction, `null` when not finite.
    public static func numberText(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 0x1p53 {
            return String(Int64(n))
        }
        return "\(n)"
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
