import Foundation
import RialMedia

/// An 8-bit image read from a JPEG or PNG file, with what is known about it.
public struct LoadedImage: Sendable, Equatable {
    /// The pixels: RGB or gray (PNG alpha is kept when present; 16-bit PNG samples are
    /// reduced to 8 bits by keeping the high byte).
    public var image: Image8
    /// `jpeg` or `png`.
    public var format: SniffedFormat
    /// EXIF metadata of a JPEG, `nil` when absent.
    public var exif: ExifMetadata?
    /// The orientation that was applied to the pixels (`.up` when none was).
    public var appliedOrientation: ExifOrientation
    /// Width and height of the stored pixel grid before any orientation or scaling.
    public var storedWidth: Int
    public var storedHeight: Int
    /// JPEG only: the libjpeg warnings the decode tolerated (damaged entropy data,
    /// extraneous bytes; see `JPEGWarningPolicy.rejectTruncated`), as
    /// `JPEGDecodeResult.warningTexts`. Empty for a clean file and for PNG. A truncated
    /// JPEG is an error, never a warning here.
    public var jpegWarnings: [String] = []
}

/// Reads JPEG and PNG files into `Image8`, optionally applying EXIF orientation.
///
/// Depth maps align with the *stored* pixel grid, so detectors that use depth read
/// with `applyOrientation: false`; display and visual checks read with `true`.
public enum ImageReader {
    public struct Options: Sendable, Equatable {
        /// Apply the EXIF orientation (all 8 values) so the image is upright for display.
        public var applyOrientation: Bool
        /// JPEG only: DCT-domain downscale (1/2, 1/4, 1/8) during decode.
        public var jpegScale: JPEGScale
        /// JPEG only: RGB or gray output.
        public var jpegOutput: JPEGOutputFormat

        public init(applyOrientation: Bool = false, jpegScale: JPEGScale = .full, jpegOutput: JPEGOutputFormat = .rgb) {
            self.applyOrientation = applyOrientation
            self.jpegScale = jpegScale
            self.jpegOutput = jpegOutput
        }
    }

    /// Reads the file at `path`; errors name the path.
    public static func read(path: String, options: Options = Options()) throws -> LoadedImage {
        try read(data: MediaFile.read(path), options: options, source: path)
    }

    /// Reads an image already in memory; `source` names it in errors.
    ///
    /// - Throws: `MediaError` `.unsupported` for content that is neither JPEG nor PNG,
    ///   and the decoders' errors otherwise.
    public static func read(data: Data, options: Options = Options(), source: String = inMemorySource) throws
        -> LoadedImage
    {
        switch SniffedFormat.sniff(data) {
        case .jpeg:
            let result = try JPEGDecoder.decodeReporting(
                data, options: JPEGDecodeOptions(scale: options.jpegScale, output: options.jpegOutput), source: source)
            let exif = try ExifReader.read(jpeg: data, source: source)
            let orientation = options.applyOrientation ? (exif?.orientation ?? .up) : .up
            return LoadedImage(
                image: result.image.oriented(orientation), format: .jpeg, exif: exif,
                appliedOrientation: orientation,
                storedWidth: result.info.width, storedHeight: result.info.height,
                jpegWarnings: result.warningTexts)
        case .png:
            let decoded = try PNGDecoder.decode(data, source: source)
            let image: Image8
            switch decoded {
            case .eight(let eight):
                image = eight
            case .sixteen(let sixteen):
                image = Image8(
                    width: sixteen.width, height: sixteen.height, channels: sixteen.channels,
                    samples: sixteen.samples.map { UInt8(truncatingIfNeeded: $0 >> 8) })!
            }
            return LoadedImage(
                image: image, format: .png, exif: nil, appliedOrientation: .up,
                storedWidth: image.width, storedHeight: image.height)
        default:
            throw notAnImage(data, source: source)
        }
    }

    /// Reads an image like `read(data:options:source:)` while `consume` reads its rows in
    /// the stored orientation: a JPEG's rows as libjpeg writes them
    /// (`JPEGDecoder.decodeReporting(_:options:source:whileDecoding:)`), a PNG's all at
    /// once after it is decoded. `consume` is not called when the content is neither.
    ///
    /// - Returns: the image and what `consume` returned.
    public static func read<T: Sendable>(
        data: Data, options: Options = Options(), source: String = inMemorySource,
        whileDecoding consume: @escaping @Sendable (ImageRows) -> T
    )
        throws -> (image: LoadedImage, consumed: T)
    {
        var noStorage: [UInt8] = []
        return try read(data: data, reusing: &noStorage, options: options, source: source, whileDecoding: consume)
    }

    /// `read(data:options:source:whileDecoding:)` decoding a JPEG into `storage`'s
    /// buffer when it has the right count (`JPEGDecoder.decodeReporting(_:reusing:...)`),
    /// for loops that read one image after another.
    public static func read<T: Sendable>(
        data: Data, reusing storage: inout [UInt8], options: Options = Options(),
        source: String = inMemorySource,
        whileDecoding consume: @escaping @Sendable (ImageRows) -> T
    )
        throws -> (image: LoadedImage, consumed: T)
    {
        guard SniffedFormat.sniff(data) == .jpeg else {
            let loaded = try read(data: data, options: options, source: source) // PNG: never re-oriented
            return (loaded, loaded.image.withRows(consume))
        }
        let (result, consumed) = try JPEGDecoder.decodeReporting(
            data, reusing: &storage, options: JPEGDecodeOptions(scale: options.jpegScale, output: options.jpegOutput),
            source: source, whileDecoding: consume)
        let exif = try ExifReader.read(jpeg: data, source: source)
        let orientation = options.applyOrientation ? (exif?.orientation ?? .up) : .up
        let loaded = LoadedImage(
            image: result.image.oriented(orientation), format: .jpeg, exif: exif,
            appliedOrientation: orientation,
            storedWidth: result.info.width, storedHeight: result.info.height,
            jpegWarnings: result.warningTexts)
        return (loaded, consumed)
    }

    /// The stored pixel size (before EXIF orientation) from the header alone, without
    /// decoding pixels: a JPEG's frame header or a PNG's IHDR.
    ///
    /// - Throws: `MediaError` as `read(data:options:source:)` for a header that cannot
    ///   be read or content that is neither JPEG nor PNG.
    public static func storedSize(data: Data, source: String = inMemorySource) throws -> (width: Int, height: Int) {
        switch SniffedFormat.sniff(data) {
        case .jpeg:
            let info = try JPEGDecoder.readInfo(data, source: source)
            return (info.width, info.height)
        case .png:
            let info = try PNGDecoder.readInfo(data, source: source)
            return (info.width, info.height)
        default:
            throw notAnImage(data, source: source)
        }
    }

    private static func notAnImage(_ data: Data, source: String) -> MediaError {
        if data.isEmpty { return MediaError(.corrupt, source: source, "file is empty") }
        return MediaError(.unsupported, source: source, "not a JPEG or PNG image")
    }
}
