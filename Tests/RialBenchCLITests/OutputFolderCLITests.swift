import Foundation
import RialMedia
import Testing

/// `methodology --out`, `gate --junit/--markdown` and `compare --markdown` create the
/// folders of their outputs, or fail with one line naming the path and exit 65 (issue 17,
/// item 7); `gate` fails closed with exit 65 on input it cannot evaluate (item 2).
@Suite(.serialized) struct OutputFolderCLITests {
    static let baseline = Fixtures.packageRoot.appendingPathComponent("reports/baseline.json").path
    static let policy = Fixtures.packageRoot.appendingPathComponent("reports/gate-policy.yaml").path

    /// A tiny run folder (4 synthetic captures, no bootstrap), made once.
    static let run: String = {
        let folder =
            (try? Fixtures.makeTemporaryFolder("rial-cli-outputs")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        _ = try? CLIRunner.run([
            "synth", "--out", folder.appendingPathComponent("data").path, "--count", "4", "--width", "128",
            "--height", "96", "--seed", "3",
        ])
        let out = folder.appendingPathComponent("run").path
        _ = try? CLIRunner.run([
            "run", "--dataset", folder.appendingPathComponent("data/manifest.json").path, "--out", out,
            "--resamples", "0",
        ])
        return out
    }()

    /// A path below a regular file, which no folder can be created under.
    static func belowAFile() throws -> (file: String, path: String) {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-blocked")
        let file = folder.appendingPathComponent("plain-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        return (file, "\(file)/sub/out.md")
    }

    static func expectOneLineError(_ outcome: CLIRunner.Outcome, naming path: String) {
        #expect(outcome.status == 65, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("rial-bench: error: \(path): "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("is a file, not a folder"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("NSCocoaErrorDomain") && !outcome.stderr.contains("Error Domain"))
    }

    @Test func gateCreatesItsReportFolders() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-gate-out").path
        let markdown = "\(folder)/new/deeper/gate.md", junit = "\(folder)/other/gate.xml"
        let outcome = try CLIRunner.run([
            "gate", "--baseline", Self.baseline, "--current", Self.baseline, "--policy", Self.policy,
            "--markdown", markdown, "--junit", junit,
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(try String(contentsOfFile: markdown, encoding: .utf8).contains("PASS"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<testsuite"))
    }

    @Test func gateRefusesAnUnwritableReportPath() throws {
        let (_, path) = try Self.belowAFile()
        for option in ["--markdown", "--junit"] {
            let outcome = try CLIRunner.run([
                "gate", "--baseline", Self.baseline, "--current", Self.baseline, "--policy", Self.policy, option, path,
            ])
            Self.expectOneLineError(outcome, naming: path)
        }
    }

    @Test func gateFailsClosedOnAMetricItCannotRead() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-gate-closed")
        var tree = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: Self.baseline))).objectValue!
        var metrics = tree["metrics"]!.objectValue!, aggregate = metrics["aggregate"]!.objectValue!
        aggregate["auc"] = .null
        metrics["aggregate"] = .object(aggregate)
        tree["metrics"] = .object(metrics)
        let broken = folder.appendingPathComponent("results.json").path
        try JSONValue.object(tree).serializedData().write(to: URL(fileURLWithPath: broken))
        let asCurrent = try CLIRunner.run([
            "gate", "--baseline", Self.baseline, "--current", broken, "--policy", Self.policy,
        ])
        #expect(asCurrent.status == 65, "\(asCurrent.stdout)\(asCurrent.stderr)")
        #expect(asCurrent.stderr.contains("\(broken): metrics.aggregate.auc is undefined"), "\(asCurrent.stderr)")
        let asBaseline = try CLIRunner.run(["gate", "--baseline", broken, "--current", Self.baseline])
        #expect(asBaseline.status == 65, "\(asBaseline.stderr)")

        tree["schema"] = "rial-bench-results/9"
        try JSONValue.object(tree).serializedData().write(to: URL(fileURLWithPath: broken))
        let schema = try CLIRunner.run(["gate", "--baseline", Self.baseline, "--current", broken])
        #expect(schema.status == 65)
        #expect(
            schema.stderr == "rial-bench: error: \(broken): schema 'rial-bench-results/9' is not rial-bench-results/1\n"
        )
        #expect(try CLIRunner.run(["gate", "--baseline", "\(broken).missing", "--current", broken]).status == 4)
    }

    @Test func compareCreatesItsMarkdownFolder() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-compare-out").path
        let markdown = "\(folder)/a/b/compare.md"
        let outcome = try CLIRunner.run(["compare", Self.run, Self.run, "--resamples", "10", "--markdown", markdown])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try String(contentsOfFile: markdown, encoding: .utf8).contains("rial-bench compare"))
        let (_, blocked) = try Self.belowAFile()
        let refused = try CLIRunner.run(["compare", Self.run, Self.run, "--resamples", "10", "--markdown", blocked])
        Self.expectOneLineError(refused, naming: blocked)
    }

    @Test func methodologyCreatesItsOutputFolder() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-methodology-out").path
        let out = "\(folder)/docs/new/methodology.md"
        let outcome = try CLIRunner.run(["methodology", "--from", Self.run, "--out", out])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(FileManager.default.fileExists(atPath: "\(folder)/docs/new/methodology.html"))
        let (_, blocked) = try Self.belowAFile()
        let refused = try CLIRunner.run(["methodology", "--from", Self.run, "--out", blocked])
        Self.expectOneLineError(refused, naming: blocked)
    }
}
