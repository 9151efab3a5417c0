import Foundation
import RialCodecs
import RialMedia
import Testing

/// `analyze --privacy-payload`: a hash-only payload verified with or without its media and
/// depth (issue 15 item 6).
@Suite struct AnalyzePrivacyCLITests {
    static let image = Fixtures.real("promptda/image.jpg")
    static let depth = Fixtures.real("promptda/arkit_depth.png")
    /// `sha256sum promptda/image.jpg` (also pinned by AnalyzeCommandTests).
    static let imageSHA256 = "32089d766a115bcd269abd8496ea22fdd535390bb59d5b08824c72774581292e"

    /// A photo payload claiming what depth/1 finds on PromptDA's library corner: not real
    /// (std 0.467 < 0.5, as AnalyzeCommandTests records).
    static func payload(hash: String = imageSHA256, edit: (inout JSONObject) -> Void = { _ in }) throws -> String {
        var o: JSONObject = [
            "capture_mode": "hash_only", "media_hash": .string(hash), "media_type": "photo",
            "depth_analysis": ["is_likely_real_scene": false],
            "metadata": ["metadata_flags": ["location": "none", "timestamp": "none", "device_info": "none"]],
            "captured_at": "2025-12-01T10:00:00Z", "assertion": "AAECAwQ=",
        ]
        edit(&o)
        let path = try Fixtures.makeTemporaryFolder().appendingPathComponent("p.json").path
        try JSONValue.object(o).serializedData().write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func withMediaAndDepth() throws {
        let p = try Self.payload()
        let outcome = try CLIRunner.run([
            "analyze", Self.image, "--privacy-payload", p, "--depth", Self.depth, "--attestation", "secure_enclave",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("media hash: pass"))
        #expect(outcome.stdout.contains("depth parity against depth/1 on \(Self.depth): pass (1 fields)"))
        // Not real -> depth check failed -> SUSPICIOUS under both rules (PRD 1.1 MVP rule).
        #expect(outcome.stdout.contains("confidence: SUSPICIOUS"))
        #expect(outcome.stdout.contains("deployed rule SUSPICIOUS"))
    }

    @Test func payloadAloneAsJSON() throws {
        let p = try Self.payload()
        let outcome = try CLIRunner.run(["analyze", "--privacy-payload", p, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(json["hash"]?["status"] == "unavailable")
        #expect(json["depth_parity"] == nil)
        #expect(json["confidence"]?["deployed"]?["level"] == "SUSPICIOUS")
        #expect(json["payload_target_bytes"] == .number(10240))
    }

    @Test func wrongMediaHashFails() throws {
        let p = try Self.payload(hash: String(repeating: "0", count: 64))
        let outcome = try CLIRunner.run(["analyze", Self.image, "--privacy-payload", p])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("media hash: FAIL"))
        #expect(outcome.stdout.contains("failed checks: privacy.depth_numbers") == false)
        #expect(outcome.stdout.contains("privacy.media_hash"))
    }

    @Test func badPayloadExits65NamingFileAndKeys() throws {
        let p = try Self.payload {
            $0["capture_mode"] = "full"
            $0["media_type"] = "audio"
        }
        let outcome = try CLIRunner.run(["analyze", "--privacy-payload", p])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("\(p): privacy payload: 'capture_mode' must be 'hash_only'"))
        #expect(outcome.stderr.contains("\(p): privacy payload: 'media_type' must be 'photo' or 'video'"))
    }

    /// A video payload from the payload alone and a reference temporal result: methods.md
    /// section 6 puts checkpoints every 150 frames (300 frames -> 2), and the generic
    /// temporal parity compares every number within privacy.temporal_tolerance (0.001).
    @Test func videoPayloadWithATemporalReference() throws {
        let p = try Self.payload { o in
            o["media_type"] = "video"
            o["hash_chain"] = [
                "final_hash": .string(String(repeating: "07", count: 32)), "chain_length": 300, "version": 1,
                "checkpoint_count": 2,
            ]
            o["temporal_depth_analysis"] = [
                "variance_stability": 0.93, "temporal_coherence": 0.5, "is_likely_real_scene": true,
            ]
            o["frame_count"] = 300
            o["duration_ms"] = 10000
        }
        let reference = try Fixtures.makeTemporaryFolder().appendingPathComponent("t.json").path
        try Data(#"{"variance_stability": 0.9302, "temporal_coherence": 0.6, "is_likely_real_scene": true}"#.utf8)
            .write(to: URL(fileURLWithPath: reference))
        let outcome = try CLIRunner.run(["analyze", "--privacy-payload", p, "--temporal-reference", reference])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("(privacy mode, video)"))
        #expect(outcome.stdout.contains("hash chain summary: pass"))
        #expect(
            outcome.stdout.contains(
                "temporal parity: fail (1 of 3 fields out of tolerance: temporal_coherence phone 0.5 vs reference 0.6"))
        #expect(outcome.stdout.contains("privacy.temporal_parity"))
    }

    /// The phone's privacy-mode temporal analysis recomputed from the recording's depth
    /// keyframes (`--depth-keyframes`). Three keyframes of uniform 0.5 m (the flat video of
    /// methods.md section 6), worked by hand from methods.md's depth/1: every std is 0, so
    /// mean_variance 0 and variance_stability 0 ("0 when the mean is 0"); no pixel pair
    /// differs, so no edges and coherence 1 - e^0 = 0; depth/1 says not real (variance 0),
    /// so real_frame_count 0 and is_likely_real_scene false.
    @Test func videoPayloadAgainstItsDepthKeyframes() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        let blob = folder.appendingPathComponent("depth.rldp").path
        let frames = try (0..<3).map { k in
            DepthKeyframe(
                timestamp: Double(k) / 10,
                depth: try #require(DepthMap(width: 8, height: 6, metres: .init(repeating: 0.5, count: 48))))
        }
        try DepthKeyframeBlob.write(try DepthKeyframes(frames), to: blob)
        func video(_ analysis: JSONValue) throws -> String {
            try Self.payload { o in
                o["media_type"] = "video"
                o["hash_chain"] = [
                    "final_hash": .string(String(repeating: "07", count: 32)), "chain_length": 9, "version": 1,
                    "checkpoint_count": 0,
                ]
                o["temporal_depth_analysis"] = analysis
                o["frame_count"] = 9
                o["duration_ms"] = 300
            }
        }
        let honest = try video([
            "frame_count": 3, "real_frame_count": 0, "mean_variance": 0, "variance_stability": 0,
            "temporal_coherence": 0, "is_likely_real_scene": false,
        ])
        let ok = try CLIRunner.run(["analyze", "--privacy-payload", honest, "--depth-keyframes", blob])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("temporal parity: pass"), "\(ok.stdout)")
        let claimed = try video([
            "frame_count": 3, "real_frame_count": 3, "mean_variance": 0.4, "variance_stability": 0.93,
            "temporal_coherence": 0.5, "is_likely_real_scene": true,
        ])
        let lie = try CLIRunner.run(["analyze", "--privacy-payload", claimed, "--depth-keyframes", blob])
        #expect(lie.stdout.contains("temporal parity: fail"), "\(lie.stdout)")
        #expect(lie.stdout.contains("variance_stability phone 0.93 vs reference 0"), "\(lie.stdout)")
        // Both references at once, or keyframes without a payload: refused.
        let both = try CLIRunner.run([
            "analyze", "--privacy-payload", honest, "--depth-keyframes", blob, "--temporal-reference", blob,
        ])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--depth-keyframes and --temporal-reference both give the temporal reference"))
        #expect(try CLIRunner.run(["analyze", Self.image, "--depth-keyframes", blob]).status == 64)
    }

    @Test func usageErrors() throws {
        #expect(try CLIRunner.run(["analyze"]).status == 64)
        #expect(try CLIRunner.run(["analyze", Self.image, "--chain", "c.json"]).status == 64)
        let p = try Self.payload()
        #expect(try CLIRunner.run(["analyze", Self.image, "--privacy-payload", p, "--right", Self.image]).status == 64)
    }
}
