import Foundation
import RialTestSupport
import Testing

/// `rial-bench bench-compare`: exit 0 with a table, 2 on a gated regression, 65 for a file
/// that is not a bench report (one line naming it), 64 without reports on a side.
@Suite struct BenchCompareCLITests {
    /// A bench report whose `moire/2` p50 is `moire` ms.
    static func write(_ folder: URL, _ name: String, moire: Double, capture: String = "c") throws -> String {
        func entry(_ key: String, _ p50: Double) -> String {
            """
            {"key": "\(key)", "verdict": "n/a", "statistics": {"n": 9, "min_ms": \(p50), "mean_ms": \(p50), \
            "p50_ms": \(p50), "p90_ms": \(p50), "p95_ms": \(p50), "p99_ms": \(p50), "max_ms": \(p50), "excluded": 0}}
            """
        }
        let url = folder.appendingPathComponent(name)
        try Data(
            """
            {"schema": "rial-bench-bench/1", "iterations": 9, "warmup": 1, "build": "release", "capture": "\(capture)",
             "environment": {"os": "L", "cpu": "CPU", "cores": 2, "memory_gib": 1, "swift": "6", "hostname": "h"},
             "entries": [\(entry("decode", 20)), \(entry("moire/2", moire))], "end_to_end_over_decode": 1.5}
            """.utf8
        ).write(to: url)
        return url.path
    }

    /// Four reports a side, `moire/2` 10-10.3 ms before and 12-12.3 after (+20%, p = 2/70).
    static func reports() throws -> (folder: URL, before: [String], after: [String]) {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench-compare")
        let before = try (0..<4).map { try write(folder, "before-\($0).json", moire: 10 + 0.1 * Double($0)) }
        let after = try (0..<4).map { try write(folder, "after-\($0).json", moire: 12 + 0.1 * Double($0)) }
        return (folder, before, after)
    }

    @Test func aSignificantSlowDownFailsOnlyAboveTheLimit() throws {
        let (folder, before, after) = try Self.reports()
        let plain = try CLIRunner.run(["bench-compare", "--before"] + before + ["--after"] + after)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(
            plain.stdout.contains(
                "| `moire/2` | 10.15 ms [10.00 ms, 10.30 ms] | 12.15 ms [12.00 ms, 12.30 ms] | +19.7% | 0.0286 |"))
        #expect(
            plain.stdout.contains(
                "| `decode` | 20.00 ms [20.00 ms, 20.00 ms] | 20.00 ms [20.00 ms, 20.00 ms] | +0.0% ~ | 1 |"))

        let markdown = folder.appendingPathComponent("compare.md").path
        let gated = try CLIRunner.run(
            ["bench-compare", "--before"] + before + ["--after"] + after + [
                "--fail-above", "5", "--markdown", markdown,
            ])
        #expect(gated.status == 2, "\(gated.stderr)")
        #expect(
            try String(contentsOfFile: markdown, encoding: .utf8).contains("- **Regression**, slower by more than 5%"))
        // A CI step summary gets the same Markdown appended.
        let summary = folder.appendingPathComponent("summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let loose = try CLIRunner.run(
            ["bench-compare", "--before"] + before + ["--after"] + after + ["--fail-above", "25"],
            environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(loose.status == 0, "\(loose.stderr)")
        let appended = try String(contentsOf: summary, encoding: .utf8)
        #expect(appended.hasPrefix("earlier step\n# bench-compare\n"))
        #expect(appended.contains("- No item is slower by more than 25% at p < 0.05."))

        let json = try CLIRunner.run(["bench-compare", "--before"] + before + ["--after"] + after + ["--json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "rial-bench-bench-compare/1")
    }

    @Test func badReportsAndMissingSidesAreRefused() throws {
        let (folder, before, after) = try Self.reports()
        let broken = folder.appendingPathComponent("broken.json")
        try Data("{\"schema\": \"rial-bench-bench/1\", \"entries\": [".utf8).write(to: broken)
        let bad = try CLIRunner.run(["bench-compare", "--before"] + before + ["--after", broken.path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("\(broken.path): not a bench report"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")

        let missing = folder.appendingPathComponent("missing.json").path
        let absent = try CLIRunner.run(["bench-compare", "--before", missing, "--after"] + after)
        #expect(absent.status == 65)
        #expect(absent.stderr.contains("\(missing): no such file"), "\(absent.stderr)")

        let other = try Self.write(folder, "other.json", moire: 10, capture: "another capture")
        let mixed = try CLIRunner.run(["bench-compare", "--before", other, "--after"] + after)
        #expect(mixed.status == 65)
        #expect(mixed.stderr.contains("different captures"), "\(mixed.stderr)")
        let allowed = try CLIRunner.run(
            ["bench-compare", "--before", other, "--after"] + after + ["--allow-different-captures"])
        #expect(allowed.status == 0, "\(allowed.stderr)")

        let oneSided = try CLIRunner.run(["bench-compare", "--before"] + before)
        #expect(oneSided.status == 64, "\(oneSided.stderr)")
    }
}
