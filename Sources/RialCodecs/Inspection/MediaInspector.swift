import Foundation
import RialMedia

/// Reads one file and describes it: image size, decode time, EXIF and SHA-256, or
/// depth size and statistics. The engine behind `rial-bench inspect`.
public enum MediaInspector {
    /// How to read depth files.
    public struct DepthOptions: Sendable, Equatable {
        /// The storage format; `nil` infers it from the content (see `inspect`).
        public var format: DepthFormat?
        /// Grid size for raw float formats (default 256 x 192).
        public var width: Int?
        public var height: Int?
        /// Metres per unit for `u16_png_scaled` (and optionally NumPy arrays).
        public var scale: Double?

        public init(format: DepthFormat? = nil, width: Int? = nil, height: Int? = nil, scale: Double? = nil) {
            self.format = format
            self.width = width
            self.height = height
            self.scale = scale
        }
    }

    /// Inspects the file at `path`.
    ///
    /// With `depth.format` set, the file is read as depth in that format. Otherwise the
    /// content decides: JPEG and 8-bit PNG are images; a single-channel 16-bit PNG is
    /// depth in millimetres (`u16_png_mm`, the convention of ARKitScenes and most
    /// public LiDAR data); `.npy`/`.npz` are depth arrays; gzip and zlib streams are
    /// float32 depth (`f32le_gzip`/`f32le_zlib`). Raw float32 has no signature: pass
    /// the format.
    ///
    /// - Throws: `MediaError` naming `path` for a missing, unreadable, corrupt or
    ///   unrecognised file.
    public static func inspect(path: String, depth: DepthOptions = DepthOptions()) throws -> MediaInspection {
        if depth.format == nil, looksLikeVideo(path: path) {
            let info = try VideoDecoder.info(path: path)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return .video(VideoInspection(path: path, stream: info, fileBytes: bytes))
        }
        let data = try MediaFile.read(path)
        let sniffed = SniffedFormat.sniff(data)
        if let format = depth.format {
            return try inspectDepth(data, path: path, format: format, inferred: false, options: depth)
        }
        switch sniffed {
        case .jpeg:
            return .image(try inspectJPEG(data, path: path))
        case .png:
            let info = try PNGDecoder.readInfo(data, source: path)
            if info.decodedBitDepth == 16 && info.decodedChannels == 1 {
                return try inspectDepth(data, path: path, format: .u16PngMm, inferred: true, options: depth)
            }
            return .image(try inspectPNG(data, path: path))
        case .npy:
            return try inspectDepth(data, path: path, format: .npy, inferred: true, options: depth)
        case .npz:
            return try inspectDepth(data, path: path, format: .npz, inferred: true, options: depth)
        case .gzip:
            return try inspectDepth(data, path: path, format: .f32leGzip, inferred: true, options: depth)
        case .zlib:
            return try inspectDepth(data, path: path, format: .f32leZlib, inferred: true, options: depth)
        case .unknown:
            if data.isEmpty { throw MediaError(.corrupt, source: path, "file is empty") }
            throw MediaError(
                .unsupported, source: path,
                "not a JPEG, PNG, NumPy, gzip, zlib or MP4/MOV file; for raw float32 depth pass --depth-format f32le")
        }
    }

    /// ISO base media (MP4, MOV) box types a video file starts with.
    static let videoBoxTypes: Set<String> = ["ftyp", "moov", "mdat", "wide", "free", "skip"]

    /// True when the file's first box (bytes 4..<8) is one an MP4 or MOV file starts with;
    /// read without loading the file (videos are large).
    static func looksLikeVideo(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8), head.count == 8 else { return false }
        return videoBoxTypes.contains(String(decoding: head.suffix(4), as: UTF8.self))
    }

    static func inspectJPEG(_ data: Data, path: String) throws -> ImageInspection {
        let clock = ContinuousClock()
        var decoded: JPEGDecodeResult?
        let elapsed = try clock.measure {
            decoded = try JPEGDecoder.decodeReporting(data, source: path)
        }
        guard let result = decoded else { throw MediaError(.corrupt, source: path, "JPEG decode returned nothing") }
        let exif = try ExifReader.read(jpeg: data, source: path)
        let swaps = exif?.orientation?.swapsDimensions ?? false
        let image = result.image
        return ImageInspection(
            path: path, format: "jpeg", width: image.width, height: image.height,
            displayWidth: swaps ? image.height : image.width,
            displayHeight: swaps ? image.width : image.height,
            channels: image.channels, bitDepth: 8, decodeMs: elapsed.milliseconds,
            sha256: SHA256Digest.hash(data), fileBytes: data.count,
            progressive: result.info.isProgressive,
            decodeWarnings: result.warningTexts,
            exif: exif)
    }

    static func inspectPNG(_ data: Data, path: String) throws -> ImageInspection {
        let clock = ContinuousClock()
        var decoded: PNGImage?
        let elapsed = try clock.measure { decoded = try PNGDecoder.decode(data, source: path) }
        guard let image = decoded else { throw MediaError(.corrupt, source: path, "PNG decode returned nothing") }
        return ImageInspection(
            path: path, format: "png", width: image.width, height: image.height,
            displayWidth: image.width, displayHeight: image.height,
            channels: image.channels, bitDepth: image.bitDepth, decodeMs: elapsed.milliseconds,
            sha256: SHA256Digest.hash(data), fileBytes: data.count,
            progressive: nil, decodeWarnings: [], exif: nil)
    }

    static func inspectDepth(
        _ data: Data, path: String, format: DepthFormat, inferred: Bool,
        options: DepthOptions
    ) throws -> MediaInspection {
        let reading = try DepthReader.readReporting(
            data: data, format: format, width: options.width,
            height: options.height, scale: options.scale, source: path)
        let map = reading.map
        let stats = DepthStatistics(map)
        let report = DepthInspection(
            path: path, format: format.rawValue, formatInferred: inferred,
            width: map.width, height: map.height, validFraction: stats.validFraction,
            outOfRangeCount: reading.outOfRangeCount,
            min: stats.min, median: stats.median, max: stats.max, mean: stats.mean, std: stats.std,
            sha256: SHA256Digest.hash(data), fileBytes: data.count)
        return .depth(report, map: map)
    }
}
