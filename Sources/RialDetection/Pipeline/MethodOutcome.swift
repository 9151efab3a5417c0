import Foundation
import RialMedia

/// One method's result inside a capture analysis, whatever its type: the common fields,
/// the full result as JSON (for evidence packages and per-sample logs), what it says it
/// detected, and where it came from (computed here or read from a phone payload).
public struct MethodOutcome: Sendable, Equatable {
    /// Where a result came from.
    public enum Source: String, Sendable, Codable {
        /// Computed by this process.
        case computed
        /// Read from a detection payload a phone uploaded (`analyze --payload`).
        case payload
    }

    /// Breakdown key: `NAME/VERSION` when computed, `payload.FAMILY` when read from a payload.
    public var key: String
    public var family: MethodFamily
    public var source: Source
    /// Status, reason, version, time and score.
    public var summary: MethodResultSummary
    /// Every field of the result, common ones first, then the method's own (sorted).
    public var fields: JSONObject
    /// The result says it saw a screen (`DetectionMethod.detections(in:)`).
    public var screenDetected: Bool
    /// The result says it saw a print.
    public var printDetected: Bool

    /// Wraps a result `method` computed; its detections are read from its fields.
    public init<M: DetectionMethod>(computed result: M.Result, of method: M.Type) {
        self.init(
            key: result.algorithmVersion.description, family: M.family, source: .computed,
            summary: result.summary, fields: Self.jsonObject(of: result), detectedBy: method)
    }

    /// A result given as JSON fields (payload results), read as `method`'s fields say
    /// (`DetectionMethod.detections(in:)`, completed results only; nil detects nothing).
    /// The common fields of `summary` (normalised status, derived score) are put first and
    /// replace the given ones; a given `status` that differs is kept as `payload_status`.
    public init(
        key: String, family: MethodFamily, source: Source, summary: MethodResultSummary, fields: JSONObject,
        detectedBy method: (any DetectionMethod.Type)?
    ) {
        self.key = key
        self.family = family
        self.source = source
        self.summary = summary
        var merged = Self.jsonObject(of: summary)
        if let given = fields["status"], given != merged["status"] { merged["payload_status"] = given }
        for (name, value) in fields where merged[name] == nil && !Self.commonKeys.contains(name) {
            merged[name] = value
        }
        self.fields = merged
        let detected = summary.status == .completed ? method?.detections(in: fields) ?? .none : .none
        screenDetected = detected.screen
        printDetected = detected.print
    }

    /// The aggregation input of this outcome.
    public var aggregationInput: AggregationInput {
        AggregationInput(
            method: family.role, available: summary.status == .completed, score: summary.score,
            screenDetected: screenDetected, printDetected: printDetected)
    }

    static let commonKeys = ["status", "unavailable_reason", "algorithm_version", "analysis_time_ms", "score"]

    /// `value` encoded as a JSON object, the common keys first and the rest sorted.
    static func jsonObject(of value: some Encodable) -> JSONObject {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf",
            nan: "nan")
        guard let data = try? encoder.encode(value), let parsed = try? JSONValue.parse(data),
            let object = parsed.objectValue
        else {
            return ["encoding_error": .string("result could not be encoded as JSON")]
        }
        var ordered = JSONObject()
        for key in commonKeys { if let v = object[key] { ordered[key] = v } }
        for (key, v) in object where !commonKeys.contains(key) { ordered[key] = v }
        return ordered
    }
}
