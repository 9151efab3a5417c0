import CImageCodecs
import Foundation
import RialMedia

/// Decodes PNG files with libpng (through the C shim in `CImageCodecs`).
///
/// Every PNG flavour is accepted: gray, gray + alpha, RGB, RGBA and palette colour
/// types; bit depths 1, 2, 4, 8 and 16; Adam7 interlacing. See `PNGImage` for how
/// palette, transparency and low bit depths are expanded. 16-bit samples are returned
/// unscaled in host byte order (PNG stores them big-endian).
///
/// Bad input never traps: libpng's errors (bad signature, CRC mismatch, truncated data,
/// corrupt zlib stream) become `MediaError.corrupt` carrying libpng's own message and
/// the source name.
public enum PNGDecoder {
    /// The default pixel limit: 100 million pixels (a 10000 x 10000 image). Larger
    /// images are refused before any pixel memory is allocated, so a forged header
    /// cannot make the decoder allocate gigabytes.
    public static let defaultMaxPixels = 100_000_000

    /// Reads the header of an in-memory PNG without decoding pixels.
    ///
    /// - Parameter source: the name used in errors (a path, or `<memory>`).
    /// - Throws: `MediaError.corrupt` when the bytes are not a readable PNG header.
    public static func readInfo(_ data: Data, source: String = inMemorySource) throws -> PNGInfo {
        var raw = rial_png_info()
        var message = [CChar](repeating: 0, count: Int(RIAL_PNG_MESSAGE_CAPACITY))
        let status = data.withUnsafeBytes { bytes in
            rial_png_read_info(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                &raw, &message, message.count)
        }
        try check(status, message: message, source: source)
        return try info(from: raw, source: source)
    }

    /// Reads the header of a PNG file. Errors name `path`.
    public static func readInfo(contentsOf path: String) throws -> PNGInfo {
        try readInfo(MediaFile.read(path), source: path)
    }

    /// Decodes an in-memory PNG.
    ///
    /// - Parameters:
    ///   - source: the name used in errors (a path, or `<memory>`).
    ///   - maxPixels: images with more than `width * height` pixels than this are
    ///     refused with `MediaError.unsupported` before pixel memory is allocated.
    /// - Returns: `.eight` for bit depths 1...8 (and every palette image), `.sixteen`
    ///   for 16-bit files.
    /// - Throws: `MediaError.corrupt` with libpng's message for invalid or truncated
    ///   data, `.unsupported` over the pixel limit.
    public static func decode(
        _ data: Data, source: String = inMemorySource,
        maxPixels: Int = defaultMaxPixels
    ) throws -> PNGImage {
        let header = try readInfo(data, source: source)
        let pixels = header.width.multipliedReportingOverflow(by: header.height)
        guard !pixels.overflow, pixels.partialValue <= maxPixels else {
            throw MediaError(
                .unsupported, source: source,
                "PNG is \(header.width)x\(header.height) pixels, over the limit of "
                    + "\(maxPixels) pixels; refusing to decode")
        }
        let count = pixels.partialValue * header.decodedChannels
        if header.decodedBitDepth == 16 {
            var samples = [UInt16](repeating: 0, count: count)
            try decodePixels(data, into: &samples, expecting: header, maxPixels: maxPixels, source: source)
            return .sixteen(try image(header, samples, source: source))
        } else {
            var samples = [UInt8](repeating: 0, count: count)
            try decodePixels(data, into: &samples, expecting: header, maxPixels: maxPixels, source: source)
            return .eight(try image(header, samples, source: source))
        }
    }

    /// Decodes a PNG file. Errors name `path` (`.notFound` when it does not exist).
    public static func decode(contentsOf path: String, maxPixels: Int = defaultMaxPixels) throws -> PNGImage {
        try decode(MediaFile.read(path), source: path, maxPixels: maxPixels)
    }

    // MARK: - Internals

    private static func decodePixels<Sample>(
        _ data: Data, into samples: inout [Sample],
        expecting header: PNGInfo, maxPixels: Int,
        source: String
    ) throws {
        var raw = rial_png_info()
        var message = [CChar](repeating: 0, count: Int(RIAL_PNG_MESSAGE_CAPACITY))
        let status = data.withUnsafeBytes { bytes in
            samples.withUnsafeMutableBytes { pixels in
                rial_png_decode(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                    UInt64(max(maxPixels, 0)), pixels.baseAddress, pixels.count,
                    &raw, &message, message.count)
            }
        }
        try check(status, message: message, source: source)
        guard try info(from: raw, source: source) == header else {
            throw MediaError(.corrupt, source: source, "PNG header changed between two reads")
        }
    }

    private static func image<Sample>(
        _ header: PNGInfo, _ samples: [Sample],
        source: String
    ) throws -> PixelImage<Sample> {
        guard
            let image = PixelImage(
                width: header.width, height: header.height,
                channels: header.decodedChannels, samples: samples)
        else {
            throw MediaError(
                .corrupt, source: source,
                "PNG has an unusable size \(header.width)x\(header.height)")
        }
        return image
    }

    /// Turns a shim status into a `MediaError`; `encoding` selects the wording and
    /// makes libpng failures `.writeFailed` instead of `.corrupt`.
    static func check(_ status: Int32, message: [CChar], source: String, encoding: Bool = false) throws {
        guard Int(status) != Int(RIAL_PNG_OK) else { return }
        let text = message.withUnsafeBufferPointer { buffer -> String in
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
        switch Int(status) {
        case Int(RIAL_PNG_ERR_TOO_LARGE):
            throw MediaError(.unsupported, source: source, "PNG refused: \(text)")
        case Int(RIAL_PNG_ERR_ARGUMENT):
            throw MediaError(.invalidArgument, source: source, "PNG: \(text)")
        case Int(RIAL_PNG_ERR_NO_MEMORY):
            throw MediaError(.unreadable, source: source, "PNG: \(text)")
        default:
            if encoding {
                throw MediaError(.writeFailed, source: source, "PNG encoding failed: \(text)")
            }
            throw MediaError(.corrupt, source: source, "not a valid PNG: \(text)")
        }
    }

    private static func info(from raw: rial_png_info, source: String) throws -> PNGInfo {
        let colorType: PNGInfo.ColorType
        switch Int(raw.color_type) {
        case Int(RIAL_PNG_COLOR_GRAY): colorType = .gray
        case Int(RIAL_PNG_COLOR_RGB): colorType = .rgb
        case Int(RIAL_PNG_COLOR_PALETTE): colorType = .palette
        case Int(RIAL_PNG_COLOR_GRAY_ALPHA): colorType = .grayAlpha
        case Int(RIAL_PNG_COLOR_RGBA): colorType = .rgba
        default:
            throw MediaError(.corrupt, source: source, "PNG has unknown colour type \(raw.color_type)")
        }
        guard raw.width > 0, raw.height > 0, (1...4).contains(raw.decoded_channels),
            raw.decoded_bit_depth == 8 || raw.decoded_bit_depth == 16
        else {
            throw MediaError(
                .corrupt, source: source,
                "PNG has an unusable layout (\(raw.width)x\(raw.height), "
                    + "\(raw.decoded_channels) channels, \(raw.decoded_bit_depth) bits)")
        }
        return PNGInfo(
            width: Int(raw.width), height: Int(raw.height), bitDepth: Int(raw.bit_depth),
            colorType: colorType, interlaced: raw.interlaced != 0,
            hasTransparency: raw.has_transparency != 0,
            decodedChannels: Int(raw.decoded_channels),
            decodedBitDepth: Int(raw.decoded_bit_depth))
    }
}
