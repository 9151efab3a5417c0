/// DCT-domain downscaling applied while decoding: libjpeg computes a smaller inverse DCT
/// per 8x8 block (4x4, 2x2 or 1x1 for 1/2, 1/4, 1/8), so a scaled decode is much
/// cheaper than a full decode followed by resampling.
///
/// Output size is `ceil(width / n) x ceil(height / n)` (libjpeg's
/// `jdiv_round_up(width * 1, n)`).
public enum JPEGScale: Int, Sendable, Codable, CaseIterable, Equatable {
    case full = 1
    case half = 2
    case quarter = 4
    case eighth = 8

    /// `n` in the scale factor 1/n.
    public var denominator: Int { rawValue }
}

/// The pixel layout `JPEGDecoder` produces.
public enum JPEGOutputFormat: String, Sendable, Codable, CaseIterable, Equatable {
    /// 3 channels, R G B.
    case rgb
    /// 1 channel. For YCbCr files this is the coded luma plane Y itself (chroma is not
    /// decoded); for RGB and CMYK files, `0.299 R + 0.587 G + 0.114 B` (libjpeg's
    /// fixed-point weights 19595/38470/7471 over 65536, rounded).
    case gray

    var channels: Int { self == .rgb ? 3 : 1 }
}

/// How libjpeg *warnings* are treated. libjpeg reports recoverable damage as warnings
/// and keeps decoding: data that ends early ("Premature end of JPEG file") decodes
/// with the missing part flat gray, a damaged entropy segment ("Corrupt JPEG data:
/// bad Huffman code", "premature end of data segment") decodes with garbage blocks,
/// and stray bytes between markers ("N extraneous bytes before marker") are skipped.
public enum JPEGWarningPolicy: String, Sendable, Codable, CaseIterable, Equatable {
    /// Default. A truncated file is an error (`.corrupt`, "Premature end of JPEG
    /// file") — a half-gray image must never pass as a photo. Other warnings are
    /// tolerated, as djpeg and Pillow do (many camera files carry extraneous bytes),
    /// and reported in `JPEGDecodeResult.warningCount`/`firstWarning`.
    case rejectTruncated = "reject_truncated"
    /// Every warning is an error: strict validation.
    case rejectAll = "reject_all"
    /// No warning is an error (djpeg's behaviour). Check `JPEGDecodeResult.isTruncated`.
    case acceptAll = "accept_all"
}

/// Options for `JPEGDecoder.decode` (RialCodecs). The defaults decode full size to RGB,
/// refuse truncated files and images above 100 megapixels. Partial JSON is decoded over
/// the defaults: `tree.decode(JPEGDecodeOptions.self, overlaying: JPEGDecodeOptions())`.
public struct JPEGDecodeOptions: Sendable, Equatable, Codable {
    /// Default `maxPixels`: 100 megapixels (10^8). A 100 MP RGB output is 300 MB, and a
    /// progressive file of that size also needs about 600 MB of coefficient buffers.
    public static let defaultMaxPixels = 100_000_000
    /// Default `maxScans`: 500, TurboJPEG's own limit for progressive scans.
    public static let defaultMaxScans = 500

    /// DCT-domain downscale.
    public var scale: JPEGScale
    /// RGB or gray output.
    public var output: JPEGOutputFormat
    /// Which libjpeg warnings fail the decode.
    public var warningPolicy: JPEGWarningPolicy
    /// Decompression-bomb guard: images whose stored `width * height` exceeds this are
    /// refused (`.unsupported`) after reading the header, before any pixel buffer is
    /// allocated. Must be positive. Applies to the stored size, whatever the `scale`,
    /// because libjpeg's buffers for progressive files grow with the stored size.
    public var maxPixels: Int
    /// Progressive files with more scans than this are refused (`.unsupported`): each
    /// scan re-walks the whole image, so a few KB of tiny scans can cost minutes.
    /// Must be positive.
    public var maxScans: Int

    public init(
        scale: JPEGScale = .full, output: JPEGOutputFormat = .rgb,
        warningPolicy: JPEGWarningPolicy = .rejectTruncated,
        maxPixels: Int = JPEGDecodeOptions.defaultMaxPixels,
        maxScans: Int = JPEGDecodeOptions.defaultMaxScans
    ) {
        self.scale = scale
        self.output = output
        self.warningPolicy = warningPolicy
        self.maxPixels = maxPixels
        self.maxScans = maxScans
    }

    enum CodingKeys: String, CodingKey {
        case scale, output
        case warningPolicy = "warning_policy"
        case maxPixels = "max_pixels"
        case maxScans = "max_scans"
    }
}
