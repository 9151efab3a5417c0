import Foundation
import RialMedia
import Testing

@Suite struct AnalyzeCommandTests {
    static let image = Fixtures.real("promptda/image.jpg")
    static let depth = Fixtures.real("promptda/arkit_depth.png")

    @Test func jsonEvidencePackageHasEveryMethod() throws {
        let outcome = try CLIRunner.run([
            "analyze", Self.image, "--depth", Self.depth, "--attestation", "secure_enclave", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        let breakdown = try #require(package["scene_analysis"]?["breakdown"]?.objectValue)
        #expect(breakdown["depth/1"]?["status"] == "completed")
        #expect(breakdown["depth/2"]?["status"] == "completed")
        // PromptDA's library corner: depth/1 fails it (std 0.467 < 0.5), depth/2 sees several planes.
        #expect(breakdown["depth/1"]?["is_likely_real_scene"] == .bool(false))
        #expect(breakdown["depth/2"]?["is_likely_real_scene"] == .bool(true))
        #expect(package["provenance"]?["sha256"] == "32089d766a115bcd269abd8496ea22fdd535390bb59d5b08824c72774581292e")
        #expect(package["latency_ms"]?["depth/2"]?.numberValue != nil)
        #expect(package["hardware_attestation"]?["status"] == "pass")
    }

    @Test func methodSelectsTheAggregatedVersion() throws {
        let outcome = try CLIRunner.run(["analyze", Self.image, "--depth", Self.depth, "--method", "depth/1", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(package["scene_analysis"]?["primary_method"] == "depth/1")
        #expect(package["scene_analysis"]?["breakdown"]?["depth/2"] == nil)
    }

    @Test func summaryIsReadable() throws {
        let outcome = try CLIRunner.run(["analyze", Self.image, "--depth", Self.depth])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("confidence: "))
        #expect(outcome.stdout.contains("depth/2"))
    }

    @Test func badInputsExit65NamingTheFile() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        let corrupt = folder.appendingPathComponent("corrupt.jpg").path
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: URL(fileURLWithPath: corrupt))
        var outcome = try CLIRunner.run(["analyze", corrupt])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("rial-bench: error: \(corrupt): "))

        let truncatedDepth = folder.appendingPathComponent("d.f32").path
        try Data(count: 100).write(to: URL(fileURLWithPath: truncatedDepth))
        outcome = try CLIRunner.run(["analyze", Self.image, "--depth", truncatedDepth, "--depth-format", "f32le"])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains(truncatedDepth))

        let config = folder.appendingPathComponent("c.yaml").path
        try Data("depth/2:\n  sample_stride: 0\n".utf8).write(to: URL(fileURLWithPath: config))
        outcome = try CLIRunner.run(["analyze", Self.image, "--config", config])
        #expect(outcome.status == 65)
        #expect(outcome.stderr == "rial-bench: error: \(config): key 'depth/2.sample_stride': must be >= 1, got 0\n")

        outcome = try CLIRunner.run(["analyze", "/nonexistent/x.jpg"])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("/nonexistent/x.jpg"))
    }

    @Test func usageErrorsExit64() throws {
        #expect(try CLIRunner.run(["analyze", Self.image, "--method", "depth/9"]).status == 64)
        #expect(try CLIRunner.run(["analyze", Self.image, "--heatmap", "/tmp/x.png"]).status == 64)
    }

    @Test func configPrintRoundTripsThroughCheck() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        let printed = try CLIRunner.run(["config", "print"])
        #expect(printed.status == 0)
        let file = folder.appendingPathComponent("defaults.yaml")
        try Data(printed.stdout.utf8).write(to: file)
        let check = try CLIRunner.run(["config", "check", file.path])
        #expect(check.status == 0, "\(check.stderr)")
        let bad = folder.appendingPathComponent("bad.yaml")
        try Data("aggregation:\n  agreement_bost: 0.1\n".utf8).write(to: bad)
        let refused = try CLIRunner.run(["config", "check", bad.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("unknown key 'aggregation.agreement_bost'; did you mean 'agreement_boost'?"))
    }
}
