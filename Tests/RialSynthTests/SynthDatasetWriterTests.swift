import Foundation
import RialMedia
import Testing

@testable import RialSynth

@Suite struct SynthDatasetWriterTests {
    static func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
            }
        }
        return result
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rial-synth-\(UUID().uuidString)")
    }

    /// Same spec, one worker or two: every file identical byte for byte.
    @Test func outputDoesNotDependOnTheNumberOfJobs() throws {
        let spec = SynthDatasetSpec(count: 4, seed: 11, width: 128, height: 96, secondView: true)
        let a = Self.temporaryFolder(), b = Self.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: a)
            try? FileManager.default.removeItem(at: b)
        }
        _ = try SynthDatasetWriter(spec: spec).write(to: a.path, jobs: 1)
        _ = try SynthDatasetWriter(spec: spec).write(to: b.path, jobs: 2)
        let filesA = try Self.files(in: a), filesB = try Self.files(in: b)
        // manifest + 4 x (image, depth, right)
        #expect(filesA.count == 13)
        #expect(filesA == filesB)
    }

    @Test func manifestCarriesLabelsDepthStereoAndEveryParameter() throws {
        let spec = SynthDatasetSpec(count: 4, seed: 3, width: 128, height: 96, secondView: true)
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try SynthDatasetWriter(spec: spec).write(to: folder.path, jobs: 2)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary.manifestPath)))
        let manifest = try #require(json as? [String: Any])
        #expect(manifest["format"] as? String == "rial-bench-dataset/1")
        let samples = try #require(manifest["samples"] as? [[String: Any]])
        #expect(samples.map { $0["label"] as? String } == ["real_scene", "lcd_screen", "oled_screen", "printed_paper"])
        for sample in samples {
            let depth = try #require(sample["depth"] as? [String: Any])
            #expect(depth["format"] as? String == "f32le_gzip")
            #expect(depth["width"] as? Int == 256 && depth["height"] as? Int == 192)
            #expect((sample["stereo"] as? [String: Any])?["baseline_mm"] as? Double != nil)
            let synth = try #require(sample["synth"] as? [String: Any])
            #expect(synth["jpeg_quality"] as? Int != nil)
            #expect((sample["tags"] as? [String])?.contains("synthetic") == true)
        }
    }

    @Test func invalidSpecIsRefusedWithTheReason() {
        let spec = SynthDatasetSpec(count: 0, seed: 1, width: 10, height: 10)
        #expect(spec.problems == ["count must be at least 1, got 0", "image size must be at least 64x48, got 10x10"])
        let error = #expect(throws: MediaError.self) { try SynthDatasetWriter(spec: spec).write(to: "/tmp/never") }
        #expect(error?.kind == .invalidArgument)
        #expect(error?.detail == "synth: count must be at least 1, got 0")
    }
}
