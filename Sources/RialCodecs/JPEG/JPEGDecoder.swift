import CImageCodecs
import Foundation
import RialMedia

/// A decoded image plus what libjpeg said while decoding it.
public struct JPEGDecodeResult: Sendable, Equatable {
    /// The pixels: RGB (3 channels) or gray (1 channel), rows top to bottom.
    public var image: Image8
    /// The header of the file.
    public var info: JPEGInfo
    /// Number of libjpeg warnings (recoverable corrupt-data conditions) that the
    /// warning policy tolerated. 0 for a clean file.
    public var warningCount: Int
    /// libjpeg's text for the first warning, e.g. "Corrupt JPEG data: 3 extraneous
    /// bytes before marker 0xd9"; nil when there was none.
    public var firstWarning: String?
    /// True when the data ended before the image did (only possible with
    /// `JPEGWarningPolicy.acceptAll`): the bottom of the image is filler.
    public var isTruncated: Bool

    /// The tolerated warnings as one line each for users: `[]` for a clean file, else
    /// `["<first warning> (and N more)"]` (libjpeg keeps only the first text).
    public var warningTexts: [String] {
        guard let firstWarning, warningCount > 0 else { return [] }
        return [warningCount > 1 ? "\(firstWarning) (and \(warningCount - 1) more)" : firstWarning]
    }
}

/// JPEG decoding through libjpeg-turbo.
///
/// - Settings are libjpeg's and djpeg's defaults: accurate integer IDCT (`JDCT_ISLOW`),
///   fancy (triangle-filter) chroma upsampling, block smoothing for progressive files.
///   Results match `djpeg -rgb` and Pillow byte for byte on the same library family.
/// - CMYK and YCCK files are converted to RGB: with an Adobe APP14 marker the samples
///   are taken as inverted (Photoshop's convention, s = 255 - ink) and
///   `R = sC * sK / 255` (rounded; likewise G from M, B from Y); without the marker as
///   plain ink, `R = (255 - C) * (255 - K) / 255`. For Adobe files this equals
///   Pillow's `convert("RGB")` bit for bit (Pillow assumes inversion even without the
///   marker; djpeg's PPM writer does the same).
/// - EXIF orientation is not applied: pixels come out as stored.
/// - Errors are `MediaError` naming `source`: `.corrupt` (not a JPEG, damaged,
///   truncated; detail "corrupt JPEG: <libjpeg message>"), `.unsupported` (12-bit,
///   lossless, unknown colour space, above `maxPixels`/`maxScans`), `.invalidArgument`
///   (bad options).
/// - Speed: pixels are written straight into the output array (no zero fill, no copy),
///   up to 16 rows per `jpeg_read_scanlines` call; only CMYK goes through a 16-row strip.
///   On Linux, outputs of 8 MB or more get `MADV_HUGEPAGE`, which removes most of the
///   page-fault cost of a fresh buffer. `decode(_:into:)` reuses a buffer instead.
/// - Thread safety: every call uses its own libjpeg object; calls may run concurrently.
public enum JPEGDecoder {
    /// Reads the header (markers up to the first scan) without decoding pixels.
    ///
    /// A header cut short fails with `.corrupt` "Premature end of JPEG file"; an image
    /// whose entropy data is truncated still has a readable header.
    /// - Complexity: O(size of the markers before the first scan).
    public static func readInfo(_ data: Data, source: String = inMemorySource)
        throws(MediaError) -> JPEGInfo
    {
        let options = JPEGDecodeOptions()
        let result: Result<JPEGInfo, MediaError> = withSession(data, options: options, source: source) {
            _, info in .success(info)
        }
        return try result.get()
    }

    /// Reads the header of the file at `path`; errors name `path`.
    public static func readInfo(contentsOf path: String) throws(MediaError) -> JPEGInfo {
        try readInfo(try readFile(path), source: path)
    }

    /// Decodes `data` to an 8-bit RGB or gray image.
    ///
    /// - Parameters:
    ///   - data: the whole JPEG file.
    ///   - options: scale, output format, warning policy and limits.
    ///   - source: the label errors carry (a path, or `<memory>`).
    /// - Returns: an `Image8` of `info.outputSize(scale:)` with 3 (RGB) or 1 (gray) channels.
    /// - Throws: `MediaError` as described on `JPEGDecoder`.
    public static func decode(
        _ data: Data, options: JPEGDecodeOptions = JPEGDecodeOptions(),
        source: String = inMemorySource
    ) throws(MediaError) -> Image8 {
        try decodeReporting(data, options: options, source: source).image
    }

