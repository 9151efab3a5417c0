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
    /// The result says it saw a screen (see `detections(family:fields:)`).
    public var screenDetected: Bool
    /// The result says it saw a print.
    public var printDetected: Bool

    /// Wraps a computed result.
    public init<R: MethodResult>(computed result: R) {
        let family = MethodFamily(result.algorithmVersion) ?? .depth
        let fields = Self.jsonObject(of: result)
        self.init(key: result.algorithmVersion.description, family: family, source: .computed,
                  summary: result.summary, fields: fields)
    }

    /// A result given as JSON fields (payload results). The detections are read from them.
    /// The common fields of `summary` (normalised status, derived score) are put first and
    /// replace the given ones; a given `status` that differs is kept as `payload_status`.
    public init(key: String, family: MethodFamily, source: Source, summary: MethodResultSummary, fields: JSONObject) {
        self.key = key
        self.family = family
        self.source = source
        self.summary = summary
        var merged = Self.jsonObject(of: summary)
        if let given = fields["status"], given != merged["status"] { merged["payload_status"] = given }
        for (name, value) in fields where merged[name] == nil && !Self.commonKeys.contains(name) { merged[name] = value }
        self.fields = merged
        let detected: (screen: Bool, print: Bool) = summary.status == .completed
            ? Self.detections(family: family, fields: fields) : (false, false)
        screenDetected = detected.screen
        printDetected = detected.print
    }

    /// The aggregation input of this outcome.
    public var aggregationInput: AggregationInput {
        AggregationInput(method: family.role, available: summary.status == .completed, score: summary.score,
                         screenDetected: screenDetected, printDetected: printDetected)
    }

    /// What a family's fields say it detected (methods.md field names, so computed and
    /// phone results read alike):
    /// - depth: `is_screen_pattern` (depth/1's flat, near, uniform pattern) -> screen;
    /// - moire: `detected` -> screen;
    /// - texture: `is_likely_recaptured` with `classification` `lcd_screen`/`oled_screen`
    ///   -> screen, `printed_paper` -> print;
    /// - artifacts: `pwm_flicker_detected` or `specular_pattern_detected` -> screen,
    ///   `halftone_detected` -> print;
    /// - parallax: nothing (planarity is scored, not a detection).
    public static func detections(family: MethodFamily, fields: JSONObject) -> (screen: Bool, print: Bool) {
        func flag(_ key: String) -> Bool { if case .bool(true)? = fields[key] { return true } else { return false } }
        switch family {
        case .depth: return (flag("is_screen_pattern"), false)
        case .moire: return (flag("detected"), false)
        case .texture:
            guard flag("is_likely_recaptured"), let classification = fields["classification"]?.stringValue else {
                return (false, false)
            }
            return (classification == "lcd_screen" || classification == "oled_screen", classification == "printed_paper")
        case .artifacts:
            return (flag("pwm_flicker_detected") || flag("specular_pattern_detected"), flag("halftone_detected"))
        case .parallax: return (false, false)
        }
    }

    static let commonKeys = ["status", "unavailable_reason", "algorithm_version", "analysis_time_ms", "score"]

    /// `value` encoded as a JSON object, the common keys first and the rest sorted.
    static func jsonObject(of value: some Encodable) -> JSONObject {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf",
                                                                      nan: "nan")
        guard let data = try? encoder.encode(value), let parsed = try? JSONValue.parse(data),
              let object = parsed.objectValue else {
            return ["encoding_error": .string("result could not be encoded as JSON")]
        }
        var ordered = JSONObject()
        for key in commonKeys { if let v = object[key] { ordered[key] = v } }
        for (key, v) in object where !commonKeys.contains(key) { ordered[key] = v }
        return ordered
    }
}
