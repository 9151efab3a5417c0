import Foundation
import RialCodecs
import RialDetection
import RialMedia
import Testing

@testable import RialEval

@Suite struct DatasetLoaderTests {
    static let imageBytes = Data("not really a jpeg, only hashed".utf8)

    /// A manifest with one good sample and many problems at once, in a temp folder.
    static func writeBrokenDataset(in folder: URL) throws -> String {
        try EvalFixtures.write(imageBytes, to: "files/a.jpg", in: folder)
        try EvalFixtures.write(Data(count: 100), to: "files/depth.f32", in: folder) // 4x4 float32 needs 64
        let good = SHA256Digest.hash(imageBytes)
        let wrong = String(repeating: "0", count: 64)
        let manifest = """
            {
              "format": "rial-bench-dataset/1",
              "name": "broken",
              "samples": [
                {"id": "ok", "image": "files/a.jpg", "label": "real_scene", "sha256": {"image": "\(good)"}},
                {"id": "missing", "image": "files/nope.jpg", "label": "screen"},
                {"id": "badhash", "image": "files/a.jpg", "label": "lcd_screen", "sha256": {"image": "\(wrong)"}},
                {"id": "ok", "image": "files/a.jpg", "label": "real_scene"},
                {"id": "tv", "image": "files/a.jpg", "label": "tv"},
                {"id": "depthy", "image": "files/a.jpg", "label": "real_scene",
                 "depth": {"path": "files/depth.f32", "format": "f32le", "width": 4, "height": 4}},
                {"id": "noimage", "label": "real_scene"},
                {"id": "enums", "image": "files/a.jpg", "label": "printed_paper", "attestation": "tpm",
                 "split": "holdout", "depth": {"path": "files/depth.f32", "format": "f16"}}
              ]
            }
            """
        let path = folder.appendingPathComponent("manifest.json").path
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func validateReportsEveryProblemWithIdAndPath() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let path = try Self.writeBrokenDataset(in: folder)
        let report = try DatasetLoader(contentsOf: path).validate()

        let found = Set(report.problems.map { "\($0.sampleID ?? "-") \($0.kind.rawValue) \($0.jsonPath)" })
        let expected: Set<String> = [
            "missing missing_file samples[1].image",
            "badhash hash_mismatch samples[2].image",
            "ok duplicate_id samples[3].id",
            "tv unknown_value samples[4].label",
            "depthy depth_size_mismatch samples[5].depth.path",
            "noimage missing_key samples[6]",
            "enums unknown_value samples[7].attestation",
            "enums unknown_value samples[7].split",
            "enums unknown_value samples[7].depth.format",
        ]
        #expect(found == expected, "got:\n\(report.problems.map(\.description).joined(separator: "\n"))")
        #expect(report.sampleCount == 8)
        #expect(report.validSampleCount == 1)
        #expect(!report.isValid)

        let text = report.problems.map(\.description)
        #expect(text.contains { $0.contains("samples[1].image (id \"missing\"): files/nope.jpg: no such file") })
        #expect(
            text.contains {
                $0.hasSuffix(
                    "samples[4].label (id \"tv\"): unknown label 'tv' (expected one of real_scene, lcd_screen, oled_screen, screen, printed_paper)"
                )
            })
        #expect(text.contains { $0.contains("files/depth.f32: 100 bytes, but 4x4 float32 depth needs 64 bytes") })
        #expect(text.contains { $0.contains("samples[6] (id \"noimage\"): missing required key 'image'") })
        #expect(text.contains { $0.contains("files/a.jpg: SHA-256 is \(SHA256Digest.hash(Self.imageBytes))") })
        #expect(text.allSatisfy { $0.hasPrefix(path + ": ") })
    }

    @Test func entriesStreamAndAFailureNeverStopsTheRest() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let loader = try DatasetLoader(contentsOf: try Self.writeBrokenDataset(in: folder))
        let results = Array(loader.resolvedSamples())
        #expect(results.count == 8)
        let succeeded = results.compactMap { try? $0.get() }
        #expect(succeeded.map(\.sample.id) == ["ok"])
        #expect(succeeded.first?.imagePath == folder.appendingPathComponent("files/a.jpg").standardizedFileURL.path)
        let failures = results.compactMap { if case .failure(let f) = $0 { f } else { nil } }
        #expect(failures.map(\.index) == [1, 2, 3, 4, 5, 6, 7])
        #expect(failures.first?.reason.contains("samples[1].image files/nope.jpg: no such file") == true)
    }

    @Test func samplesAreReadBackFromTheFileAndARewriteIsNoticed() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let path = try Self.writeBrokenDataset(in: folder)
        let loader = try DatasetLoader(contentsOf: path)
        let fromText = try DatasetLoader(
            data: Data(contentsOf: URL(fileURLWithPath: path)), manifestPath: path,
            baseDirectory: folder)
        #expect(loader.sampleCount == 8)
        for index in 0..<8 {
            #expect(String(describing: loader.sample(at: index)) == String(describing: fromText.sample(at: index)))
        }
        #expect((try? loader.sample(at: 0).get())?.id == "ok")

        // Rewritten after loading (a different size): every later read says so instead of
        // handing out whatever now lies at the old offsets.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"ok\"", with: "\"renamed\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        guard case .failure(let failure) = loader.sample(at: 0) else {
            Issue.record("a rewritten manifest was read as if unchanged")
            return
        }
        #expect(failure.problems.map(\.kind) == [.unreadableManifest])
        #expect(failure.description.contains("changed on disk"))
        #expect(
            Array(loader.entries).allSatisfy { entry in
                if case .failure(let f) = entry.result { f.problems.first?.kind == .unreadableManifest } else { false }
            })
    }

    @Test func strictDecodeListsAllFieldProblems() throws {
        let folder = try EvalFixtures.makeTemporaryFolder()
        defer { EvalFixtures.removeTemporary(folder) }
        let loader = try DatasetLoader(contentsOf: try Self.writeBrokenDataset(in: folder))
        #expect {
            _ = try loader.decodeManifest()
        } throws: { error in
            // Field problems only: no file is touched by a decode.
            let kinds = Set((error as? DatasetError)?.problems.map(\.kind) ?? [])
            return kinds == [.duplicateID, .unknownValue, .missingKey]
        }
    }

    @Test func unknownKeysRoundTrip() throws {
        let text = """
            {
              "format": "rial-bench-dataset/1",
              "generator": {"name": "synth", "version": 3},
              "samples": [
                {
                  "id": "s1",
                  "image": "a.jpg",
                  "label": "oled_screen",
                  "depth": {"path": "d.gz", "format": "f32le_gzip", "width": 8, "height": 6, "confidence": "c.png"},
                  "stereo": {"right": "r.png", "focal_px": 994.978, "rig": "x"},
                  "attestation": "secure_enclave",
                  "captured_at": "2025-12-01T10:00:00Z",
                  "split": "val",
                  "tags": ["indoor", "pwm"],
                  "sha256": {"image": "\(String(repeating: "ab", count: 32))", "thumbnail": "t"},
                  "synth": {"seed": 42, "panel": {"kind": "oled", "ppi": 460.5}, "moire": [1, 2.5, null, true]},
                  "zzz": "last"
                }
              ]
            }
            """
        let original = try JSONValue.parse(text)
        let manifest = try DatasetManifest(json: original)
        let sample = try #require(manifest.samples.first)
        #expect(sample.extensions.keys == ["synth", "zzz"])
        #expect(sample.extensions["synth"]?["panel"]?["ppi"] == .number(460.5))
        #expect(sample.depth?.extensions["confidence"] == "c.png")
        #expect(sample.stereo?.extensions["rig"] == "x")
        #expect(sample.sha256?.extensions["thumbnail"] == "t")
        #expect(manifest.extensions["generator"] == ["name": "synth", "version": 3])
        #expect(sample.attestation == .secureEnclave && sample.split == .val && sample.label == .oledScreen)

        let written = manifest.jsonValue
        #expect(written == original)
        let reread = try DatasetManifest(json: try JSONValue.parse(manifest.serializedData()))
        #expect(reread == manifest)
        // Codable goes through the same rules.
        let viaCodable = try JSONDecoder().decode(DatasetManifest.self, from: try JSONEncoder().encode(manifest))
        #expect(viaCodable == manifest)
    }

    @Test func defaultsApplyWhenKeysAreAbsent() throws {
        let manifest = try DatasetManifest(
            json: try JSONValue.parse(
                #"{"format": "rial-bench-dataset/1", "samples": [{"id": "a", "image": "a.jpg", "label": "screen"}]}"#))
        let sample = try #require(manifest.samples.first)
        #expect(sample.attestation == .none)
        #expect(sample.split == .test)
        #expect(sample.tags.isEmpty)
        #expect(sample.groupKey == .single(sampleID: "a"))
    }

    @Test func headerProblemsAreCollectedTogether() throws {
        let loader = try DatasetLoader(
            data: Data(#"{"format": "rial-bench-dataset/2", "name": 5, "samples": {}}"#.utf8),
            manifestPath: "m.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(loader.headerProblems.map(\.jsonPath) == ["format", "name", "samples"])
        #expect(
            loader.headerProblems.first?.description
                == "m.json: format: unsupported format 'rial-bench-dataset/2' (expected \"rial-bench-dataset/1\")")
        let report = loader.validate()
        #expect(report.problems.count == 3)
    }

    @Test func fieldTypeAndRangeProblems() throws {
        let text = """
            {"format": "rial-bench-dataset/1", "samples": [
              {"id": 7, "image": "", "label": "screen", "tags": ["a", 1], "group": "",
               "depth": {"path": "d.png", "format": "u16_png_scaled", "width": 0},
               "stereo": {"right": "r.png", "baseline_mm": -1},
               "sha256": {"image": "xyz", "right": "\(String(repeating: "0", count: 64))", "depth": 5},
               "captured_at": "yesterday"},
              "not an object"
            ]}
            """
        let loader = try DatasetLoader(
            data: Data(text.utf8), manifestPath: "m.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
        let problems = loader.validate().problems
        let paths = Set(problems.map(\.jsonPath))
        for path in [
            "samples[0].id", "samples[0].image", "samples[0].tags[1]", "samples[0].group",
            "samples[0].depth.width", "samples[0].depth", "samples[0].stereo.baseline_mm",
            "samples[0].sha256.image", "samples[0].sha256.depth", "samples[0].captured_at", "samples[1]",
        ] {
            #expect(paths.contains(path), "no problem at \(path): \(problems.map(\.description))")
        }
        #expect(problems.contains { $0.message == "missing required key 'scale'" })
        #expect(problems.contains { $0.message == "give both 'width' and 'height' or neither" })
        #expect(problems.contains { $0.jsonPath == "samples[1]" && $0.message.contains("found a string") })
    }

    @Test(arguments: [
        ("", "not valid JSON: line 1, column 1: empty input"),
        (
            "{\"format\": \"rial-bench-dataset/1\", \"samples\": [",
            "not valid JSON: line 1, column 48: unexpected end of input"
        ),
        ("[]", "expected a JSON object"),
        ("\u{FFFD}\u{0}garbage", "not valid JSON: line 1, column 1"),
    ])
    func unusableManifestGivesOneClearError(text: String, message: String) {
        #expect {
            _ = try DatasetLoader(
                data: Data(text.utf8), manifestPath: "m.json", baseDirectory: URL(fileURLWithPath: "/"))
        } throws: { error in
            guard let error = error as? DatasetError, error.problems.count == 1 else { return false }
            return error.description.hasPrefix("m.json: " + message)
        }
    }

    @Test func missingManifestFileIsOneError() {
        #expect {
            _ = try DatasetLoader(contentsOf: "/nonexistent/manifest.json")
        } throws: { error in
            (error as? DatasetError)?.description == "/nonexistent/manifest.json: no such file"
        }
    }

    @Test func absolutePathsAreKeptAndRelativeOnesResolve() throws {
        let loader = try DatasetLoader(
            data: Data(#"{"format": "rial-bench-dataset/1", "samples": []}"#.utf8),
            manifestPath: "m.json", baseDirectory: URL(fileURLWithPath: "/data/set"))
        #expect(loader.absolutePath("files/a.jpg") == "/data/set/files/a.jpg")
        #expect(loader.absolutePath("../other/b.png") == "/data/other/b.png")
        #expect(loader.absolutePath("/abs/c.png") == "/abs/c.png")
    }

    @Test func rebasingKeepsFilesReachable() throws {
        let manifest = DatasetManifest(samples: [
            DatasetSample(
                id: "a", image: "files/a.jpg", label: .realScene,
                depth: DepthReference(path: "files/d.png", format: .u16PngMm),
                stereo: StereoReference(right: "/abs/r.png"),
                extensions: ["gt": ["path": "files/gt.npz"], "upstream": ["image": ["url": "u"]]])
        ])
        let moved = manifest.rebased(
            from: URL(fileURLWithPath: "/data/set"), to: URL(fileURLWithPath: "/data/splits/v1"))
        let sample = try #require(moved.samples.first)
        #expect(sample.image == "../../set/files/a.jpg")
        #expect(sample.depth?.path == "../../set/files/d.png")
        #expect(sample.stereo?.right == "/abs/r.png")
        #expect(sample.extensions["gt"]?["path"] == "../../set/files/gt.npz")
        #expect(sample.extensions["upstream"] == manifest.samples[0].extensions["upstream"])
    }
}
