import Foundation
import RialMedia
import Testing

/// `analyze` applies the configuration's calibration before aggregation and shows the
/// ranking score.
@Suite struct AnalyzeCalibrationTests {
    /// depth/2 mapped to a constant 0.1 (isotonic through (0, 0.1), (1, 0.1)): the raw
    /// score stays in the breakdown, `calibrated_score` is 0.1, and with depth/2 at 0.1
    /// the aggregate cannot be HIGH or above (the primary says fake, so at most MEDIUM).
    @Test func calibratedScoreFeedsAggregation() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        let config = folder.appendingPathComponent("calibrated.yaml").path
        try "calibration:\n  depth/2: {kind: isotonic, x: [0, 1], y: [0.1, 0.1]}\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let args = [
            "analyze", AnalyzeCommandTests.image, "--depth", AnalyzeCommandTests.depth, "--attestation",
            "secure_enclave", "--config", config,
        ]
        let outcome = try CLIRunner.run(args + ["--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        let depth = try #require(package["scene_analysis"]?["breakdown"]?["depth/2"])
        #expect(depth["calibrated_score"]?.numberValue == 0.1)
        #expect(depth["score"]?.numberValue != 0.1)
        #expect(package["scene_analysis"]?["breakdown"]?["depth/1"]?["calibrated_score"] == nil)
        let ranking = try #require(package["aggregation"]?["ranking_score"]?.numberValue)
        #expect(ranking < 0.75)
        #expect(package["scene_analysis"]?["is_likely_real_scene"] == .bool(ranking >= 0.5))

        let summary = try CLIRunner.run(args)
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("ranking score "))
        #expect(summary.stdout.contains("-> 0.100"))
    }
}
