import Foundation
import RialMedia

/// A contact sheet: one image showing many samples of a dataset so a person can look
/// at them, each as a tile of thumbnails with a caption.
///
/// Layout (`ContactSheetLayout`): a header, then a grid of equal tiles. The header has
/// the title (the dataset name, double size), a legend row with a colour swatch and
/// count per label among the tiles shown (plus how many tiles failed), a line
/// explaining the depth colours when any tile has depth, one for the right view when
/// any has stereo, and the caller's `notes` (e.g. how the samples were chosen), each
/// wrapped to the sheet's width.
///
/// A tile has a frame in its label's colour (`SampleLabel.sheetColor`) and up to three
/// square panels side by side, each `panelSide` pixels, every tile with as many panel
/// slots as the sample with the most panels:
/// 1. the image, upright (EXIF orientation applied);
/// 2. the depth heatmap, when the sample has depth: Turbo (near blue, far red),
///    invalid pixels magenta, the tile's own 2nd...98th percentile range printed along
///    its bottom edge in metres. Depth is stored on the image's *stored* grid, so the
///    map is turned by the image's EXIF orientation to line up with the upright image;
/// 3. the right stereo view, upright, marked `right`.
/// A missing depth panel in a sheet that shows depth elsewhere reads `no depth`.
/// Under the panels, three caption lines: the sample id (shortened with `…` when too
/// long), the label in its colour with the stored image size (and EXIF orientation
/// when not 1), and the tags.
///
/// Failures never stop the sheet: a sample that did not resolve (missing file, bad
/// fields) becomes a grey-framed tile reading `failed: <reason>`; a file that cannot
/// be decoded turns its panel into `failed: <reason>`. Every failure is listed in
/// `Rendering.tiles`.
///
/// Memory: tiles are rendered one per worker (both cores with `parallel`), each
/// decoding its files at reduced size (`SheetThumbnail`) and copying its pixels into a
/// disjoint rectangle of the one sheet buffer; no full-size image outlives its tile.
public struct ContactSheet: Sendable {
    /// Sheet size and rendering choices.
    public struct Options: Sendable, Equatable {
        /// Side of each thumbnail's square box in pixels, 16...1024.
        public var panelSide: Int
        /// Columns of tiles; `nil` for `ContactSheetLayout.defaultColumns`.
        public var columns: Int?
        /// Render tiles concurrently (`DispatchQueue.concurrentPerform`); the output is
        /// the same either way.
        public var parallel: Bool

        public init(panelSide: Int = 160, columns: Int? = nil, parallel: Bool = true) {
            self.panelSide = panelSide
            self.columns = columns
            self.parallel = parallel
        }
    }

    /// What happened to one tile.
    public struct TileReport: Sendable, Equatable {
        /// Position of the sample in the manifest's `samples`.
        public var index: Int
        /// The sample's id, when known.
        public var sampleID: String?
        /// One message per failed part (`image: …`, `depth: …`, `right: …`, or the whole
        /// sample's resolution failure); empty when everything loaded.
        public var problems: [String]

        public var failed: Bool { !problems.isEmpty }
    }

    /// A rendered sheet.
    public struct Rendering: Sendable {
        /// 3-channel RGB, `layout.width x layout.height`.
        public var image: Image8
        public var layout: ContactSheetLayout
        /// One report per tile, in tile order.
        public var tiles: [TileReport]
    }

    /// The largest sheet rendered, in pixels (100 million, 300 MB of RGB).
    public static let maxPixels = 100_000_000

    static let sheetBackground = DepthHeatmap.Color(r: 40, g: 40, b: 44)
    static let tileBackground = DepthHeatmap.Color(r: 18, g: 18, b: 20)
    static let emptyPanel = DepthHeatmap.Color(r: 30, g: 30, b: 34)
    static let failureFrame = DepthHeatmap.Color(r: 120, g: 120, b: 120)
    static let failurePanel = DepthHeatmap.Color(r: 72, g: 18, b: 22)
    static let failureText = DepthHeatmap.Color(r: 255, g: 170, b: 170)
    static let text = DepthHeatmap.Color(r: 235, g: 235, b: 235)
    static let dimText = DepthHeatmap.Color(r: 165, g: 165, b: 170)

