/// A JSON value, kept exactly as a manifest wrote it so unknown keys pass through.
///
/// Objects keep their key order (see `JSONObject`), so a manifest read and written
/// again keeps its layout. Numbers are `Double`: integers beyond 2^53 lose precision,
/// and a non-finite number written by code is serialized as `null`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string payload, or `nil` for any other case.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number payload, or `nil` for any other case.
    public var numberValue: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The object payload, or `nil` for any other case.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array payload, or `nil` for any other case.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The value at `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A JSON type name for error messages: `"a string"`, `"an object"`, ...
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

/// A JSON object: string keys in the order they were written, each key once.
///
/// Equality ignores key order (two objects are equal when they hold the same keys with
/// equal values), as JSON defines it. Setting an existing key keeps its position;
/// a new key goes to the end.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// Key/value pairs in order.
    public private(set) var entries: [(key: String, value: JSONValue)] = []
    private var positions: [String: Int] = [:]

    public init() {}

    /// An object from ordered pairs; a repeated key keeps its first position and last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// Keys in order.
    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`; assigning `nil` removes the key.
    ///
    /// - Complexity: O(1) to read or replace; O(n) to remove.
    public subscript(key: String) -> JSONValue? {
        get { positions[key].map { entries[$0].value } }
        set {
            if let value = newValue {
                if let i = positions[key] {
                    entries[i].value = value
                } else {
                    positions[key] = entries.count
                    entries.append((key, value))
                }
            } else if let i = positions.removeValue(forKey: key) {
                entries.remove(at: i)
                for j in i..<entries.count { positions[entries[j].key] = j }
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        entries.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.entries where rhs[key] != value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for key in keys.sorted() { hasher.combine(key) }
    }
}
