import ArgumentParser
import Foundation
import RialCodecs
import RialEval
import RialMedia

extension SampleLabel: ExpressibleByArgument {}
extension DatasetSplit: ExpressibleByArgument {}

extension DatasetCommand {
    /// `rial-bench dataset sheet MANIFEST --out sheet.png`: a contact sheet of the samples.
    struct Sheet: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a contact sheet (PNG) of a dataset's samples to look at them.",
            discussion: """
                One tile per sample: the image upright (EXIF orientation applied), its depth as a \
                Turbo heatmap (near blue, far red, invalid magenta; the tile's 2nd-98th percentile \
                range in metres along its bottom edge) turned by the same orientation so it lines \
                up, and the right stereo view when present. The caption gives the id, the label \
                (also the colour of the tile's frame: real_scene green, lcd_screen orange, screen \
                red-orange, oled_screen red, printed_paper blue), the stored size and the tags. \
                The header names the dataset and counts the labels shown. \
                Samples whose files are missing or unreadable get a tile saying why; the sheet is \
                still written (warnings on standard error). Files are not hashed; run \
                `rial-bench dataset validate` for that. At most \(ContactSheetSelection.defaultCap) \
                tiles: use --limit, --label or --split for larger datasets. \
                Exit status 65 when the manifest cannot be read or the sheet cannot be written.
                """
        )

        @Argument(help: "The manifest.json to draw.")
        var manifest: String

        @Option(help: "Write the PNG here.")
        var out: String

        @Option(help: "Show at most this many samples: the first ones, or a random subset with --seed.")
        var limit: Int?

        @Option(help: "Tiles per row (default: about 16:10 overall).")
        var columns: Int?

        @Option(help: "Side of each thumbnail's square box in pixels (16...1024).")
        var tile: Int = 160

        @Option(name: .customLong("label"), help: "Show only this label; repeat for several.")
        var labels: [SampleLabel] = []

        @Option(help: "Show only this split.")
        var split: DatasetSplit?

        @Option(help: "With --limit, draw a random subset with this seed (an unsigned 64-bit integer).")
        var seed: UInt64?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
            if let columns, !(1...200).contains(columns) {
                throw ValidationError("--columns must be in 1...200, got \(columns)")
            }
            if !(16...1024).contains(tile) { throw ValidationError("--tile must be in 16...1024 pixels, got \(tile)") }
            if out.isEmpty { throw ValidationError("--out must name a file") }
        }

        func run() throws {
            let loader = try DatasetCommandSupport.loader(manifest)
            if !loader.headerProblems.isEmpty {
                throw CLIError.badInput(lines: loader.headerProblems.map(\.description))
            }
            let selection = ContactSheetSelection(labels: Set(labels), split: split, limit: limit, seed: seed)
                .select(from: loader)
            // Existence only: hashing every file would make looking at a dataset slow.
            let samples = selection.entries.map { loader.resolve($0, checks: []) }
            let title = loader.name ?? URL(fileURLWithPath: manifest).deletingLastPathComponent().lastPathComponent
            let sheet = ContactSheet(title: title, options: ContactSheet.Options(panelSide: tile, columns: columns))
            let rendering: ContactSheet.Rendering
            do {
                rendering = try sheet.render(samples, notes: selection.summary)
            } catch {
                throw ValidationError(error.description)
            }
            for report in rendering.tiles where report.failed {
                let name = report.sampleID.map { " (id \"\($0)\")" } ?? ""
                for problem in report.problems {
                    Terminal.warning("\(manifest): samples[\(report.index)]\(name): \(problem)")
                }
            }
            do {
                try MediaFile.write(PNGEncoder.encode(rendering.image), to: out)
            } catch {
                throw CLIError.badInput(
                    "\(out): cannot write the sheet: \((error as? MediaError)?.detail ?? "\(error)")")
            }
            let failed = rendering.tiles.filter(\.failed).count
            Terminal.out(
                "wrote \(out): \(rendering.layout.width)x\(rendering.layout.height) pixels, "
                    + "\(rendering.tiles.count) tiles in \(rendering.layout.columns) columns, \(failed) with failures")
            for line in selection.summary { Terminal.out(line) }
        }
    }
}
