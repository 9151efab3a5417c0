/// The colour space of a JPEG's coded components, as libjpeg infers it from the
/// markers (JFIF APP0, Adobe APP14 transform flag, component IDs).
///
/// | components | markers | colour space |
/// |---|---|---|
/// | 1 | any | `grayscale` |
/// | 3 | JFIF, or Adobe transform 1, or IDs 1-2-3 | `yCbCr` |
/// | 3 | Adobe transform 0, or IDs 'R','G','B' | `rgb` |
/// | 4 | Adobe transform 2 | `ycck` |
/// | 4 | otherwise | `cmyk` |
/// | 2, 5+ | | `unknown` (not decodable to RGB or gray) |
public enum JPEGColorSpace: String, Sendable, Codable, CaseIterable, Equatable {
    case unknown
    case grayscale
    case yCbCr = "ycbcr"
    case rgb
    case cmyk
    case ycck
}

/// What a JPEG's header says, read without decoding any pixels
/// (`JPEGDecoder.readInfo`, in RialCodecs).
public struct JPEGInfo: Sendable, Equatable, Codable {
    /// Stored width in pixels (SOF). EXIF orientation is not applied.
    public var width: Int
    /// Stored height in pixels (SOF).
    public var height: Int
    /// Number of coded components: 1 (gray), 3 (colour) or 4 (CMYK/YCCK).
    public var components: Int
    /// Colour space of the coded data.
    public var colorSpace: JPEGColorSpace
    /// True for progressive (SOF2) files, false for baseline/extended sequential.
    public var isProgressive: Bool
    /// True when the entropy coding is arithmetic rather than Huffman.
    public var isArithmeticCoded: Bool
    /// True when an APP0 JFIF marker is present.
    public var hasJFIFMarker: Bool
    /// True when an APP14 Adobe marker is present. For CMYK/YCCK files this means the
    /// samples are stored inverted (see `JPEGDecoder`).
    public var hasAdobeMarker: Bool

    public init(
        width: Int, height: Int, components: Int, colorSpace: JPEGColorSpace,
        isProgressive: Bool, isArithmeticCoded: Bool = false,
        hasJFIFMarker: Bool = false, hasAdobeMarker: Bool = false
    ) {
        self.width = width
        self.height = height
        self.components = components
        self.colorSpace = colorSpace
        self.isProgressive = isProgressive
        self.isArithmeticCoded = isArithmeticCoded
        self.hasJFIFMarker = hasJFIFMarker
        self.hasAdobeMarker = hasAdobeMarker
    }

    /// `width * height`.
    public var pixelCount: Int { width * height }

    /// The size a decode at `scale` produces: libjpeg's DCT scaling rounds up,
    /// `ceil(width / n) x ceil(height / n)` for scale 1/n.
    public func outputSize(scale: JPEGScale) -> (width: Int, height: Int) {
        let n = scale.denominator
        return ((width + n - 1) / n, (height + n - 1) / n)
    }

    enum CodingKeys: String, CodingKey {
        case width, height, components
        case colorSpace = "color_space"
        case isProgressive = "progressive"
        case isArithmeticCoded = "arithmetic_coded"
        case hasJFIFMarker = "jfif_marker"
        case hasAdobeMarker = "adobe_marker"
    }
}
