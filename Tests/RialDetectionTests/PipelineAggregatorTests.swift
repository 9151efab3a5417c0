import Foundation
import Testing

@testable import RialDetection

/// Selection and calibration before aggregation (`PipelineAggregator`), by hand with
/// the `ios_pro` weights lidar 0.55, moire 0.15 and `agreement_boost` 0.05.
@Suite struct PipelineAggregatorTests {
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)

    static let candidates: [String: AggregationCandidate] = [
        "depth/1": AggregationCandidate(family: .depth, source: .computed, available: true, score: 0.1),
        "depth/2": AggregationCandidate(family: .depth, source: .computed, available: true, score: 0.8),
        "moire/2": AggregationCandidate(family: .moire, source: .computed, available: true, score: 0.2),
    ]

    func aggregate(_ configuration: PipelineConfiguration, _ candidates: [String: AggregationCandidate] = candidates)
        throws -> PipelineAggregator.Outcome
    {
        let aggregator = try PipelineAggregator(configuration: configuration)
        return aggregator.aggregate(candidates, attestation: Self.secureEnclave, profile: .iosPro)
    }

    /// Raw: depth/2 0.8 (real) and moire 0.2 (fake) disagree, no boost:
    /// (0.55 * 0.8 + 0.15 * 0.2) / 0.7 = 0.47 / 0.7 = 0.671428..., MEDIUM.
    @Test func withoutCalibrationTheRawScoresAreAggregated() throws {
        let outcome = try aggregate(.standard)
        #expect(outcome.aggregated == ["depth/2", "moire/2"])
        #expect(outcome.primaryMethod == "depth/2")
        #expect(abs(outcome.result.weightedMean - 0.47 / 0.7) < 1e-12)
        #expect(outcome.result.flags.contains(.methodsDisagree))
    }

    /// moire/2 isotonic through (0, 0.5), (1, 1): 0.2 -> 0.6, which says real, so both
    /// agree: (0.55 * 0.8 + 0.15 * 0.6) / 0.7 = 0.53 / 0.7 = 0.757142..., + 0.05 =
    /// 0.807142..., HIGH.
    @Test func calibrationMapsTheScoreBeforeAggregation() throws {
        var configuration = PipelineConfiguration.standard
        configuration.calibration = ["moire/2": .isotonic(x: [0, 1], y: [0.5, 1])]
        let outcome = try aggregate(configuration)
        #expect(abs(outcome.result.weightedMean - 0.53 / 0.7) < 1e-12)
        #expect(abs(outcome.result.confidenceScore - (0.53 / 0.7 + 0.05)) < 1e-12)
        #expect(outcome.result.confidenceLevel == .high)
        #expect(!outcome.result.flags.contains(.methodsDisagree))
    }

    /// `aggregate_with` picks depth/1 (0.1): (0.55 * 0.1 + 0.15 * 0.2) / 0.7 = 0.085 / 0.7.
    @Test func aggregateWithPicksTheVersion() throws {
        var configuration = PipelineConfiguration.standard
        configuration.aggregateWith[.depth] = MethodIdentifier(literal: "depth", version: 1)
        let outcome = try aggregate(configuration)
        #expect(outcome.aggregated == ["depth/1", "moire/2"])
        #expect(abs(outcome.result.weightedMean - 0.085 / 0.7) < 1e-12)
    }

    /// A payload result replaces the family's local ones and is not calibrated
    /// (calibration is keyed by method identifier): payload.moire 0.2 stays 0.2.
    @Test func payloadResultsReplaceLocalOnesUncalibrated() throws {
        var configuration = PipelineConfiguration.standard
        configuration.calibration = ["moire/2": .isotonic(x: [0, 1], y: [0.5, 1])]
        var candidates = Self.candidates
        candidates["moire/2"]?.score = 0.9
        candidates["payload.moire"] = AggregationCandidate(
            family: .moire, source: .payload, available: true, score: 0.2)
        let outcome = try aggregate(configuration, candidates)
        #expect(outcome.aggregated == ["depth/2", "payload.moire"])
        #expect(abs(outcome.result.weightedMean - 0.47 / 0.7) < 1e-12)
    }

    @Test func candidateEncodesANullScore() throws {
        let candidate = AggregationCandidate(family: .texture, source: .computed, available: false, score: nil)
        let text = String(decoding: try JSONEncoder().encode(candidate), as: UTF8.self)
        #expect(text.contains("\"score\":null"))
        #expect(try JSONDecoder().decode(AggregationCandidate.self, from: Data(text.utf8)) == candidate)
    }
}