    /// Printed large at the top: the dataset's name.
    public var title: String
    public var options: Options

    public init(title: String, options: Options = Options()) {
        self.title = title
        self.options = options
    }

    /// The layout `render` uses for `samples` and `notes`.
    public func layout(for samples: [Result<ResolvedSample, SampleFailure>], notes: [String]) -> ContactSheetLayout {
        layoutAndHeaderLines(for: samples, notes: notes).layout
    }

    /// The layout, and the header's explanatory lines wrapped to the sheet's width
    /// (the width does not depend on the header, so one pass settles it).
    private func layoutAndHeaderLines(for samples: [Result<ResolvedSample, SampleFailure>], notes: [String])
        -> (layout: ContactSheetLayout, lines: [String])
    {
        var panels = 1, anyDepth = false, anyStereo = false
        for case .success(let resolved) in samples {
            let hasDepth = resolved.depthPath != nil, hasRight = resolved.rightPath != nil
            anyDepth = anyDepth || hasDepth
            anyStereo = anyStereo || hasRight
            panels = max(panels, 1 + (hasDepth ? 1 : 0) + (hasRight ? 1 : 0))
        }
        var texts: [String] = []
        if anyDepth {
            texts.append(
                "depth: Turbo, blue near -> red far, magenta = no depth; range per tile (2nd-98th percentile, m); "
                    + "turned like its image")
        }
        if anyStereo { texts.append("right: the right view of the stereo pair") }
        texts += notes
        func make(_ lineCount: Int) -> ContactSheetLayout {
            ContactSheetLayout(
                tileCount: samples.count, columns: options.columns, panelSide: options.panelSide,
                panelsPerTile: panels, headerLines: 1 + lineCount)
        }
        let first = make(texts.count)
        let usable = first.width - 2 * ContactSheetLayout.margin
        let lines = texts.flatMap { PixelFont.wrapped($0, toWidth: usable, scale: first.textScale) }
        return (make(lines.count), lines)
    }

    /// Renders one tile per element of `samples`, in order.
    ///
    /// - Parameter notes: extra header lines, e.g. `ContactSheetSelection.Result.summary`.
    /// - Throws: `ContactSheetError` when the sheet would exceed `maxPixels` or the
    ///   panel side is outside 16...1024; never for a sample that fails to load.
    public func render(_ samples: [Result<ResolvedSample, SampleFailure>], notes: [String] = [])
        throws(ContactSheetError) -> Rendering
    {
        guard (16...1024).contains(options.panelSide) else {
            throw ContactSheetError("tile size \(options.panelSide) is outside 16...1024 pixels")
        }
        let (layout, headerLines) = layoutAndHeaderLines(for: samples, notes: notes)
        let pixels = layout.width.multipliedReportingOverflow(by: layout.height)
        guard !pixels.overflow, pixels.partialValue <= Self.maxPixels else {
            throw ContactSheetError(
                "a sheet of \(layout.width)x\(layout.height) pixels exceeds the limit of "
                    + "\(Self.maxPixels); use a smaller tile size or fewer samples")
        }
        var sheet = Image8(width: layout.width, height: layout.height, channels: 3)
        SheetCanvas.fill(&sheet, x: 0, y: 0, width: layout.width, height: layout.height, color: Self.sheetBackground)

        var reports = [TileReport?](repeating: nil, count: samples.count)
        let canvasWidth = layout.width, canvasHeight = layout.height
        sheet.samples.withUnsafeMutableBufferPointer { canvas in
            reports.withUnsafeMutableBufferPointer { slots in
                let shared = SharedOutput(canvas: canvas, reports: slots)
                let work: @Sendable (Int) -> Void = { i in
                    let (tile, report) = renderTile(samples[i], layout: layout)
                    let origin = layout.tileOrigin(i)
                    tile.samples.withUnsafeBufferPointer { source in
                        SheetCanvas.copy(
                            source, width: tile.width, height: tile.height, into: shared.canvas,
                            canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                            x: origin.x, y: origin.y)
                    }
                    shared.reports[i] = report
                }
                if options.parallel && samples.count > 1 {
                    DispatchQueue.concurrentPerform(iterations: samples.count, execute: work)
                } else {
                    for i in samples.indices { work(i) }
                }
            }
        }
        let tiles = reports.map { $0! }
        drawHeader(into: &sheet, layout: layout, samples: samples, tiles: tiles, lines: headerLines)
        return Rendering(image: sheet, layout: layout, tiles: tiles)
    }