    /// Decodes the file at `path` (read with `MediaFile.read`); errors name `path`.
    public static func decode(
        contentsOf path: String,
        options: JPEGDecodeOptions = JPEGDecodeOptions()
    ) throws(MediaError) -> Image8 {
        try decode(try readFile(path), options: options, source: path)
    }

    /// Decodes like `decode` and also returns the header and the warnings libjpeg
    /// raised that the warning policy tolerated.
    public static func decodeReporting(
        _ data: Data,
        options: JPEGDecodeOptions = JPEGDecodeOptions(),
        source: String = inMemorySource
    ) throws(MediaError) -> JPEGDecodeResult {
        var noStorage: [UInt8] = []
        return try decodeCore(data, options: options, source: source, reusing: &noStorage).get()
    }

    /// Decodes like `decodeReporting` while `consume` reads the rows already decoded on
    /// another thread: `consume` starts as soon as the output size is known and gets an
    /// `ImageRows` whose `waitForRows(r)` blocks until libjpeg has written rows `0..<r`.
    /// The call returns when both the decode and `consume` are done, so on a machine
    /// with a free core the work of `consume` that only needs the top of the image
    /// overlaps the decode of the bottom.
    ///
    /// `consume` must not keep the `ImageRows` (it points into the output buffer being
    /// written). When the decode fails, the rows it did not reach read as zeros, `consume`
    /// still runs to its end (its result is dropped) and the error is thrown.
    ///
    /// - Returns: the decode result and what `consume` returned.
    /// - Throws: `MediaError` as described on `JPEGDecoder`.
    public static func decodeReporting<T: Sendable>(
        _ data: Data, options: JPEGDecodeOptions = JPEGDecodeOptions(), source: String = inMemorySource,
        whileDecoding consume: @escaping @Sendable (ImageRows) -> T
    ) throws(MediaError) -> (result: JPEGDecodeResult, consumed: T) {
        var noStorage: [UInt8] = []
        return try decodeReporting(data, reusing: &noStorage, options: options, source: source, whileDecoding: consume)
    }

    /// Decodes like `decodeReporting(_:options:source:whileDecoding:)` into `storage`'s
    /// buffer when its count is the decoded image's (it moves into the result's image;
    /// `storage` is then empty), else into a new one. For loops that decode one capture
    /// after another: give the previous image's samples back once nothing else holds
    /// them (a fresh 12 MP buffer costs thousands of page faults, a few milliseconds).
    /// On failure `storage` keeps its buffer (contents unspecified).
    public static func decodeReporting<T: Sendable>(
        _ data: Data, reusing storage: inout [UInt8], options: JPEGDecodeOptions = JPEGDecodeOptions(),
        source: String = inMemorySource, whileDecoding consume: @escaping @Sendable (ImageRows) -> T
    ) throws(MediaError) -> (result: JPEGDecodeResult, consumed: T) {
        let stream = RowStream(consume)
        let result = try decodeCore(data, options: options, source: source, reusing: &storage, stream: stream).get()
        guard let consumed = stream.consumed else {
            // Unreachable: the decode succeeded, so the consumer ran to its end.
            throw MediaError(.unsupported, source: source, "the row consumer did not finish")
        }
        return (result, consumed)
    }

    /// Decodes into `image`, reusing its sample buffer when the decoded image has the
    /// same number of samples (a fresh buffer otherwise). For loops that decode many
    /// same-sized files: a fresh 12 MP RGB buffer costs ~9,000 page faults (about a
    /// third of the decode time on Linux), a reused one none.
    ///
    /// On success `image` is the decoded image. On failure `image` keeps its size but
    /// its samples are unspecified (partly overwritten), and the error is thrown.
    public static func decode(
        _ data: Data, into image: inout Image8,
        options: JPEGDecodeOptions = JPEGDecodeOptions(),
        source: String = inMemorySource
    ) throws(MediaError) {
        var storage: [UInt8] = []
        swap(&storage, &image.samples) // move the buffer out so it is uniquely referenced
        switch decodeCore(data, options: options, source: source, reusing: &storage) {
        case .success(let result):
            image = result.image
        case .failure(let error):
            swap(&storage, &image.samples)
            throw error
        }
    }

