import Foundation

/// A JSON syntax error with the position where parsing stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column (in bytes) of the offending byte.
    public var column: Int
    /// What was expected or found.
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects `parse` accepts; deeper input is an
    /// error instead of a stack overflow.
    public static let maximumNestingDepth = 512

    /// Parses one JSON document (RFC 8259).
    ///
    /// Strict: no comments, no trailing commas, no NaN/Infinity, no duplicate keys in
    /// one object, strings must be valid UTF-8 without raw control characters. A UTF-8
    /// byte-order mark at the start is skipped. Numbers that overflow `Double` are errors.
    ///
    /// - Throws: `JSONSyntaxError` with the line and column of the first error; empty
    ///   input is an error at line 1, column 1.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: [UInt8](data))
        return try parser.parseDocument()
    }

    /// Parses a JSON document held in a string (see `parse(_:)` for the grammar).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Parses `bytes` like `parse(_:)`, except that the elements of the array under `key`
    /// in the top-level object are checked but not kept: the result holds their byte
    /// ranges, and that key maps to an empty array. Each element is parsed and dropped in
    /// turn, so a document holding a large array (a dataset manifest) never exists as one
    /// tree in memory; `parse(bytes[range])` gives an element back when it is needed.
    ///
    /// - Throws: `JSONSyntaxError` as `parse(_:)` does; the whole document is checked.
    public static func parse(_ bytes: [UInt8], deferringTopLevelArray key: String)
        throws(JSONSyntaxError) -> JSONDeferredDocument
    {
        var parser = JSONParser(bytes: bytes)
        parser.deferredKey = key
        let root = try parser.parseDocument()
        return JSONDeferredDocument(root: root, elementRanges: parser.deferredRanges)
    }

    /// Parses the JSON value in `bytes` (see `parse(_:)` for the grammar).
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        return try parser.parseDocument()
    }
}

/// A parsed document whose top-level array under one key was left as byte ranges
/// (`JSONValue.parse(_:deferringTopLevelArray:)`).
public struct JSONDeferredDocument: Sendable {
    /// The document; the deferred key, when it held an array, maps to `[]`.
    public var root: JSONValue
    /// Where each element of the deferred array lies in the parsed bytes, in order; nil
    /// when the root is not an object or the key is missing or not an array.
    public var elementRanges: [Range<Int>]?
}

/// A recursive-descent parser over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    /// When set, the top-level object's array under this key is scanned, not kept.
    var deferredKey: String?
    var deferredRanges: [Range<Int>]?

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        if index == bytes.count {
            throw error(bytes.isEmpty ? "empty input, expected a JSON value" : "no JSON value, only whitespace")
        }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describe(bytes[index])) after the end of the JSON value")
        }
        return value
    }

    // MARK: Values

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case let byte: throw error("unexpected \(describe(byte)), expected a value")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1 // {
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected a key or '}'") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describe(bytes[index])), expected a key in double quotes")
            }
            let keyStart = index
            let key = try parseString()
            if object[key] != nil {
                throw error("duplicate key \"\(key)\" in one object", at: keyStart)
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
            skipWhitespace()
            if depth == 1, key == deferredKey, peek(UInt8(ascii: "[")) {
                object[key] = try scanDeferredArray()
            } else {
                object[key] = try parseValue()
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(object)
            }
            throw error("unexpected \(describe(bytes[index])), expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        var elements: [JSONValue] = []
        try forEachArrayElement { (parser: inout JSONParser) throws(JSONSyntaxError) in
            elements.append(try parser.parseValue())
        }
        return .array(elements)
    }

    /// Like `parseArray`, but records each element's byte range and drops its value.
    mutating func scanDeferredArray() throws(JSONSyntaxError) -> JSONValue {
        var ranges: [Range<Int>] = []
        try forEachArrayElement { (parser: inout JSONParser) throws(JSONSyntaxError) in
            let start = parser.index
            _ = try parser.parseValue()
            ranges.append(start..<parser.index)
        }
        deferredRanges = ranges
        return .array([])
    }

    /// Walks `[ value, value, ... ]` from the opening bracket, calling `element` with the
    /// parser at the start of each value; `element` must consume exactly that value.
    mutating func forEachArrayElement(
        _ element: (inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        try enterContainer()
        index += 1 // [
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return
            }
            throw error("unexpected \(describe(bytes[index])), expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1 // opening quote
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(bytes: utf8, encoding: .utf8) else {
                    throw error("string is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape '\\\(describe(escape, quoted: false))' in a string", at: index - 2)
                }
            case 0x00..<0x20:
                throw error("raw control character \(describe(byte)) in a string (escape it)")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    /// Reads `XXXX` after `\u` (and a following `\uXXXX` low surrogate when needed);
    /// returns the scalar's UTF-8 bytes.
    mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        let escapeStart = index - 2
        let high = try parseHex4()
        var scalarValue = UInt32(high)
        if (0xD800..<0xDC00).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error("unpaired surrogate in \\u escape", at: escapeStart)
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("unpaired surrogate in \\u escape", at: escapeStart)
            }
            scalarValue = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00..<0xE000).contains(high) {
            throw error("unpaired surrogate in \\u escape", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw error("invalid \\u escape", at: escapeStart)
        }
        return Array(String(Character(scalar)).utf8)
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unexpected end of input in a \\u escape") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u escape needs 4 hex digits, found \(describe(byte))")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("numbers cannot have leading zeros", at: start)
            }
        } else {
            skipDigits()
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("a digit must follow the decimal point")
            }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("an exponent needs digits") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    // MARK: Helpers

    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONValue.maximumNestingDepth {
            throw error("nesting deeper than \(JSONValue.maximumNestingDepth) levels")
        }
    }

    mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let expected = Array(literal.utf8)
        let start = index
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("invalid literal, expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw error("unexpected end of input, expected \(what)") }
        guard bytes[index] == byte else { throw error("unexpected \(describe(bytes[index])), expected \(what)") }
        index += 1
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// A byte for a message: `'x'` when printable ASCII, else `byte 0xNN`.
    func describe(_ byte: UInt8, quoted: Bool = true) -> String {
        if (0x21..<0x7F).contains(byte) {
            let c = String(UnicodeScalar(byte))
            return quoted ? "'\(c)'" : c
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
    }

    /// An error at `offset` (default: the current position) with its line and column.
    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let position = min(offset ?? index, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<position where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return JSONSyntaxError(line: line, column: position - lineStart + 1, message: message)
    }
}

extension String {
    /// The string with `"0"` prepended until it is `width` characters long.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