    /// The canvas and report slots shared by the tile workers; each worker writes only
    /// its own tile's rectangle and its own slot.
    private struct SharedOutput: @unchecked Sendable {
        let canvas: UnsafeMutableBufferPointer<UInt8>
        let reports: UnsafeMutableBufferPointer<TileReport?>
    }

    // MARK: - Header

    private func drawHeader(
        into sheet: inout Image8, layout: ContactSheetLayout,
        samples: [Result<ResolvedSample, SampleFailure>], tiles: [TileReport], lines: [String]
    ) {
        let t = layout.textScale
        let m = ContactSheetLayout.margin
        let usable = layout.width - 2 * m
        PixelFont.draw(
            PixelFont.truncated(title, toWidth: usable, scale: 2 * t), into: &sheet, x: m, y: m,
            scale: 2 * t, color: Self.text)
        var y = m + ContactSheetLayout.titleHeight(textScale: t)
        let lineHeight = ContactSheetLayout.headerLineHeight(textScale: t)

        // Legend: a swatch and count per label shown, then failures.
        var counts: [SampleLabel: Int] = [:]
        for case .success(let resolved) in samples { counts[resolved.sample.label, default: 0] += 1 }
        var items: [(DepthHeatmap.Color, String)] = SampleLabel.allCases.compactMap { label in
            counts[label].map { (label.sheetColor, "\(label.rawValue) \($0)") }
        }
        let unresolved = samples.filter { if case .failure = $0 { true } else { false } }.count
        if unresolved > 0 { items.append((Self.failureFrame, "unreadable \(unresolved)")) }
        let partly = tiles.filter(\.failed).count - unresolved
        if partly > 0 { items.append((Self.failurePanel, "a file failed \(partly)")) }
        if items.isEmpty { items.append((Self.sheetBackground, "no samples to show")) }
        var x = m
        for (color, label) in items {
            let swatch = 9 * t
            if color == Self.failurePanel {
                SheetCanvas.fill(&sheet, x: x, y: y - t, width: swatch, height: swatch, color: Self.failureText)
            }
            let inset = color == Self.failurePanel ? t : 0
            SheetCanvas.fill(
                &sheet, x: x + inset, y: y - t + inset, width: swatch - 2 * inset,
                height: swatch - 2 * inset, color: color)
            x += swatch + 4 * t
            PixelFont.draw(label, into: &sheet, x: x, y: y, scale: t, color: Self.text)
            x += PixelFont.width(of: label, scale: t) + 14 * t
        }
        y += lineHeight

        for line in lines {
            PixelFont.draw(
                PixelFont.truncated(line, toWidth: usable, scale: t), into: &sheet, x: m, y: y, scale: t,
                color: Self.dimText)
            y += lineHeight
        }
    }

    // MARK: - Tiles

