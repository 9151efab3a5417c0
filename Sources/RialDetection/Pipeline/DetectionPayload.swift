import Foundation
import RialMedia

/// The detection payload a rial. phone uploads with a capture (story 9-6 "Detection
/// Payload Integration", AC 3: the `detection` multipart part, `detection.json`), read
/// so that scores computed on the phone can be re-aggregated under another configuration
/// and compared with a reference re-computation (`PayloadParity` in RialEval).
///
/// Keys as story 9-6 AC 3 writes them (snake_case; unknown keys are kept and ignored):
/// ```json
/// {"moire":     {"detected": false, "confidence": 0.0, "screen_type": "lcd", "algorithm_version": "moire/1", ...},
///  "texture":   {"classification": "real_scene", "confidence": 0.92, "all_classifications": {"real_scene": 0.92},
///                "is_likely_recaptured": false, ...},
///  "artifacts": {"is_likely_artificial": false, "pwm_detected": false, "specular_pattern_detected": false,
///                "halftone_detected": false, "overall_confidence": 0.0, ...},
///  "aggregated": {"overall_confidence": 0.95, "confidence_level": "high", ...},
///  "cross_validation": {"validation_status": "pass", "anomalies": [], ...}}
/// ```
/// Also read: `aggregated_confidence` (the Swift field `aggregatedConfidence` of AC 1,
/// written by earlier builds) for `aggregated`, and `pwm_flicker_detected` (the
/// ArtifactAnalysisResult field) beside `pwm_detected`. The payload may be wrapped as
/// `{"detection": {...}}`.
///
/// Versions: each entry's `algorithm_version` is kept as the phone wrote it
/// (`phone_algorithm_version` in the outcome's fields, and as the outcome's version when
/// it is a `NAME/VERSION` identifier); it picks the method of `registry` that reads the
/// entry's fields, else the family's newest method does.
///
/// Status: `completed`/`success` -> completed, `unavailable`, `failed`/`error` -> failed;
/// absent or null -> completed when a score can be derived, any other value -> failed.
/// The reason is read from `unavailable_reason` or `unavailability_reason`.
///
/// Refused with a `PayloadError` naming the key (`moire.confidence`), never read as a
/// method that silently drops out of aggregation (issue 14 item 6):
/// - a probability (`score`, `confidence`, `overall_confidence`, `pwm_confidence`,
///   `specular_confidence`, `halftone_confidence`, `material_confidence`,
///   `all_classifications.*`, `aggregated.overall_confidence`) that is not a number in 0...1;
/// - a flag (`detected`, `is_likely_artificial`, `pwm_detected`, `pwm_flicker_detected`,
///   `specular_pattern_detected`, `halftone_detected`, `is_likely_recaptured`) that is not
///   a boolean, `classification`, `screen_type` or `algorithm_version` that is not a string;
/// - contradictions: `pwm_detected` and `pwm_flicker_detected` differ; `texture.classification`
///   `real_scene` with `is_likely_recaptured: true`; `texture.confidence` differs from
///   `all_classifications[classification]`; `aggregated` and `aggregated_confidence`
///   both given and different; `aggregated.confidence_level` not one of the levels
///   (`very_high`, `high`, `medium`, `low`, `suspicious`, story 9-6 AC 5; any case).
///
/// Score (higher = more authentic) when the method gives no `score` of its own: the
/// method's `DetectionMethod.payloadScore(_:)` (e.g. moire/1: `1 - confidence`).
/// A completed result without a derivable score becomes `failed` with a reason.
/// Only completed results replace the local methods of their family; a failed or
/// unavailable one is reported but never displaces local evidence (`PipelineAggregator`).
public struct DetectionPayload: Sendable, Equatable {
    /// Families the phone computes.
    public static let families: [MethodFamily] = [.moire, .texture, .artifacts]

