import Foundation
import RialMedia
import Testing

/// Issue 17 item 6 through `rial-bench analyze`: a depth file or a detection payload
/// whose every value is invalid gives an evidence package no better than the same
/// photo without it, and says why; a payload the parser refuses exits 65 naming it.
@Suite struct InvalidEvidenceCLITests {
    static let screen = Fixtures.real("moiredet/xiaomi10_labtv_219.jpg")
    static let scene = Fixtures.real("promptda/image.jpg")
    static let levels = ["SUSPICIOUS", "LOW", "MEDIUM", "HIGH", "VERY_HIGH"]

    /// The evidence package of `analyze IMAGE ARGUMENTS --json`.
    static func package(_ image: String, _ arguments: [String] = []) throws -> JSONValue {
        let outcome = try CLIRunner.run(["analyze", image, "--attestation", "secure_enclave", "--json"] + arguments)
        #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        return try JSONValue.parse(Data(outcome.stdout.utf8))
    }

    /// Why `package` is better than `baseline`, or nil when it is not.
    static func improvement(_ package: JSONValue, over baseline: JSONValue) -> String? {
        let level = { (p: JSONValue) in p["confidence_level"]?.stringValue.flatMap(levels.firstIndex) ?? -1 }
        if level(package) > level(baseline) { return "level \(level(baseline)) -> \(level(package))" }
        for path in [["confidence_score"], ["aggregation", "ranking_score"]] {
            let value = { (p: JSONValue) in path.reduce(Optional(p)) { $0?[$1] }?.numberValue ?? .infinity }
            if value(package) > value(baseline) + 1e-12 { return "\(path) \(value(baseline)) -> \(value(package))" }
        }
        let flags = { (p: JSONValue) in Set(p["aggregation"]?["flags"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
        let lost = flags(baseline).intersection(["screen_detected", "print_detected"]).subtracting(flags(package))
        return lost.isEmpty ? nil : "flags lost: \(lost.sorted())"
    }

    @Test func allInvalidDepthFilesAreNoBetterThanNoDepth() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = try Self.package(Self.scene)
        let values: [(String, Float)] = [
            ("zero", 0), ("nan", .nan), ("inf", .infinity), ("negative", -2), ("beyond-1km", 1001), ("3e38", 3e38),
            ("subnormal", 1e-42),
        ]
        for (name, value) in values {
            let path = folder.appendingPathComponent("\(name).f32").path
            var data = Data()
            for _ in 0..<(256 * 192) {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
            try data.write(to: URL(fileURLWithPath: path))
            let package = try Self.package(
                Self.scene,
                ["--depth", path, "--depth-format", "f32le", "--depth-width", "256", "--depth-height", "192"])
            #expect(Self.improvement(package, over: baseline) == nil, "depth all \(name)")
            let depth = package["scene_analysis"]?["breakdown"]?["depth/2"]
            #expect(depth?["status"] == "unavailable", "depth all \(name)")
            #expect(depth?["unavailable_reason"]?.stringValue?.hasPrefix("0 valid depth pixels") == true, "\(name)")
        }
    }

    @Test func allInvalidPayloadsAreNoBetterThanNoPayload() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = try Self.package(Self.screen)
        let payloads = [
            #"{"moire": {"status": "bogus"}, "texture": {"status": 3}, "artifacts": {}}"#,
            #"{"moire": {}, "texture": {"classification": "real_scene"}, "artifacts": {"overall_confidence": null}}"#,
            #"{"moire": {"status": "failed"}, "texture": {"status": "unavailable"}, "artifacts": {"status": "error"}}"#,
            #"{"aggregated_confidence": {"overall_confidence": 1.0, "confidence_level": "very_high"}}"#,
        ]
        for (index, json) in payloads.enumerated() {
            let path = folder.appendingPathComponent("payload\(index).json").path
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
            let package = try Self.package(Self.screen, ["--payload", path])
            #expect(Self.improvement(package, over: baseline) == nil, "payload \(json)")
            let breakdown = try #require(package["scene_analysis"]?["breakdown"]?.objectValue)
            for (key, entry) in breakdown where key.hasPrefix("payload.") {
                #expect(entry["aggregated"] == .bool(false), "\(key) of \(json)")
                #expect(entry["unavailable_reason"]?.stringValue?.isEmpty == false, "\(key) of \(json)")
            }
            for key in ["moire/1", "texture/1", "artifacts/1"] {
                #expect(breakdown[key]?["aggregated"] == baseline["scene_analysis"]?["breakdown"]?[key]?["aggregated"])
            }
        }
    }

    @Test func nonFinitePayloadNumberExits65NamingTheFile() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("payload.json").path
        try Data(#"{"moire": {"confidence": 1e999}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try CLIRunner.run(["analyze", Self.screen, "--payload", path])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("rial-bench: error: \(path): detection payload: "), "\(outcome.stderr)")
    }

    /// Issue 14 item 6: an out-of-range value is an error naming the file and the key,
    /// not a method that silently drops out of aggregation.
    @Test func outOfRangePayloadValueExits65NamingFileAndKey() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("payload.json").path
        try Data(#"{"moire": {"detected": true, "confidence": 4}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try CLIRunner.run(["analyze", Self.screen, "--payload", path])
        #expect(outcome.status == 65)
        #expect(
            outcome.stderr.hasPrefix(
                "rial-bench: error: \(path): detection payload: 'moire.confidence' must be in 0...1"),
            "\(outcome.stderr)")
    }
}