    /// Renders one tile as its own `tileWidth x tileHeight` RGB image.
    func renderTile(
        _ sample: Result<ResolvedSample, SampleFailure>,
        layout: ContactSheetLayout
    ) -> (Image8, TileReport) {
        var tile = Image8(width: layout.tileWidth, height: layout.tileHeight, channels: 3)
        SheetCanvas.fill(&tile, x: 0, y: 0, width: tile.width, height: tile.height, color: Self.tileBackground)
        let t = layout.textScale
        let side = layout.panelSide
        let captionWidth = layout.tileWidth - 2 * (ContactSheetLayout.border + ContactSheetLayout.padding)
        let captionLeft = ContactSheetLayout.border + ContactSheetLayout.padding
        func caption(_ line: Int) -> Int { layout.captionTop + line * 9 * t + t }

        switch sample {
        case .failure(let failure):
            SheetCanvas.frame(
                &tile, x: 0, y: 0, width: tile.width, height: tile.height,
                thickness: ContactSheetLayout.border, color: Self.failureFrame)
            let origin = layout.panelOrigin(0)
            drawFailure(
                "failed: " + failure.reason, into: &tile, x: origin.x, y: origin.y,
                width: captionWidth, height: side, textScale: t)
            let name = failure.sampleID ?? "samples[\(failure.index)]"
            PixelFont.draw(
                PixelFont.truncated(name, toWidth: captionWidth, scale: t), into: &tile,
                x: captionLeft, y: caption(0), scale: t, color: Self.text)
            PixelFont.draw("failed", into: &tile, x: captionLeft, y: caption(1), scale: t, color: Self.failureText)
            PixelFont.draw(
                "samples[\(failure.index)]", into: &tile, x: captionLeft, y: caption(2), scale: t,
                color: Self.dimText)
            return (
                tile,
                TileReport(
                    index: failure.index, sampleID: failure.sampleID,
                    problems: [failure.reason])
            )

        case .success(let resolved):
            let sample = resolved.sample
            SheetCanvas.frame(
                &tile, x: 0, y: 0, width: tile.width, height: tile.height,
                thickness: ContactSheetLayout.border, color: sample.label.sheetColor)
            var problems: [String] = []
            var slot = 0

            // 1. The image.
            var orientation = ExifOrientation.up
            var sizeText = ""
            let imageOrigin = layout.panelOrigin(slot)
            do {
                let picture = try SheetThumbnail.image(at: resolved.imagePath, side: side)
                orientation = picture.orientation
                sizeText =
                    "\(picture.storedWidth)x\(picture.storedHeight)"
                    + (orientation == .up ? "" : " exif \(orientation.rawValue)")
                drawPicture(picture.image, into: &tile, x: imageOrigin.x, y: imageOrigin.y, side: side)
            } catch {
                let reason = Self.reason(error)
                problems.append("image: \(reason)")
                drawFailure(
                    "failed: " + reason, into: &tile, x: imageOrigin.x, y: imageOrigin.y,
                    width: side, height: side, textScale: t)
            }
            slot += 1

            // 2. Depth, turned like the image.
            if let depthPath = resolved.depthPath, let reference = sample.depth {
                let origin = layout.panelOrigin(slot)
                do {
                    if !problems.isEmpty {
                        orientation = (try? ExifReader.read(fileAt: resolved.imagePath))?.orientation ?? .up
                    }
                    let depth = try SheetThumbnail.depth(
                        at: depthPath, reference: reference,
                        orientation: orientation, side: side)
                    drawPicture(depth.image, into: &tile, x: origin.x, y: origin.y, side: side)
                    let note = depth.range.map { Self.rangeText($0) } ?? "no valid depth"
                    drawBadge(
                        note, into: &tile, x: origin.x, y: origin.y + side - 9 * t - 2 * t,
                        width: side, textScale: t)
                } catch {
                    let reason = Self.reason(error)
                    problems.append("depth: \(reason)")
                    drawFailure(
                        "failed: " + reason, into: &tile, x: origin.x, y: origin.y,
                        width: side, height: side, textScale: t)
                }
                slot += 1
            }

            // 3. The right view.
            if let rightPath = resolved.rightPath {
                let origin = layout.panelOrigin(slot)
                do {
                    let picture = try SheetThumbnail.image(at: rightPath, side: side)
                    drawPicture(picture.image, into: &tile, x: origin.x, y: origin.y, side: side)
                    drawBadge("right", into: &tile, x: origin.x, y: origin.y, width: nil, textScale: t)
                } catch {
                    let reason = Self.reason(error)
                    problems.append("right: \(reason)")
                    drawFailure(
                        "failed: " + reason, into: &tile, x: origin.x, y: origin.y,
                        width: side, height: side, textScale: t)
                }
                slot += 1
            }

            // Empty slots: say what is missing.
            let hasDepthSlot = layout.panelsPerTile >= 2
            while slot < layout.panelsPerTile {
                let origin = layout.panelOrigin(slot)
                SheetCanvas.fill(&tile, x: origin.x, y: origin.y, width: side, height: side, color: Self.emptyPanel)
                if hasDepthSlot && resolved.depthPath == nil && slot == 1 {
                    let text = "no depth"
                    PixelFont.draw(
                        text, into: &tile, x: origin.x + (side - PixelFont.width(of: text, scale: t)) / 2,
                        y: origin.y + (side - 7 * t) / 2, scale: t, color: Self.dimText)
                }
                slot += 1
            }

            // Caption.
            PixelFont.draw(
                PixelFont.truncated(sample.id, toWidth: captionWidth, scale: t), into: &tile,
                x: captionLeft, y: caption(0), scale: t, color: Self.text)
            let label = sample.label.rawValue
            PixelFont.draw(label, into: &tile, x: captionLeft, y: caption(1), scale: t, color: sample.label.sheetColor)
            let labelWidth = PixelFont.width(of: label + "  ", scale: t) + t
            if !sizeText.isEmpty {
                PixelFont.draw(
                    PixelFont.truncated(sizeText, toWidth: captionWidth - labelWidth, scale: t), into: &tile,
                    x: captionLeft + labelWidth, y: caption(1), scale: t, color: Self.dimText)
            }
            var details = sample.tags
            if sample.split != .test { details.insert("split " + sample.split.rawValue, at: 0) }
            PixelFont.draw(
                PixelFont.truncated(details.joined(separator: ", "), toWidth: captionWidth, scale: t),
                into: &tile, x: captionLeft, y: caption(2), scale: t, color: Self.dimText)
            return (tile, TileReport(index: resolved.index, sampleID: sample.id, problems: problems))
        }
    }

