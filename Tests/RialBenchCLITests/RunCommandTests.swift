import Foundation
import RialMedia
import Testing

/// `run`, `report`, `merge`, `compare` and `gate` through the built binary.
@Suite(.serialized) struct RunCommandTests {
    static let dataset: String = {
        let folder = (try? Fixtures.makeTemporaryFolder("rial-cli-run")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        _ = try? CLIRunner.run([
            "synth", "--out", folder.path, "--count", "8", "--width", "256", "--height", "192",
            "--second-view", "--seed", "5",
        ])
        return folder.appendingPathComponent("manifest.json").path
    }()

    @Test func runWritesEveryOutputAndMarksTestRuns() throws {
        let out = try Fixtures.makeTemporaryFolder("rial-cli-out").path
        let outcome = try CLIRunner.run([
            "run", "--dataset", Self.dataset, "--out", out, "--limit", "6", "--resamples", "20",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("report: \(out)/report.html\n"))
        for file in ["results.json", "samples.jsonl", "report.md", "roc.csv", "scores.csv", "metrics.csv"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(file)"), "\(file)")
        }
        let results = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(out)/results.json")))
        #expect(results["test_run"] == .bool(true))
        #expect(results["counts"]?["evaluated"] == 6)
        #expect(results["schema"] == "rial-bench-results/1")
        #expect(results["metrics"]?["aggregate"]?["auc"] != nil)
        #expect(results["configuration_sha256"]?.stringValue?.count == 64)
        #expect(try String(contentsOfFile: "\(out)/report.md", encoding: .utf8).contains("TEST RUN"))

        // Re-render without re-running.
        try FileManager.default.removeItem(atPath: "\(out)/report.md")
        let report = try CLIRunner.run(["report", "--from", out])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(out)/report.md"))
    }

    @Test func shardsMergeIntoTheUnshardedRun() throws {
        let whole = try Fixtures.makeTemporaryFolder("rial-whole").path
        let a = try Fixtures.makeTemporaryFolder("rial-shard-a").path,
            b = try Fixtures.makeTemporaryFolder("rial-shard-b").path
        let merged = try Fixtures.makeTemporaryFolder("rial-merged").path
        #expect(try CLIRunner.run(["run", "--dataset", Self.dataset, "--out", whole, "--resamples", "30"]).status == 0)
        #expect(
            try CLIRunner.run(["run", "--dataset", Self.dataset, "--out", a, "--shard", "1/2", "--resamples", "30"])
                .status == 0)
        #expect(
            try CLIRunner.run(["run", "--dataset", Self.dataset, "--out", b, "--shard", "2/2", "--resamples", "30"])
                .status == 0)
        let outcome = try CLIRunner.run(["merge", a, b, "--out", merged])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let wholeResults = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(whole)/results.json")))
        let mergedResults = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(merged)/results.json")))
        #expect(wholeResults["metrics"] == mergedResults["metrics"])
        #expect(mergedResults["shards"] == 2)

        let compare = try CLIRunner.run(["compare", whole, merged, "--resamples", "50"])
        #expect(compare.status == 0, "\(compare.stderr)")
        #expect(compare.stdout.contains("8 shared samples"))

        // Gate (accuracy only: debug-build timings of 8 tiny samples are noise): the run against
        // itself passes; a doctored baseline fails with exit 2; no baseline is exit 4.
        let policy = "\(whole)/policy.yaml"
        try Data("latency: null\n".utf8).write(to: URL(fileURLWithPath: policy))
        let same = try CLIRunner.run([
            "gate", "--baseline", "\(whole)/results.json", "--current", merged, "--policy", policy,
        ])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        var doctored = wholeResults.objectValue!
        var metrics = doctored["metrics"]!.objectValue!
        var aggregate = metrics["aggregate"]!.objectValue!
        aggregate["auc"] = .number(1.5)
        metrics["aggregate"] = .object(aggregate)
        doctored["metrics"] = .object(metrics)
        let doctoredPath = "\(whole)/doctored.json"
        try JSONValue.object(doctored).serializedData().write(to: URL(fileURLWithPath: doctoredPath))
        let junit = "\(whole)/gate.xml"
        let gate = try CLIRunner.run([
            "gate", "--baseline", doctoredPath, "--current", merged, "--junit", junit,
            "--policy", policy,
        ])
        #expect(gate.status == 2)
        #expect(gate.stdout.contains("aggregate.auc"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<failure"))
        #expect(try CLIRunner.run(["gate", "--baseline", "\(whole)/missing.json", "--current", merged]).status == 4)
    }

    @Test func badManifestAndStrictFailures() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-bad")
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(
            #"{"format": "rial-bench-dataset/1", "samples": [{"id": "a", "image": "missing.jpg", "label": "real_scene"}]}"#
                .utf8
        )
        .write(to: manifest)
        let out = folder.appendingPathComponent("out").path
        let lenient = try CLIRunner.run(["run", "--dataset", manifest.path, "--out", out, "--resamples", "0"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("missing.jpg"))
        let strict = try CLIRunner.run([
            "run", "--dataset", manifest.path, "--out", out, "--resamples", "0", "--strict",
        ])
        #expect(strict.status == 3)
        try Data("{not json".utf8).write(to: manifest)
        let broken = try CLIRunner.run(["run", "--dataset", manifest.path, "--out", out])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains(manifest.path))
        #expect(try CLIRunner.run(["run", "--shard", "3/2"]).status == 64)
    }
}
