import Foundation
import Testing

@testable import RialDetection

/// `AggregationResult.rankingScore` under `aggregation.ranking: capped` (the band score;
/// `RankingModeTests` covers the other choices), by hand with the spec defaults:
/// boundaries 0.90 / 0.75 / 0.50 / 0.25, `capped_score_margin` m = 0.01,
/// `agreement_boost` 0.05, `ios_pro` weights lidar 0.55, moire 0.15, texture 0.15,
/// supporting 0.15.
@Suite struct RankingScoreTests {
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)

    func aggregate(_ score: Double, attestation: AttestationEvidence) throws -> AggregationResult {
        let inputs: [AggregationInput] = [.lidar, .moire, .texture, .supporting].map { .scored($0, score) }
        var configuration = AggregationConfiguration()
        configuration.ranking = .capped
        return try ConfidenceAggregator(configuration: configuration).aggregate(
            inputs: inputs, attestation: attestation, profile: .iosPro)
    }

    /// All four score 0.8 with Secure Enclave: mean 0.8 + boost 0.05 = 0.85, HIGH, and
    /// no cap is below HIGH (the VERY_HIGH rule caps at HIGH): ranking = score = 0.85.
    @Test func uncappedRankingEqualsTheConfidenceScore() throws {
        let r = try aggregate(0.8, attestation: Self.secureEnclave)
        #expect(r.confidenceLevel == .high)
        #expect(abs(r.confidenceScore - 0.85) < 1e-12)
        #expect(r.rankingScore == r.confidenceScore)
        #expect(r.capsApplied.isEmpty)
    }

    /// No attestation caps at MEDIUM (hi = 0.75; span 1 + 0.05 - 0.75 = 0.30). Evidence
    /// 0.85 (all 0.8 + boost): 0.74 + 0.005 * 0.10 / 0.30 = 0.7416666...; evidence 1.05
    /// (all 1.0 + boost): 0.74 + 0.005 * 1 = 0.745. The confidence score of both is 0.74.
    /// Evidence 1.01 (all 0.96 + boost) also has uncapped 1 (clamped) but ranks below
    /// 1.05: 0.74 + 0.005 * 0.26 / 0.30 = 0.7443333...
    @Test func cappedRankingKeepsTheOrderInsideTheCappedLevel() throws {
        let lower = try aggregate(0.8, attestation: .missing)
        let upper = try aggregate(1.0, attestation: .missing)
        for r in [lower, upper] {
            #expect(r.confidenceLevel == .medium)
            #expect(abs(r.confidenceScore - 0.74) < 1e-12)
        }
        #expect(abs(lower.rankingScore - (0.74 + 0.005 / 3)) < 1e-12)
        #expect(abs(upper.rankingScore - 0.745) < 1e-12)
        #expect(lower.rankingScore < upper.rankingScore)
        let clamped = try aggregate(0.96, attestation: .missing)
        #expect(clamped.uncappedScore == 1 && upper.uncappedScore == 1)
        #expect(abs(clamped.rankingScore - (0.74 + 0.005 * 0.26 / 0.30)) < 1e-12)
        #expect(clamped.rankingScore < upper.rankingScore)
    }

    /// Software attestation caps at SUSPICIOUS (hi = 0.25; span 1.05 - 0.25 = 0.80):
    /// evidence 0.85 -> 0.24 + 0.005 * 0.60 / 0.80 = 0.24 + 0.00375 = 0.24375, still SUSPICIOUS.
    @Test func rankingUnderTheSuspiciousCap() throws {
        let r = try aggregate(0.8, attestation: AttestationEvidence(status: .pass, method: .software))
        #expect(r.confidenceLevel == .suspicious)
        #expect(abs(r.confidenceScore - 0.24) < 1e-12)
        #expect(abs(r.rankingScore - 0.24375) < 1e-12)
    }

    /// The formula alone: hi = 0.5, m = 0.02, boost b = 0.05 (span 0.55): evidence 0.9 ->
    /// 0.48 + 0.01 * 0.4 / 0.55 = 0.48727272...; at hi itself -> 0.48; at 1.05 -> 0.49;
    /// with hi = 1 and b = 0 (a very_high boundary of 1, no boost) only evidence 1 can be
    /// capped, and it gets hi - m = 0.98.
    @Test func formulaByHand() {
        func r(_ e: Double, _ hi: Double, _ b: Double) -> Double {
            ConfidenceAggregator.bandScore(evidence: e, cappedBelow: hi, margin: 0.02, agreementBoost: b)
        }
        #expect(abs(r(0.9, 0.5, 0.05) - (0.48 + 0.004 / 0.55)) < 1e-12)
        #expect(abs(r(0.5, 0.5, 0.05) - 0.48) < 1e-12)
        #expect(abs(r(1.05, 0.5, 0.05) - 0.49) < 1e-12)
        #expect(abs(r(1, 1, 0) - 0.98) < 1e-12)
    }

    /// Over a sweep of uncapped scores under each cap: the ranking score is strictly
    /// increasing, at or above the flattened confidence score, and in the capped level.
    @Test(arguments: [ConfidenceLevel.suspicious, .low, .medium, .high])
    func rankingStaysInsideTheCappedLevel(level: ConfidenceLevel) throws {
        let boundaries = AggregationConfiguration.LevelBoundaries()
        let hi = try #require(boundaries.upperBound(of: level))
        let m = AggregationConfiguration.reference.cappedScoreMargin
        var previous = -Double.infinity
        let b = AggregationConfiguration.reference.agreementBoost
        for step in 0...100 {
            let evidence = hi + (1 + b - hi) * Double(step) / 100
            let ranking = ConfidenceAggregator.bandScore(
                evidence: evidence, cappedBelow: hi, margin: m, agreementBoost: b)
            #expect(ranking > previous)
            #expect(ranking >= hi - m - 1e-15 && ranking <= hi - m / 2 + 1e-15)
            #expect(boundaries.level(for: ranking) == level)
            previous = ranking
        }
    }

    @Test func rankingScoreIsEncodedAsRankingScore() throws {
        let r = try aggregate(1.0, attestation: .missing)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as? [String: Any]
        #expect((object?["ranking_score"] as? Double).map { abs($0 - 0.745) < 1e-12 } == true)
    }
}
