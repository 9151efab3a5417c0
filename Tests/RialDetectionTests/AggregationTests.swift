import Foundation
import Testing

@testable import RialDetection

/// Behaviour of `ConfidenceAggregator` (specs/methods.md section 7). Expected numbers are
/// computed by hand in the comments, not taken from the code under test.
@Suite struct AggregationTests {
    let aggregator = try! ConfidenceAggregator()
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)

    func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) <= tolerance }

    func ios(_ inputs: [AggregationInput], attestation: AttestationEvidence = secureEnclave) -> AggregationResult {
        aggregator.aggregate(inputs: inputs, attestation: attestation, profile: .iosPro)
    }

    /// All four iOS methods scored with `score`.
    func allIOS(_ score: Double) -> [AggregationInput] {
        [.scored(.lidar, score), .scored(.moire, score), .scored(.texture, score), .scored(.supporting, score)]
    }

    /// ios_pro with texture unavailable: sum of weights 0.55 + 0.15 + 0.15 = 0.85, so
    /// lidar 0.55/0.85 = 0.6470588235, moire = supporting = 0.15/0.85 = 0.1764705882.
    /// Mean = (0.55*0.9 + 0.15*0.8 + 0.15*0.6) / 0.85 = (0.495 + 0.12 + 0.09) / 0.85
    /// = 0.705 / 0.85 = 0.8294117647; three methods all >= 0.5 -> +0.05 = 0.8794117647,
    /// HIGH (0.75 <= s < 0.90); partial_analysis, no penalty.
    @Test func renormalisesOverAvailableMethods() {
        let r = ios([.scored(.lidar, 0.9), .scored(.moire, 0.8), .unavailable(.texture), .scored(.supporting, 0.6)])
        #expect(r.weightsUsed.count == 3)
        #expect(approx(r.weightsUsed[.lidar]!, 0.55 / 0.85))
        #expect(approx(r.weightsUsed[.lidar]!, 0.6470588235294118))
        #expect(approx(r.weightsUsed[.moire]!, 0.1764705882352941))
        #expect(approx(r.weightsUsed[.supporting]!, 0.1764705882352941))
        #expect(r.weightsUsed[.texture] == nil)
        #expect(approx(r.weightedMean, 0.8294117647058824))
        #expect(r.agreementBoost == 0.05)
        #expect(approx(r.confidenceScore, 0.8794117647058824))
        #expect(r.confidenceLevel == .high)
        #expect(r.flags == [.partialAnalysis])
        #expect(r.methodsAgree)
        #expect(approx(r.disagreementScore, 0.3)) // 0.9 - 0.6
        #expect(r.capsApplied.isEmpty)
        #expect(r.primaryMethod == .lidar)
    }

    /// Android with texture unavailable: sum 0.20 + 0.30 + 0.15 + 0.15 = 0.80; weights
    /// attestation 0.25, parallax 0.375, moire 0.1875, supporting 0.1875. All 0.8 ->
    /// mean 0.8, +0.05 = 0.85 HIGH; StrongBox allows HIGH, so nothing is capped.
    @Test func androidProfileWithStrongBoxReachesHigh() {
        let r = aggregator.aggregate(
            inputs: [
                .scored(.attestation, 0.8), .scored(.parallax, 0.8), .scored(.moire, 0.8),
                .unavailable(.texture), .scored(.supporting, 0.8),
            ],
            attestation: AttestationEvidence(status: .pass, method: .strongbox), profile: .android)
        #expect(approx(r.weightsUsed[.attestation]!, 0.25))
        #expect(approx(r.weightsUsed[.parallax]!, 0.375))
        #expect(approx(r.weightsUsed[.moire]!, 0.1875))
        #expect(approx(r.weightsUsed[.supporting]!, 0.1875))
        #expect(approx(r.confidenceScore, 0.85))
        #expect(r.confidenceLevel == .high)
        #expect(r.flags == [.partialAnalysis])
        #expect(r.primaryMethod == .parallax)
    }

    /// All 0.8: mean 0.8 + 0.05 = 0.85 HIGH. All 0.2 (agree on fake): mean 0.2, no boost,
    /// SUSPICIOUS. One method alone (0.8): no cross-validation, no boost, 0.8.
    @Test func boostOnlyWhenAllAgreeReal() {
        let real = ios(allIOS(0.8))
        #expect(real.agreementBoost == 0.05 && approx(real.confidenceScore, 0.85) && real.confidenceLevel == .high)
        #expect(real.methodsAgree && real.flags.isEmpty)

        let fake = ios(allIOS(0.2))
        #expect(fake.agreementBoost == 0)
        #expect(approx(fake.confidenceScore, 0.2) && fake.confidenceLevel == .suspicious)
        #expect(fake.methodsAgree && fake.flags.isEmpty && fake.disagreementScore == 0)

        let alone = ios([.scored(.lidar, 0.8), .unavailable(.moire), .unavailable(.texture), .unavailable(.supporting)])
        #expect(alone.agreementBoost == 0 && approx(alone.confidenceScore, 0.8) && alone.confidenceLevel == .high)
        #expect(alone.weightsUsed == [.lidar: 1])
        #expect(alone.flags == [.partialAnalysis])
    }

    /// Boost is clamped: all 1.0 -> 1.05 -> 1.0, VERY_HIGH with Secure Enclave and LiDAR.
    @Test func allMethodsAgreeingWithSecureEnclaveReachVeryHigh() {
        let r = ios(allIOS(1))
        #expect(r.confidenceScore == 1 && r.uncappedScore == 1 && r.confidenceLevel == .veryHigh)
        #expect(r.flags.isEmpty && r.capsApplied.isEmpty && !r.attestationRejected)
        #expect(r.analysisTimeMs >= 0)
    }

    /// lidar, moire, texture 1.0, supporting 0.4: mean = 0.85 + 0.15*0.4 = 0.91, no boost
    /// (0.4 says fake). Uncapped VERY_HIGH -> MEDIUM, score min(0.91, 0.75 - 0.01) = 0.74.
    /// Others' mean (0.15 + 0.15 + 0.06) / 0.45 = 0.8 says real like lidar: no
    /// primary_supporting_disagree. Disagreement 1.0 - 0.4 = 0.6. Cross-validation
    /// interval: u = 0.55*0.05 + 0.45*0.10 = 0.0725, s^2 = 0.85*0.09^2 + 0.15*0.51^2 = 0.0459,
    /// half sqrt(0.0725^2 + 0.0459) = 0.2262: [0.684, 1], width 0.316 > 0.3 ->
    /// high_uncertainty (a flag; under the default simple mode no cap).
    @Test func disagreementCapsAtMedium() {
        let r = ios([.scored(.lidar, 1), .scored(.moire, 1), .scored(.texture, 1), .scored(.supporting, 0.4)])
        #expect(approx(r.weightedMean, 0.91) && approx(r.uncappedScore, 0.91))
        #expect(r.agreementBoost == 0)
        #expect(!r.methodsAgree && approx(r.disagreementScore, 0.6))
        #expect(r.confidenceLevel == .medium && approx(r.confidenceScore, 0.74))
        #expect(r.flags == [.highUncertainty, .methodsDisagree])
        #expect(
            r.capsApplied == [
                "methods_disagree: level capped at MEDIUM",
                "very_high_requirements: level capped at HIGH",
            ])
    }

    /// lidar 0.2, others 0.9: mean = 0.55*0.2 + 0.45*0.9 = 0.11 + 0.405 = 0.515 MEDIUM
    /// (no cap lowers it); |0.515 - 0.5| = 0.015 < 0.05 -> ambiguous_results. Spread s^2 =
    /// 0.55*0.315^2 + 0.45*0.385^2 = 0.1213, half sqrt(0.0725^2 + 0.1213) = 0.356, width
    /// 0.71 > 0.3 -> high_uncertainty.
    @Test func primaryAgainstSupportingIsFlagged() {
        let r = ios([.scored(.lidar, 0.2), .scored(.moire, 0.9), .scored(.texture, 0.9), .scored(.supporting, 0.9)])
        #expect(approx(r.confidenceScore, 0.515) && r.confidenceLevel == .medium)
        #expect(r.flags == [.ambiguousResults, .highUncertainty, .methodsDisagree, .primarySupportingDisagree])
        #expect(r.capsApplied.isEmpty)
    }

    /// Single-method profile (weight 1, no boost possible) so the score is the input:
    /// boundaries are inclusive lower bounds.
    @Test(arguments: [
        (1.0, ConfidenceLevel.veryHigh), (0.90, .veryHigh), (0.8999, .high), (0.75, .high), (0.7499, .medium),
        (0.50, .medium), (0.4999, .low), (0.25, .low), (0.2499, .suspicious), (0.0, .suspicious),
    ])
    func levelBoundariesAreInclusive(score: Double, level: ConfidenceLevel) {
        let profile = AggregationProfile(primary: .lidar, weights: [.lidar: 1])
        let r = aggregator.aggregate(
            inputs: [.scored(.lidar, score)], attestation: Self.secureEnclave, profile: profile)
        #expect(r.confidenceScore == score)
        #expect(r.confidenceLevel == level)
        #expect(AggregationConfiguration.LevelBoundaries().level(for: score) == level)
    }

    /// All 1.0 (uncapped VERY_HIGH); a screen or print seen by a scored method caps at
    /// MEDIUM with score 0.74. Seen by an unavailable method: ignored.
    @Test func screenAndPrintCapAtMedium() {
        var inputs = allIOS(1)
        inputs[1].screenDetected = true
        let screen = ios(inputs)
        #expect(screen.confidenceLevel == .medium && approx(screen.confidenceScore, 0.74))
        #expect(screen.flags == [.screenDetected])
        #expect(screen.capsApplied == ["screen_detected: level capped at MEDIUM"])

        inputs = allIOS(1)
        inputs[2].printDetected = true
        let print = ios(inputs)
        #expect(print.confidenceLevel == .medium && print.flags == [.printDetected])
        #expect(print.capsApplied == ["print_detected: level capped at MEDIUM"])

        let ignored = ios([
            .scored(.lidar, 1), .scored(.moire, 1), .scored(.texture, 1),
            AggregationInput(method: .supporting, available: false, score: nil, screenDetected: true),
        ])
        #expect(!ignored.flags.contains(.screenDetected))
        #expect(ignored.flags == [.partialAnalysis])
    }

    /// All four iOS methods at 1.0 (uncapped 1.0, VERY_HIGH) under each attestation. A
    /// cap lowers the score to the capped level's upper bound - 0.01. The attestations'
    /// detection requirements are off here (`nothingRequired`: these inputs have no
    /// parallax, which StrongBox and TEE require; `AttestationRuleTests` covers them), and
    /// StrongBox's MEDIUM_HIGH resolves to HIGH (default `medium_high: high`).
    @Test(arguments: [
        (
            AttestationEvidence(status: .pass, method: .secureEnclave), ConfidenceLevel.veryHigh, 1.0, nil as String?,
            false
        ),
        (AttestationEvidence(status: .pass, method: .strongbox), .high, 0.89, "attestation.strongbox", false),
        (AttestationEvidence(status: .pass, method: .tee), .medium, 0.74, "attestation.tee", false),
        (AttestationEvidence(status: .pass, method: .software), .suspicious, 0.24, "attestation.software", true),
        (AttestationEvidence(status: .pass, method: .none), .medium, 0.74, "attestation.none", false),
        (AttestationEvidence(status: .unavailable, method: .secureEnclave), .medium, 0.74, "attestation.none", false),
        (AttestationEvidence(status: .fail, method: .secureEnclave), .suspicious, 0.24, "attestation.failed", true),
    ])
    func attestationCaps(
        attestation: AttestationEvidence, level: ConfidenceLevel, score: Double, cap: String?,
        rejected: Bool
    ) {
        var c = AggregationConfiguration.reference
        c.attestationRequirements = .nothingRequired
        let r = try! ConfidenceAggregator(configuration: c).aggregate(
            inputs: allIOS(1), attestation: attestation, profile: .iosPro)
        #expect(r.confidenceLevel == level)
        #expect(approx(r.confidenceScore, score))
        #expect(r.uncappedScore == 1)
        #expect(r.capsApplied == (cap.map { ["\($0): level capped at \(level.rawValue)"] } ?? []))
        #expect(r.attestationRejected == rejected)
        #expect(r.flags == (rejected ? [.attestationRejected] : []))
    }

    /// A cap above the uncapped level changes nothing: TEE with all 0.4 stays LOW 0.4.
    @Test func capAboveTheLevelIsNotListed() {
        let r = ios(allIOS(0.4), attestation: AttestationEvidence(status: .pass, method: .tee))
        #expect(r.confidenceLevel == .low && approx(r.confidenceScore, 0.4) && r.capsApplied.isEmpty)
    }

    /// lidar, moire, texture 1.0, supporting unavailable: 1.0 + 0.05 -> 1.0 uncapped, but
    /// VERY_HIGH needs all methods: HIGH, score 0.90 - 0.01 = 0.89.
    @Test func veryHighNeedsAllMethods() {
        let r = ios([.scored(.lidar, 1), .scored(.moire, 1), .scored(.texture, 1), .unavailable(.supporting)])
        #expect(r.uncappedScore == 1)
        #expect(r.confidenceLevel == .high && approx(r.confidenceScore, 0.89))
        #expect(r.flags == [.partialAnalysis])
        #expect(r.capsApplied == ["very_high_requirements: level capped at HIGH"])
    }

    /// Primary unavailable, absent, scoreless or NaN; the other three at 1.0: uncapped 1.0,
    /// but HIGH needs the primary: MEDIUM 0.74, flags primary_signal_failed + partial.
    @Test(arguments: [
        [AggregationInput.unavailable(.lidar)],
        [],
        [AggregationInput(method: .lidar, available: true, score: nil)],
        [AggregationInput.scored(.lidar, .nan)],
    ])
    func missingPrimaryIsFlaggedAndBlocksHigh(primary: [AggregationInput]) {
        let r = ios(primary + [.scored(.moire, 1), .scored(.texture, 1), .scored(.supporting, 1)])
        #expect(r.uncappedScore == 1)
        #expect(r.confidenceLevel == .medium && approx(r.confidenceScore, 0.74))
        #expect(r.flags == [.partialAnalysis, .primarySignalFailed])
        #expect(
            r.capsApplied == [
                "primary_signal_failed: level capped at MEDIUM",
                "very_high_requirements: level capped at HIGH",
            ])
        #expect(r.weightsUsed[.lidar] == nil)
        #expect(approx(r.weightsUsed[.moire]!, 1.0 / 3))
    }

    /// Nothing scored: score 0, SUSPICIOUS, no weights.
    @Test func noInputs() {
        let r = ios([])
        #expect(r.confidenceScore == 0 && r.confidenceLevel == .suspicious)
        #expect(r.weightsUsed.isEmpty && r.methodsAgree && r.disagreementScore == 0 && r.agreementBoost == 0)
        #expect(r.flags == [.partialAnalysis, .primarySignalFailed])
    }

    /// First input per method wins; methods outside the profile are ignored; scores are
    /// clamped into 0...1 (1.5 -> 1, so all 1.0 -> VERY_HIGH).
    @Test func duplicatesForeignMethodsAndClamping() {
        let r = ios(allIOS(1) + [.scored(.lidar, 0), .scored(.parallax, 0)])
        #expect(r.confidenceLevel == .veryHigh && r.weightsUsed.count == 4)
        let clamped = ios([.scored(.lidar, 1.5), .scored(.moire, 1), .scored(.texture, 1), .scored(.supporting, 1)])
        #expect(clamped.confidenceScore == 1 && clamped.disagreementScore == 0)
    }

    /// Configured thresholds are used: with real_threshold 0.9, all 0.8 agree on fake ->
    /// no boost, 0.8 HIGH.
    @Test func realThresholdIsConfiguration() throws {
        var configuration = AggregationConfiguration()
        configuration.realThreshold = 0.9
        let r = try ConfidenceAggregator(configuration: configuration)
            .aggregate(inputs: allIOS(0.8), attestation: Self.secureEnclave, profile: .iosPro)
        #expect(r.agreementBoost == 0 && approx(r.confidenceScore, 0.8) && r.confidenceLevel == .high)
    }

    @Test func profileByName() throws {
        let r = try aggregator.aggregate(inputs: allIOS(1), attestation: Self.secureEnclave, profileNamed: "ios_pro")
        #expect(r.confidenceLevel == .veryHigh)
        #expect(throws: ConfigurationError.self) {
            try aggregator.aggregate(inputs: [], attestation: .missing, profileNamed: "ios")
        }
    }

    @Test func resultRoundTripsWithSnakeCaseKeys() throws {
        var inputs = allIOS(1)
        inputs[1].screenDetected = true
        let r = ios(inputs)
        let data = try JSONEncoder().encode(r)
        #expect(try JSONDecoder().decode(AggregationResult.self, from: data) == r)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(
            Set(object.keys) == [
                "confidence_score", "confidence_level", "uncapped_score", "ranking_score", "weighted_mean",
                "agreement_boost", "flags",
                "weights_used", "primary_method", "methods_agree", "disagreement_score", "caps_applied",
                "attestation_rejected", "analysis_time_ms", "cross_validation",
            ])
        #expect(object["confidence_level"] as? String == "MEDIUM")
        #expect(object["flags"] as? [String] == ["screen_detected"])
        #expect(Set((object["weights_used"] as! [String: Double]).keys) == ["lidar", "moire", "texture", "supporting"])
        #expect(try JSONEncoder().encode(ConfidenceLevel.veryHigh) == Data(#""VERY_HIGH""#.utf8))
    }

    @Test func inputDecodesWithDefaults() throws {
        let decode = { (json: String) in try JSONDecoder().decode(AggregationInput.self, from: Data(json.utf8)) }
        #expect(try decode(#"{"method":"lidar","available":true,"score":0.7}"#) == .scored(.lidar, 0.7))
        #expect(try decode(#"{"method":"moire","available":false,"score":null}"#) == .unavailable(.moire))
        #expect(
            try decode(#"{"method":"moire","available":true,"score":0.1,"screen_detected":true}"#)
                == .scored(.moire, 0.1, screen: true))
        #expect(throws: DecodingError.self) { try decode(#"{"method":"sonar","available":true}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"method":"lidar"}"#) }
    }

    /// From a method result: completed -> available with its score.
    @Test func inputFromMethodResult() {
        let completed = MethodResultSummary(
            status: .completed, unavailableReason: nil, algorithmVersion: .depthV1,
            analysisTimeMs: 1, score: 0.6)
        #expect(AggregationInput(method: .lidar, result: completed) == .scored(.lidar, 0.6))
        let failed = MethodResultSummary(
            status: .failed, unavailableReason: "x", algorithmVersion: .depthV1,
            analysisTimeMs: 1, score: nil)
        #expect(AggregationInput(method: .lidar, result: failed) == .unavailable(.lidar))
    }
}
