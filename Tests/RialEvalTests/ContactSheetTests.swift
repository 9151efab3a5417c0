import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialEval

/// `ContactSheet`, `ContactSheetLayout`, `ContactSheetSelection` and `SheetThumbnail`.
/// Expected sizes are worked out by hand from the layout formulas in the doc comments.
@Suite struct ContactSheetTests {
    // MARK: - Layout

    /// (tiles, requested columns) -> (columns, rows).
    @Test(arguments: [
        (0, 4, 1, 0), (1, 4, 1, 1), (4, 4, 4, 1), (5, 4, 4, 2), (8, 4, 4, 2), (9, 4, 4, 3),
        (26, 6, 6, 5), (3, 1, 1, 3), (200, 10, 10, 20),
    ])
    func gridSize(tiles: Int, requested: Int, columns: Int, rows: Int) {
        let layout = ContactSheetLayout(
            tileCount: tiles, columns: requested, panelSide: 100, panelsPerTile: 2,
            headerLines: 2)
        #expect(layout.columns == columns)
        #expect(layout.rows == rows)
    }

    @Test func pixelGeometry() {
        // S = 100, P = 2, text scale 1: tile = 2*(3+4) + 2*100 + 4 = 218 wide,
        // 2*(3+4) + 100 + 4 + 3*9 = 145 tall; header = 8 + 20 + 2*12 + 8 = 60.
        let layout = ContactSheetLayout(tileCount: 5, columns: 4, panelSide: 100, panelsPerTile: 2, headerLines: 2)
        #expect(layout.tileWidth == 218)
        #expect(layout.tileHeight == 145)
        #expect(layout.headerHeight == 60)
        #expect(layout.width == 8 + 4 * (218 + 8))
        #expect(layout.height == 60 + 2 * (145 + 8))
        #expect(layout.tileOrigin(0) == (8, 60))
        #expect(layout.tileOrigin(5) == (8 + 226, 60 + 153))
        #expect(layout.panelOrigin(1) == (7 + 104, 7))
        #expect(layout.captionTop == 7 + 100 + 4)
        // A narrow grid still leaves room for the header.
        let narrow = ContactSheetLayout(tileCount: 1, columns: nil, panelSide: 50, panelsPerTile: 1, headerLines: 0)
        #expect(narrow.width == ContactSheetLayout.minimumWidth)
    }

    @Test func defaultColumnsAimForSixteenByTen() {
        // ceil(sqrt(1.6 * 26 * 205 / 338)) = ceil(5.02) = 6.
        #expect(ContactSheetLayout.defaultColumns(tileCount: 26, tileWidth: 338, tileHeight: 205) == 6)
        #expect(ContactSheetLayout.defaultColumns(tileCount: 1, tileWidth: 338, tileHeight: 205) == 1)
        #expect(ContactSheetLayout.defaultColumns(tileCount: 0, tileWidth: 338, tileHeight: 205) == 1)
        // 4096 px wide at most: (4096 - 8) / (1034 + 8) = 3 columns of 1034 px tiles.
        #expect(ContactSheetLayout.defaultColumns(tileCount: 200, tileWidth: 1034, tileHeight: 300) == 3)
        #expect(ContactSheetLayout.textScale(panelSide: 160) == 1)
        #expect(ContactSheetLayout.textScale(panelSide: 512) == 2)
    }

    // MARK: - Thumbnail sizes

    @Test func fittedSizeKeepsAspect() {
        #expect(SheetThumbnail.fittedSize(width: 1920, height: 1440, side: 160) == (160, 120))
        #expect(SheetThumbnail.fittedSize(width: 480, height: 640, side: 160) == (120, 160))
        #expect(SheetThumbnail.fittedSize(width: 10, height: 10, side: 160) == (160, 160))
        #expect(SheetThumbnail.fittedSize(width: 5000, height: 10, side: 160) == (160, 1))
    }

