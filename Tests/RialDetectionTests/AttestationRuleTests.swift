import Foundation
import Testing

@testable import RialDetection

/// Per-attestation rules and per-platform ceilings of PRD 2.0 (issue 14 item 3).
///
/// Sources of every expectation (../shared/product/prd-v2.0.md):
/// - "Detection Capabilities Matrix": iOS Pro (LiDAR PRIMARY, parallax BONUS), iOS
///   Standard (no LiDAR, parallax PRIMARY), Android (parallax PRIMARY); row "Max
///   Confidence": VERY HIGH / HIGH / MEDIUM-HIGH.
/// - "Evidence Impact by Attestation Level": StrongBox | Parallax OR Moiré | MEDIUM-HIGH;
///   TEE | Parallax AND Moiré AND Texture | MEDIUM; Software | N/A | REJECTED.
/// - "Android Hardware Attestation" step 5 "Reject software-only attestation"; FR72
///   "Backend rejects software-only attestation".
/// - "Cross-Validation": "Partial: Some methods unavailable -> no penalty, but confidence
///   ceiling reduced" (the lower ceiling of an unmet requirement; its level is our
///   documented default, `AttestationRequirements`).
/// Scores are hand-computed from the level boundaries of methods.md section 7 (HIGH
/// 0.75, VERY_HIGH 0.90) and `capped_score_margin` 0.01.
@Suite struct AttestationRuleTests {
    static let strongbox = AttestationEvidence(status: .pass, method: .strongbox)
    static let tee = AttestationEvidence(status: .pass, method: .tee)
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)

    func approx(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 }

    func aggregate(
        _ inputs: [AggregationInput], _ attestation: AttestationEvidence, profile: AggregationProfile = .android,
        change: (inout AggregationConfiguration) -> Void = { _ in }
    ) throws -> AggregationResult {
        var c = AggregationConfiguration.reference
        change(&c)
        return try ConfidenceAggregator(configuration: c).aggregate(
            inputs: inputs, attestation: attestation, profile: profile)
    }

    /// Every Android method at `score`, with the ones in `unavailable` not scored.
    func android(
        _ score: Double, unavailable: Set<AggregationMethod> = [], overrides: [AggregationMethod: Double] = [:]
    )
        -> [AggregationInput]
    {
        [AggregationMethod.attestation, .parallax, .moire, .texture, .supporting].map { m in
            unavailable.contains(m) ? .unavailable(m) : .scored(m, overrides[m] ?? score)
        }
    }

    /// StrongBox with every detection at 1.0 (uncapped 1.0): "Max Confidence MEDIUM-HIGH".
    /// Default `medium_high: high`: HIGH, score 0.90 - 0.01 = 0.89. `level`: MEDIUM_HIGH,
    /// a level of its own below HIGH, score 0.75 - 0.01 = 0.74. `medium`: MEDIUM, 0.74.
    @Test func strongBoxCeilingIsMediumHigh() throws {
        let byDefault = try aggregate(android(1), Self.strongbox)
        #expect(byDefault.confidenceLevel == .high && approx(byDefault.confidenceScore, 0.89))
        #expect(byDefault.capsApplied.contains("attestation.strongbox: level capped at HIGH"))
        #expect(byDefault.flags.isEmpty && byDefault.missingRequired == nil)

        let level = try aggregate(android(1), Self.strongbox) { $0.mediumHigh = .level }
        #expect(level.confidenceLevel == .mediumHigh && approx(level.confidenceScore, 0.74))
        #expect(level.capsApplied.contains("attestation.strongbox: level capped at MEDIUM_HIGH"))
        #expect(level.capsApplied.contains("profile.max_level: level capped at MEDIUM_HIGH"))

        let medium = try aggregate(android(1), Self.strongbox) { $0.mediumHigh = .medium }
        #expect(medium.confidenceLevel == .medium && approx(medium.confidenceScore, 0.74))
    }

    /// "Parallax OR Moiré": parallax failing (0.2) with moire passing (0.9) meets it;
    /// both failing (0.2, 0.3) or both missing does not: flag, the missing methods, and
    /// the ceiling lowered to `strongbox.unmet_cap` MEDIUM.
    @Test func strongBoxNeedsParallaxOrMoire() throws {
        let either = try aggregate(android(0.9, overrides: [.parallax: 0.2]), Self.strongbox)
        #expect(!either.flags.contains(.requiredDetectionMissing) && either.missingRequired == nil)

        let neither = try aggregate(android(0.9, overrides: [.parallax: 0.2, .moire: 0.3]), Self.strongbox)
        #expect(neither.flags.contains(.requiredDetectionMissing))
        #expect(neither.missingRequired == [.moire, .parallax])
        #expect(neither.confidenceLevel <= .medium)

        // Both unavailable, the rest at 1.0: uncapped 1.0, so the requirement's MEDIUM cap
        // binds (listed), score 0.75 - 0.01 = 0.74.
        let missing = try aggregate(android(1, unavailable: [.parallax, .moire]), Self.strongbox)
        #expect(missing.missingRequired == [.moire, .parallax])
        #expect(missing.confidenceLevel == .medium && approx(missing.confidenceScore, 0.74))
        #expect(missing.capsApplied.contains("attestation.strongbox.requires: level capped at MEDIUM"))
    }

    /// "Parallax AND Moiré AND Texture", max MEDIUM: all three passing -> MEDIUM (0.74,
    /// the TEE cap); texture missing -> `required_detection_missing` naming texture,
    /// ceiling `tee.unmet_cap` LOW: score 0.50 - 0.01 = 0.49.
    @Test func teeNeedsParallaxAndMoireAndTexture() throws {
        let all = try aggregate(android(1), Self.tee)
        #expect(all.confidenceLevel == .medium && approx(all.confidenceScore, 0.74))
        #expect(all.missingRequired == nil && !all.flags.contains(.requiredDetectionMissing))

        let noTexture = try aggregate(android(1, unavailable: [.texture]), Self.tee)
        #expect(noTexture.missingRequired == [.texture])
        #expect(noTexture.flags.contains(.requiredDetectionMissing))
        #expect(noTexture.confidenceLevel == .low && approx(noTexture.confidenceScore, 0.49))
        #expect(noTexture.capsApplied.contains("attestation.tee.requires: level capped at LOW"))
    }

    /// "Required" under `satisfied_by`: texture scored 0.3 (ran, said not real) fails
    /// `passed` (the default) and satisfies `scored`.
    @Test func satisfiedByPassedOrScored() throws {
        let inputs = android(1, overrides: [.texture: 0.3])
        let passed = try aggregate(inputs, Self.tee)
        #expect(passed.missingRequired == [.texture] && passed.confidenceLevel == .low)
        let scored = try aggregate(inputs, Self.tee) { $0.attestationRequirements.satisfiedBy = .scored }
        #expect(scored.missingRequired == nil && scored.confidenceLevel == .medium)
    }

    /// "Software | N/A | REJECTED": SUSPICIOUS, `attestation_rejected` (flag and field),
    /// whatever the detection says; no detection requirement is read.
    @Test func softwareIsRejected() throws {
        let r = try aggregate(android(1), AttestationEvidence(status: .pass, method: .software))
        #expect(r.confidenceLevel == .suspicious && r.attestationRejected)
        #expect(r.flags.contains(.attestationRejected) && r.missingRequired == nil)
    }

    /// iOS Standard (no LiDAR, parallax PRIMARY, Max Confidence HIGH): every method at 1.0
    /// with Secure Enclave reaches HIGH at most (0.89, cause `profile.max_level`), where
    /// iOS Pro with the same scores on LiDAR reaches VERY_HIGH (1.0).
    @Test func iosStandardCeilingIsHigh() throws {
        let standard = try aggregate(
            [.scored(.parallax, 1), .scored(.moire, 1), .scored(.texture, 1), .scored(.supporting, 1)],
            Self.secureEnclave, profile: .iosStandard)
        #expect(standard.primaryMethod == .parallax)
        #expect(standard.confidenceLevel == .high && approx(standard.confidenceScore, 0.89))
        #expect(standard.capsApplied == ["profile.max_level: level capped at HIGH"])

        let pro = try aggregate(
            [.scored(.lidar, 1), .scored(.moire, 1), .scored(.texture, 1), .scored(.supporting, 1)],
            Self.secureEnclave, profile: .iosPro)
        #expect(pro.confidenceLevel == .veryHigh && pro.confidenceScore == 1)
    }

    /// MEDIUM-HIGH sits between MEDIUM and HIGH, encodes as `MEDIUM_HIGH`, and tables show
    /// it only when a result carries it.
    @Test func mediumHighOrderingAndJSON() throws {
        #expect(ConfidenceLevel.medium < .mediumHigh && ConfidenceLevel.mediumHigh < .high)
        #expect(ConfidenceLevel.allCases.sorted() == ConfidenceLevel.allCases)
        let data = try JSONEncoder().encode([ConfidenceLevel.mediumHigh])
        #expect(String(decoding: data, as: UTF8.self) == #"["MEDIUM_HIGH"]"#)
        #expect(try JSONDecoder().decode([ConfidenceLevel].self, from: data) == [.mediumHigh])
        #expect(ConfidenceLevel.shown([.high, .low]) == [.suspicious, .low, .medium, .high, .veryHigh])
        #expect(ConfidenceLevel.shown([.mediumHigh]).count == 6)
    }

    /// Under `level`, a score in [medium_high, high) = [0.625, 0.75) is MEDIUM_HIGH without any
    /// cap: iOS Pro, all four at 0.65, boost 0.05 -> 0.70. Under `high` the same 0.70 is
    /// MEDIUM (methods.md: MEDIUM >= 0.50, HIGH >= 0.75).
    @Test func mediumHighBandUnderLevel() throws {
        let inputs: [AggregationInput] = [
            .scored(.lidar, 0.65), .scored(.moire, 0.65), .scored(.texture, 0.65), .scored(.supporting, 0.65),
        ]
        let level = try aggregate(inputs, Self.secureEnclave, profile: .iosPro) { $0.mediumHigh = .level }
        #expect(level.confidenceLevel == .mediumHigh && approx(level.confidenceScore, 0.70))
        let high = try aggregate(inputs, Self.secureEnclave, profile: .iosPro)
        #expect(high.confidenceLevel == .medium && approx(high.confidenceScore, 0.70))
    }

    /// The whole pipeline: the PipelineAggregator on Android candidates with TEE and no
    /// texture result gives LOW and names texture; the result round-trips through JSON.
    @Test func pipelineCarriesTheRuleAndRoundTrips() throws {
        var configuration = PipelineConfiguration.standard
        configuration.aggregation.mediumHigh = .level
        let aggregator = try PipelineAggregator(configuration: configuration)
        let candidates: [String: AggregationCandidate] = [
            "parallax/2": AggregationCandidate(family: .parallax, source: .computed, available: true, score: 0.95),
            "moire/2": AggregationCandidate(family: .moire, source: .computed, available: true, score: 0.95),
            "artifacts/2": AggregationCandidate(family: .artifacts, source: .computed, available: true, score: 0.95),
        ]
        let result = aggregator.aggregate(candidates, attestation: Self.tee, profile: .android).result
        #expect(result.missingRequired == [.texture] && result.confidenceLevel == .low)
        let strong = aggregator.aggregate(candidates, attestation: Self.strongbox, profile: .android).result
        #expect(strong.confidenceLevel == .mediumHigh)
        for r in [result, strong] {
            let decoded = try JSONDecoder().decode(AggregationResult.self, from: JSONEncoder().encode(r))
            #expect(decoded == r)
        }
    }
}
