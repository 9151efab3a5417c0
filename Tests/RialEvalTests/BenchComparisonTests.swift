import Foundation
import RialTestSupport
import Testing

@testable import RialEval

/// `bench-compare`: repeated bench reports compared item by item; the medians, ranges and
/// changes below are worked out by hand from the p50s the reports are written with.
@Suite struct BenchComparisonTests {
    /// A bench report with the given p50s (each item's minimum 1 ms below its p50).
    static func report(
        decode: Double, moire: Double?, endToEnd: Double, capture: String = "capture c", commit: String = "aaa",
        paired: Double? = nil
    ) throws -> Benchmark.Report {
        func entry(_ key: String, _ p50: Double) -> String {
            """
            {"key": "\(key)", "verdict": "n/a", "statistics": {"n": 20, "min_ms": \(p50 - 1), "mean_ms": \(p50), \
            "p50_ms": \(p50), "p90_ms": \(p50), "p95_ms": \(p50), "p99_ms": \(p50), "max_ms": \(p50), "excluded": 0}}
            """
        }
        let entries =
            [entry("decode", decode)] + (moire.map { [entry("moire/2", $0)] } ?? [])
            + [entry("end_to_end", endToEnd)]
        let usage =
            paired.map {
                """
                , "end_to_end_usage": {"iterations": 20, "cores": 2, "wall_ms": 30, "cpu_ms": 50, \
                "single_threaded_ms": 50, "over_decode": \($0), "utilisation": 0.8, "work_inflation": 1}
                """
            } ?? ""
        let json = """
            {"schema": "rial-bench-bench/1", "iterations": 20, "warmup": 3, "build": "release", "capture": "\(capture)",
             "tool": {"name": "rial-bench", "version": "0.1.0", "git_commit": "\(commit)"},
             "environment": {"os": "L", "cpu": "CPU", "cores": 2, "memory_gib": 1, "swift": "6", "hostname": "h",
               "instruction_set": "x86-64-v3 (AVX2, FMA)"},
             "entries": [\(entries.joined(separator: ", "))],
             "end_to_end_over_decode": \(endToEnd / decode)\(usage)}
            """
        return try RunResults.decodeReport(Benchmark.Report.self, from: Data(json.utf8), path: "r.json", what: "bench")
    }

    /// Five reports a side: the decode has the same p50s on both sides (p = 1), `moire/2`
    /// goes from 10 10.5 11 11.5 12 to 13 13.5 14 14.5 15 (every after above every before:
    /// p = 2 / C(10, 5) = 2 / 252; medians 11 -> 14, +27.3%).
    static func fiveAndFive() throws -> (before: [Benchmark.Report], after: [Benchmark.Report]) {
        let decodes: [Double] = [20, 21, 22, 23, 24]
        let before = try (0..<5).map { i in
            try report(decode: decodes[i], moire: 10 + 0.5 * Double(i), endToEnd: 30, commit: "old", paired: 1.4)
        }
        let after = try (0..<5).map { i in
            try report(decode: decodes[4 - i], moire: 13 + 0.5 * Double(i), endToEnd: 30, commit: "new", paired: 1.5)
        }
        return (before, after)
    }

