import Foundation
import RialCodecs
import RialMedia
import RialSynth
import RialTestSupport
import Testing

@testable import RialDetection

@Suite struct TextureAnalyzerTests {
    @Test(arguments: [
        (TextureImages.constant(width: 300, height: 200, channels: 1), "RGB"),
        (TextureImages.constant(width: 300, height: 200, channels: 2), "RGB"),
        (TextureImages.noise(width: 100, height: 300, seed: 1), "at least 128x128"),
        (TextureImages.constant(width: 1, height: 1), "at least 128x128"),
        (TextureImages.constant(width: 300, height: 200, rgb: (40, 200, 90)), "constant"),
    ])
    func unusableImagesAreUnavailable(image: Image8, reason: String) throws {
        let result = TextureAnalyzer().analyze(image)
        #expect(result.status == .unavailable)
        #expect(result.score == nil && result.classification == nil && result.allClassifications == nil)
        #expect(try #require(result.unavailableReason).contains(reason))
        #expect(result.algorithmVersion.description == "texture/1")
        #expect(result.modelID == "texture-2")
        #expect(result.analysisTimeMs >= 0)
    }

    /// A synthetic LCD recapture: a completed result whose probabilities sum to 1.
    @Test func syntheticCaptureGivesProbabilities() throws {
        let capture = SynthGenerator.generate(index: 1, seed: 11, class: .lcdScreen, width: 320, height: 240)
        let result = TextureAnalyzer().analyze(capture.image)
        #expect(result.status == .completed)
        let all = try #require(result.allClassifications)
        #expect(Set(all.keys) == ["real_scene", "lcd_screen", "oled_screen", "printed_paper"])
        #expect(abs(all.values.reduce(0, +) - 1) < 1e-9)
        let score = try #require(result.score)
        #expect(score >= 0 && score <= 1 && score == all["real_scene"])
        #expect(result.confidence == all.values.max())
        #expect(result.featureCount == TextureFeatures.count)
        #expect(abs(try #require(result.screenProbability) - all["lcd_screen"]! - all["oled_screen"]!) < 1e-12)
    }

    /// Zero weights, biases [0, ln 4]: p = [0.2, 0.8] whatever the image. Screen
    /// probability 0.8 > 0.7 -> recaptured; confidence 0.8 < 0.9 -> unknown.
    @Test func decisionRulesByHand() throws {
        let model = TextureModels.model(classes: [.realScene, .lcdScreen], biases: [0, log(4)])
        let image = TextureImages.noise(width: 256, height: 192, seed: 9)
        let result = try TextureAnalyzer(model: model, sha256: SHA256Digest.hash).analyze(image)
        #expect(abs(try #require(result.score) - 0.2) < 1e-12)
        #expect(result.classification == .lcdScreen)
        #expect(abs(try #require(result.confidence) - 0.8) < 1e-12)
        #expect(result.isLikelyRecaptured == true)
        #expect(result.printProbability == 0)

        var strict = TextureAnalyzer.Configuration()
        strict.minimumConfidence = 0.9
        strict.recaptureThreshold = 0.85
        let unsure = try TextureAnalyzer(model: model, configuration: strict, sha256: SHA256Digest.hash).analyze(image)
        #expect(unsure.classification == .unknown)
        #expect(unsure.isLikelyRecaptured == false)
        #expect(unsure.score == result.score)
    }

    @Test func otherModelHasItsOwnDigest() throws {
        let model = TextureModels.model(classes: [.realScene, .printedPaper], biases: [0, 0])
        let analyzer = try TextureAnalyzer(model: model, sha256: SHA256Digest.hash)
        #expect(analyzer.modelSHA256 == SHA256Digest.hash(try model.canonicalJSON()))
        #expect(analyzer.modelSHA256 != TextureAnalyzer().modelSHA256)
        var broken = model
        broken.featureStds[0] = -1
        #expect(throws: TextureModelError.self) { try TextureAnalyzer(model: broken, sha256: SHA256Digest.hash) }
    }

    @Test func configurationDecodesPartiallyAndValidates() throws {
        let decoded = try JSONValue.parse(#"{"minimum_confidence": 0.6}"#)
            .decode(TextureAnalyzer.Configuration.self, overlaying: .standard)
        #expect(decoded.minimumConfidence == 0.6)
        #expect(decoded.recaptureThreshold == 0.7)
        #expect(decoded.minimumLumaStd == 1)
        for (key, json) in [
            ("recapture_threshold", #"{"recapture_threshold": 1}"#),
            ("minimum_confidence", #"{"minimum_confidence": 1.5}"#),
            ("minimum_luma_std", #"{"minimum_luma_std": -1}"#),
        ] {
            let configuration = try JSONValue.parse(json).decode(
                TextureAnalyzer.Configuration.self, overlaying: .standard)
            #expect(throws: ConfigurationError.self) { try TextureAnalyzer(configuration: configuration) }
            #expect { try configuration.validate() } throws: { ($0 as? ConfigurationError)?.key == key }
        }
    }

    @Test func resultJSONUsesSnakeCaseAndOmitsAbsentFields() throws {
        let model = TextureModels.model(classes: [.realScene, .lcdScreen], biases: [0, 0])
        let analyzer = try TextureAnalyzer(model: model, sha256: SHA256Digest.hash)
        let completed = analyzer.analyze(TextureImages.noise(width: 200, height: 200, seed: 4))
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(completed)) as? [String: Any])
        for key in [
            "status", "algorithm_version", "analysis_time_ms", "score", "classification", "confidence",
            "all_classifications", "is_likely_recaptured", "screen_probability", "print_probability",
            "model_id", "model_sha256", "feature_count",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["unavailable_reason"] == nil)
        #expect(
            try JSONDecoder().decode(TextureAnalyzer.Result.self, from: JSONEncoder().encode(completed)) == completed)

        let unavailable = analyzer.analyze(TextureImages.constant(width: 50, height: 50))
        let o2 = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(unavailable)) as? [String: Any])
        #expect(o2["unavailable_reason"] != nil && o2["model_sha256"] != nil)
        #expect(o2["score"] == nil && o2["classification"] == nil && o2["all_classifications"] == nil)
    }
}
