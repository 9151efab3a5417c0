import Foundation
import Testing

/// `methodology --from DIR` reads a run folder as `report`, `compare`, `gate` and `rescore`
/// do: a `samples.jsonl` that does not match the digest `results.json` records (or a
/// `results.json` that records none) is refused with exit 65 and one line naming the file,
/// and no report is written.
@Suite(.serialized) struct MethodologyFolderCLITests {
    static let dataset: String = {
        let folder =
            (try? Fixtures.makeTemporaryFolder("rial-cli-methodology")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        _ = try? CLIRunner.run([
            "synth", "--out", folder.path, "--count", "4", "--width", "256", "--height", "192", "--seed", "11",
        ])
        return folder.appendingPathComponent("manifest.json").path
    }()

    /// A fresh run of 4 samples in a new folder; returns the run folder.
    static func freshRun(_ label: String) throws -> URL {
        let out = try Fixtures.makeTemporaryFolder(label).appendingPathComponent("run")
        let outcome = try CLIRunner.run([
            "run", "--dataset", dataset, "--out", out.path, "--limit", "4", "--resamples", "10",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return out
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case lastLineDropped, lineAppended, byteChanged, samplesRemoved, samplesEmptied, digestRemoved
        var testDescription: String { rawValue }
    }

    /// The damage done to `folder`, and the part of the one-line message that names it.
    static func apply(_ damage: Damage, to folder: URL) throws -> String {
        let samples = folder.appendingPathComponent("samples.jsonl")
        let text = try String(contentsOf: samples, encoding: .utf8)
        let lines = text.split(separator: "\n")
        switch damage {
        case .lastLineDropped:
            try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: samples)
            return "\(samples.path): 3 lines but results.json was computed from 4"
        case .lineAppended:
            try Data((text + lines[0] + "\n").utf8).write(to: samples)
            return "\(samples.path): 5 lines but results.json was computed from 4"
        case .byteChanged:
            var data = Data(text.utf8)
            let index = data.firstIndex(of: UInt8(ascii: ":"))!
            data[index + 1] = data[index + 1] == UInt8(ascii: " ") ? UInt8(ascii: "\t") : UInt8(ascii: " ")
            try data.write(to: samples)
            return "does not match results.json's"
        case .samplesRemoved:
            try FileManager.default.removeItem(at: samples)
            return "\(samples.path): no such file"
        case .samplesEmptied:
            try Data().write(to: samples)
            return "\(samples.path): 0 lines but results.json was computed from 4"
        case .digestRemoved:
            let resultsURL = folder.appendingPathComponent("results.json")
            var object = try #require(
                JSONSerialization.jsonObject(with: Data(contentsOf: resultsURL)) as? [String: Any])
            object["samples_sha256"] = nil
            object["samples_lines"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: resultsURL)
            return "\(resultsURL.path): records no samples_sha256/samples_lines"
        }
    }

    @Test(arguments: Damage.allCases)
    func aFolderWhoseFilesDoNotMatchIsRefused(_ damage: Damage) throws {
        let out = try Self.freshRun("rial-methodology-\(damage.rawValue)")
        let expected = try Self.apply(damage, to: out)
        let report = out.deletingLastPathComponent().appendingPathComponent("reports/methodology.md")
        let outcome = try CLIRunner.run(["methodology", "--from", out.path, "--out", report.path])
        #expect(outcome.status == 65, "\(damage): \(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(expected), "\(damage): \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(damage): \(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: report.path), "\(damage)")
        #expect(!FileManager.default.fileExists(atPath: report.deletingPathExtension().path + ".html"), "\(damage)")
    }

    /// An intact run folder still gives its report (the check refuses only what does not match).
    @Test func anIntactFolderIsReported() throws {
        let out = try Self.freshRun("rial-methodology-intact")
        let report = out.deletingLastPathComponent().appendingPathComponent("methodology.md")
        let outcome = try CLIRunner.run(["methodology", "--from", out.path, "--out", report.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: report.path))
    }

    /// `--bench FILE` adds the bench's single-capture section before the run's latency and
    /// its command to the reproduction block; a file that is not a bench report is refused
    /// with exit 65 and one line naming it, and no report is written.
    @Test func aBenchReportIsShownAndABadOneRefused() throws {
        let out = try Self.freshRun("rial-methodology-bench")
        let folder = out.deletingLastPathComponent()
        let bench = folder.appendingPathComponent("bench.json")
        try Data(
            """
            {"schema": "rial-bench-bench/1", "iterations": 7, "warmup": 1, "build": "release", "capture": "c",
             "environment": {"os": "L", "cpu": "CPU", "cores": 2, "memory_gib": 1, "swift": "6", "hostname": "h"},
             "entries": [{"key": "decode", "verdict": "n/a", "statistics": {"n": 7, "min_ms": 1, "mean_ms": 2,
               "p50_ms": 2, "p90_ms": 3, "p95_ms": 3, "p99_ms": 3, "max_ms": 3, "excluded": 0}}],
             "end_to_end_over_decode": 1.25}
            """.utf8
        ).write(to: bench)
        let report = folder.appendingPathComponent("methodology.md")
        let outcome = try CLIRunner.run([
            "methodology", "--from", out.path, "--bench", bench.path, "--out", report.path,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let text = try String(contentsOf: report, encoding: .utf8)
        let single = try #require(text.range(of: "## Latency on one capture (`rial-bench bench`)"))
        let run = try #require(text.range(of: "## Latency in the run"))
        #expect(single.lowerBound < run.lowerBound)
        #expect(text.contains("| `decode` | 7 | 2.00 | 3.00 | 3.00 | — | n/a |"))
        #expect(text.contains("took 1.25 x the decode"))
        #expect(text.contains("rial-bench bench --iterations 7 --json > \(bench.path)"))

        try Data("{\"schema\": \"rial-bench-bench/1\"}".utf8).write(to: bench)
        let refused = folder.appendingPathComponent("refused.md")
        let bad = try CLIRunner.run(["methodology", "--from", out.path, "--bench", bench.path, "--out", refused.path])
        #expect(bad.status == 65, "\(bad.stdout)\(bad.stderr)")
        #expect(bad.stderr.contains("\(bench.path): not a bench report"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: refused.path))
    }
}
