import Foundation
import RialMedia

/// Encodes depth maps in every `DepthFormat`, so that
/// `DepthReader.read(data: DepthWriter.encode(map, format: f), format: f)` gives `map`
/// back: exactly for the float formats (`NaN` written as `NaN`), and quantised to the
/// stored unit for the 16-bit PNG formats (1 mm for `u16_png_mm`).
public enum DepthWriter {
    /// Encodes `map`.
    ///
    /// - Parameters:
    ///   - format: the target format. Float formats store `width x height` values and
    ///     no size: the reader must be told the size.
    ///   - scale: metres per unit; required (finite, > 0) for `u16_png_scaled`. For
    ///     `npy`/`npz`, values are divided by it when given (the reader multiplies).
    ///   - compressionLevel: zlib level 0...9 for the gzip, zlib and PNG formats
    ///     (`npz` members are deflated at ZIPFoundation's default level).
    /// - Returns: the file bytes. 16-bit PNG formats store `round(metres / unit)`;
    ///   pixels that are `NaN`, non-positive or do not fit 1...65535 after rounding are
    ///   stored as 0 (invalid). `npz` holds one array named `arr_0`, as `numpy.savez`
    ///   names a positional array.
    /// - Throws: `MediaError.invalidArgument` for a missing or bad scale or level.
    public static func encode(
        _ map: DepthMap, format: DepthFormat, scale: Double? = nil,
        compressionLevel: Int = 6
    ) throws -> Data {
        guard (0...9).contains(compressionLevel) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "compression level must be 0...9, got \(compressionLevel)")
        }
        if let scale, !(scale.isFinite && scale > 0) {
            throw MediaError(
                .invalidArgument, source: inMemorySource, "depth scale must be finite and > 0, got \(scale)")
        }
        switch format {
        case .f32le:
            return FloatPayload.littleEndianBytes(map.metres)
        case .f32leGzip, .f32leZlib:
            let payload = FloatPayload.littleEndianBytes(map.metres)
            return try payload.withUnsafeBytes {
                try ZlibCodec.deflate(
                    $0, container: format == .f32leGzip ? .gzip : .zlib,
                    level: Int32(compressionLevel))
            }
        case .u16PngMm:
            return try PNGEncoder.encode(quantised(map, unit: 0.001), compressionLevel: compressionLevel)
        case .u16PngScaled:
            guard let scale else {
                throw MediaError(
                    .invalidArgument, source: inMemorySource,
                    "format u16_png_scaled needs a scale (metres per unit)")
            }
            return try PNGEncoder.encode(quantised(map, unit: scale), compressionLevel: compressionLevel)
        case .npy:
            return NPYArray.encode(divided(map, by: scale))
        case .npz:
            return try NPZArchive.write(
                [(name: "arr_0", npy: NPYArray.encode(divided(map, by: scale)))],
                compressed: compressionLevel > 0)
        }
    }

    /// Encodes `map` and writes it atomically to `path` (parent folders are created).
    public static func write(
        _ map: DepthMap, to path: String, format: DepthFormat, scale: Double? = nil,
        compressionLevel: Int = 6
    ) throws {
        try MediaFile.write(encode(map, format: format, scale: scale, compressionLevel: compressionLevel), to: path)
    }

    private static func quantised(_ map: DepthMap, unit: Double) -> Image16 {
        var samples = [UInt16](repeating: 0, count: map.metres.count)
        map.metres.withUnsafeBufferPointer { input in
            samples.withUnsafeMutableBufferPointer { out in
                for i in 0..<input.count {
                    let units = (Double(input[i]) / unit).rounded()
                    if units >= 1 && units <= 65535 { out[i] = UInt16(units) } // false for NaN
                }
            }
        }
        return Image16(width: map.width, height: map.height, channels: 1, samples: samples)!
    }

    private static func divided(_ map: DepthMap, by scale: Double?) -> DepthMap {
        guard let scale, scale != 1 else { return map }
        var copy = map
        for i in copy.metres.indices { copy.metres[i] = Float(Double(copy.metres[i]) / scale) }
        return copy
    }
}