    /// The phone's results, as outcomes with source `payload`.
    public var outcomes: [MethodOutcome]
    /// The phone's own fused confidence (`aggregated`), passed through for comparison.
    public var aggregatedConfidence: JSONValue?
    /// The phone's cross-validation block, passed through.
    public var crossValidation: JSONValue?

    public init(outcomes: [MethodOutcome], aggregatedConfidence: JSONValue? = nil, crossValidation: JSONValue? = nil) {
        self.outcomes = outcomes
        self.aggregatedConfidence = aggregatedConfidence
        self.crossValidation = crossValidation
    }

    /// The phone's level (`aggregated.confidence_level`, any case), when it sent one.
    public var phoneLevel: ConfidenceLevel? {
        aggregatedConfidence?["confidence_level"]?.stringValue.flatMap(Self.level)
    }

    /// The phone's fused score (`aggregated.overall_confidence`), when it sent one.
    public var phoneScore: Double? {
        aggregatedConfidence?["overall_confidence"]?.numberValue
    }

    /// `very_high`, `VERY_HIGH`, `very-high` ... -> the level; nil for anything else.
    static func level(_ text: String) -> ConfidenceLevel? {
        ConfidenceLevel(rawValue: text.uppercased().replacingOccurrences(of: "-", with: "_"))
    }

    /// Keys of a method entry that are probabilities in 0...1.
    static let probabilityKeys = [
        "score", "confidence", "overall_confidence", "pwm_confidence", "specular_confidence", "halftone_confidence",
        "material_confidence",
    ]
    /// Keys of a method entry that are booleans.
    static let flagKeys = [
        "detected", "is_likely_artificial", "pwm_detected", "pwm_flicker_detected", "specular_pattern_detected",
        "halftone_detected", "is_likely_recaptured",
    ]
    /// Keys of a method entry that are strings.
    static let stringKeys = ["classification", "screen_type", "algorithm_version"]

    /// Reads a payload; each family's fields are read by the method of `registry` that
    /// the entry's `algorithm_version` names, else by the family's newest method.
    ///
    /// - Throws: `PayloadError` when the bytes are not JSON, the top level is not an
    ///   object, it holds none of the known keys, a method entry is not an object, or a
    ///   value is out of range, of the wrong type or contradicts another (see the type's
    ///   documentation); the message names the key.
    public static func parse(_ data: Data, registry: MethodRegistry = .standard) throws(PayloadError)
        -> DetectionPayload
    {
        let value: JSONValue
        do { value = try JSONValue.parse(data) } catch { throw PayloadError("not valid JSON: \(error.description)") }
        guard var object = value.objectValue else {
            throw PayloadError("the top level must be an object, got \(value.typeDescription)")
        }
        if let inner = object["detection"]?.objectValue { object = inner }
        let known = families.map(\.rawValue) + ["aggregated", "aggregated_confidence", "cross_validation"]
        guard object.keys.contains(where: known.contains) else {
            throw PayloadError("none of the keys \(known.joined(separator: ", ")) is present")
        }
        var outcomes: [MethodOutcome] = []
        for family in families {
            guard let entry = object[family.rawValue], entry != .null else { continue }
            guard let fields = entry.objectValue else {
                throw PayloadError("'\(family.rawValue)' must be an object, got \(entry.typeDescription)")
            }
            try validate(fields, family: family)
            if let outcome = outcome(family: family, fields: fields, registry: registry) { outcomes.append(outcome) }
        }
        let aggregated = try aggregatedBlock(object)
        return DetectionPayload(
            outcomes: outcomes, aggregatedConfidence: aggregated, crossValidation: object["cross_validation"])
    }

