import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// The temporal family in the pipeline (issue 15 item 2): a photo neither runs nor reports
/// it; a video runs both versions, reports the family's evidence, and no default profile
/// weights it (`AggregationMethod.temporal`).
@Suite struct TemporalPipelineTests {
    static let analyzer = try! CaptureAnalyzer()

    @Test func photoRunsNoVideoMethod() throws {
        let analysis = try Self.analyzer.analyze(CaptureAnalyzerTests.flatCapture(), concurrent: false)
        #expect(!analysis.outcomes.contains { $0.family == .temporal })
        #expect(analysis.evidence.sceneAnalysis.breakdown["temporal"] == nil)
        #expect(!analysis.aggregated.contains { $0.hasPrefix("temporal/") })
    }

    /// The flat video of methods.md section 6 (uniform 0.5 m): temporal/1 says real,
    /// temporal/2 (the newest, the family's evidence) does not; the weighted mean is the
    /// photo methods' alone.
    @Test func videoRunsBothVersionsUnweighted() throws {
        var input = CaptureAnalyzerTests.flatCapture()
        let flat = depthMap(64, 48) { _, _ in 0.5 }
        input.depthKeyframes = keyframes(Array(repeating: flat, count: 20))
        let analysis = try Self.analyzer.analyze(input, concurrent: false)
        let temporal = analysis.outcomes.filter { $0.family == .temporal }
        #expect(temporal.map(\.key) == ["temporal/1", "temporal/2"])
        #expect(temporal.allSatisfy { $0.summary.status == .completed })
        #expect(temporal[0].fields["is_likely_real_scene"] == .bool(true))
        #expect(temporal[1].fields["is_likely_real_scene"] == .bool(false))
        let entry = try #require(analysis.evidence.sceneAnalysis.breakdown["temporal"]?.objectValue)
        #expect(entry["status"]?.stringValue == "fail")
        #expect(analysis.aggregation.weightsUsed[.temporal] == nil)
        let photo = try Self.analyzer.analyze(CaptureAnalyzerTests.flatCapture(), concurrent: false)
        #expect(analysis.aggregation.weightedMean == photo.aggregation.weightedMean)
    }

    /// A video recorded without depth (an empty keyframe sequence) runs the temporal
    /// methods, which report unavailable with a reason.
    @Test func videoWithoutDepthIsUnavailable() throws {
        var input = CaptureAnalyzerTests.flatCapture()
        input.depthKeyframes = DepthKeyframes(width: 0, height: 0)
        let analysis = try Self.analyzer.analyze(input, concurrent: false)
        let temporal = analysis.outcomes.filter { $0.family == .temporal }
        #expect(temporal.count == 2)
        #expect(temporal.allSatisfy { $0.summary.status == .unavailable && $0.summary.unavailableReason != nil })
    }
}