    /// The largest 1/n whose output `ceil(w/n) x ceil(h/n)` still covers the target.
    @Test(arguments: [
        (1920, 1440, 160, 120, JPEGScale.eighth), // 240x180
        (640, 480, 160, 120, .quarter), // 160x120 exactly
        (641, 481, 161, 121, .quarter), // ceil: 161x121
        (640, 480, 161, 120, .half), // 1/4 gives 160 < 161
        (300, 200, 160, 107, .full), // 1/2 gives 150 < 160
    ])
    func jpegScaleChoice(width: Int, height: Int, targetWidth: Int, targetHeight: Int, expected: JPEGScale) {
        #expect(
            SheetThumbnail.jpegScale(
                storedWidth: width, storedHeight: height,
                target: (targetWidth, targetHeight)) == expected)
    }

    // MARK: - Tiles

    @Test func sampleWithoutDepthIsOnePanelInItsLabelColour() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("contact-sheet")
        defer { EvalFixtures.removeTemporary(folder) }
        let imagePath = try Self.writeSolidPNG(folder, "red.png", width: 40, height: 20, rgb: (200, 10, 10))
        let sample = DatasetSample(id: "one", image: "red.png", label: .printedPaper, tags: ["flat"])
        let resolved = ResolvedSample(
            index: 0, sample: sample, imagePath: imagePath, depthPath: nil,
            rightPath: nil, extensionFiles: [:])
        let sheet = ContactSheet(title: "t", options: .init(panelSide: 64, parallel: false))
        let rendering = try sheet.render([.success(resolved)])
        let layout = rendering.layout
        #expect(layout.panelsPerTile == 1)
        #expect(rendering.image.width == layout.width && rendering.image.height == layout.height)
        #expect(rendering.tiles == [ContactSheet.TileReport(index: 0, sampleID: "one", problems: [])])

        let origin = layout.tileOrigin(0)
        #expect(Self.pixel(rendering.image, origin.x, origin.y) == SampleLabel.printedPaper.sheetColor)
        // 40x20 fitted to 64x32, centred: the panel's centre is the image's colour,
        // its top edge is the black panel background.
        let panel = layout.panelOrigin(0)
        let centre = Self.pixel(rendering.image, origin.x + panel.x + 32, origin.y + panel.y + 32)
        #expect(centre == DepthHeatmap.Color(r: 200, g: 10, b: 10))
        #expect(Self.pixel(rendering.image, origin.x + panel.x + 32, origin.y + panel.y + 2) == .black)
    }

    /// Depth is stored on the image's stored grid; the tile turns it like the image.
    /// silentface/image_T1.jpg is stored 640x480 with EXIF orientation 6 (rotate 90
    /// clockwise): display pixel (X, Y) comes from stored (Y, h-1-X), so the stored left
    /// half (near, 0.5 m) must end up on top (Turbo blue) and the right half (3 m) at the
    /// bottom (Turbo red).
    @Test func depthTurnsWithTheImageOrientation() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("contact-sheet")
        defer { EvalFixtures.removeTemporary(folder) }
        let (w, h) = (64, 48)
        var mm = [UInt16](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { mm[y * w + x] = x < w / 2 ? 500 : 3000 } }
        let depthPath = folder.appendingPathComponent("depth.png").path
        try MediaFile.write(PNGEncoder.encode(Image16(width: w, height: h, channels: 1, samples: mm)!), to: depthPath)
        let sample = DatasetSample(
            id: "turned", image: "x.jpg", label: .realScene,
            depth: DepthReference(path: "depth.png", format: .u16PngMm))
        let resolved = ResolvedSample(
            index: 0, sample: sample, imagePath: Fixtures.real("silentface/image_T1.jpg"),
            depthPath: depthPath, rightPath: nil, extensionFiles: [:])
        let sheet = ContactSheet(title: "t", options: .init(panelSide: 96, parallel: false))
        let rendering = try sheet.render([.success(resolved)])
        #expect(rendering.tiles[0].problems.isEmpty)
        let layout = rendering.layout
        #expect(layout.panelsPerTile == 2)
        let origin = layout.tileOrigin(0), panel = layout.panelOrigin(1)
        // Displayed depth is 48x64 fitted to 72x96, centred horizontally.
        let top = Self.pixel(rendering.image, origin.x + panel.x + 48, origin.y + panel.y + 10)
        let bottom = Self.pixel(rendering.image, origin.x + panel.x + 48, origin.y + panel.y + 70)
        #expect(top.b > top.r, "near (top) should be Turbo blue, got \(top)")
        #expect(bottom.r > bottom.b, "far (bottom) should be Turbo red, got \(bottom)")
        // The image panel is portrait too: its left and right columns are background.
        let imagePanel = layout.panelOrigin(0)
        #expect(Self.pixel(rendering.image, origin.x + imagePanel.x + 2, origin.y + imagePanel.y + 48) == .black)
    }

    @Test func failedSamplesGetATileAndNeverStopTheSheet() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("contact-sheet")
        defer { EvalFixtures.removeTemporary(folder) }
        let garbage = folder.appendingPathComponent("garbage.jpg").path
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: garbage))
        let broken = ResolvedSample(
            index: 1, sample: DatasetSample(id: "broken", image: "garbage.jpg", label: .screen),
            imagePath: garbage, depthPath: nil, rightPath: nil, extensionFiles: [:])
        let problem = DatasetProblem(
            .missingFile, manifest: "m.json", jsonPath: "samples[0].image", sampleID: "gone",
            file: "gone.jpg", "no such file (looked at /nowhere/gone.jpg)")
        let missing = SampleFailure(index: 0, sampleID: "gone", problems: [problem])
        let sheet = ContactSheet(title: "t", options: .init(panelSide: 96))
        let rendering = try sheet.render([.failure(missing), .success(broken)])

        #expect(rendering.tiles.count == 2)
        #expect(rendering.tiles[0].sampleID == "gone")
        #expect(rendering.tiles[0].problems == [missing.reason])
        #expect(rendering.tiles[1].problems.count == 1)
        #expect(rendering.tiles[1].problems[0].hasPrefix("image: "), "\(rendering.tiles[1].problems)")
        let layout = rendering.layout
        let first = layout.tileOrigin(0), second = layout.tileOrigin(1)
        #expect(Self.pixel(rendering.image, first.x, first.y) == ContactSheet.failureFrame)
        #expect(Self.pixel(rendering.image, first.x + 8, first.y + 8) == ContactSheet.failurePanel)
        // The undecodable image keeps its label's frame; its panel turns into a failure box.
        #expect(Self.pixel(rendering.image, second.x, second.y) == SampleLabel.screen.sheetColor)
        #expect(Self.pixel(rendering.image, second.x + 8, second.y + 8) == ContactSheet.failurePanel)
    }

    @Test func parallelAndSerialRenderingAgree() throws {
        let folder = try EvalFixtures.makeTemporaryFolder("contact-sheet")
        defer { EvalFixtures.removeTemporary(folder) }
        var samples: [Result<ResolvedSample, SampleFailure>] = []
        for (i, label) in SampleLabel.allCases.enumerated() {
            let path = try Self.writeSolidPNG(
                folder, "\(i).png", width: 30 + i * 7, height: 25,
                rgb: (UInt8(40 * i), 90, UInt8(200 - 30 * i)))
            samples.append(
                .success(
                    ResolvedSample(
                        index: i, sample: DatasetSample(id: "s\(i)", image: "\(i).png", label: label),
                        imagePath: path, depthPath: nil, rightPath: nil, extensionFiles: [:])))
        }
        let serial = try ContactSheet(title: "t", options: .init(panelSide: 48, columns: 2, parallel: false)).render(
            samples)
        let parallel = try ContactSheet(title: "t", options: .init(panelSide: 48, columns: 2, parallel: true)).render(
            samples)
        #expect(serial.image == parallel.image)
        #expect(serial.tiles == parallel.tiles)
    }

    @Test func refusesHugeSheetsAndBadTileSizes() {
        #expect(throws: ContactSheetError.self) {
            try ContactSheet(title: "t", options: .init(panelSide: 8)).render([])
        }
        let failures: [Result<ResolvedSample, SampleFailure>] = (0..<200).map {
            .failure(SampleFailure(index: $0, sampleID: nil, problems: []))
        }
        #expect(throws: ContactSheetError.self) {
            try ContactSheet(title: "t", options: .init(panelSide: 1024, columns: 10)).render(failures)
        }
    }

    @Test func emptySheetHasOnlyTheHeader() throws {
        let rendering = try ContactSheet(title: "empty").render([], notes: ["0 of 0 samples"])
        #expect(rendering.layout.rows == 0)
        #expect(rendering.image.height == rendering.layout.headerHeight)
        #expect(rendering.tiles.isEmpty)
    }

    // MARK: - Label colours

    @Test func labelColoursAreDistinctAndFollowTheConvention() {
        let colours = SampleLabel.allCases.map(\.sheetColor)
        #expect(Set(colours).count == SampleLabel.allCases.count)
        let green = SampleLabel.realScene.sheetColor
        #expect(green.g > green.r && green.g > green.b)
        let blue = SampleLabel.printedPaper.sheetColor
        #expect(blue.b > blue.r && blue.b > blue.g)
        for display in [SampleLabel.lcdScreen, .oledScreen, .screen] {
            let c = display.sheetColor
            #expect(c.r > c.g && c.r > c.b, "\(display) should be orange or red")
        }
        #expect(!colours.contains(.magenta))
    }

    // MARK: - Selection

    static func loader(labels: [String], splits: [String]? = nil) throws -> DatasetLoader {
        var samples: [String] = []
        for (i, label) in labels.enumerated() {
            let split = splits.map { ", \"split\": \"\($0[i])\"" } ?? ""
            samples.append("{\"id\": \"s\(i)\", \"image\": \"s\(i).jpg\", \"label\": \"\(label)\"\(split)}")
        }
        let json =
            "{\"format\": \"rial-bench-dataset/1\", \"name\": \"n\", \"samples\": [\(samples.joined(separator: ","))]}"
        return try DatasetLoader(
            data: Data(json.utf8), manifestPath: "m.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
    }

    @Test func selectionTakesTheFirstOrASeededSubsetInManifestOrder() throws {
        let loader = try Self.loader(labels: Array(repeating: "real_scene", count: 20))
        let first = ContactSheetSelection(limit: 5).select(from: loader)
        #expect(first.entries.map(\.index) == [0, 1, 2, 3, 4])
        #expect(first.summary == ["first 5 of 20 samples"])

        let drawn = ContactSheetSelection(limit: 5, seed: 7).select(from: loader)
        let again = ContactSheetSelection(limit: 5, seed: 7).select(from: loader)
        let other = ContactSheetSelection(limit: 5, seed: 8).select(from: loader)
        #expect(drawn.entries.map(\.index) == again.entries.map(\.index))
        #expect(drawn.entries.map(\.index) != other.entries.map(\.index))
        #expect(drawn.entries.map(\.index) == drawn.entries.map(\.index).sorted())
        #expect(drawn.entries.count == 5)
        #expect(drawn.summary == ["5 of 20 samples, drawn at random (seed 7)"])

        let all = ContactSheetSelection().select(from: loader)
        #expect(all.entries.count == 20 && !all.capped)
        #expect(all.summary == ["20 of 20 samples"])
    }

    @Test func selectionFiltersAndCaps() throws {
        let loader = try Self.loader(
            labels: ["real_scene", "screen", "printed_paper", "screen", "oops"],
            splits: ["test", "train", "test", "test", "test"])
        let screens = ContactSheetSelection(labels: [.screen]).select(from: loader)
        #expect(screens.entries.map(\.index) == [1, 3])
        #expect(screens.skippedUndecodable == 1)
        let testScreens = ContactSheetSelection(labels: [.screen], split: .test).select(from: loader)
        #expect(testScreens.entries.map(\.index) == [3])
        // Without a filter the undecodable entry stays, to become a failed tile.
        let everything = ContactSheetSelection().select(from: loader)
        #expect(everything.entries.count == 5)
        let capped = ContactSheetSelection(cap: 2).select(from: loader)
        #expect(capped.entries.map(\.index) == [0, 1])
        #expect(capped.capped)
        #expect(capped.summary.contains { $0.hasPrefix("capped at 2 tiles") })
    }

    // MARK: - Helpers

    static func pixel(_ image: Image8, _ x: Int, _ y: Int) -> DepthHeatmap.Color {
        DepthHeatmap.Color(r: image[x, y, 0], g: image[x, y, 1], b: image[x, y, 2])
    }

    static func writeSolidPNG(
        _ folder: URL, _ name: String, width: Int, height: Int,
        rgb: (UInt8, UInt8, UInt8)
    ) throws -> String {
        var samples = [UInt8]()
        samples.reserveCapacity(width * height * 3)
        for _ in 0..<(width * height) { samples += [rgb.0, rgb.1, rgb.2] }
        let path = folder.appendingPathComponent(name).path
        try MediaFile.write(
            PNGEncoder.encode(Image8(width: width, height: height, channels: 3, samples: samples)!),
            to: path)
        return path
    }
}
