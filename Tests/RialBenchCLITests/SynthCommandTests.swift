import Foundation
import Testing

@Suite struct SynthCommandTests {
    /// `synth` writes a dataset that the manifest loader accepts with every hash checked.
    @Test func synthOutputValidates() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-synth")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("set").path
        let synth = try CLIRunner.run([
            "synth", "--out", out, "--count", "4", "--width", "128", "--height", "96",
            "--seed", "5", "--procedural-only",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        #expect(synth.stdout.contains("4 captures"))
        let validate = try CLIRunner.run(["dataset", "validate", out + "/manifest.json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    }

    @Test func badArgumentsAreUsageErrors() throws {
        #expect(try CLIRunner.run(["synth", "--out", "/tmp/x", "--count", "0"]).status == 64)
        #expect(try CLIRunner.run(["synth", "--out", "/tmp/x", "--count", "2", "--width", "10"]).status == 64)
        #expect(try CLIRunner.run(["synth", "--out", "/tmp/x", "--count", "2", "--classes", "tv"]).status == 64)
    }
}
