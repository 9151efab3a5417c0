import Foundation
import RialMedia
import Testing

/// `rescore` through the built binary: a run under configuration A rescored to B equals a
/// fresh run under B, and what a rescore cannot do is refused.
@Suite(.serialized) struct RescoreCommandTests {
    /// 8 synthetic captures (one with a truncated photo, so one sample fails), run once
    /// under the defaults (A).
    static let fixture: (dataset: String, runA: String)? = {
        guard let folder = try? Fixtures.makeTemporaryFolder("rial-cli-rescore") else { return nil }
        let data = folder.appendingPathComponent("data")
        _ = try? CLIRunner.run([
            "synth", "--out", data.path, "--count", "8", "--width", "256", "--height", "192", "--second-view",
            "--seed", "11",
        ])
        let manifest = data.appendingPathComponent("manifest.json").path
        guard let tree = try? JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: manifest))),
            let image = tree["samples"]?.arrayValue?[2]["image"]?.stringValue,
            let bytes = try? Data(contentsOf: data.appendingPathComponent(image))
        else { return nil }
        try? bytes.prefix(bytes.count / 2).write(to: data.appendingPathComponent(image))
        let runA = folder.appendingPathComponent("runA").path
        guard
            let outcome = try? CLIRunner.run([
                "run", "--dataset", manifest, "--out", runA, "--resamples", "40",
            ]), outcome.status == 0
        else { return nil }
        return (manifest, runA)
    }()

    /// B: other weights, a Platt and an isotonic calibration, another decision threshold.
    static let configB = """
        aggregation:
          profiles:
            ios_pro: {weights: {lidar: 0.4, moire: 0.3, texture: 0.1, supporting: 0.2}}
        calibration:
          moire/1: {kind: platt, a: -8, b: 4}
          depth/2: {kind: isotonic, x: [0, 0.3, 0.8], y: [0.05, 0.5, 0.95]}
        decision: {threshold: 0.6}
        provenance: {note: "rescore test"}
        """

    static func write(_ text: String, name: String) throws -> String {
        let path = try Fixtures.makeTemporaryFolder("rial-cli-rescore-config").appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A record without its timings: `latency_ms` and every `analysis_time_ms`, at any depth.
    static func untimed(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var copy = JSONObject()
            for (key, child) in object where key != "latency_ms" && key != "analysis_time_ms" {
                copy[key] = untimed(child)
            }
            return .object(copy)
        case .array(let items): return .array(items.map(untimed))
        default: return value
        }
    }

    static func records(_ folder: String) throws -> [JSONValue] {
        let text = try String(contentsOfFile: "\(folder)/samples.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").map { try untimed(JSONValue.parse(Data($0.utf8))) }
    }

    static func results(_ folder: String) throws -> JSONValue {
        try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(folder)/results.json")))
    }

    /// From the run's columns (the default: no samples.jsonl is written, the folder names
    /// the run's) and with --write-samples.
    @Test(arguments: [false, true])
    func rescoreEqualsAFreshRunWithTheNewConfiguration(writeSamples: Bool) throws {
        let (dataset, runA) = try #require(Self.fixture)
        let configB = try Self.write(Self.configB, name: "b.yaml")
        let rescored = try Fixtures.makeTemporaryFolder("rial-cli-rescored").path
        let fresh = try Fixtures.makeTemporaryFolder("rial-cli-fresh").path

        let rescore = try CLIRunner.run(
            ["rescore", runA, "--config", configB, "--out", rescored] + (writeSamples ? ["--write-samples"] : []))
        #expect(rescore.status == 0, "\(rescore.stderr)")
        #expect(rescore.stdout.contains("7 samples rescored, 1 failed carried over"))
        let run = try CLIRunner.run([
            "run", "--dataset", dataset, "--config", configB, "--out", fresh, "--resamples", "40",
        ])
        #expect(run.status == 0, "\(run.stderr)")

        let a = try Self.records(runA), c = try Self.records(fresh)
        let b: [JSONValue]
        if writeSamples {
            b = try Self.records(rescored)
        } else {
            // No records of its own: they are runA's, aggregated under B; a rescore of the
            // folder that writes them under the same B gives them.
            #expect(!FileManager.default.fileExists(atPath: "\(rescored)/samples.jsonl"))
            #expect(
                rescore.stdout.contains("records: \(URL(fileURLWithPath: runA).standardizedFileURL.path)/samples.jsonl")
            )
            let written = try Fixtures.makeTemporaryFolder("rial-cli-rescored-written").path
            let again = try CLIRunner.run(
                ["rescore", rescored, "--config", configB, "--out", written, "--write-samples"])
            #expect(again.status == 0, "\(again.stderr)")
            b = try Self.records(written)
            // The run's columns, byte for byte those of the fresh run.
            for file in ["metric-columns.bin", "aggregation-inputs.bin"] {
                let x = try? Data(contentsOf: URL(fileURLWithPath: "\(rescored)/\(file)"))
                let y = try? Data(contentsOf: URL(fileURLWithPath: "\(fresh)/\(file)"))
                #expect(x != nil && x == y, "\(file)")
            }
            let compare = try CLIRunner.run(["compare", rescored, fresh])
            #expect(compare.status == 0, "\(compare.stderr)")
            // Its results.json is checked as a run folder's (the records it names included).
            let gate = try CLIRunner.run([
                "gate", "--baseline", "\(rescored)/results.json", "--current", "\(rescored)/results.json",
            ])
            #expect(gate.status == 0, "\(gate.stderr)")
            let copy = try Fixtures.makeTemporaryFolder("rial-cli-rescored-moved").appendingPathComponent("run").path
            try FileManager.default.copyItem(atPath: rescored, toPath: copy)
            var results = try #require(try Self.results(copy).objectValue)
            results["samples_from"] = .string("/nonexistent/run")
            try JSONValue.object(results).serializedData().write(to: URL(fileURLWithPath: "\(copy)/results.json"))
            let moved = try CLIRunner.run([
                "gate", "--baseline", "\(copy)/results.json", "--current", "\(copy)/results.json",
            ])
            #expect(moved.status == 65)
            #expect(moved.stderr.contains("/nonexistent/run/samples.jsonl"), "\(moved.stderr)")
        }
        #expect(b.count == 8)
        #expect(b == c)
        // B changes what the aggregate says, so the test is not comparing A with itself.
        #expect(a.map { $0["aggregate"] } != b.map { $0["aggregate"] })
        #expect(b.filter { $0["status"] == "failed" }.count == 1)
        for record in b where record["status"] == "evaluated" {
            #expect(record["aggregation_inputs"]?["moire/1"]?["score"] == record["methods"]?["moire/1"]?["score"])
        }

        let r = try Self.results(rescored), f = try Self.results(fresh)
        for key in [
            "metrics", "metrics_by_data", "configuration", "configuration_sha256", "counts", "methods", "failures",
            "aggregate_levels", "rule_levels", "success_metrics",
        ] {
            #expect(r[key] == f[key], "\(key)")
        }
        #expect(r["metrics"]?["aggregate"] != nil)
        let origin = try #require(r["rescored_from"])
        #expect(origin["samples_sha256"] == (try Self.results(runA))["samples_sha256"])
        #expect(origin["configuration_file"] == .string(configB))
        #expect(origin["configuration_file_sha256"]?.stringValue?.count == 64)
        #expect(f["rescored_from"] == nil)
        for file in ["report.md", "report.html", "roc.csv", "scores.csv", "metrics.csv"] {
            #expect(FileManager.default.fileExists(atPath: "\(rescored)/\(file)"), "\(file)")
        }
        // The per-sample and curve reports (rescore reuses the score columns the metrics read,
        // run reads them again) are byte for byte those of the fresh run.
        for file in ["roc.csv", "det.csv", "scores.csv", "metrics.csv", "det-simulated.svg", "scores-aggregate.svg"] {
            let x = try? Data(contentsOf: URL(fileURLWithPath: "\(rescored)/\(file)"))
            let y = try? Data(contentsOf: URL(fileURLWithPath: "\(fresh)/\(file)"))
            #expect(x != nil && x == y, "\(file)")
        }
        // The rescored folder is a verified run folder.
        let report = try CLIRunner.run(["report", "--from", rescored])
        #expect(report.status == 0, "\(report.stderr)")
    }

    @Test func aMethodConstantCannotChange() throws {
        let (_, runA) = try #require(Self.fixture)
        let out = try Fixtures.makeTemporaryFolder("rial-cli-rescore-refused").path
        let config = try Self.write("depth/2: {min_valid_pixels: 100}\n", name: "method.yaml")
        let outcome = try CLIRunner.run(["rescore", runA, "--config", config, "--out", out])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("key 'depth/2.min_valid_pixels': the run used 64, the configuration has 100"))
        #expect(!FileManager.default.fileExists(atPath: "\(out)/results.json"))

        let methods = try Self.write(
            """
            methods: [depth/1, depth/2, parallax/1, moire/1, texture/1]
            aggregate_with: {depth: depth/2, parallax: parallax/1, moire: moire/1, texture: texture/1}
            """, name: "methods.yaml")
        let dropped = try CLIRunner.run(["rescore", runA, "--config", methods, "--out", out])
        #expect(dropped.status == 65)
        #expect(dropped.stderr.contains("key 'methods'"))
    }

    @Test func runsWithoutAggregationInputsAreRefused() throws {
        let (_, runA) = try #require(Self.fixture)
        let old = try Fixtures.makeTemporaryFolder("rial-cli-rescore-old").path
        try FileManager.default.removeItem(atPath: old)
        try FileManager.default.copyItem(atPath: runA, toPath: old)
        // Strip the field from every record and re-record the digest, as an older run looks.
        let lines = try String(contentsOfFile: "\(old)/samples.jsonl", encoding: .utf8).split(separator: "\n")
        let stripped = try lines.map { line -> String in
            var object = try #require(try JSONValue.parse(Data(line.utf8)).objectValue)
            object["aggregation_inputs"] = nil
            return JSONValue.object(object).serialized(pretty: false)
        }
        try (stripped.joined(separator: "\n") + "\n").write(
            toFile: "\(old)/samples.jsonl", atomically: true, encoding: .utf8)
        let report = try CLIRunner.run(["report", "--from", old])
        #expect(report.status == 65) // the digest no longer matches ...
        var results = try #require(try Self.results(old).objectValue)
        let digest = try CLIRunner.run(executable: URL(fileURLWithPath: "/usr/bin/sha256sum"), ["\(old)/samples.jsonl"])
        results["samples_sha256"] = .string(String(digest.stdout.prefix(64)))
        results["metric_columns_sha256"] = nil // nor metric columns
        try JSONValue.object(results).serializedData().write(to: URL(fileURLWithPath: "\(old)/results.json"))

        let out = try Fixtures.makeTemporaryFolder("rial-cli-rescore-old-out").path
        let config = try Self.write(Self.configB, name: "b.yaml")
        let outcome = try CLIRunner.run(["rescore", old, "--config", config, "--out", out])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("has no aggregation_inputs"))
        #expect(outcome.stderr.contains("re-run it with this version"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test func usageErrors() throws {
        let (_, runA) = try #require(Self.fixture)
        let config = try Self.write(Self.configB, name: "b.yaml")
        let same = try CLIRunner.run(["rescore", runA, "--config", config, "--out", runA])
        #expect(same.status == 64)
        let profile = try CLIRunner.run(["rescore", runA, "--config", config, "--out", "/tmp/x", "--profile", "nope"])
        #expect(profile.status == 64)
        #expect(profile.stderr.contains("--profile 'nope'"))
        let missing = try CLIRunner.run(["rescore", "/nonexistent/run", "--config", config, "--out", "/tmp/x-rescore"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("/nonexistent/run: no such run folder"))
    }
}
