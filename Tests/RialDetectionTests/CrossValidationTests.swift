import Foundation
import Testing

@testable import RialDetection

/// Cross-validation (issue 14 item 4): `CrossValidationResult` and `cross_validation.mode`.
///
/// Sources (../shared/product):
/// - PRD 2.0 "Cross-Validation": "Agreement: All methods agree -> confidence boost (+5%)";
///   "Disagreement: Methods conflict -> flag for review, cap confidence at MEDIUM";
///   "Partial: Some methods unavailable -> no penalty, but confidence ceiling reduced".
/// - PRD 2.0 FR77: "cross-validation status (agree/disagree/partial)".
/// - PRD 2.0 "Evidence Model (Unified)": breakdown lidar 0.95, moire 0.88, texture 0.82,
///   supporting 0.79 with `cross_validation {methods_agree: true, flagged: false}`.
/// - Story 9-6 AC 3 / Dev Notes: `cross_validation: {validation_status, anomalies, ...}`,
///   "CrossValidationResult: pairwise, intervals, anomalies". Story 9-5 is not among the
///   documents: the thresholds are the configuration's documented defaults
///   (`AggregationConfiguration.CrossValidation`), `high_uncertainty` above 0.3 (issue 14).
/// Numbers are computed by hand from those definitions in the comments.
@Suite struct CrossValidationTests {
    static let secureEnclave = AttestationEvidence(status: .pass, method: .secureEnclave)

    func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    func aggregate(
        _ inputs: [AggregationInput], profile: AggregationProfile = .iosPro,
        change: (inout AggregationConfiguration) -> Void = { _ in }
    ) throws -> AggregationResult {
        var c = AggregationConfiguration.reference
        change(&c)
        return try ConfidenceAggregator(configuration: c).aggregate(
            inputs: inputs, attestation: Self.secureEnclave, profile: profile)
    }

    /// The PRD's evidence model example: all four agree ("methods_agree": true,
    /// "flagged": false): status `agree`, every pair consistent (largest difference
    /// 0.95 - 0.79 = 0.16 <= 0.3), no anomaly, no flag.
    /// Interval: mean m = 0.55*0.95 + 0.15*(0.88 + 0.82 + 0.79) = 0.896; u = 0.55*0.05 +
    /// 0.45*0.10 = 0.0725; s^2 = 0.55*0.054^2 + 0.15*(0.016^2 + 0.076^2 + 0.106^2) =
    /// 0.004194; half = sqrt(0.0725^2 + 0.004194) = 0.0972124; [0.798788, 0.993212], width
    /// 0.194425 <= 0.3: not high uncertainty.
    @Test func prdExampleAgrees() throws {
        let r = try aggregate([
            .scored(.lidar, 0.95), .scored(.moire, 0.88), .scored(.texture, 0.82), .scored(.supporting, 0.79),
        ])
        let cv = try #require(r.crossValidation)
        #expect(cv.validationStatus == .agree && r.methodsAgree)
        #expect(cv.pairwise.count == 6 && cv.pairwise.allSatisfy { $0.consistent == true })
        #expect(cv.anomalies.isEmpty && cv.confidenceImpact == 0)
        #expect(!cv.highUncertainty && r.flags.isEmpty)
        let interval = try #require(cv.aggregatedInterval)
        #expect(approx(interval.lower, 0.896 - 0.0972124, 1e-6) && approx(interval.upper, 0.896 + 0.0972124, 1e-6))
        // Per-method intervals: lidar 0.95 -/+ 0.05 = [0.90, 1.0]; moire 0.88 -/+ 0.10.
        #expect(approx(cv.methodIntervals[.lidar]!.lower, 0.90) && approx(cv.methodIntervals[.lidar]!.upper, 1.0))
        #expect(approx(cv.methodIntervals[.moire]!.lower, 0.78) && approx(cv.methodIntervals[.moire]!.upper, 0.98))
        #expect(cv.temporal.status == .unavailable && cv.temporal.reason == "no frames")
    }

