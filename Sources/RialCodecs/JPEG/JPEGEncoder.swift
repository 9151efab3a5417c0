import CImageCodecs
import Foundation
import RialMedia

/// Chroma subsampling of an encoded colour JPEG (the Cb and Cr planes relative to Y).
public enum JPEGChromaSubsampling: String, Sendable, Codable, CaseIterable, Equatable {
    /// Chroma at half resolution both ways (luma sampled 2x2): libjpeg's and cjpeg's
    /// default, what cameras write.
    case yuv420 = "4:2:0"
    /// Chroma at full resolution (all components 1x1): larger files, no colour bleeding.
    case yuv444 = "4:4:4"
}

/// JPEG encoding through libjpeg-turbo.
///
/// Settings are libjpeg's (and cjpeg's) defaults apart from the parameters: JFIF
/// header, YCbCr for colour, baseline-compatible quantisation tables scaled by
/// `jpeg_set_quality`, accurate integer DCT, standard (non-optimised) Huffman tables
/// for sequential files.
public enum JPEGEncoder {
    /// Encodes an RGB (3 channels) or gray (1 channel) image.
    ///
    /// - Parameters:
    ///   - image: 1 or 3 channels; at most 65500 pixels per side (libjpeg's limit).
    ///   - quality: 1...100 on the IJG scale (50 = the Annex K tables, 100 = all ones).
    ///   - progressive: write a progressive file (`jpeg_simple_progression`: DC first,
    ///     then spectral bands and refinement), otherwise baseline.
    ///   - subsampling: chroma subsampling; ignored for gray images.
    /// - Returns: the complete JPEG file.
    /// - Throws: `MediaError` `.invalidArgument` (source `<memory>`) for 2 or 4 channel
    ///   images (JPEG has no alpha), quality outside 1...100 or oversized images.
    public static func encode(
        _ image: Image8, quality: Int = 90, progressive: Bool = false,
        subsampling: JPEGChromaSubsampling = .yuv420
    ) throws(MediaError) -> Data {
        guard image.channels == 1 || image.channels == 3 else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "cannot encode JPEG: \(image.channels)-channel image; JPEG stores "
                    + "1 (gray) or 3 (RGB) channels, drop the alpha channel first")
        }
        guard (1...100).contains(quality) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "cannot encode JPEG: quality \(quality) is outside 1...100")
        }
        let sub = subsampling == .yuv444 ? RIAL_JPEG_SUBSAMPLING_444 : RIAL_JPEG_SUBSAMPLING_420
        return try runEncoder { out, size, message, capacity in
            image.samples.withUnsafeBufferPointer { pixels in
                rial_jpeg_encode(
                    pixels.baseAddress, UInt32(clamping: image.width),
                    UInt32(clamping: image.height), Int32(image.channels),
                    Int32(quality), progressive ? 1 : 0, Int32(sub),
                    out, size, message, capacity)
            }
        }
    }

    /// Encodes `image` and writes it to `path` atomically (`MediaFile.write`).
    /// Encoding errors are attributed to `path`.
    public static func write(
        _ image: Image8, to path: String, quality: Int = 90,
        progressive: Bool = false,
        subsampling: JPEGChromaSubsampling = .yuv420
    ) throws(MediaError) {
        let data: Data
        do {
            data = try encode(image, quality: quality, progressive: progressive, subsampling: subsampling)
        } catch {
            throw error.attributed(to: path)
        }
        do {
            try MediaFile.write(data, to: path)
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(.writeFailed, source: path, "cannot write: \(error)")
        }
    }

    /// Test fixtures: writes interleaved CMYK samples (4 per pixel, stored exactly as
    /// given) as a CMYK or YCCK JPEG, with or without the Adobe APP14 marker. All
    /// components are sampled 1x1. Not public: rial-bench never writes CMYK.
    static func encodeCMYK(
        _ samples: [UInt8], width: Int, height: Int, quality: Int,
        asYCCK: Bool, adobeMarker: Bool
    ) throws(MediaError) -> Data {
        guard width > 0, height > 0, samples.count == width * height * 4 else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "cannot encode JPEG: \(samples.count) samples for \(width)x\(height) CMYK")
        }
        return try runEncoder { out, size, message, capacity in
            samples.withUnsafeBufferPointer { pixels in
                rial_jpeg_encode_cmyk(
                    pixels.baseAddress, UInt32(clamping: width),
                    UInt32(clamping: height), Int32(quality), asYCCK ? 1 : 0,
                    adobeMarker ? 1 : 0, out, size, message, capacity)
            }
        }
    }

    /// Runs one C encoder call and wraps its malloc'd output in `Data` without copying.
    private static func runEncoder(
        _ call: (
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
            UnsafeMutablePointer<CChar>, Int
        ) -> Int32
    ) throws(MediaError) -> Data {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let code = message.withUnsafeMutableBufferPointer { buffer in
            call(&output, &size, buffer.baseAddress!, buffer.count)
        }
        let status = JPEGCodecStatus(code)
        guard status == .ok, let output else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw (status == .ok ? .corrupt : status).error(
                message: text, source: inMemorySource,
                encoding: true)
        }
        return Data(
            bytesNoCopy: output, count: size,
            deallocator: .custom { pointer, _ in
                rial_jpeg_free(pointer)
            })
    }
}
