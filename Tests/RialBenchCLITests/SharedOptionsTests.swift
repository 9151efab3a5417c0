import Foundation
import Testing

/// The option groups shared by several commands and the one error-to-exit-status mapping.
@Suite struct SharedOptionsTests {
    static let depth = Fixtures.real("promptda/arkit_depth.png")

    /// `--jobs` is validated by its group, with the same message, in every command.
    @Test(arguments: [
        ["run"], ["synth", "--out", "/tmp/x", "--count", "2"], ["dataset", "default"],
        ["train", "texture", "--dataset", "m.json", "--out", "x"],
    ])
    func jobsBelowOneIsAUsageError(_ command: [String]) throws {
        let outcome = try CLIRunner.run(command + ["--jobs", "0"])
        #expect(outcome.status == 64, "\(command): \(outcome.stderr)")
        #expect(outcome.stderr.contains("--jobs must be at least 1, got 0"), "\(command): \(outcome.stderr)")
    }

    /// `inspect`'s short spellings and the `--depth-*` names read the file the same way:
    /// 1/1000 m per unit gives PromptDA's millimetre depth (numpy: min 1.566 m).
    @Test func depthOptionAliasesReadTheSameWay() throws {
        let short = try CLIRunner.run(["inspect", Self.depth, "--depth-format", "u16_png_scaled", "--scale", "0.001"])
        let long = try CLIRunner.run([
            "inspect", Self.depth, "--depth-format", "u16_png_scaled", "--depth-scale", "0.001",
        ])
        #expect(short.status == 0, "\(short.stderr)")
        #expect(short.stdout == long.stdout)
        #expect(short.stdout.contains("1.566"))
    }

    @Test(arguments: [
        ["inspect", "d.bin", "--width", "0"], ["inspect", "d.bin", "--depth-height", "0"],
        ["analyze", "i.jpg", "--depth", "d.bin", "--depth-scale", "nan"],
    ])
    func depthOptionsAreValidatedByTheirGroup(_ arguments: [String]) throws {
        let outcome = try CLIRunner.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        #expect(
            outcome.stderr.contains("must be a positive") || outcome.stderr.contains("must be positive"),
            "\(arguments): \(outcome.stderr)")
    }

    @Test func depthOptionsWithoutDepthAreAUsageErrorInAnalyze() throws {
        let outcome = try CLIRunner.run(["analyze", "i.jpg", "--depth-width", "256"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("need --depth"), "\(outcome.stderr)")
    }

    /// A failure while running prints exactly one line naming the file, with the status
    /// of specs/evaluation.md.
    @Test func runtimeFailuresPrintOneLineAndTheirExitStatus() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.json").path
        let gate = try CLIRunner.run(["gate", "--baseline", missing, "--current", folder.path])
        #expect(gate.status == 4)
        #expect(
            gate.stderr
                == "rial-bench: error: \(missing): baseline missing (create one with `cp RUN/results.json \(missing)`)\n"
        )

        let report = try CLIRunner.run(["report", "--from", folder.path])
        #expect(report.status == 65)
        #expect(report.stderr.split(separator: "\n").count == 1, "\(report.stderr)")
        #expect(report.stderr.hasPrefix("rial-bench: error: \(folder.path)/results.json"), "\(report.stderr)")

        let synth = try CLIRunner.run([
            "synth", "--out", folder.appendingPathComponent("set").path, "--count", "1",
            "--mirror", folder.appendingPathComponent("no-mirror").path,
        ])
        #expect(synth.status == 65)
        #expect(
            synth.stderr
                == "rial-bench: error: \(folder.path)/no-mirror: no such folder (the data mirror for textures)\n")
    }
}
