import ArgumentParser
import Foundation
import RialCodecs
import RialMedia

/// `rial-bench inspect`: describe images and depth files.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Describe images (size, decode time, EXIF, SHA-256), depth files (size, statistics in metres) and MP4/MOV videos (stream).",
        discussion: """
            The file type comes from the content. An MP4 or MOV file is described as its video stream \
            (codec, size, frame rate, frame count, duration, rotation) as FFmpeg reads it. \
            A single-channel 16-bit PNG is read as depth in \
            millimetres; .npy/.npz, gzip and zlib files as depth arrays. Pass --depth-format to choose \
            (required for raw float32). The files of a video sample are recognised too: a depth \
            keyframe blob with its RLDP header, a raw frame sequence (RLFS) and a hash chain JSON \
            (counts, sizes, time range, and the deployed verifier's structural check); see \
            docs/dataset-format-video.md. Every path is inspected even when one fails; the exit code \
            is 65 when any path could not be read.
            """)

    @Argument(help: "Image, depth or video files.", completion: .file())
    var paths: [String]

    @OptionGroup var depthOptions: DepthFormatOptions

    @Option(
        help:
            "Write a depth heatmap (turbo colours, legend in metres, invalid pixels magenta) to this PNG. Needs exactly one depth path.",
        completion: .file(extensions: ["png"]))
    var heatmap: String?

    @Flag(help: "Print one JSON object per path (JSON Lines) instead of a table.")
    var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file to inspect") }
        if heatmap != nil, paths.count != 1 {
            throw ValidationError("--heatmap writes one file: give exactly one depth path (got \(paths.count))")
        }
    }

    func run() throws {
        let options = depthOptions.mediaOptions
        var images = TextTable(["path", "format", "size", "decode", "make", "model", "taken", "orient", "sha256"])
        var depths = TextTable(["path", "format", "size", "valid", "min m", "median m", "max m", "sha256"])
        var keyframes = TextTable(RecordingFileInspection.keyframeHeader)
        var sequences = TextTable(RecordingFileInspection.frameHeader)
        var chains = TextTable(RecordingFileInspection.chainHeader)
        var videos = TextTable(["path", "stream"])
        var failures = 0
        for path in paths {
            do {
                if depthOptions.isEmpty, heatmap == nil, let recording = try RecordingFileInspection.inspect(path: path)
                {
                    if json {
                        Terminal.out(try JSONLines.encode(recording))
                    } else {
                        switch recording {
                        case .keyframes: keyframes.append(recording.row)
                        case .frames: sequences.append(recording.row)
                        case .chain: chains.append(recording.row)
                        }
                    }
                    continue
                }
                let inspection = try MediaInspector.inspect(path: path, depth: options)
                if case .depth(let d, _) = inspection, let warning = Self.rangeWarning(d) { Terminal.warning(warning) }
                if let heatmap {
                    guard case .depth(_, let map) = inspection else {
                        let kind = if case .video = inspection { "a video" } else { "an image" }
                        throw MediaError(
                            .invalidArgument, source: path,
                            "--heatmap needs a depth file, but this is \(kind)")
                    }
                    try DepthHeatmap.writePNG(map, to: heatmap)
                }
                if json {
                    Terminal.out(try JSONLines.encode(inspection))
                } else {
                    switch inspection {
                    case .image(let i): images.append(Self.row(i))
                    case .depth(let d, _): depths.append(Self.row(d))
                    case .video(let v): videos.append([v.path, v.stream.summary])
                    }
                }
            } catch let error as MediaError {
                failures += 1
                Terminal.error(error.description)
                if json { Terminal.out(try JSONLines.encode(InspectFailure(path: path, error: error))) }
            }
        }
        if !json {
            var blocks: [String] = []
            if !images.rows.isEmpty { blocks.append(images.render()) }
            if !depths.rows.isEmpty {
                let inferred = depths.rows.contains { $0[1].hasSuffix("*") }
                blocks.append(
                    depths.render() + (inferred ? "\n* format inferred from the content; --depth-format overrides" : "")
                )
            }
            for table in [keyframes, sequences, chains, videos] where !table.rows.isEmpty {
                blocks.append(table.render())
            }
            if !blocks.isEmpty { Terminal.out(blocks.joined(separator: "\n\n")) }
            if let heatmap, failures == 0 { Terminal.out("heatmap written to \(heatmap)") }
        }
        if failures > 0 { throw ExitStatus.badInput }
    }

    static func row(_ i: ImageInspection) -> [String] {
        let size = "\(i.width)x\(i.height)" + (i.channels == 1 ? " gray" : "")
        return [
            i.path, i.format + (i.progressive == true ? " prog" : ""), size,
            String(format: "%.1f ms", i.decodeMs),
            i.exif?.make ?? "-", i.exif?.model ?? "-", i.exif?.dateTimeOriginal ?? "-",
            i.exif?.orientation.map { String($0.rawValue) } ?? "-",
            String(i.sha256.prefix(16)),
        ]
    }

    /// One line when the file holds distances no sensor reports, else nil.
    static func rangeWarning(_ d: DepthInspection) -> String? {
        guard d.outOfRangeCount > 0 else { return nil }
        let range = DepthFormat.validMetres
        return "\(d.path): \(d.outOfRangeCount) of \(d.width * d.height) depth values are outside a sensor's range "
            + "(\(range.lowerBound)...\(range.upperBound) m) and count as invalid"
    }

    static func row(_ d: DepthInspection) -> [String] {
        func metres(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "-" }
        return [
            d.path, d.format + (d.formatInferred ? "*" : ""), "\(d.width)x\(d.height)",
            String(format: "%.1f%%", d.validFraction * 100),
            metres(d.min), metres(d.median), metres(d.max), String(d.sha256.prefix(16)),
        ]
    }
}

/// The JSON line printed for a path that could not be inspected.
struct InspectFailure: Encodable {
    var path: String
    var error: MediaError
}

/// Compact, key-sorted JSON, one value per line.
enum JSONLines {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
