import Foundation
import RialMedia

/// The detection payload a rial. phone uploads with a capture, read so that scores
/// computed on the phone can be re-aggregated under another configuration.
///
/// Accepted shape (the phone's field names; unknown keys are kept and ignored):
/// ```json
/// {"moire":     {"detected": false, "confidence": 0.0, "screen_type": "lcd", "peaks": [], "status": "completed"},
///  "texture":   {"classification": "real_scene", "confidence": 0.92, "all_classifications": {"real_scene": 0.92},
///                "is_likely_recaptured": false, "status": "success"},
///  "artifacts": {"pwm_flicker_detected": false, "specular_pattern_detected": false, "halftone_detected": false,
///                "overall_confidence": 0.0, "is_likely_artificial": false, "status": "success"},
///  "aggregated_confidence": {"overall_confidence": 0.95, "confidence_level": "high", ...},
///  "cross_validation": {...}}
/// ```
/// The payload may also be wrapped as `{"detection": {...}}`.
///
/// Status: `completed`/`success` -> completed, `unavailable`, `failed`/`error` -> failed;
/// absent or null -> completed when a score can be derived, any other value (a number,
/// an object) -> failed. The reason is read from
/// `unavailable_reason` or `unavailability_reason`.
///
/// Score (higher = more authentic) when the method gives no `score` of its own: the
/// method's `DetectionMethod.payloadScore(_:)` (e.g. moire/1: `1 - confidence`).
/// A completed result without a derivable score in 0...1 becomes `failed` with a reason.
/// Only completed results replace the local methods of their family; a failed or
/// unavailable one is reported but never displaces local evidence (`PipelineAggregator`).
public struct DetectionPayload: Sendable, Equatable {
    /// Families the phone computes.
    public static let families: [MethodFamily] = [.moire, .texture, .artifacts]

    /// The phone's results, as outcomes with source `payload`.
    public var outcomes: [MethodOutcome]
    /// The phone's own fused confidence, passed through for comparison.
    public var aggregatedConfidence: JSONValue?
    /// The phone's cross-validation block, passed through.
    public var crossValidation: JSONValue?

    public init(outcomes: [MethodOutcome], aggregatedConfidence: JSONValue? = nil, crossValidation: JSONValue? = nil) {
        self.outcomes = outcomes
        self.aggregatedConfidence = aggregatedConfidence
        self.crossValidation = crossValidation
    }

    /// Reads a payload; each family's fields are read by the method of `registry` that
    /// the entry's `algorithm_version` names, else by the family's newest method.
    ///
    /// - Throws: `PayloadError` when the bytes are not JSON, the top level is not an
    ///   object, it holds none of the known keys, or a method entry is not an object.
    public static func parse(_ data: Data, registry: MethodRegistry = .standard) throws(PayloadError)
        -> DetectionPayload
    {
        let value: JSONValue
        do { value = try JSONValue.parse(data) } catch { throw PayloadError("not valid JSON: \(error.description)") }
        guard var object = value.objectValue else {
            throw PayloadError("the top level must be an object, got \(value.typeDescription)")
        }
        if let inner = object["detection"]?.objectValue { object = inner }
        let known = families.map(\.rawValue) + ["aggregated_confidence", "cross_validation"]
        guard object.keys.contains(where: known.contains) else {
            throw PayloadError("none of the keys \(known.joined(separator: ", ")) is present")
        }
        var outcomes: [MethodOutcome] = []
        for family in families {
            guard let entry = object[family.rawValue], entry != .null else { continue }
            guard let fields = entry.objectValue else {
                throw PayloadError("'\(family.rawValue)' must be an object, got \(entry.typeDescription)")
            }
            if let outcome = outcome(family: family, fields: fields, registry: registry) { outcomes.append(outcome) }
        }
        return DetectionPayload(
            outcomes: outcomes, aggregatedConfidence: object["aggregated_confidence"],
            crossValidation: object["cross_validation"])
    }

    /// The outcome of one family's entry; nil when `registry` has no method of `family`.
    static func outcome(family: MethodFamily, fields: JSONObject, registry: MethodRegistry) -> MethodOutcome? {
        let declared = fields["algorithm_version"]?.stringValue.flatMap { try? MethodIdentifier(parsing: $0) }
        guard
            let method = declared.flatMap(registry.method).flatMap({ $0.family == family ? $0 : nil })
                ?? registry.newest(of: family)
        else { return nil }
        let version = declared ?? method.identifier
        let time = fields["analysis_time_ms"]?.numberValue ?? 0
        let reason = fields["unavailable_reason"]?.stringValue ?? fields["unavailability_reason"]?.stringValue
        func outcome(_ status: MethodStatus, _ reason: String?, score: Double?) -> MethodOutcome {
            MethodOutcome(
                key: "payload.\(family.rawValue)", family: family, source: .payload,
                summary: MethodResultSummary(
                    status: status, unavailableReason: reason, algorithmVersion: version,
                    analysisTimeMs: time, score: score),
                fields: fields, detectedBy: method)
        }
        if let given = fields["status"], given != .null, given.stringValue == nil {
            return outcome(.failed, "payload status must be a string, got \(given.typeDescription)", score: nil)
        }
        var status: MethodStatus?
        switch fields["status"]?.stringValue {
        case "completed", "success": status = .completed
        case "unavailable": status = .unavailable
        case "failed", "error": status = .failed
        case nil: status = nil
        case let other?:
            return outcome(
                .failed, "payload status '\(other)' is not one of completed, success, unavailable, failed, error",
                score: nil)
        }
        if let status, status != .completed {
            return outcome(status, reason ?? "the phone reported \(status.rawValue)", score: nil)
        }
        guard let score = fields["score"]?.numberValue ?? method.payloadScore(fields), score.isFinite,
            (0...1).contains(score)
        else {
            return outcome(
                .failed, "no score in 0...1 can be derived from the payload's \(family.rawValue) fields",
                score: nil)
        }
        return outcome(.completed, nil, score: score)
    }
}

/// Why a detection payload was refused.
public struct PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
