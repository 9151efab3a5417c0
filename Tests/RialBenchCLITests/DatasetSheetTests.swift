import Foundation
import Testing

/// End-to-end tests of `rial-bench dataset sheet`. Expected sheet sizes are worked out
/// by hand from `ContactSheetLayout`'s formulas: 160 px panels, tiles 338 x 205 with
/// two panel slots (image + depth or right view), margin 8, header
/// `8 + 20 + 12 * lines + 8`.
@Suite struct DatasetSheetTests {
    /// Width and height from a PNG's IHDR chunk (bytes 16...23, big-endian).
    static func pngSize(_ path: String) throws -> (width: Int, height: Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try #require(data.count > 24)
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        func be32(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    /// A copy of the real public manifest with its files fetched from the mirror.
    static func fetchedRealPublic() throws -> URL {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench-sheet")
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("datasets/real-public/manifest.json"),
            to: folder.appendingPathComponent("manifest.json"))
        let fetch = try CLIRunner.run(
            [
                "dataset", "fetch", "manifest.json", "--mirror", Fixtures.realMirror.path,
                "--no-download",
            ], currentDirectory: folder)
        #expect(fetch.status == 0, "\(fetch.stderr)")
        return folder
    }

    @Test func realPublicSheet() throws {
        let folder = try Self.fetchedRealPublic()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLIRunner.run(
            ["dataset", "sheet", "manifest.json", "--out", "sheet.png"], currentDirectory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        // 26 tiles, default ceil(sqrt(1.6 * 26 * 205 / 338)) = 6 columns, 5 rows; header
        // lines: legend, depth, right view, "26 of 26 samples" -> 8 + 20 + 48 + 8 = 84.
        let size = try Self.pngSize(folder.appendingPathComponent("sheet.png").path)
        #expect(size.width == 8 + 6 * (338 + 8))
        #expect(size.height == 84 + 5 * (205 + 8))
        #expect(
            run.stdout.contains("wrote sheet.png: 2084x1149 pixels, 26 tiles in 6 columns, 0 with failures"),
            "\(run.stdout)")
    }

    @Test func limitColumnsAndTileSize() throws {
        let folder = try Self.fetchedRealPublic()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first 5 samples: promptda and arkitscenes have depth, none has stereo.
        // Panels 100 px: tile 2*7 + 2*100 + 4 = 218 x 2*7 + 100 + 4 + 27 = 145; sheet
        // 8 + 2*226 = 460 wide, so the 118-character depth line wraps at (444 + 1) / 6 = 74
        // characters; header lines: legend, depth (2), "first 5 of 26 samples" ->
        // 8 + 20 + 48 + 8 = 84.
        let run = try CLIRunner.run(
            [
                "dataset", "sheet", "manifest.json", "--out", "out/five.png", "--limit", "5",
                "--columns", "2", "--tile", "100",
            ], currentDirectory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let size = try Self.pngSize(folder.appendingPathComponent("out/five.png").path)
        #expect(size.width == 8 + 2 * (218 + 8))
        #expect(size.height == 84 + 3 * (145 + 8))
        #expect(run.stdout.contains("first 5 of 26 samples"))

        // A label filter: the three printed_paper samples, one column: 8 + 338 + 8 = 354
        // is below the 360 px minimum width that keeps the header readable.
        let printed = try CLIRunner.run(
            [
                "dataset", "sheet", "manifest.json", "--out", "printed.png", "--label",
                "printed_paper", "--columns", "1",
            ], currentDirectory: folder)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("3 matching (label printed_paper) of 26"), "\(printed.stdout)")
        #expect(try Self.pngSize(folder.appendingPathComponent("printed.png").path).width == 360)
    }

    @Test func missingFilesBecomeFailedTilesNotErrors() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench-sheet")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = """
            {"format": "rial-bench-dataset/1", "name": "broken", "samples": [
              {"id": "gone", "image": "gone.jpg", "label": "lcd_screen"},
              {"id": "real", "image": "\(Fixtures.real("skimage/brick.png"))", "label": "real_scene"}
            ]}
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        let run = try CLIRunner.run(
            ["dataset", "sheet", "manifest.json", "--out", "sheet.png"], currentDirectory: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: manifest.json: samples[0] (id \"gone\"):"), "\(run.stderr)")
        #expect(run.stderr.contains("gone.jpg"), "\(run.stderr)")
        #expect(run.stdout.contains("2 tiles in 2 columns, 1 with failures"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("sheet.png").path))
    }

    @Test func garbageManifestExits65NamingIt() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench-sheet")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("garbage.json").path
        try Data([0x7B, 0x00, 0xFF, 0x13, 0x22]).write(to: URL(fileURLWithPath: path))
        let run = try CLIRunner.run(["dataset", "sheet", path, "--out", folder.appendingPathComponent("s.png").path])
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("rial-bench: error: \(path):") == true, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.png").path))

        let missing = try CLIRunner.run([
            "dataset", "sheet", folder.appendingPathComponent("none.json").path,
            "--out", "s.png",
        ])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("none.json: no such file"), "\(missing.stderr)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        for arguments in [["--tile", "8"], ["--columns", "0"], ["--limit", "0"], ["--label", "hologram"]] {
            let run = try CLIRunner.run(["dataset", "sheet", "m.json", "--out", "s.png"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
    }
}
