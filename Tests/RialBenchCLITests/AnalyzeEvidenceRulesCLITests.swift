import Foundation
import RialMedia
import Testing

/// `analyze` applies the product documents' check rules end to end (issue 14 item 1).
///
/// Expectations: PRD 1.1 / 2.0 "Evidence Status Values" (FAIL: "Red flag—possible
/// manipulation") and "Confidence Calculation (MVP)" (`if any_check_failed: return
/// SUSPICIOUS`). The capture is the PromptDA library corner with its ARKit depth and
/// Secure Enclave attestation, which the detection methods put at HIGH (no device
/// declared: no metadata check fails; the weighted level is the detection methods' alone,
/// `detectionLevel`); "Pixel 3" is not on the LiDAR device list, so `device_has_lidar`
/// fails.
@Suite struct AnalyzeEvidenceRulesCLITests {
    static let image = Fixtures.real("promptda/image.jpg")
    static let depth = Fixtures.real("promptda/arkit_depth.png")
    static let base = ["analyze", image, "--depth", depth, "--attestation", "secure_enclave"]

    /// The level the detection methods give the capture when no metadata check fails (no
    /// device declared); the passing cases below must keep it. It is at least HIGH: depth/2
    /// scores this real scene 0.99 with weight 0.55 (docs/defaults-real-photos.md).
    static func detectionLevel() throws -> JSONValue? {
        let outcome = try CLIRunner.run(base + ["--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let level = try JSONValue.parse(Data(outcome.stdout.utf8))["confidence_level"]
        #expect(level == "HIGH" || level == "VERY_HIGH")
        return level
    }

    @Test func failingDeviceCheckIsSuspiciousWithTheReason() throws {
        let outcome = try CLIRunner.run(Self.base + ["--device-model", "Pixel 3", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(package["metadata"]?["device_has_lidar"]?["status"] == "fail")
        #expect(package["confidence_level"] == "SUSPICIOUS")
        #expect(package["aggregation"]?["weighted_level"] == "SUSPICIOUS")
        #expect(package["aggregation"]?["mvp"]?["level"] == "SUSPICIOUS")
        #expect(package["aggregation"]?["failed_checks"] == .array(["metadata.device_has_lidar"]))
        let flags = package["scene_analysis"]?["cross_validation"]?["flags"]?.arrayValue ?? []
        #expect(flags.contains("metadata_check_failed"))

        let summary = try CLIRunner.run(Self.base + ["--device-model", "Pixel 3"])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("confidence: SUSPICIOUS"))
        #expect(summary.stdout.contains("caps: metadata.device_has_lidar: level capped at SUSPICIOUS"))
        #expect(summary.stdout.contains("'Pixel 3' is not on the LiDAR device list"))
    }

    /// PRD 1.1 "Granular Metadata Controls": excluded fields are noted as "User opted
    /// out" (not marked suspicious). With device info withheld, the model given is not
    /// checked and the level stays the detection methods'.
    @Test func optOutIsNotedAndNotSuspicious() throws {
        let outcome = try CLIRunner.run(
            Self.base + ["--device-model", "Pixel 3", "--opt-out", "device_info", "--opt-out", "location", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(package["metadata"]?["device_has_lidar"]?["status"] == "unavailable")
        #expect(package["metadata"]?["device_has_lidar"]?["detail"] == "User opted out")
        #expect(package["metadata"]?["opted_out"] == .array(["device_info", "location"]))
        #expect(package["confidence_level"] == (try Self.detectionLevel()))
    }

    /// The same capture from a LiDAR device passes the check and keeps its level; the MVP
    /// level beside it is HIGH (hardware pass, depth pass).
    @Test func lidarDeviceKeepsTheLevel() throws {
        let outcome = try CLIRunner.run(Self.base + ["--device-model", "iPhone 15 Pro", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(package["metadata"]?["device_has_lidar"]?["status"] == "pass")
        #expect(package["confidence_level"] == (try Self.detectionLevel()))
        #expect(package["aggregation"]?["mvp"]?["level"] == "HIGH")
    }

    /// `aggregation.rule: mvp` in a configuration file: the level is the MVP table's.
    @Test func mvpRuleFromTheConfigurationFile() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        let config = folder.appendingPathComponent("mvp.yaml").path
        try Data("aggregation:\n  rule: mvp\n".utf8).write(to: URL(fileURLWithPath: config))
        let outcome = try CLIRunner.run(Self.base + ["--device-model", "iPhone 15 Pro", "--config", config, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let package = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(package["confidence_level"] == "HIGH")
        #expect(package["aggregation"]?["rule"] == "mvp")
        #expect(package["aggregation"]?["weighted_level"] == (try Self.detectionLevel()))
    }
}