    /// `"0.42-3.10 m"`: the range's bounds with `DepthHeatmap.label`'s rounding.
    static func rangeText(_ range: ClosedRange<Float>) -> String {
        let low = DepthHeatmap.label(range.lowerBound).dropLast(2)
        return "\(low)-\(DepthHeatmap.label(range.upperBound))"
    }

    /// The part of an error a tile can show: a `MediaError`'s detail (the tile already
    /// says which file), else the error's description.
    static func reason(_ error: any Error) -> String {
        (error as? MediaError)?.detail ?? "\(error)"
    }

    /// A black panel with `picture` centred in it.
    private func drawPicture(_ picture: Image8, into tile: inout Image8, x: Int, y: Int, side: Int) {
        SheetCanvas.fill(&tile, x: x, y: y, width: side, height: side, color: .black)
        SheetCanvas.copy(picture, into: &tile, x: x + (side - picture.width) / 2, y: y + (side - picture.height) / 2)
    }

    /// A dark red box with `text` wrapped inside, as many lines as fit.
    private func drawFailure(
        _ text: String, into tile: inout Image8, x: Int, y: Int, width: Int, height: Int,
        textScale t: Int
    ) {
        SheetCanvas.fill(&tile, x: x, y: y, width: width, height: height, color: Self.failurePanel)
        let inset = 3 * t
        let lines = PixelFont.wrapped(text, toWidth: width - 2 * inset, scale: t)
        let fitting = max(1, (height - 2 * inset + 2 * t) / (9 * t))
        for (k, line) in lines.prefix(fitting).enumerated() {
            let shown =
                k == fitting - 1 && lines.count > fitting
                ? PixelFont.truncated(line + "……", toWidth: width - 2 * inset, scale: t) : line
            PixelFont.draw(
                shown, into: &tile, x: x + inset, y: y + inset + k * 9 * t, scale: t,
                color: Self.failureText)
        }
    }

    /// White text on a black strip at (`x`, `y`): as wide as the text, or `width`.
    private func drawBadge(_ text: String, into tile: inout Image8, x: Int, y: Int, width: Int?, textScale t: Int) {
        let textWidth = PixelFont.width(of: text, scale: t)
        SheetCanvas.fill(&tile, x: x, y: y, width: width ?? textWidth + 4 * t, height: 11 * t, color: .black)
        PixelFont.draw(text, into: &tile, x: x + 2 * t, y: y + 2 * t, scale: t, color: Self.text)
    }
}

/// A contact sheet that cannot be made at all (too large, bad options); one sample that
/// fails to load never causes it.
public struct ContactSheetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
