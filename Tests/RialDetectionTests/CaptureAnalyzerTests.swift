import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct CaptureAnalyzerTests {
    /// A textured gray image and a flat wall of depth `metres` (a screen held at 0.4 m).
    static func flatCapture(metres: Float = 0.4) -> CaptureInput {
        var generator = SplitMix64(seed: 3)
        let width = 1024, height = 768
        let samples = (0..<(width * height)).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 56) }
        let image = Image8(width: width, height: height, channels: 1, samples: samples)!
        let depth = DepthMap(width: 256, height: 192, metres: [Float](repeating: metres, count: 256 * 192))!
        return CaptureInput(
            image: image, imageSHA256: "ab", depth: depth,
            attestation: AttestationEvidence(status: .pass, method: .secureEnclave), platform: "ios")
    }

    @Test func flatDepthIsScoredAndOnlyTheAggregatedVersionIsWeighted() throws {
        let analysis = try CaptureAnalyzer().analyze(Self.flatCapture(), concurrent: true)
        let v1 = try #require(analysis.outcome("depth/1"))
        // methods.md: flat 0.4 m -> std 0, no layers, screen-like, not real, score 0.1.
        #expect(v1.summary.score == 0.1)
        #expect(v1.screenDetected)
        let breakdown = analysis.evidence.sceneAnalysis.breakdown
        #expect(breakdown["depth/1"]?["aggregated"] == .bool(false))
        #expect(breakdown["depth/1"]?["weight"] == .number(0))
        #expect(breakdown["depth/2"]?["aggregated"] == .bool(true))
        #expect(breakdown["depth/2"]?["weight"]?.numberValue == analysis.aggregation.weightsUsed[.lidar])
        #expect(breakdown["depth/1"]?["depth_variance"] == .number(0))
        #expect(analysis.evidence.sceneAnalysis.primaryMethod == "depth/2")
        #expect(analysis.evidence.provenance.sha256 == "ab")
        #expect(analysis.evidence.latencyMs["depth/1"] != nil && analysis.evidence.latencyMs["total"] != nil)
        // A plane fills the frame: depth/2 must not call it real.
        #expect((analysis.outcome("depth/2")?.summary.score ?? 1) < 0.5)
        #expect(analysis.evidence.confidenceLevel <= .medium)
    }

    @Test func selectingDepthV1AggregatesItsScreenDetection() throws {
        let configuration = PipelineConfiguration.standard.selecting([.depthV1])
        let analysis = try CaptureAnalyzer(configuration: configuration).analyze(Self.flatCapture(), concurrent: false)
        #expect(analysis.outcome("depth/2") == nil)
        #expect(analysis.aggregation.flags.contains(.screenDetected))
        #expect(analysis.evidence.sceneAnalysis.isLikelyRealScene == false)
    }

    @Test func missingDepthIsUnavailableNotFatal() throws {
        var input = Self.flatCapture()
        input.depth = nil
        let analysis = try CaptureAnalyzer().analyze(input)
        #expect(analysis.outcome("depth/2")?.summary.status == .unavailable)
        #expect(analysis.outcome("depth/2")?.summary.unavailableReason == "no depth map")
        #expect(analysis.aggregation.flags.contains(.primarySignalFailed))
        #expect(analysis.evidence.confidenceLevel <= .medium)
    }

    @Test func allNaNDepthIsUnavailable() throws {
        var input = Self.flatCapture()
        input.depth = DepthMap(width: 256, height: 192, metres: [Float](repeating: .nan, count: 256 * 192))!
        let analysis = try CaptureAnalyzer().analyze(input)
        #expect(analysis.outcome("depth/1")?.summary.status == .unavailable)
        #expect(analysis.outcome("depth/2")?.summary.status == .unavailable)
        #expect(
            analysis.evidence.sceneAnalysis.completeness == "unavailable"
                || analysis.evidence.sceneAnalysis.completeness == "partial")
    }

    @Test func payloadResultsReplaceLocalFamilies() throws {
        var input = Self.flatCapture()
        input.payload = try DetectionPayload.parse(Data(#"{"moire": {"detected": false, "confidence": 0.1}}"#.utf8))
        let analysis = try CaptureAnalyzer().analyze(input)
        let entry = analysis.evidence.sceneAnalysis.breakdown["payload.moire"]
        #expect(entry?["aggregated"] == .bool(true))
        #expect(entry?["source"] == .string("payload"))
        #expect(abs((entry?["score"]?.numberValue ?? 0) - 0.9) < 1e-12)
        #expect(analysis.aggregation.weightsUsed[.moire] != nil)
    }

    @Test func unknownProfileIsAConfigurationError() {
        #expect(throws: ConfigurationError.self) { try CaptureAnalyzer().analyze(Self.flatCapture(), profile: "nokia") }
    }

    @Test func evidencePackageEncodesWithSpecKeys() throws {
        let analysis = try CaptureAnalyzer().analyze(Self.flatCapture())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let object = try JSONValue.parse(encoder.encode(analysis.evidence))
        for key in [
            "platform", "confidence_level", "confidence_score", "hardware_attestation", "scene_analysis",
            "metadata", "provenance",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["scene_analysis"]?["cross_validation"]?["methods_agree"] != nil)
        #expect(object["hardware_attestation"]?["method"] == "secure_enclave")
        #expect(object["metadata"]?["device_has_lidar"]?["status"] == "unavailable")
    }
}
