import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct ArtifactCodableTests {
    @Test func partialConfigurationKeepsDefaults() throws {
        let json = #"{"pwm_strips": 4, "halftone_tile_size": 128}"#
        let c = try JSONValue.parse(json).decode(ArtifactAnalyzer.Configuration.self, overlaying: .standard)
        #expect(c.pwmStrips == 4 && c.halftoneTileSize == 128)
        // The reference combination of methods.md section 5.
        #expect(c.pwmWeight == 0.35 && c.specularWeight == 0.30 && c.halftoneWeight == 0.35)
        #expect(c.artificialDetectorThreshold == 0.7 && c.artificialOverallThreshold == 0.6)
        try c.validate()
        let empty = try JSONValue.parse("{}").decode(ArtifactAnalyzer.Configuration.self, overlaying: .standard)
        #expect(empty == .standard)
        let roundTrip = try JSONDecoder().decode(
            ArtifactAnalyzer.Configuration.self,
            from: try JSONEncoder().encode(c))
        #expect(roundTrip == c)
    }

    @Test(arguments: [
        (#"{"halftone_tile_size": 200}"#, "halftone_tile_size"),
        (#"{"halftone_tile_size": 32}"#, "halftone_tile_size"),
        (#"{"pwm_strips": 0}"#, "pwm_strips"),
        (#"{"pwm_weight": -0.1}"#, "pwm_weight"),
        (#"{"pwm_weight": 0, "specular_weight": 0, "halftone_weight": 0}"#, "pwm_weight"),
        (#"{"detection_threshold": 1.5}"#, "detection_threshold"),
        (#"{"pwm_max_period_fraction": 0.8}"#, "pwm_max_period_fraction"),
        (#"{"specular_min_value": 240, "specular_max_value": 200}"#, "specular_min_value"),
        (#"{"halftone_min_period_px": 1}"#, "halftone_min_period_px"),
        (#"{"halftone_tiles": 6}"#, "halftone_tiles"),
    ])
    func validationNamesTheKey(json: String, key: String) throws {
        let c = try JSONValue.parse(json).decode(ArtifactAnalyzer.Configuration.self, overlaying: .standard)
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do {
            _ = try ArtifactAnalyzer(configuration: c)
            Issue.record("configuration \(json) was accepted")
        } catch { #expect(error.key == key) }
    }

    @Test func resultRoundTripsWithSnakeCaseKeys() throws {
        let image = ArtifactImages.banded(width: 320, height: 320, period: 25, depth: 0.05)
        let r = ArtifactAnalyzer().analyze(image)
        #expect(r.algorithmVersion.description == "artifacts/1")
        let data = try JSONEncoder().encode(r)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"algorithm_version\":\"artifacts\\/1\"", "\"pwm_flicker_detected\"", "\"pwm_confidence\"",
            "\"specular_pattern_detected\"", "\"specular_confidence\"", "\"halftone_detected\"",
            "\"halftone_confidence\"", "\"overall_confidence\"", "\"is_likely_artificial\"",
            "\"pwm_period_rows\"", "\"specular_regions\"", "\"analysis_time_ms\"",
        ] {
            #expect(text.contains(key), "missing \(key)")
        }
        // Nil fields are left out: every detector ran, so no reason is written.
        #expect(!text.contains("unavailable_reason"))
        #expect(try JSONDecoder().decode(ArtifactAnalyzer.Result.self, from: data) == r)
        #expect(MethodResultSummary(r).score == r.score)
    }

    @Test func unavailableResultHasOnlyCommonFieldsAndReasons() throws {
        let r = ArtifactAnalyzer().analyze(Image8Fixture.tiny)
        let text = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
        #expect(text.contains("\"status\":\"unavailable\""))
        #expect(!text.contains("\"score\""))
        #expect(!text.contains("overall_confidence"))
    }
}

enum Image8Fixture {
    /// 12 x 12 coloured noise: too small for any detector.
    static let tiny = ArtifactImages.image(ArtifactImages.noise(width: 12, height: 12), width: 12, height: 12)
}