    /// A screen seen by moire (0.2) while LiDAR (0.9) says real: "Methods conflict":
    /// status `disagree`. Anomalies: three `pairwise_inconsistency` of severity high
    /// (lidar-moire 0.7, moire-texture 0.6, moire-supporting 0.6, all > 0.5) and
    /// `depth_contradicts_detection` (high): 4 x 0.05 = 0.20, limited to 0.15.
    /// simple: mean 0.55*0.9 + 0.15*(0.2 + 0.8 + 0.8) = 0.765, no boost; capped at MEDIUM
    /// (disagreement, screen): score 0.74. full: 0.765 - 0.15 = 0.615, MEDIUM uncapped,
    /// score 0.615. Interval: u = 0.0725, s^2 = 0.058275, half 0.252054, [0.512946, 1]
    /// (clamped), width 0.487054 > 0.3: high uncertainty, under both modes.
    @Test func screenAgainstDepthIsAnAnomaly() throws {
        let inputs: [AggregationInput] = [
            .scored(.lidar, 0.9), .scored(.moire, 0.2, screen: true), .scored(.texture, 0.8), .scored(.supporting, 0.8),
        ]
        let simple = try aggregate(inputs)
        let cv = try #require(simple.crossValidation)
        #expect(cv.validationStatus == .disagree && cv.mode == .simple)
        #expect(cv.anomalies.count == 4 && cv.anomalies.allSatisfy { $0.severity == .high })
        #expect(cv.anomalies.first?.type == "depth_contradicts_detection")
        #expect(cv.anomalies.first?.methods == [.lidar, .moire])
        #expect(cv.anomalies.filter { $0.type == "pairwise_inconsistency" }.count == 3)
        #expect(approx(cv.confidenceImpact, 0.15))
        #expect(simple.confidenceLevel == .medium && approx(simple.confidenceScore, 0.74))
        #expect(cv.highUncertainty && simple.flags.contains(.highUncertainty))
        #expect(approx(cv.aggregatedInterval!.upper, 1) && approx(cv.aggregatedInterval!.lower, 0.765 - 0.252054, 1e-6))

        let full = try aggregate(inputs) { $0.crossValidation.mode = .full }
        #expect(full.crossValidation?.mode == .full)
        #expect(full.confidenceLevel == .medium && approx(full.confidenceScore, 0.615))
        #expect(approx(full.uncappedScore, 0.615) && approx(full.rankingScore, 0.615))
    }

    /// Pair severities: same verdict but 0.4 apart (0.95 vs 0.55) -> `low`; different
    /// verdicts 0.3 apart (0.65 vs 0.35) -> `medium`, whose impact 0.03 full subtracts.
    @Test func pairSeverities() throws {
        let lab = AggregationProfile(primary: .lidar, weights: [.lidar: 1, .texture: 1])
        let low = try aggregate([.scored(.lidar, 0.95), .scored(.texture, 0.55)], profile: lab)
        #expect(low.crossValidation?.anomalies.map(\.severity) == [.low])
        #expect(low.crossValidation?.validationStatus == .agree)
        let medium = try aggregate([.scored(.lidar, 0.65), .scored(.texture, 0.35)], profile: lab)
        #expect(medium.crossValidation?.anomalies.map(\.severity) == [.medium])
        #expect(medium.crossValidation?.validationStatus == .disagree)
        // full: mean 0.5, impact 0.03 -> 0.47.
        let full = try aggregate([.scored(.lidar, 0.65), .scored(.texture, 0.35)], profile: lab) {
            $0.crossValidation.mode = .full
        }
        #expect(approx(full.uncappedScore, 0.47))
    }

    /// FR77 "partial": texture unavailable, the others agreeing -> `partial`, no anomaly.
    /// One scene method only -> `single_method` (low): nothing to cross-validate.
    @Test func partialAndSingleMethod() throws {
        let partial = try aggregate([
            .scored(.lidar, 0.9), .scored(.moire, 0.9), .unavailable(.texture), .scored(.supporting, 0.9),
        ])
        #expect(partial.crossValidation?.validationStatus == .partial)
        #expect(partial.crossValidation?.anomalies.isEmpty == true)
        let single = try aggregate([.scored(.lidar, 0.9)])
        #expect(single.crossValidation?.anomalies.map(\.type) == ["single_method"])
        #expect(single.crossValidation?.anomalies.first?.severity == .low)
    }

