import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// `run`'s level tables under both rules and its latency table, on hand-made records.
@Suite struct RuleLevelsLatencyTests {
    static func record(
        _ id: String, label: String, weighted: ConfidenceLevel, mvp: ConfidenceLevel?,
        depth2Status: String = "completed",
        latency: [String: Double] = [:]
    ) -> SampleRecord {
        var aggregate = SampleRecord.Aggregate(
            score: 0.5, level: weighted, flags: [], uncappedScore: 0.5, rankingScore: 0.5, weights: [.lidar: 1],
            primaryMethod: "depth/2")
        aggregate.weightedLevel = weighted
        aggregate.mvpLevel = mvp
        return SampleRecord(
            id: id, datasetIndex: 0, index: 0, dataset: "d", label: SampleRecord.Label(rawValue: label)!,
            bonaFide: label == "real_scene", group: nil, tags: [], attestation: .secureEnclave, split: .test,
            data: .real, status: .evaluated, failure: nil,
            methods: ["depth/2": .object(["status": .string(depth2Status)])], aggregate: aggregate,
            decision: .attack, latencyMs: latency, sha256: [:])
    }

    /// Counts by hand: two real scenes (VERY_HIGH/HIGH, HIGH/MEDIUM), one screen
    /// (SUSPICIOUS/SUSPICIOUS), and one record of an older run without levels (counted
    /// under weighted by its `level`, not under mvp).
    @Test func levelsPerLabelUnderBothRules() {
        let records = [
            Self.record("a", label: "real_scene", weighted: .veryHigh, mvp: .high),
            Self.record("b", label: "real_scene", weighted: .high, mvp: .medium),
            Self.record("c", label: "lcd_screen", weighted: .suspicious, mvp: .suspicious),
            Self.record("d", label: "lcd_screen", weighted: .low, mvp: nil),
        ]
        let levels = RuleLevels(records, rule: .weighted)
        #expect(levels.samples == 4)
        #expect(levels.byRule["weighted"]?["real_scene"] == ["VERY_HIGH": 1, "HIGH": 1])
        #expect(levels.byRule["weighted"]?["lcd_screen"] == ["SUSPICIOUS": 1, "LOW": 1])
        #expect(levels.byRule["mvp"]?["real_scene"] == ["HIGH": 1, "MEDIUM": 1])
        #expect(levels.byRule["mvp"]?["lcd_screen"] == ["SUSPICIOUS": 1])
        #expect(
            levels.mvpVsWeighted == ["VERY_HIGH": ["HIGH": 1], "HIGH": ["MEDIUM": 1], "SUSPICIOUS": ["SUSPICIOUS": 1]])
        let text = levels.markdown().joined(separator: "\n")
        // Columns SUSPICIOUS, LOW, MEDIUM, HIGH, VERY_HIGH; weighted table first, then mvp.
        // Labels go through MarkdownText.escape (`real\_scene`).
        #expect(text.contains("| real\\_scene | 0 | 0 | 0 | 1 | 1 |"))
        #expect(text.contains("| real\\_scene | 0 | 0 | 1 | 1 | 0 |"))
        #expect(text.contains("| VERY_HIGH | 0 | 0 | 0 | 1 | 0 |"))
    }

    /// A method skipped on a sample (status unavailable, 0 ms) is left out of its latency
    /// statistics: depth/2 ran on two samples, at half and at twice its target T, and was
    /// skipped on two. Nearest rank over the two that ran: p50 = T/2 (PASS), p99 = 2T
    /// (FAIL). Counting the skipped zeros, p50 would be 0 and p99 2T.
    @Test func latencyCountsOnlyMethodsThatRan() throws {
        let target = try #require(LatencyTargets.target(for: "depth/2")?.milliseconds)
        let records = [
            Self.record(
                "a", label: "real_scene", weighted: .high, mvp: .high, latency: ["depth/2": target / 2, "total": 41]),
            Self.record(
                "b", label: "real_scene", weighted: .high, mvp: .high, latency: ["depth/2": target * 2, "total": 61]),
            Self.record(
                "c", label: "lcd_screen", weighted: .low, mvp: .low, depth2Status: "unavailable",
                latency: ["depth/2": 0, "total": 1]),
            Self.record(
                "d", label: "lcd_screen", weighted: .low, mvp: .low, depth2Status: "unavailable",
                latency: ["depth/2": 0, "total": 2]),
        ]
        let results = HTMLReportFixtures.results(records)
        let depth = try #require(results.latency["depth/2"])
        #expect(depth.statistics.n == 2)
        #expect(depth.notRun == 2)
        #expect(depth.statistics.p50 == target / 2 && depth.statistics.p99 == target * 2)
        #expect(depth.targetMs == target)
        #expect(depth.verdict == "PASS")
        #expect(depth.p99Verdict == "FAIL")
        // Keys that are no method count on every sample.
        #expect(results.latency["total"]?.statistics.n == 4)
        #expect(results.latency["total"]?.notRun == 0)
        let markdown = MarkdownReport.render(results)
        #expect(markdown.contains("| `depth/2` | 2 | 2 | "))
        #expect(markdown.contains("| PASS | FAIL |"))
        #expect(results.ruleLevels?.byRule["mvp"]?["real_scene"] == ["HIGH": 2])
        #expect(markdown.contains("## Confidence levels per label, weighted and MVP rule"))
        let html = HTMLReport.render(results: results, records: records)
        #expect(html.contains("<h3>Confidence levels per label, weighted and MVP rule</h3>"))
        #expect(html.contains("<th class=\"key\">mvp: label</th>"))
    }

    /// A method that never ran has no verdict (n/a), not a PASS on no data.
    @Test func aMethodThatNeverRanHasNoVerdict() throws {
        let records = [
            Self.record(
                "c", label: "lcd_screen", weighted: .low, mvp: .low, depth2Status: "unavailable",
                latency: ["depth/2": 0, "total": 1])
        ]
        let depth = try #require(HTMLReportFixtures.results(records).latency["depth/2"])
        #expect(depth.statistics.n == 0)
        #expect(depth.verdict == "n/a" && depth.p99Verdict == "n/a")
    }
}
