import Foundation
import RialDetection
import RialMedia

/// Field-by-field comparison of a phone's result with a reference result, both as JSON
/// objects, so that it works for any method whatever its Swift type (the single-frame
/// depth analysis against `depth/1`, a video's temporal depth analysis against whichever
/// temporal method the caller names).
///
/// Nested objects are compared by dotted key (`quadrant_check.passes`) and arrays by
/// index (`suspicious_frames[2]`). For every leaf of the reference that `tolerance` accepts
/// (returns a value for):
/// - both numbers: within when `|phone - reference| <= tolerance` (NaN never within);
/// - both booleans, both strings, both null: within when equal;
/// - anything else (a type change): not within;
/// - absent from the phone: listed in `missing`, not compared.
/// Status: `fail` when any compared field is not within, `pass` when at least one was
/// compared and all are, `unavailable` when nothing could be compared.
public struct FieldParity: Sendable, Equatable, Codable {
    /// One compared leaf.
    public struct Field: Sendable, Equatable, Codable {
        public var key: String
        public var phone: JSONValue
        public var reference: JSONValue
        /// `phone - reference` for two numbers, else nil.
        public var difference: Double?
        public var tolerance: Double
        public var within: Bool

        public init(
            key: String, phone: JSONValue, reference: JSONValue, difference: Double?, tolerance: Double, within: Bool
        ) {
            self.key = key
            self.phone = phone
            self.reference = reference
            self.difference = difference
            self.tolerance = tolerance
            self.within = within
        }
    }

    public var status: EvidenceCheckStatus
    /// Sorted by key.
    public var fields: [Field]
    /// Reference leaves the phone did not send.
    public var missing: [String]
    /// The numeric field with the largest `|difference|` (the first on ties), when any
    /// number was compared.
    public var largestKey: String?
    public var largestDifference: Double?

    enum CodingKeys: String, CodingKey {
        case status, fields, missing
        case largestKey = "largest_key"
        case largestDifference = "largest_difference"
    }

    /// Keys of the fields that are not within tolerance.
    public var mismatches: [String] { fields.filter { !$0.within }.map(\.key) }

    /// Compares `phone` with `reference`.
    ///
    /// - Parameter tolerance: the tolerance of a leaf by its dotted key; nil leaves the
    ///   leaf out of the comparison (neither compared nor missing).
    public static func compare(
        phone: JSONObject, reference: JSONObject, tolerance: (String) -> Double?
    ) -> FieldParity {
        let phoneLeaves = Dictionary(leaves(of: .object(phone), prefix: ""), uniquingKeysWith: { first, _ in first })
        var fields: [Field] = [], missing: [String] = []
        var largestKey: String?, largest: Double?
        // By key, so the order never depends on how the reference was encoded.
        let sorted = leaves(of: .object(reference), prefix: "").sorted { $0.0 < $1.0 }
        for (key, expected) in sorted {
            guard let limit = tolerance(key) else { continue }
            guard let got = phoneLeaves[key] else {
                missing.append(key)
                continue
            }
            var difference: Double?
            let within: Bool
            switch (got, expected) {
            case (.number(let a), .number(let b)):
                let d = a - b
                difference = d
                within = abs(d) <= limit
                if d.isFinite, largest.map({ abs(d) > $0 }) ?? true {
                    largestKey = key
                    largest = abs(d)
                }
            case (.bool, .bool), (.string, .string), (.null, .null): within = got == expected
            default: within = false
            }
            fields.append(
                Field(
                    key: key, phone: got, reference: expected, difference: difference, tolerance: limit, within: within)
            )
        }
        let status: EvidenceCheckStatus =
            fields.isEmpty ? .unavailable : fields.allSatisfy(\.within) ? .pass : .fail
        return FieldParity(
            status: status, fields: fields, missing: missing, largestKey: largestKey, largestDifference: largest)
    }

    /// Every leaf of `value` with its dotted key, in document order.
    static func leaves(of value: JSONValue, prefix: String) -> [(String, JSONValue)] {
        switch value {
        case .object(let object):
            return object.flatMap { key, child in leaves(of: child, prefix: prefix.isEmpty ? key : "\(prefix).\(key)") }
        case .array(let items):
            return items.enumerated().flatMap { index, child in leaves(of: child, prefix: "\(prefix)[\(index)]") }
        default:
            return [(prefix, value)]
        }
    }

    /// One line: `pass (8 fields; largest |difference| 0.0004 at depth_variance)` or the
    /// fields out of tolerance.
    public var summary: String {
        let largest = largestKey.map { key in
            "largest |difference| \(Self.format(largestDifference ?? 0)) at \(key)"
        }
        switch status {
        case .unavailable: return "unavailable (no field to compare)"
        case .pass:
            return "pass (\(fields.count) fields" + (largest.map { "; \($0)" } ?? "") + ")"
        case .fail:
            let bad = fields.filter { !$0.within }.map { f in
                "\(f.key) phone \(Self.format(f.phone)) vs reference \(Self.format(f.reference))"
            }
            return "fail (\(bad.count) of \(fields.count) fields out of tolerance: \(bad.joined(separator: "; "))"
                + (largest.map { "; \($0)" } ?? "") + ")"
        }
    }

    static func format(_ value: Double) -> String { String(format: "%.4g", value) }

    static func format(_ value: JSONValue) -> String {
        switch value {
        case .number(let n): format(n)
        case .bool(let b): String(b)
        case .string(let s): s
        case .null: "null"
        default: value.typeDescription
        }
    }
}