    /// Attestation is independent of the scene methods: its pairs are reported, never
    /// compared; the scene pairs (0.85, 0.8, 0.8) are consistent: no anomaly.
    @Test func attestationPairsAreIndependent() throws {
        let r = try aggregate(
            [.scored(.attestation, 0.9), .scored(.parallax, 0.85), .scored(.moire, 0.8), .scored(.texture, 0.8)],
            profile: .android)
        let cv = try #require(r.crossValidation)
        let independent = cv.pairwise.filter { $0.methods.contains(.attestation) }
        #expect(
            independent.count == 3 && independent.allSatisfy { $0.relationship == .independent && $0.consistent == nil }
        )
        #expect(cv.anomalies.isEmpty)
    }

    /// Temporal consistency: unavailable without frames ("no frames") or with one; pass
    /// when the frames span <= 0.2 (0.8, 0.85, 0.9: 0.1); fail above (0.9, 0.5: 0.4), which
    /// is a high anomaly.
    @Test func temporalConsistency() {
        let c = AggregationConfiguration.CrossValidation()
        #expect(CrossValidationResult.temporal(nil, configuration: c).status == .unavailable)
        #expect(CrossValidationResult.temporal([0.8], configuration: c).reason == "one frame")
        let pass = CrossValidationResult.temporal([0.8, 0.85, 0.9], configuration: c)
        #expect(pass.status == .pass && approx(pass.spread!, 0.1) && pass.frames == 3)
        #expect(CrossValidationResult.temporal([0.9, 0.5], configuration: c).status == .fail)
        let r = CrossValidationResult.analyse(
            scored: [(.lidar, 1, 0.9)], primary: .lidar, screenOrPrint: [], partial: false, realThreshold: 0.5,
            frameScores: [0.9, 0.5], configuration: c)
        #expect(r.anomalies.contains { $0.type == "temporal_inconsistency" && $0.severity == .high })
    }

    /// `high_uncertainty` when the interval is wider than 0.3, not at 0.3: two equally
    /// weighted methods at 0.5 +/- d with no uncertainty of their own have half-width d.
    @Test func highUncertaintyAboveWidth() {
        var c = AggregationConfiguration.CrossValidation()
        c.methodUncertainty = [:]
        func width(_ d: Double) -> CrossValidationResult {
            CrossValidationResult.analyse(
                scored: [(.lidar, 0.5, 0.5 + d), (.texture, 0.5, 0.5 - d)], primary: .lidar, screenOrPrint: [],
                partial: false, realThreshold: 0.5, configuration: c)
        }
        #expect(!width(0.125).highUncertainty) // width 0.25
        #expect(width(0.2).highUncertainty) // width 0.4
    }

    /// Configuration: validated with the key named; a missing section decodes as simple.
    @Test func configurationIsValidated() throws {
        var c = AggregationConfiguration.reference
        #expect(c.crossValidation.mode == .simple && c.crossValidation.highUncertaintyWidth == 0.3)
        c.crossValidation.pairTolerance = 2
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do { try c.validate() } catch { #expect(error.key == "cross_validation.pair_tolerance") }
        c = .reference
        c.crossValidation.methodUncertainty[.moire] = -0.1
        do {
            try c.validate()
            Issue.record("accepted a negative uncertainty")
        } catch { #expect(error.key == "cross_validation.method_uncertainty.moire") }
    }

    /// The evidence package carries the analysis inside `scene_analysis.cross_validation`
    /// beside the PRD's keys, and it round-trips.
    @Test func evidencePackageCarriesTheAnalysis() throws {
        let r = try aggregate([.scored(.lidar, 0.9), .scored(.moire, 0.2, screen: true), .scored(.texture, 0.8)])
        let cv = EvidencePackage.CrossValidation(
            methodsAgree: r.methodsAgree, disagreementScore: r.disagreementScore, flagged: !r.flags.isEmpty,
            flags: r.flags, analysis: r.crossValidation)
        let data = try JSONEncoder().encode(cv)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        for key in [
            "methods_agree", "disagreement_score", "flagged", "validation_status", "anomalies", "pairwise",
            "method_intervals", "aggregated_interval", "high_uncertainty", "temporal", "confidence_impact", "mode",
        ] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect(try JSONDecoder().decode(EvidencePackage.CrossValidation.self, from: data) == cv)
        let old = #"{"methods_agree": true, "disagreement_score": 0, "flagged": false, "flags": []}"#
        #expect(try JSONDecoder().decode(EvidencePackage.CrossValidation.self, from: Data(old.utf8)).analysis == nil)
    }
}