    /// The decode: header, output size, then pixels straight into `storage`'s buffer
    /// when its count matches (it is moved into the result), else into a new array.
    /// On failure `storage` holds its original buffer again.
    private static func decodeCore(
        _ data: Data, options: JPEGDecodeOptions, source: String,
        reusing storage: inout [UInt8],
        stream: (any RowStreaming)? = nil
    ) -> Result<JPEGDecodeResult, MediaError> {
        guard options.maxPixels > 0 else {
            return .failure(
                MediaError(
                    .invalidArgument, source: source,
                    "JPEGDecodeOptions.maxPixels must be positive, got \(options.maxPixels)"))
        }
        guard options.maxScans > 0 else {
            return .failure(
                MediaError(
                    .invalidArgument, source: source,
                    "JPEGDecodeOptions.maxScans must be positive, got \(options.maxScans)"))
        }
        return withSession(data, options: options, source: source) { decoder, info in
            var size = rial_jpeg_output_size()
            let prepared = JPEGCodecStatus(rial_jpeg_decoder_prepare(decoder, &size))
            guard prepared == .ok else { return .failure(failure(prepared, decoder, source)) }
            let count = Int(size.byte_count)
            var status = JPEGCodecStatus.ok
            var samples: [UInt8]
            if storage.count == count {
                samples = storage
                storage = [] // `samples` is now the only reference: no copy-on-write
                samples.withUnsafeMutableBufferPointer { buffer in
                    if let stream {
                        status = stream.decode(
                            decoder, into: buffer, width: Int(size.width), height: Int(size.height),
                            channels: Int(size.channels))
                    } else {
                        status = JPEGCodecStatus(rial_jpeg_decoder_read_pixels(decoder, buffer.baseAddress, count))
                    }
                }
                if status != .ok { storage = samples }
            } else {
                // Straight into new storage: no zero-fill, no copy.
                samples = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    if let stream {
                        status = stream.decode(
                            decoder, into: buffer, width: Int(size.width), height: Int(size.height),
                            channels: Int(size.channels))
                    } else {
                        status = JPEGCodecStatus(rial_jpeg_decoder_read_pixels(decoder, buffer.baseAddress, count))
                    }
                    initialized = status == .ok ? count : 0
                }
            }
            guard status == .ok else { return .failure(failure(status, decoder, source)) }
            guard
                let image = Image8(
                    width: Int(size.width), height: Int(size.height),
                    channels: Int(size.channels), samples: samples)
            else {
                return .failure(
                    MediaError(
                        .corrupt, source: source,
                        "corrupt JPEG: decoder returned an inconsistent size"))
            }
            let warnings = Int(rial_jpeg_decoder_warning_count(decoder))
            return .success(
                JPEGDecodeResult(
                    image: image, info: info, warningCount: warnings,
                    firstWarning: warnings > 0 ? String(cString: rial_jpeg_decoder_first_warning(decoder)) : nil,
                    isTruncated: rial_jpeg_decoder_truncated(decoder) != 0))
        }
    }

    // MARK: - Session plumbing

    /// Creates a decoder, reads the header of `data` and runs `body` while the bytes
    /// are pinned; the decoder is destroyed afterwards on every path.
    private static func withSession<T>(
        _ data: Data, options: JPEGDecodeOptions, source: String,
        _ body: (OpaquePointer, JPEGInfo) -> Result<T, MediaError>
    ) -> Result<T, MediaError> {
        guard let decoder = rial_jpeg_decoder_create() else {
            return .failure(
                MediaError(
                    .unsupported, source: source,
                    "out of memory creating a JPEG decoder"))
        }
        defer { rial_jpeg_decoder_destroy(decoder) }
        var params = rial_jpeg_decode_params()
        params.scale_denom = Int32(options.scale.denominator)
        params.output = Int32(options.output == .gray ? RIAL_JPEG_OUTPUT_GRAY : RIAL_JPEG_OUTPUT_RGB)
        params.warning_policy =
            switch options.warningPolicy {
            case .rejectTruncated: Int32(RIAL_JPEG_WARN_REJECT_TRUNCATED)
            case .rejectAll: Int32(RIAL_JPEG_WARN_REJECT_ALL)
            case .acceptAll: Int32(RIAL_JPEG_WARN_ACCEPT_ALL)
            }
        params.max_pixels = UInt64(max(options.maxPixels, 0))
        params.max_scans = Int32(clamping: options.maxScans)

        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<T, MediaError> in
            var cInfo = rial_jpeg_info()
            let bytes = raw.bindMemory(to: UInt8.self)
            let status = JPEGCodecStatus(
                rial_jpeg_decoder_read_header(decoder, bytes.baseAddress, bytes.count, &params, &cInfo))
            guard status == .ok else { return .failure(failure(status, decoder, source)) }
            return body(decoder, JPEGInfo(cInfo))
        }
    }

    private static func failure(
        _ status: JPEGCodecStatus, _ decoder: OpaquePointer,
        _ source: String
    ) -> MediaError {
        status.error(message: String(cString: rial_jpeg_decoder_message(decoder)), source: source)
    }

    private static func readFile(_ path: String) throws(MediaError) -> Data {
        do {
            return try MediaFile.read(path)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(.unreadable, source: path, "cannot read: \(error)")
        }
    }
}

