import Foundation
import RialMedia
import Testing

/// `rial-bench tune` through the built binary: outputs, determinism, and that tuned.yaml
/// is a configuration the other commands accept.
@Suite(.serialized) struct TuneCommandTests {
    static let folder: URL =
        (try? Fixtures.makeTemporaryFolder("rial-cli-tune")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
    static var dataset: String { folder.appendingPathComponent("set/manifest.json").path }

    static let run: String = {
        _ = try? CLIRunner.run([
            "synth", "--out", folder.appendingPathComponent("set").path, "--count", "16", "--width", "256",
            "--height", "192", "--seed", "5",
        ])
        let out = folder.appendingPathComponent("run").path
        _ = try? CLIRunner.run([
            "run", "--dataset", dataset, "--out", out,
            "--resamples", "10",
        ])
        return out
    }()

    func tune(_ out: String, _ extra: [String] = []) throws -> CLIRunner.Outcome {
        try CLIRunner.run(
            ["tune", "--from", Self.run, "--folds", "2", "--resamples", "20", "--seed", "3", "--out", out] + extra)
    }

    /// Lines of `text` that do not carry the date.
    func withoutDate(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.contains("created") }
    }

    @Test func sameSeedSameFilesAndTheConfigurationIsAccepted() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-cli-tune-out")
        let a = parent.appendingPathComponent("a").path, b = parent.appendingPathComponent("b").path
        let first = try tune(a), second = try tune(b)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0)
        for file in ["tuned.yaml", "tune.json"] {
            let x = try String(contentsOfFile: "\(a)/\(file)", encoding: .utf8)
            let y = try String(contentsOfFile: "\(b)/\(file)", encoding: .utf8)
            #expect(withoutDate(x) == withoutDate(y), "\(file) differs")
        }
        let markdown = try String(contentsOfFile: "\(a)/tune.md", encoding: .utf8)
        #expect(markdown.contains("## Held out, pooled"))
        // The run was made with the default configuration: its `aggregate_with` is recorded
        // and named (the newest version of each family).
        #expect(markdown.contains("Aggregated versions (every input run's `aggregate_with`): "))
        #expect(markdown.contains("`texture/4`") && markdown.contains("`artifacts/2`"))
        let yaml = try String(contentsOfFile: "\(a)/tuned.yaml", encoding: .utf8)
        #expect(yaml.contains("provenance:") && yaml.contains("calibration:"))
        let check = try CLIRunner.run(["config", "check", "\(a)/tuned.yaml"])
        #expect(check.status == 0, "\(check.stderr)")
        let again = try CLIRunner.run([
            "run", "--dataset", Self.dataset, "--limit", "3", "--resamples", "0", "--config", "\(a)/tuned.yaml",
            "--out", parent.appendingPathComponent("r").path,
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let rescored = try CLIRunner.run([
            "rescore", Self.run, "--config", "\(a)/tuned.yaml", "--out", parent.appendingPathComponent("s").path,
        ])
        #expect(rescored.status == 0, "\(rescored.stderr)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        let out = try Fixtures.makeTemporaryFolder("rial-cli-tune-bad").path
        #expect(try tune(out, ["--target-bpcer", "0.05", "--target-apcer", "0.01"]).status == 64)
        #expect(try tune(out, ["--target-bpcer", "1.5"]).status == 64)
        #expect(try CLIRunner.run(["tune", "--out", out]).status == 64)
        let missing = try CLIRunner.run(["tune", "--from", "/nonexistent/run", "--out", out])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("/nonexistent/run: no such run folder"))
        // The synthetic set has no source tags: one source (its dataset), nothing to hold out.
        let oneSource = try tune(out, ["--by", "source"])
        #expect(oneSource.status == 65)
        #expect(oneSource.stderr.contains("--by source needs at least 2 sources to hold one out, found 1"))
    }
}
