import Foundation
import Testing

/// `rial-bench dataset gap` on bad input: a missing manifest is bad input (exit 65, one
/// line naming the file); a corrupt image is recorded in the report, not a crash.
@Suite struct DatasetGapCLITests {
    @Test func missingManifestIsBadInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gapcli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run([
            "dataset", "gap", "--real", folder.appendingPathComponent("nope.json").path,
            "--synthetic", folder.appendingPathComponent("nope2.json").path, "--out", folder.path,
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("nope.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("gap.json").path))
    }

    @Test func corruptImageIsRecordedNotFatal() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gapcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0xFF, 0xD8, 0xFF, 0xDB, 0, 67, 0, 9, 9]).write(to: folder.appendingPathComponent("bad.jpg"))
        try Data("garbage".utf8).write(to: folder.appendingPathComponent("junk.jpg"))
        let manifest = """
            {"format": "rial-bench-dataset/1", "samples": [
              {"id": "bad", "image": "bad.jpg", "label": "real_scene"},
              {"id": "junk", "image": "junk.jpg", "label": "screen"}]}
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("m.json"))
        let out = folder.appendingPathComponent("out")
        let result = try CLIRunner.run([
            "dataset", "gap", "--real", folder.appendingPathComponent("m.json").path,
            "--synthetic", folder.appendingPathComponent("m.json").path, "--out", out.path, "--jobs", "1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try String(contentsOf: out.appendingPathComponent("gap.json"), encoding: .utf8)
        #expect(json.contains("\"sample\" : \"bad\"") && json.contains("\"sample\" : \"junk\""))
        #expect(result.stderr.contains("bad"))
    }
}
