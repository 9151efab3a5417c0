import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// Issue 14 item 6: story 9-6's keys are read as written there, the phone's algorithm
/// versions are kept, and out-of-range or contradictory values are errors naming the key.
@Suite struct PayloadStoryKeysTests {
    /// Story 9-6 AC 3's example payload, keys as written there: `aggregated` (not
    /// `aggregated_confidence`), `pwm_detected`, `is_likely_artificial`, `screen_type`,
    /// `validation_status`, `anomalies`.
    static let story = #"""
        {"moire": {"detected": false, "confidence": 0.1, "screen_type": null, "algorithm_version": "moire/1"},
         "texture": {"classification": "real_scene", "confidence": 0.8, "algorithm_version": "1.4.0"},
         "artifacts": {"is_likely_artificial": true, "pwm_detected": true, "overall_confidence": 0.7},
         "aggregated": {"overall_confidence": 0.62, "confidence_level": "medium"},
         "cross_validation": {"validation_status": "warn", "anomalies": [{"type": "x"}]}}
        """#

    @Test func storyKeysAreRead() throws {
        let payload = try DetectionPayload.parse(Data(Self.story.utf8))
        let byFamily = Dictionary(uniqueKeysWithValues: payload.outcomes.map { ($0.family, $0) })
        // AC 3 `aggregated`: the phone's level ("medium", AC 5 vocabulary) and score.
        #expect(payload.phoneLevel == .medium)
        #expect(payload.phoneScore == 0.62)
        // AC 3 `artifacts.pwm_detected: true` is a screen detection (PWM flicker).
        #expect(byFamily[.artifacts]?.screenDetected == true)
        #expect(payload.crossValidation?["validation_status"] == "warn")
        // AC 3 "Includes algorithm versions for each detection method": kept as written.
        #expect(byFamily[.moire]?.summary.algorithmVersion.description == "moire/1")
        #expect(byFamily[.moire]?.fields["phone_algorithm_version"] == "moire/1")
        #expect(byFamily[.texture]?.fields["phone_algorithm_version"] == "1.4.0")
    }

    /// The earlier key `aggregated_confidence` (AC 1's Swift field) still reads; given
    /// with a different `aggregated`, the payload contradicts itself.
    @Test func legacyAggregatedKeyReadsAndContradictionIsRefused() throws {
        let legacy = try DetectionPayload.parse(
            Data(#"{"aggregated_confidence": {"overall_confidence": 0.9, "confidence_level": "HIGH"}}"#.utf8))
        #expect(legacy.phoneLevel == .high)
        #expect(throws: PayloadError.self) {
            try DetectionPayload.parse(
                Data(
                    #"{"aggregated": {"confidence_level": "low"}, "aggregated_confidence": {"confidence_level": "high"}}"#
                        .utf8))
        }
    }

    /// Each refused payload and the key its message names.
    static let refused: [(json: String, key: String)] = [
        // Probabilities are in 0...1 (story 9-2 AC: "confidence: Float (0.0-1.0)").
        (#"{"moire": {"detected": true, "confidence": 1.2}}"#, "moire.confidence"),
        (#"{"artifacts": {"overall_confidence": -0.1}}"#, "artifacts.overall_confidence"),
        (#"{"aggregated": {"overall_confidence": 3}}"#, "aggregated.overall_confidence"),
        (
            #"{"texture": {"classification": "lcd_screen", "all_classifications": {"lcd_screen": 9}}}"#,
            "texture.all_classifications.lcd_screen"
        ),
        // Flags are booleans (story 9-6 AC 3 `"detected": bool`, `"pwm_detected": bool`).
        (#"{"moire": {"detected": "yes", "confidence": 0.2}}"#, "moire.detected"),
        (#"{"artifacts": {"pwm_detected": 1}}"#, "artifacts.pwm_detected"),
        // Contradictions: the two PWM keys differ; story 9-2 AC: is_likely_recaptured only
        // for lcd_screen, oled_screen or printed_paper; confidence is the primary class's
        // probability (AC "confidence in primary classification", "probabilities for all classes").
        (#"{"artifacts": {"pwm_detected": true, "pwm_flicker_detected": false}}"#, "artifacts.pwm_detected"),
        (
            #"{"texture": {"classification": "real_scene", "confidence": 0.9, "is_likely_recaptured": true}}"#,
            "texture.classification"
        ),
        (
            #"{"texture": {"classification": "real_scene", "confidence": 0.9, "all_classifications": {"real_scene": 0.4}}}"#,
            "texture.confidence"
        ),
        // Story 9-6 AC 5: "very_high"/"high"/"medium"/"low"/"suspicious".
        (#"{"aggregated": {"confidence_level": "excellent"}}"#, "aggregated.confidence_level"),
    ]

    @Test(arguments: refused.indices)
    func refusedNamingTheKey(index: Int) {
        let (json, key) = Self.refused[index]
        #expect {
            try DetectionPayload.parse(Data(json.utf8))
        } throws: { error in
            (error as? PayloadError)?.message.hasPrefix("'\(key)'") == true
        }
    }
}
