import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// Issue 14 item 5: every family check in the evidence package is PASS / FAIL /
/// UNAVAILABLE as PRD 1.1 / 2.0 "Evidence Status Values" define them, under the family
/// keys of PRD 2.0 "Evidence Model (Unified)" (`lidar`, `parallax`, `moire`, `texture`,
/// `supporting`; `artifacts` as the issue names it).
@Suite struct FamilyEvidenceTests {
    static let aggregator = try! PipelineAggregator(configuration: .standard)

    static func candidates() -> [String: AggregationCandidate] {
        let with = PipelineConfiguration.standard.aggregateWith
        return [
            // Check performed, evidence consistent -> PASS.
            with[.depth]!.description: .init(family: .depth, source: .computed, available: true, score: 0.9),
            // Check performed, evidence inconsistent (a screen seen) -> FAIL.
            "payload.moire": .init(
                family: .moire, source: .payload, available: true, score: 0.8, screenDetected: true),
            // Check performed, score below real_threshold (0.5) -> FAIL.
            with[.texture]!.description: .init(family: .texture, source: .computed, available: true, score: 0.3),
            // Check not possible -> UNAVAILABLE.
            with[.artifacts]!.description: .init(family: .artifacts, source: .computed, available: false, score: nil),
        ]
    }

    @Test func statusesFollowTheEvidenceStatusTable() {
        let candidates = Self.candidates()
        let selected = Self.aggregator.selection(candidates)
        let checks = Self.aggregator.familyEvidence(candidates, aggregated: selected)
        let byKey = Dictionary(uniqueKeysWithValues: checks.map { (FamilyEvidence.key($0.family), $0) })
        #expect(Set(byKey.keys) == ["lidar", "parallax", "moire", "texture", "artifacts"])
        #expect(byKey["lidar"]?.status == .pass)
        #expect(byKey["moire"]?.status == .fail)
        #expect(byKey["moire"]?.method == "payload.moire")
        #expect(byKey["moire"]?.decidedBy == "screen detected")
        #expect(byKey["texture"]?.status == .fail)
        #expect(byKey["texture"]?.decidedBy == "score 0.3 < real_threshold 0.5")
        #expect(byKey["artifacts"]?.status == .unavailable)
        // No parallax result at all (iOS Pro without a second view): unavailable, not failed.
        #expect(byKey["parallax"]?.status == .unavailable && byKey["parallax"]?.method == nil)
        #expect(checks.allSatisfy { $0.threshold == 0.5 })
    }

    /// The evidence package carries the PRD 2.0 keys with the PRD's entry fields
    /// (`available`, `score`, `weight`, and `reason` when unavailable), the status and
    /// what decided it, and `scene_analysis.status` in the same vocabulary.
    @Test func evidencePackageCarriesTheFamilyKeys() throws {
        let analyzer = try CaptureAnalyzer()
        var input = CaptureAnalyzerTests.flatCapture()
        input.depth = nil
        let analysis = try analyzer.analyze(input, concurrent: false)
        let package = analysis.evidence
        let breakdown = package.sceneAnalysis.breakdown
        for key in ["lidar", "parallax", "moire", "texture", "artifacts", "supporting"] {
            let entry = try #require(breakdown[key]?.objectValue, "\(key)")
            let status = try #require(entry["status"]?.stringValue)
            #expect(["pass", "fail", "unavailable"].contains(status), "\(key)")
            #expect(entry["available"] == .bool(status != "unavailable"), "\(key)")
            #expect(entry["weight"]?.numberValue != nil && entry["decided_by"]?.stringValue != nil, "\(key)")
            if status == "unavailable" { #expect(entry["reason"]?.stringValue?.isEmpty == false, "\(key)") }
        }
        // No depth map: the LiDAR check is not possible.
        #expect(breakdown["lidar"]?["status"] == "unavailable")
        #expect(breakdown["supporting"] == breakdown["artifacts"])
        #expect(breakdown["moire"]?["algorithm_version"]?.stringValue?.hasPrefix("moire/") == true)
        #expect(
            package.sceneAnalysis.status == (package.sceneAnalysis.isLikelyRealScene ? .pass : .fail))
    }
}
