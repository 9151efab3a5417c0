import Foundation
import RialMedia
import Testing

@testable import RialEval

/// `datasets/real-public/manifest.json` against the real public data mirror.
@Suite struct RealPublicManifestTests {
    @Test func parsesAndListsEveryMirrorFileOnceWithItsHashAndSource() throws {
        let loader = try DatasetLoader(contentsOf: EvalFixtures.realPublicManifest.path)
        let manifest = try loader.decodeManifest()
        let rows = try EvalFixtures.sourcesCSV()
        #expect(rows.count == 32)

        var referenced: [String: FileReference] = [:]
        for sample in manifest.samples {
            for file in sample.fileReferences {
                #expect(file.path.hasPrefix("files/"), "\(sample.id): \(file.path)")
                #expect(
                    referenced.updateValue(file, forKey: String(file.path.dropFirst("files/".count))) == nil,
                    "\(file.path) is referenced twice")
            }
        }
        #expect(Set(referenced.keys) == Set(rows.compactMap { $0["path"] }))
        for row in rows {
            let path = try #require(row["path"])
            let file = try #require(referenced[path])
            #expect(file.sha256 == row["sha256"], "\(path)")
            #expect(file.source == "\(row["origin"]!):\(row["upstream_path"]!)", "\(path)")
            if row["origin"]!.hasPrefix("github:"), !row["upstream_path"]!.contains(" ") {
                #expect(file.downloadURL != nil, "\(path) has no download URL")
            }
        }
        // Labels come from SOURCES.csv.
        for sample in manifest.samples {
            let row = try #require(rows.first { "files/" + $0["path"]! == sample.image })
            #expect(sample.label.rawValue == row["label"], "\(sample.id)")
            #expect(sample.group == String(row["path"]!.split(separator: "/")[0]))
        }
        let byID = Dictionary(uniqueKeysWithValues: manifest.samples.map { ($0.id, $0) })
        let promptda = try #require(byID["promptda/image"])
        #expect(
            promptda.depth
                == DepthReference(path: "files/promptda/arkit_depth.png", format: .u16PngMm, width: 256, height: 192))
        #expect(byID["arkitscenes/41069021_305.244_rgb"]?.depth?.path == "files/arkitscenes/41069021_305.244_depth.png")
        #expect(byID["arkitscenes/41069021_305.244_rgb"]?.label == .printedPaper)
        #expect(
            byID["skimage/motorcycle_left"]?.stereo
                == StereoReference(right: "files/skimage/motorcycle_right.png", focalPx: 994.978, baselineMm: 193.001))
        #expect(byID["opencv/aloeL"]?.stereo == StereoReference(right: "files/opencv/aloeR.jpg"))
        #expect(
            byID["skimage/motorcycle_left"]?.extensions["ground_truth_disparity"]?["path"]
                == "files/skimage/motorcycle_disp.npz")
        #expect(byID["opencv/aloeL"]?.extensions["ground_truth_disparity"]?["path"] == "files/opencv/aloeGT.png")
        #expect(byID["skimage/brick"]?.tags.contains("gray_texture") == true)
        #expect(byID["skimage/page"]?.tags.contains("scan") == true)
    }

    @Test func beforeFetchValidateNamesTheMissingFiles() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-real-public")
        defer { EvalFixtures.removeTemporary(folder) }
        let manifestPath = folder.appendingPathComponent("manifest.json").path
        try FileManager.default.copyItem(atPath: EvalFixtures.realPublicManifest.path, toPath: manifestPath)
        let report = try DatasetLoader(contentsOf: manifestPath).validate()
        #expect(report.problems.count == 32)
        #expect(report.problems.allSatisfy { $0.kind == .missingFile && $0.file?.hasPrefix("files/") == true })
    }

    @Test func fetchesFromTheMirrorBySymlinkAndThenValidates() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-real-public")
        defer { EvalFixtures.removeTemporary(folder) }
        let manifestPath = folder.appendingPathComponent("manifest.json").path
        try FileManager.default.copyItem(atPath: EvalFixtures.realPublicManifest.path, toPath: manifestPath)
        let loader = try DatasetLoader(contentsOf: manifestPath)
        let downloader = FakeDownloader([:])
        let report = DatasetFetcher(loader: loader, mirror: EvalFixtures.realMirror, downloader: downloader).fetch()
        #expect(report.succeeded, "\(report.files.filter { $0.outcome.name == "failed" }.map(\.description))")
        #expect(report.linkedCount == 32)
        #expect(downloader.requested.isEmpty)

        let mirror = EvalFixtures.realMirror.standardizedFileURL.path
        for file in report.files {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: file.absolutePath)
            #expect(target.hasPrefix(mirror + "/"), "\(file.path) -> \(target)")
            #expect(target == mirror + "/" + file.path.dropFirst("files/".count))
            // A symlink, never a copy of the mirror's bytes.
            let attributes = try FileManager.default.attributesOfItem(atPath: file.absolutePath)
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        }
        let validation = loader.validate()
        #expect(validation.isValid, "\(validation.problems.map(\.description))")
        #expect(validation.validSampleCount == loader.sampleCount)

        let again = DatasetFetcher(loader: loader, mirror: EvalFixtures.realMirror, downloader: nil).fetch()
        #expect(again.alreadyPresentCount == 32)
    }

    @Test(.enabled(if: EvalFixtures.hasPython3, "python3 is not on PATH"))
    func generatorIsReproducible() throws {
        // scripts/make-real-manifest regenerates the committed manifest byte for byte.
        let folder = try EvalFixtures.makeTemporaryFolder("rial-make-manifest")
        defer { EvalFixtures.removeTemporary(folder) }
        let out = folder.appendingPathComponent("manifest.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", EvalFixtures.packageRoot.appendingPathComponent("scripts/make-real-manifest").path,
            EvalFixtures.realMirror.appendingPathComponent("SOURCES.csv").path, "-o", out,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: EvalFixtures.realPublicManifest))
    }
}
