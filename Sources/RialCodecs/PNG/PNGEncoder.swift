import CImageCodecs
import Foundation
import RialMedia

/// Encodes 8- and 16-bit images as PNG with libpng.
///
/// The colour type follows the channel count: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA.
/// Output is never interlaced; 16-bit samples are written big-endian as PNG requires,
/// so `PNGDecoder.decode(PNGEncoder.encode(image))` returns `image` exactly.
public enum PNGEncoder {
    /// zlib's default trade-off between size and speed.
    public static let defaultCompressionLevel = 6

    /// Encodes an 8-bit image.
    ///
    /// - Parameter compressionLevel: zlib level, 0 (stored, fastest) ... 9 (smallest).
    /// - Throws: `MediaError.invalidArgument` for a level outside 0...9 or an image
    ///   wider or taller than libpng's limit of 1,000,000 pixels.
    public static func encode(_ image: Image8, compressionLevel: Int = defaultCompressionLevel) throws -> Data {
        try encode(
            samples: image.samples, width: image.width, height: image.height,
            channels: image.channels, bitDepth: 8, compressionLevel: compressionLevel)
    }

    /// Encodes a 16-bit image (samples in host order, written big-endian).
    ///
    /// - Parameter compressionLevel: zlib level, 0 (stored, fastest) ... 9 (smallest).
    public static func encode(_ image: Image16, compressionLevel: Int = defaultCompressionLevel) throws -> Data {
        try encode(
            samples: image.samples, width: image.width, height: image.height,
            channels: image.channels, bitDepth: 16, compressionLevel: compressionLevel)
    }

    /// Encodes either flavour of `PNGImage`.
    public static func encode(_ image: PNGImage, compressionLevel: Int = defaultCompressionLevel) throws -> Data {
        switch image {
        case .eight(let image8): try encode(image8, compressionLevel: compressionLevel)
        case .sixteen(let image16): try encode(image16, compressionLevel: compressionLevel)
        }
    }

    /// Encodes an 8-bit image and writes it atomically to `path` (parent folders are created).
    public static func write(
        _ image: Image8, to path: String,
        compressionLevel: Int = defaultCompressionLevel
    ) throws {
        try MediaFile.write(encode(image, compressionLevel: compressionLevel), to: path)
    }

    /// Encodes a 16-bit image and writes it atomically to `path` (parent folders are created).
    public static func write(
        _ image: Image16, to path: String,
        compressionLevel: Int = defaultCompressionLevel
    ) throws {
        try MediaFile.write(encode(image, compressionLevel: compressionLevel), to: path)
    }

    private static func encode<Sample>(
        samples: [Sample], width: Int, height: Int, channels: Int,
        bitDepth: Int32, compressionLevel: Int
    ) throws -> Data {
        guard (0...9).contains(compressionLevel) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "PNG compression level must be 0...9, got \(compressionLevel)")
        }
        guard width <= 1_000_000, height <= 1_000_000 else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "image \(width)x\(height) exceeds the PNG writer limit of 1000000 pixels per side")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: Int(RIAL_PNG_MESSAGE_CAPACITY))
        let status = samples.withUnsafeBytes { pixels in
            rial_png_encode(
                pixels.baseAddress, pixels.count, UInt32(width), UInt32(height),
                Int32(channels), bitDepth, Int32(compressionLevel),
                &output, &outputSize, &message, message.count)
        }
        try PNGDecoder.check(status, message: message, source: inMemorySource, encoding: true)
        guard let output else {
            throw MediaError(.writeFailed, source: inMemorySource, "PNG encoder returned no data")
        }
        return Data(
            bytesNoCopy: output, count: outputSize,
            deallocator: .custom { pointer, _ in
                rial_png_free(pointer)
            })
    }
}