    /// `aggregated` (story 9-6 AC 3), else `aggregated_confidence`; checked.
    static func aggregatedBlock(_ object: JSONObject) throws(PayloadError) -> JSONValue? {
        let story = object["aggregated"].flatMap { $0 == .null ? nil : $0 }
        let legacy = object["aggregated_confidence"].flatMap { $0 == .null ? nil : $0 }
        if let story, let legacy, story != legacy {
            throw PayloadError("'aggregated' and 'aggregated_confidence' are both given and differ")
        }
        guard let block = story ?? legacy else { return nil }
        let name = story != nil ? "aggregated" : "aggregated_confidence"
        guard let fields = block.objectValue else {
            throw PayloadError("'\(name)' must be an object, got \(block.typeDescription)")
        }
        if let score = fields["overall_confidence"], score != .null {
            try probability(score, key: "\(name).overall_confidence")
        }
        if let level = fields["confidence_level"], level != .null {
            guard let text = level.stringValue, Self.level(text) != nil else {
                throw PayloadError(
                    "'\(name).confidence_level' must be one of very_high, high, medium, low, suspicious, got "
                        + (level.stringValue.map { "'\($0)'" } ?? level.typeDescription))
            }
        }
        return block
    }

    /// The range, type and consistency checks of one method entry (see the type's documentation).
    static func validate(_ fields: JSONObject, family: MethodFamily) throws(PayloadError) {
        let prefix = family.rawValue
        for key in probabilityKeys {
            guard let value = fields[key], value != .null else { continue }
            try probability(value, key: "\(prefix).\(key)")
        }
        if let all = fields["all_classifications"], all != .null {
            guard let classes = all.objectValue else {
                throw PayloadError("'\(prefix).all_classifications' must be an object, got \(all.typeDescription)")
            }
            for (name, value) in classes { try probability(value, key: "\(prefix).all_classifications.\(name)") }
        }
        for key in flagKeys {
            guard let value = fields[key], value != .null else { continue }
            guard case .bool = value else {
                throw PayloadError("'\(prefix).\(key)' must be true or false, got \(value.typeDescription)")
            }
        }
        for key in stringKeys {
            guard let value = fields[key], value != .null else { continue }
            guard value.stringValue != nil else {
                throw PayloadError("'\(prefix).\(key)' must be a string, got \(value.typeDescription)")
            }
        }
        if let a = fields["pwm_detected"], let b = fields["pwm_flicker_detected"], a != .null, b != .null, a != b {
            throw PayloadError(
                "'\(prefix).pwm_detected' (\(a == .bool(true))) contradicts '\(prefix).pwm_flicker_detected' (\(b == .bool(true)))"
            )
        }
        if let classification = fields["classification"]?.stringValue {
            if classification == "real_scene", fields.flag("is_likely_recaptured") {
                throw PayloadError(
                    "'\(prefix).classification' is real_scene but '\(prefix).is_likely_recaptured' is true")
            }
            if let confidence = fields["confidence"]?.numberValue,
                let listed = fields["all_classifications"]?[classification]?.numberValue,
                abs(confidence - listed) > 1e-6
            {
                throw PayloadError(
                    "'\(prefix).confidence' (\(confidence)) differs from "
                        + "'\(prefix).all_classifications.\(classification)' (\(listed))")
            }
        }
    }

    /// `value` is a number in 0...1, else a `PayloadError` naming `key`.
    static func probability(_ value: JSONValue, key: String) throws(PayloadError) {
        guard let number = value.numberValue else {
            throw PayloadError("'\(key)' must be a number in 0...1, got \(value.typeDescription)")
        }
        guard number.isFinite, (0...1).contains(number) else {
            throw PayloadError("'\(key)' must be in 0...1, got \(number)")
        }
    }

    /// The outcome of one family's entry; nil when `registry` has no method of `family`.
    static func outcome(family: MethodFamily, fields: JSONObject, registry: MethodRegistry) -> MethodOutcome? {
        let written = fields["algorithm_version"]?.stringValue
        let declared = written.flatMap { try? MethodIdentifier(parsing: $0) }
        guard
            let method = declared.flatMap(registry.method).flatMap({ $0.family == family ? $0 : nil })
                ?? registry.unversionedPayloadMethod(of: family)
        else { return nil }
        let version = declared ?? method.identifier
        var fields = fields
        if let written { fields["phone_algorithm_version"] = .string(written) }
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
