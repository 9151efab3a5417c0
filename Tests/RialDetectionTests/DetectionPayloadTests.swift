import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// Score conversions of the phone payload, computed by hand from the documented rules.
@Suite struct DetectionPayloadTests {
    @Test func phoneFieldNamesConvertToScores() throws {
        let json = #"""
            {"detection": {
              "moire": {"detected": true, "confidence": 0.8, "screen_type": "lcd", "peaks": [], "status": "completed"},
              "texture": {"classification": "lcd_screen", "confidence": 0.9, "is_likely_recaptured": true, "status": "success"},
              "artifacts": {"pwm_flicker_detected": false, "specular_pattern_detected": false, "halftone_detected": true,
                            "overall_confidence": 0.35, "is_likely_artificial": true, "status": "success"},
              "aggregated_confidence": {"overall_confidence": 0.2, "confidence_level": "suspicious"},
              "cross_validation": {"methods_agree": true}}}
            """#
        let payload = try DetectionPayload.parse(Data(json.utf8))
        let byFamily = Dictionary(uniqueKeysWithValues: payload.outcomes.map { ($0.family, $0) })
        #expect(abs((byFamily[.moire]?.summary.score ?? -1) - 0.2) < 1e-12) // 1 - 0.8
        #expect(abs((byFamily[.texture]?.summary.score ?? -1) - 0.1) < 1e-12) // not real_scene: 1 - 0.9
        #expect(abs((byFamily[.artifacts]?.summary.score ?? -1) - 0.65) < 1e-12) // 1 - 0.35
        #expect(byFamily[.moire]?.screenDetected == true)
        #expect(byFamily[.texture]?.screenDetected == true)
        #expect(byFamily[.artifacts]?.printDetected == true)
        // No algorithm_version: read as the phone's deployed artifacts/1, not as the
        // default aggregation input artifacts/2, whose fields a phone does not send.
        #expect(byFamily[.artifacts]?.summary.algorithmVersion == .artifactsV1)
        #expect(byFamily[.moire]?.key == "payload.moire")
        #expect(payload.aggregatedConfidence?["confidence_level"] == "suspicious")
    }

    @Test func probabilitiesWinAndStatusesMap() throws {
        let json = #"""
            {"texture": {"classification": "lcd_screen", "confidence": 0.6, "all_classifications": {"real_scene": 0.3, "lcd_screen": 0.6}},
             "moire": {"status": "unavailable", "unavailability_reason": "image too small"},
             "artifacts": {"status": "error"}}
            """#
        let payload = try DetectionPayload.parse(Data(json.utf8))
        let byFamily = Dictionary(uniqueKeysWithValues: payload.outcomes.map { ($0.family, $0) })
        #expect(byFamily[.texture]?.summary.score == 0.3) // all_classifications.real_scene, not 1 - 0.6
        #expect(byFamily[.moire]?.summary.status == .unavailable)
        #expect(byFamily[.moire]?.summary.unavailableReason == "image too small")
        #expect(byFamily[.artifacts]?.summary.status == .failed)
        #expect(byFamily[.artifacts]?.summary.score == nil)
    }

    @Test func refusesWhatIsNotAPayload() {
        for text in ["", "[1]", "{\"foo\": 1}", "{\"moire\": 3}", "{\"moire\": {\"status\": \"weird\"}"] {
            #expect(throws: PayloadError.self, "\(text)") { try DetectionPayload.parse(Data(text.utf8)) }
        }
        // A completed entry without a derivable score is kept as failed, not trusted.
        let payload = try? DetectionPayload.parse(Data(#"{"moire": {"detected": true}}"#.utf8))
        #expect(payload?.outcomes.first?.summary.status == .failed)
    }

    /// Mutated and cut payloads: each either throws `PayloadError` (typed) or parses into
    /// outcomes that keep the documented promise: completed with a score in 0...1, or no
    /// score at all.
    @Test func garbageNeverCrashes() {
        var generator = SplitMix64(seed: 7)
        let seed =
            #"{"moire": {"detected": true, "confidence": 0.5}, "texture": {"classification": "x", "confidence": 2}}"#
        let bytes = Array(seed.utf8)
        for _ in 0..<300 {
            var mutated = bytes
            for _ in 0..<4 {
                mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            let cut = Int(generator.next() % UInt64(mutated.count + 1))
            guard let payload = try? DetectionPayload.parse(Data(mutated.prefix(cut))) else { continue }
            for outcome in payload.outcomes {
                let summary = outcome.summary
                if let score = summary.score {
                    #expect(summary.status == .completed && (0...1).contains(score), "\(outcome.key): \(score)")
                } else {
                    #expect(summary.status != .completed, "\(outcome.key) completed without a score")
                }
            }
        }
    }
}