extension JPEGInfo {
    init(_ c: rial_jpeg_info) {
        let space: JPEGColorSpace =
            switch Int(c.color_space) {
            case Int(RIAL_JPEG_CS_GRAY): .grayscale
            case Int(RIAL_JPEG_CS_YCBCR): .yCbCr
            case Int(RIAL_JPEG_CS_RGB): .rgb
            case Int(RIAL_JPEG_CS_CMYK): .cmyk
            case Int(RIAL_JPEG_CS_YCCK): .ycck
            default: .unknown
            }
        self.init(
            width: Int(c.width), height: Int(c.height), components: Int(c.components),
            colorSpace: space, isProgressive: c.progressive != 0,
            isArithmeticCoded: c.arithmetic != 0, hasJFIFMarker: c.has_jfif_marker != 0,
            hasAdobeMarker: c.has_adobe_marker != 0)
    }
}

/// The row-streaming half of `JPEGDecoder.decodeReporting(_:options:source:whileDecoding:)`,
/// without its generic parameter so that `decodeCore` can hold it.
private protocol RowStreaming: AnyObject {
    /// Decodes all pixels into `buffer` on the calling thread while the consumer reads
    /// finished rows on another; returns when both are done.
    func decode(
        _ decoder: OpaquePointer, into buffer: UnsafeMutableBufferPointer<UInt8>,
        width: Int, height: Int, channels: Int
    ) -> JPEGCodecStatus
}

/// Runs a row consumer on a global queue during one decode and keeps its result.
private final class RowStream<T: Sendable>: RowStreaming, @unchecked Sendable {
    private let consume: @Sendable (ImageRows) -> T
    // Written by the consumer task before `group.leave()`, read after `group.wait()`.
    private(set) var consumed: T?

    init(_ consume: @escaping @Sendable (ImageRows) -> T) {
        self.consume = consume
    }

    func decode(
        _ decoder: OpaquePointer, into buffer: UnsafeMutableBufferPointer<UInt8>,
        width: Int, height: Int, channels: Int
    ) -> JPEGCodecStatus {
        // The decoder keeps one core; the readers share the others until it is done.
        let progress = RowProgress(height: height, readerSlots: ProcessInfo.processInfo.activeProcessorCount - 1)
        let rows = ImageRows(
            width: width, height: height, channels: channels,
            samples: UnsafeBufferPointer(buffer), progress: progress)
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            consumed = consume(rows)
            group.leave()
        }
        let status = JPEGCodecStatus(
            rial_jpeg_decoder_read_pixels_reporting(
                decoder, buffer.baseAddress, buffer.count,
                { context, done in
                    Unmanaged<RowProgress>.fromOpaque(context!).takeUnretainedValue().publish(Int(done))
                },
                Unmanaged.passUnretained(progress).toOpaque()))
        if status != .ok {
            // Rows past the last published count are unspecified after a failure: give
            // the consumer defined bytes (it may still be waiting for them).
            let from = progress.published * width * channels
            if from < buffer.count {
                UnsafeMutableBufferPointer(rebasing: buffer[from...]).initialize(repeating: 0)
            }
        }
        progress.finish()
        group.wait()
        if status != .ok { consumed = nil }
        return status
    }
}
