/// A decoded PNG (`PNGDecoder`, in RialCodecs): 8-bit samples, or 16-bit samples kept
/// as `UInt16` in host order.
///
/// Channels follow `PixelImage`: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA. Palette images
/// arrive as RGB (RGBA when the file has a `tRNS` chunk) and 1/2/4-bit gray as 8-bit
/// gray scaled to 0...255 (a 1-bit `1` becomes 255, a 2-bit `1` becomes 85).
public enum PNGImage: Sendable, Equatable {
    case eight(Image8)
    case sixteen(Image16)

    public var width: Int {
        switch self {
        case .eight(let image): image.width
        case .sixteen(let image): image.width
        }
    }

    public var height: Int {
        switch self {
        case .eight(let image): image.height
        case .sixteen(let image): image.height
        }
    }

    public var channels: Int {
        switch self {
        case .eight(let image): image.channels
        case .sixteen(let image): image.channels
        }
    }

    /// Bits per decoded sample: 8 or 16.
    public var bitDepth: Int {
        switch self {
        case .eight: 8
        case .sixteen: 16
        }
    }

    /// The 8-bit image, or `nil` for a 16-bit one.
    public var image8: Image8? {
        if case .eight(let image) = self { return image }
        return nil
    }

    /// The 16-bit image, or `nil` for an 8-bit one.
    public var image16: Image16? {
        if case .sixteen(let image) = self { return image }
        return nil
    }
}

/// What a PNG header says, read without decoding pixels.
public struct PNGInfo: Sendable, Equatable, Codable {
    /// The IHDR colour type.
    public enum ColorType: String, Sendable, Equatable, Codable, CaseIterable {
        case gray
        case rgb
        case palette
        case grayAlpha = "gray_alpha"
        case rgba
    }

    public var width: Int
    public var height: Int
    /// Bit depth as stored: 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    public var colorType: ColorType
    /// `true` for Adam7-interlaced files.
    public var interlaced: Bool
    /// `true` when a `tRNS` chunk adds transparency (decoded as an alpha channel).
    public var hasTransparency: Bool
    /// Channels `PNGDecoder.decode` returns (1...4).
    public var decodedChannels: Int
    /// Bits per sample `PNGDecoder.decode` returns: 8 or 16.
    public var decodedBitDepth: Int

    enum CodingKeys: String, CodingKey {
        case width, height, interlaced
        case bitDepth = "bit_depth"
        case colorType = "color_type"
        case hasTransparency = "has_transparency"
        case decodedChannels = "decoded_channels"
        case decodedBitDepth = "decoded_bit_depth"
    }

    public init(
        width: Int, height: Int, bitDepth: Int, colorType: ColorType, interlaced: Bool,
        hasTransparency: Bool, decodedChannels: Int, decodedBitDepth: Int
    ) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.interlaced = interlaced
        self.hasTransparency = hasTransparency
        self.decodedChannels = decodedChannels
        self.decodedBitDepth = decodedBitDepth
    }
}
