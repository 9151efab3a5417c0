import Foundation

/// One detection family's check in the evidence package, in the product documents'
/// vocabulary (PRD 1.1 / 2.0 "Evidence Status Values": PASS = check performed, evidence
/// consistent; FAIL = check performed, evidence inconsistent; UNAVAILABLE = check not
/// possible), under the family keys of the PRD 2.0 "Evidence Model (Unified)" breakdown
/// (`lidar`, `parallax`, `moire`, `texture`, and `artifacts` for the `supporting` entry).
///
/// The family's result is the candidate that fed aggregation (`PipelineAggregator`
/// selection: a usable payload result, else `aggregate_with[family]`), else the
/// `aggregate_with` version that ran and did not score. Its status:
/// - `unavailable`: no such result, or it did not complete with a score;
/// - `fail`: it completed and saw a screen or a print, or its score (calibrated when
///   `calibration` has an entry for it) is below `aggregation.real_threshold` (the
///   threshold at which a method "says real" in cross-validation);
/// - `pass`: otherwise.
///
/// A family that needs a video (`MethodFamily.needsVideo`: temporal) has an entry only
/// when one of its methods produced a result: a photo's evidence lists the photo
/// families alone.
public struct FamilyEvidence: Sendable, Equatable {
    public var family: MethodFamily
    public var status: EvidenceCheckStatus
    /// Breakdown key of the result (`depth/2`, `payload.moire`); nil when none ran.
    public var method: String?
    /// The score compared (calibrated when configured); nil when unavailable.
    public var score: Double?
    /// `aggregation.real_threshold`.
    public var threshold: Double
    /// What decided the status, e.g. `score 0.82 >= real_threshold 0.5`, `screen detected`.
    public var decidedBy: String

    /// The product documents' key of `family`: `depth` -> `lidar` (the PRD's name for the
    /// LiDAR depth signal), the others by their name.
    public static func key(_ family: MethodFamily) -> String {
        switch family {
        case .depth: "lidar"
        case .parallax: "parallax"
        case .moire: "moire"
        case .texture: "texture"
        case .artifacts: "artifacts"
        case .temporal: "temporal"
        }
    }

    /// The PRD 2.0 evidence model's own key for the artifacts entry (`supporting`),
    /// written beside `artifacts` so a consumer of either document finds it.
    public static let supportingKey = "supporting"
}

extension PipelineAggregator {
    /// Each family's evidence check (`FamilyEvidence`), in `MethodFamily` order, for the
    /// candidates of one capture and the keys that fed aggregation (`Outcome.aggregated`).
    public func familyEvidence(_ candidates: [String: AggregationCandidate], aggregated: [String])
        -> [FamilyEvidence]
    {
        let threshold = configuration.aggregation.realThreshold
        return MethodFamily.allCases.compactMap { family in
            let key =
                aggregated.first { candidates[$0]?.family == family }
                ?? configuration.aggregateWith[family].map(\.description).flatMap { candidates[$0] != nil ? $0 : nil }
            guard let key, let candidate = candidates[key] else {
                // A family only a video gives (temporal) has no check on a photo: left out,
                // so a photo's evidence keeps the photo families.
                if family.needsVideo { return nil }
                return FamilyEvidence(
                    family: family, status: .unavailable, method: nil, score: nil, threshold: threshold,
                    decidedBy: "no \(family.rawValue) method ran")
            }
            guard candidate.available, let score = calibrated(candidate.score, key: key), score.isFinite else {
                return FamilyEvidence(
                    family: family, status: .unavailable, method: key, score: nil, threshold: threshold,
                    decidedBy: "\(key) did not score")
            }
            let status: EvidenceCheckStatus
            let reason: String
            if candidate.screenDetected || candidate.printDetected {
                status = .fail
                reason = candidate.screenDetected ? "screen detected" : "print detected"
            } else if score >= threshold {
                status = .pass
                reason = "score \(Self.short(score)) >= real_threshold \(Self.short(threshold))"
            } else {
                status = .fail
                reason = "score \(Self.short(score)) < real_threshold \(Self.short(threshold))"
            }
            return FamilyEvidence(
                family: family, status: status, method: key, score: score, threshold: threshold, decidedBy: reason)
        }
    }

    /// Four significant digits.
    static func short(_ value: Double) -> String { String(format: "%.4g", value) }
}

extension CaptureAnalyzer {
    /// Each family's evidence check for recorded candidates (`PipelineAggregator.familyEvidence`).
    public func familyEvidence(_ candidates: [String: AggregationCandidate], aggregated: [String])
        -> [FamilyEvidence]
    {
        aggregator.familyEvidence(candidates, aggregated: aggregated)
    }
}