    @Test func rowsHoldMediansRangesChangesAndPValues() throws {
        let (before, after) = try Self.fiveAndFive()
        let comparison = try BenchComparison(before: before, after: after)
        #expect(
            comparison.rows.map(\.key) == [
                "decode", "moire/2", "end_to_end", "end_to_end / decode",
                "end_to_end / decode, paired",
            ])
        let decode = comparison.rows[0]
        #expect(decode.before.median == 22 && decode.after.median == 22)
        #expect(decode.before.lowest == 20 && decode.before.highest == 24)
        #expect(decode.change == 0)
        #expect(decode.pValue == 1)
        #expect(!decode.significant)
        let moire = comparison.rows[1]
        #expect(moire.before.median == 11 && moire.after.median == 14)
        #expect(moire.before.medianMinimum == 10 && moire.after.medianMinimum == 13)
        #expect(abs(moire.change - 3.0 / 11) < 1e-12)
        #expect(abs(moire.pValue - 2.0 / 252) < 1e-12)
        #expect(moire.significant)
        #expect(!moire.regression) // no gate
        let paired = comparison.rows[4]
        #expect(paired.unit == "x" && paired.before.median == 1.4 && paired.after.median == 1.5)
        #expect(paired.before.medianMinimum == nil)
        #expect(comparison.before.commits == ["old"] && comparison.after.commits == ["new"])
        #expect(comparison.before.reports == 5)
    }

    /// `failAbove` 0.10 makes `moire/2`'s +27% a regression; 0.30 does not, nor does a
    /// large change the test cannot tell from drift.
    @Test func theGateNeedsBothSizeAndSignificance() throws {
        let (before, after) = try Self.fiveAndFive()
        let gated = try BenchComparison(before: before, after: after, failAbove: 0.10)
        #expect(gated.regressions.map(\.key) == ["moire/2"])
        #expect(
            gated.markdown().contains(
                "- **Regression**, slower by more than 10% at p < 0.05: `moire/2` +27.3% (p 0.00794)."))
        #expect(try BenchComparison(before: before, after: after, failAbove: 0.30).regressions.isEmpty)
        // Three a side cannot reach p < 0.05 (smallest 0.1), however large the change.
        let few = try BenchComparison(
            before: Array(before.prefix(3)),
            after: Array(after.prefix(3)).map {
                var slow = $0
                slow.entries[1].statistics.p50 *= 3
                return slow
            }, failAbove: 0.10)
        #expect(few.regressions.isEmpty)
        #expect(
            few.markdown().contains("the smallest p-value the test can give is 0.1, so no change can reach p < 0.05"))
    }

    @Test func markdownMarksUnsettledChanges() throws {
        let (before, after) = try Self.fiveAndFive()
        let text = try BenchComparison(before: before, after: after).markdown()
        #expect(
            text.contains(
                "| `decode` | 22.00 ms [20.00 ms, 24.00 ms] | 22.00 ms [20.00 ms, 24.00 ms] | +0.0% ~ | 1 | 21.00 ms | 21.00 ms |"
            ))
        #expect(
            text.contains(
                "| `moire/2` | 11.00 ms [10.00 ms, 12.00 ms] | 14.00 ms [13.00 ms, 15.00 ms] | +27.3% | 0.00794 | 10.00 ms | 13.00 ms |"
            ))
        #expect(
            text.contains(
                "| `end_to_end / decode, paired` | 1.400 x [1.400 x, 1.400 x] | 1.500 x [1.500 x, 1.500 x] | +7.1% | 0.00794 | — | — |"
            ))
        #expect(text.contains("- Before: 5 reports (commit `old`; code built for x86-64-v3 (AVX2, FMA)"))
        #expect(!text.contains("Regression"))
    }

    /// An even count's median is the mean of the middle two; items one side lacks are listed.
    @Test func evenCountsAndMissingItems() throws {
        let before = try [30.0, 10, 20, 40].map { try Self.report(decode: 20, moire: $0, endToEnd: 30) }
        let after = try [1.0, 2, 3, 4].map { _ in try Self.report(decode: 20, moire: nil, endToEnd: 30) }
        let comparison = try BenchComparison(before: before, after: after)
        #expect(comparison.onlyBefore == ["moire/2"])
        #expect(!comparison.rows.contains { $0.key == "moire/2" })
        #expect(comparison.markdown().contains("- Measured before only: `moire/2`."))
        #expect(Median.of([30, 10, 20, 40]) == 25)
        #expect(Median.of([]).isNaN)
    }

    /// A report whose p50 is not a number leaves that item's row without it.
    @Test func aNonFiniteP50IsLeftOut() throws {
        var (before, after) = try Self.fiveAndFive()
        before[0].entries[1].statistics.p50 = .nan
        after[2].entries[1].statistics.p50 = .infinity
        let moire = try #require(try BenchComparison(before: before, after: after).rows.first { $0.key == "moire/2" })
        #expect(moire.before.count == 4 && moire.after.count == 4)
        // 10.5 11 11.5 12 and 13 13.5 14.5 15.
        #expect(moire.before.median == 11.25 && moire.after.median == 14)
        #expect(abs(moire.pValue - 2.0 / 70) < 1e-12)
    }

    @Test func differentCapturesAreRefusedUnlessAllowed() throws {
        let before = [try Self.report(decode: 20, moire: 10, endToEnd: 30, capture: "one")]
        let after = [try Self.report(decode: 20, moire: 10, endToEnd: 30, capture: "two")]
        #expect {
            try BenchComparison(before: before, after: after)
        } throws: { error in
            "\(error)".contains("the reports timed different captures ('one', 'two')")
        }
        let allowed = try BenchComparison(before: before, after: after, allowDifferentCaptures: true)
        #expect(allowed.captures == ["one", "two"])
        #expect(allowed.markdown().contains("**The reports timed different captures**"))
        #expect(throws: RunError.self) { try BenchComparison(before: [], after: after) }
        #expect(throws: RunError.self) { try BenchComparison(before: before, after: after, alpha: 1) }
    }

    /// The JSON form carries every row.
    @Test func jsonRoundTrips() throws {
        let (before, after) = try Self.fiveAndFive()
        let comparison = try BenchComparison(before: before, after: after, failAbove: 0.1)
        let decoded = try RunResults.decoder.decode(BenchComparison.self, from: comparison.jsonData())
        #expect(decoded == comparison)
    }
}
