import Foundation
import RialMedia

/// What `rial-bench inspect` reports for an image file.
///
/// `width`/`height` are the stored pixel grid (the grid depth maps align with);
/// `display_width`/`display_height` apply the EXIF orientation.
public struct ImageInspection: Sendable, Equatable, Codable {
    public var path: String
    /// `jpeg` or `png`.
    public var format: String
    public var width: Int
    public var height: Int
    public var displayWidth: Int
    public var displayHeight: Int
    public var channels: Int
    public var bitDepth: Int
    /// Wall time of the pixel decode alone (file already in memory), milliseconds.
    public var decodeMs: Double
    public var sha256: String
    public var fileBytes: Int
    /// JPEG only: progressive (multi-scan) coding.
    public var progressive: Bool?
    /// JPEG only: warnings libjpeg raised and tolerated (corrupt data it recovered from).
    public var decodeWarnings: [String]
    /// EXIF metadata, `nil` when the file has none (PNG files are not searched for EXIF).
    public var exif: ExifMetadata?

    enum CodingKeys: String, CodingKey {
        case path, format, width, height, channels, sha256, progressive, exif
        case displayWidth = "display_width"
        case displayHeight = "display_height"
        case bitDepth = "bit_depth"
        case decodeMs = "decode_ms"
        case fileBytes = "file_bytes"
        case decodeWarnings = "decode_warnings"
    }
}

/// What `rial-bench inspect` reports for a depth file: size and statistics in metres
/// over valid pixels (invalid = NaN after reading; see `DepthReader`).
public struct DepthInspection: Sendable, Equatable, Codable {
    public var path: String
    /// The `DepthFormat` raw value used to read the file.
    public var format: String
    /// True when the format was inferred from the content instead of given.
    public var formatInferred: Bool
    public var width: Int
    public var height: Int
    public var validFraction: Double
    /// Stored values outside a sensor's range (`DepthFormat.validMetres`: 3e38 m,
    /// 1e-42 m, negative), counted invalid; 0 for a sound file.
    public var outOfRangeCount: Int
    public var min: Double?
    public var median: Double?
    public var max: Double?
    public var mean: Double?
    public var std: Double?
    public var sha256: String
    public var fileBytes: Int

    enum CodingKeys: String, CodingKey {
        case path, format, width, height, min, median, max, mean, std, sha256
        case formatInferred = "format_inferred"
        case validFraction = "valid_fraction"
        case outOfRangeCount = "out_of_range_count"
        case fileBytes = "file_bytes"
    }
}

/// What `rial-bench inspect` reports for a video file: the stream as the container
/// describes it (`VideoDecoder.info`; no frame is decoded).
public struct VideoInspection: Sendable, Equatable, Codable {
    public var path: String
    /// `video`.
    public var format: String
    public var stream: VideoStreamInfo
    public var fileBytes: Int

    public init(path: String, stream: VideoStreamInfo, fileBytes: Int) {
        self.path = path
        self.format = "video"
        self.stream = stream
        self.fileBytes = fileBytes
    }

    enum CodingKeys: String, CodingKey {
        case path, format, stream
        case fileBytes = "file_bytes"
    }
}

/// The inspection of one path: an image, a depth map or a video.
public enum MediaInspection: Sendable, Equatable, Encodable {
    case image(ImageInspection)
    case depth(DepthInspection, map: DepthMap)
    case video(VideoInspection)

    public var path: String {
        switch self {
        case .image(let i): i.path
        case .depth(let d, _): d.path
        case .video(let v): v.path
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .image(let i): try i.encode(to: encoder)
        case .depth(let d, _): try d.encode(to: encoder)
        case .video(let v): try v.encode(to: encoder)
        }
    }
}
