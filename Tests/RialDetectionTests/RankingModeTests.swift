import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// `aggregation.ranking` (`AggregationConfiguration.Ranking`): which score ranks when a cap
/// lowered the level. Every expected number is worked out by hand below from the product
/// documents' defaults, not read from the code:
/// - specs/methods.md section 7: `ios_pro` weights lidar 0.55, moire 0.15, texture 0.15,
///   supporting 0.15; all agree real -> +0.05; levels VERY_HIGH >= 0.90, HIGH >= 0.75,
///   MEDIUM >= 0.50, LOW >= 0.25; "a screen or print detection caps at MEDIUM"; Secure
///   Enclave + LiDAR can reach VERY_HIGH; no attestation is capped at MEDIUM
///   (`attestation_caps.none`);
/// - PRD 1.1 / 2.0 "Evidence Status Values" (FAIL = "Red flag—possible manipulation"): a
///   failed metadata check caps at SUSPICIOUS (`level_caps.metadata_fail`);
/// - issue 12 item 3: the score ROC, AUC, DET and tuning use "must keep the order of the
///   evidence (a cap may lower it, not flatten it)".
/// With four equal scores s the weighted mean is s, so the evidence is s + 0.05 when
/// s >= 0.5 (all say real) and s otherwise. `capped_score_margin` m = 0.01.
@Suite struct RankingModeTests {
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)
    static let tolerance = 1e-12

    func aggregate(
        _ s: Double, screen: Bool = false, attestation: AttestationEvidence = secureEnclave,
        failedChecks: [String] = [], ranking: AggregationConfiguration.Ranking, penalty: Double = 0.1
    ) throws -> AggregationResult {
        var configuration = AggregationConfiguration()
        configuration.ranking = ranking
        configuration.rankingPenalty = penalty
        let inputs: [AggregationInput] = [
            .scored(.lidar, s), .scored(.moire, s, screen: screen), .scored(.texture, s), .scored(.supporting, s),
        ]
        return try ConfidenceAggregator(configuration: configuration).aggregate(
            inputs: inputs, attestation: attestation, profile: .iosPro, failedChecks: failedChecks)
    }

    /// The compiled-in choice is `evidence`, its penalty (read under `bounded`) 0.1.
    @Test func defaults() {
        #expect(AggregationConfiguration.reference.ranking == .evidence)
        #expect(AggregationConfiguration.reference.rankingPenalty == 0.1)
    }

    /// The inversion the real development set showed (docs/ranking.md). Capture A: all four
    /// 0.8 -> evidence 0.85 (HIGH), but a metadata check failed -> SUSPICIOUS, score
    /// 0.25 - 0.01 = 0.24. Capture B: all four 0.4 -> evidence 0.40 (LOW, no boost), no cap.
    /// - `evidence`: A 0.85, B 0.40: A above B, as its evidence;
    /// - `capped`: A's band at hi = 0.25: 0.24 + 0.005 * (0.85 - 0.25) / (1.05 - 0.25)
    ///   = 0.24 + 0.00375 = 0.24375, below B's 0.40 (the inversion);
    /// - `bounded` 0.1: max(0.24375, 0.85 - 0.1) = 0.75, above B.
    /// Level and score are SUSPICIOUS / 0.24 under all three.
    @Test func failedMetadataCheck() throws {
        let check = ["metadata.device_has_lidar"]
        let expected: [(AggregationConfiguration.Ranking, Double)] = [
            (.evidence, 0.85), (.capped, 0.24375), (.bounded, 0.75),
        ]
        for (ranking, value) in expected {
            let a = try aggregate(0.8, failedChecks: check, ranking: ranking)
            let b = try aggregate(0.4, ranking: ranking)
            #expect(a.confidenceLevel == .suspicious && abs(a.confidenceScore - 0.24) < Self.tolerance)
            #expect(abs(a.rankingScore - value) < Self.tolerance, "\(ranking)")
            #expect(b.confidenceLevel == .low && abs(b.rankingScore - 0.40) < Self.tolerance)
            #expect((a.rankingScore > b.rankingScore) == (ranking != .capped), "\(ranking)")
        }
    }

    /// A screen detection caps at MEDIUM (methods.md section 7). Capture A: all four 0.9,
    /// moire saw a screen -> evidence 0.95 (VERY_HIGH uncapped) -> MEDIUM, score 0.74.
    /// Capture C: all four 0.75 -> evidence 0.80, HIGH, no cap (Secure Enclave allows
    /// VERY_HIGH; 0.80 < 0.90 so the VERY_HIGH rule does not bind). Capture D: all four
    /// 0.83 -> evidence 0.88, HIGH, no cap.
    /// - `evidence`: A 0.95 > D 0.88 > C 0.80;
    /// - `capped`: A = 0.74 + 0.005 * (0.95 - 0.75) / 0.30 = 0.7433333..., below C and D;
    /// - `bounded` 0.1: A = max(0.74333, 0.85) = 0.85: above C (evidence 0.15 lower) but
    ///   below D (0.07 lower, inside the penalty): lowered by at most 0.1.
    @Test func screenDetectionCap() throws {
        let c = try aggregate(0.75, ranking: .evidence)
        let d = try aggregate(0.83, ranking: .evidence)
        #expect(c.confidenceLevel == .high && abs(c.rankingScore - 0.80) < Self.tolerance)
        #expect(d.confidenceLevel == .high && abs(d.rankingScore - 0.88) < Self.tolerance)
        let expected: [(AggregationConfiguration.Ranking, Double)] = [
            (.evidence, 0.95), (.capped, 0.74 + 0.005 * 0.2 / 0.3), (.bounded, 0.85),
        ]
        for (ranking, value) in expected {
            let a = try aggregate(0.9, screen: true, ranking: ranking)
            #expect(a.confidenceLevel == .medium && abs(a.confidenceScore - 0.74) < Self.tolerance)
            #expect(a.flags.contains(.screenDetected))
            #expect(abs(a.rankingScore - value) < Self.tolerance, "\(ranking)")
            // C and D have no cap: the same under every choice.
            #expect(try aggregate(0.75, ranking: ranking).rankingScore == c.rankingScore)
        }
        #expect(try aggregate(0.9, screen: true, ranking: .bounded).rankingScore > c.rankingScore)
        #expect(try aggregate(0.9, screen: true, ranking: .bounded).rankingScore < d.rankingScore)
    }

    /// Inside one capped level `capped` can invert too. No attestation caps at MEDIUM
    /// (hi = 0.75). Capture E: all four 0.72 -> evidence 0.77 (HIGH) -> MEDIUM, band
    /// 0.74 + 0.005 * 0.02 / 0.30 = 0.7403333...; capture F: all four 0.695 -> evidence
    /// 0.745, already MEDIUM, no cap lowers it -> 0.745. `capped` ranks E below F although
    /// E's evidence is higher; `evidence` gives 0.77 and 0.745.
    @Test func cappedBandSitsBelowTheTopOfItsLevel() throws {
        let e = try aggregate(0.72, attestation: .missing, ranking: .capped)
        let f = try aggregate(0.695, attestation: .missing, ranking: .capped)
        #expect(abs(e.rankingScore - (0.74 + 0.005 * 0.02 / 0.3)) < Self.tolerance)
        #expect(abs(f.rankingScore - 0.745) < Self.tolerance)
        #expect(e.rankingScore < f.rankingScore)
        let e2 = try aggregate(0.72, attestation: .missing, ranking: .evidence)
        let f2 = try aggregate(0.695, attestation: .missing, ranking: .evidence)
        #expect(abs(e2.rankingScore - 0.77) < Self.tolerance && abs(f2.rankingScore - 0.745) < Self.tolerance)
        #expect(e2.confidenceLevel == .medium && abs(e2.confidenceScore - 0.74) < Self.tolerance)
    }

    /// `bounded` at its ends: penalty 0 ranks as `evidence`, penalty 1 as `capped` (the
    /// numbers of `failedMetadataCheck`: 0.85 and 0.24375).
    @Test func boundedPenaltyEnds() throws {
        let check = ["metadata.timestamp"]
        let zero = try aggregate(0.8, failedChecks: check, ranking: .bounded, penalty: 0)
        let one = try aggregate(0.8, failedChecks: check, ranking: .bounded, penalty: 1)
        #expect(abs(zero.rankingScore - 0.85) < Self.tolerance)
        #expect(abs(one.rankingScore - 0.24375) < Self.tolerance)
    }

    /// Over a grid of scores, with and without a failed check and a screen detection, under
    /// `evidence` the ranking score is the uncapped score up to 0.95 (= 1 - boost) and
    /// strictly increasing in the evidence everywhere, so it never orders two captures
    /// against their evidence and evidence above 1 does not tie at 1.
    @Test func evidenceRankingFollowsTheEvidence() throws {
        var previous = -Double.infinity
        for step in 0...40 {
            let s = Double(step) / 40
            var ranks: [Double] = []
            for (screen, checks) in [(false, [String]()), (true, []), (false, ["metadata.resolution"])] {
                let r = try aggregate(s, screen: screen, failedChecks: checks, ranking: .evidence)
                let evidence = r.weightedMean + r.agreementBoost
                if evidence <= 0.95 { #expect(r.rankingScore == r.uncappedScore) }
                ranks.append(r.rankingScore)
            }
            #expect(Set(ranks).count == 1, "caps moved the ranking at s = \(s)")
            #expect(ranks[0] > previous, "not increasing at s = \(s)")
            previous = ranks[0]
        }
    }

    /// Above the knee: all four 0.97 -> evidence 1.02 and all four 1.0 -> evidence 1.05 both
    /// have `uncapped_score` 1; their ranking scores are 0.95 + (1.02 - 0.95) / 2 = 0.985
    /// and 0.95 + (1.05 - 0.95) / 2 = 1.0 (k = 1 - 0.05, slope (1 - k) / (1 + 0.05 - k) =
    /// 0.05 / 0.10). All four 0.9 -> evidence 0.95, at the knee: 0.95.
    @Test func evidenceAboveOneStaysApart() throws {
        let a = try aggregate(0.97, ranking: .evidence)
        let b = try aggregate(1.0, ranking: .evidence)
        let c = try aggregate(0.9, ranking: .evidence)
        #expect(a.uncappedScore == 1 && b.uncappedScore == 1)
        #expect(abs(a.rankingScore - 0.985) < Self.tolerance)
        #expect(abs(b.rankingScore - 1.0) < Self.tolerance)
        #expect(abs(c.rankingScore - 0.95) < Self.tolerance)
        #expect(ConfidenceAggregator.evidenceScore(-0.2, agreementBoost: 0.05) == 0)
        #expect(ConfidenceAggregator.evidenceScore(1.2, agreementBoost: 0) == 1)
    }

    /// Decoding: a partial configuration lays `ranking` / `ranking_penalty` over the
    /// defaults; a configuration recorded before the keys existed (results.json) decodes
    /// as `capped`, what it ranked by; an unknown choice is refused.
    @Test func decoding() throws {
        let overlay = { (json: String) in
            try JSONValue.parse(json)
                .decode(
                    AggregationConfiguration.self, overlaying: .reference, rules: AggregationConfiguration.overlayRules)
        }
        var bounded = AggregationConfiguration.reference
        bounded.ranking = .bounded
        bounded.rankingPenalty = 0.2
        #expect(try overlay(#"{"ranking": "bounded", "ranking_penalty": 0.2}"#) == bounded)
        #expect(try overlay("{}").ranking == .evidence)
        #expect(throws: DecodingError.self) { try overlay(#"{"ranking": "lexicographic"}"#) }

        var recorded =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(AggregationConfiguration.reference))
            as! [String: Any]
        recorded["ranking"] = nil
        recorded["ranking_penalty"] = nil
        let old = try JSONDecoder().decode(
            AggregationConfiguration.self, from: JSONSerialization.data(withJSONObject: recorded))
        #expect(old.ranking == .capped && old.rankingPenalty == 0.1)
    }

    /// `ranking_penalty` must be finite and in 0...1; the error names the key and value.
    @Test(arguments: [-0.1, 1.5, Double.nan, Double.infinity])
    func invalidPenaltyIsRefused(penalty: Double) {
        var c = AggregationConfiguration.reference
        c.rankingPenalty = penalty
        do {
            try c.validate()
            Issue.record("accepted ranking_penalty \(penalty)")
        } catch {
            #expect(error.key == "ranking_penalty")
            #expect(error.description == "ranking_penalty: must be a finite number in 0...1, got \(penalty)")
        }
    }
}
