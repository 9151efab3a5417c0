import Foundation

/// Where laying one JSON tree over another departs from the plain rule of
/// `JSONValue.overlaid(with:rules:)`, by path.
///
/// A path is the dotted list of keys from the root (`aggregation.profiles.ios_pro`);
/// an array element is one step whose key is `*`. A pattern is a path in which `*`
/// matches any one key (`aggregation.profiles.*.weights`). Keys containing `.` cannot
/// be named.
public struct JSONOverlayRules: Sendable, Equatable {
    /// Paths whose overlay value replaces the default whole: maps written out in full
    /// (`aggregate_with`), where merging would keep entries the user left out.
    public var replacedWhole: Set<String>
    /// Paths where an overlay `null` is a value (it clears an optional, or the decoder
    /// refuses it) instead of "keep the default".
    public var nullable: Set<String>
    /// Templates for entries that have no default: an overlay value at a path matching
    /// the pattern, where the defaults hold nothing (a new name in a map of named
    /// entries, every element of an overlay array), is laid over the template.
    public var entryTemplates: [String: JSONValue]

    /// The plain rule everywhere.
    public static let none = JSONOverlayRules()

    public init(replacedWhole: Set<String> = [], nullable: Set<String> = [], entryTemplates: [String: JSONValue] = [:])
    {
        self.replacedWhole = replacedWhole
        self.nullable = nullable
        self.entryTemplates = entryTemplates
    }

    /// These rules for a tree embedded under `prefix` (a dotted path) of a larger one.
    public func prefixed(by prefix: String) -> JSONOverlayRules {
        func move(_ pattern: String) -> String { "\(prefix).\(pattern)" }
        return JSONOverlayRules(
            replacedWhole: Set(replacedWhole.map(move)), nullable: Set(nullable.map(move)),
            entryTemplates: Dictionary(uniqueKeysWithValues: entryTemplates.map { (move($0.key), $0.value) }))
    }

    /// The union of two rule sets; a template of `other` wins on the same pattern.
    public func merging(_ other: JSONOverlayRules) -> JSONOverlayRules {
        JSONOverlayRules(
            replacedWhole: replacedWhole.union(other.replacedWhole), nullable: nullable.union(other.nullable),
            entryTemplates: entryTemplates.merging(other.entryTemplates) { $1 })
    }

    /// Whether an overlay `null` at `path` (object keys, `*` for an array element) is a
    /// value rather than "keep the default".
    public func takesNull(at path: [String]) -> Bool { matches(nullable, path) }

    func matches(_ patterns: Set<String>, _ path: [String]) -> Bool {
        patterns.contains { Self.pattern($0, matches: path) }
    }

    func template(at path: [String]) -> JSONValue? {
        entryTemplates.first { Self.pattern($0.key, matches: path) }?.value
    }

    private static func pattern(_ pattern: String, matches path: [String]) -> Bool {
        let parts = pattern.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == path.count else { return false }
        return zip(parts, path).allSatisfy { $0 == "*" || $0 == $1 }
    }
}

extension JSONValue {
    /// This tree (the defaults) with `overlay` (what a user wrote) laid over it.
    ///
    /// The plain rule, recursively from the root:
    /// - object over object: merged key by key; a key only in the overlay is added, a
    ///   key only here is kept, a key in both is overlaid in turn;
    /// - `null` over anything: the default is kept (a key written without a value means
    ///   "the default", as a missing key does);
    /// - anything else (a scalar, an array, a value of another type): the overlay value
    ///   replaces the default.
    ///
    /// `rules` departs from it by path: a replaced-whole path takes the overlay value
    /// as it is (`null` still keeps the default), a nullable path takes an overlay
    /// `null`, and an overlay value with no default under it (a new key, an array
    /// element) is laid over its template when one matches. Key order: the defaults'
    /// keys in their order, then keys new in the overlay in theirs.
    ///
    /// - Complexity: O(n) in the size of both trees times the number of rules.
    public func overlaid(with overlay: JSONValue, rules: JSONOverlayRules = .none) -> JSONValue {
        Self.lay(overlay, over: self, path: [], rules: rules)
    }

    private static func lay(
        _ overlay: JSONValue, over base: JSONValue?, path: [String],
        rules: JSONOverlayRules
    ) -> JSONValue {
        if overlay == .null {
            return rules.matches(rules.nullable, path) ? .null : base ?? .null
        }
        if rules.matches(rules.replacedWhole, path) { return overlay }
        switch (base ?? rules.template(at: path), overlay) {
        case (.object(let defaults)?, .object(let written)):
            var merged = defaults
            for (key, value) in written {
                merged[key] = lay(value, over: defaults[key], path: path + [key], rules: rules)
            }
            return .object(merged)
        case (_, .object(let written)):
            var result = JSONObject()
            for (key, value) in written { result[key] = lay(value, over: nil, path: path + [key], rules: rules) }
            return .object(result)
        case (_, .array(let elements)):
            return .array(elements.map { lay($0, over: nil, path: path + ["*"], rules: rules) })
        default:
            return overlay
        }
    }

    /// The tree `JSONEncoder` writes for `value` (keys in the encoder's order).
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded (a non-finite number).
    public static func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
        let data = try JSONEncoder().encode(value)
        do { return try JSONValue.parse(data) } catch {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(error)"))
        }
    }

    /// `defaults` with this tree laid over it (`overlaid(with:rules:)`), decoded with
    /// `T`'s own `Decodable`: the one way a partial configuration becomes a value, so a
    /// configuration type keeps its synthesized `Codable` and every default is written
    /// once, in the type. `try tree.decode(MoireAnalyzer.Configuration.self, overlaying: .standard)`.
    ///
    /// Numbers pass through `JSONValue` (a `Double`), so an integer default beyond 2^53
    /// would not survive; a configuration file's numbers are read that way anyway.
    ///
    /// - Throws: `EncodingError` when the defaults cannot be encoded; `DecodingError`
    ///   (coding path = the key in the tree) when the merged tree does not decode as `T`.
    public func decode<T: Codable>(
        _ type: T.Type, overlaying defaults: T,
        rules: JSONOverlayRules = .none
    ) throws -> T {
        let merged = try JSONValue.encoded(defaults).overlaid(with: self, rules: rules)
        return try JSONDecoder().decode(T.self, from: merged.serializedData(pretty: false))
    }
}
