import Foundation
import RialMedia

/// Reads depth maps in every `DepthFormat` into metres, `NaN` where invalid.
///
/// Validity rules (see `DepthFormat`): float formats (`f32le*`, `npy`, `npz`) mark
/// values outside `DepthFormat.validMetres` invalid (non-finite, <= 0, or a distance
/// no sensor reports); 16-bit PNG formats mark 0 invalid, and `u16_png_scaled` also
/// values scaled outside the range.
/// Every error is a `MediaError` naming the file (or `source` for in-memory data).
public enum DepthReader {
    /// Reads a depth file.
    ///
    /// - Parameters:
    ///   - format: how the file is stored.
    ///   - width: pixels per row. For `f32le*` it defines the layout (default 256);
    ///     for PNG and NumPy formats the file defines it and a given value must match.
    ///   - height: rows. For `f32le*` default 192; otherwise checked like `width`.
    ///   - scale: metres per stored unit. Required (finite, > 0) for `u16_png_scaled`,
    ///     optional for `npy`/`npz` (default 1), refused for the other formats.
    ///   - array: for `npz`, the array to read (`"arr_0"` or `"arr_0.npy"`); default
    ///     the only array in the archive.
    /// - Throws: `.notFound`/`.unreadable` for the file, `.sizeMismatch` when the
    ///   payload does not hold `width x height` values (both numbers named),
    ///   `.corrupt`/`.unsupported` for bad or unusual content, `.invalidArgument` for
    ///   bad parameters.
    public static func read(
        path: String, format: DepthFormat, width: Int? = nil, height: Int? = nil,
        scale: Double? = nil, array: String? = nil
    ) throws -> DepthMap {
        try validate(format: format, width: width, height: height, scale: scale, source: path)
        let data = try MediaFile.read(path)
        return try read(
            data: data, format: format, width: width, height: height, scale: scale,
            array: array, source: path)
    }

    /// Reads depth from bytes already in memory; `source` names them in errors.
    /// Parameters as in `read(path:format:width:height:scale:array:)`.
    public static func read(
        data: Data, format: DepthFormat, width: Int? = nil, height: Int? = nil,
        scale: Double? = nil, array: String? = nil,
        source: String = inMemorySource
    ) throws -> DepthMap {
        try readReporting(
            data: data, format: format, width: width, height: height, scale: scale, array: array, source: source
        ).map
    }

    /// A depth map with what reading it dropped.
    public struct Reading: Sendable, Equatable {
        public var map: DepthMap
        /// Stored values that were finite and non-zero but outside
        /// `DepthFormat.validMetres` (e.g. 3e38 m or 1e-42 m), now invalid (`NaN`) in
        /// `map`. Zeros and non-finite values (the usual "no return") are not counted.
        public var outOfRangeCount: Int
    }

    /// Reads like `read(data:format:width:height:scale:array:source:)` and also counts
    /// the values outside a sensor's range that became invalid.
    public static func readReporting(
        data: Data, format: DepthFormat, width: Int? = nil, height: Int? = nil,
        scale: Double? = nil, array: String? = nil,
        source: String = inMemorySource
    ) throws -> Reading {
        var outOfRange = 0
        let map = try decode(
            data: data, format: format, width: width, height: height, scale: scale, array: array, source: source,
            outOfRange: &outOfRange)
        return Reading(map: map, outOfRangeCount: outOfRange)
    }

    private static func decode(
        data: Data, format: DepthFormat, width: Int?, height: Int?, scale: Double?, array: String?,
        source: String, outOfRange: inout Int
    ) throws -> DepthMap {
        try validate(format: format, width: width, height: height, scale: scale, source: source)
        switch format {
        case .f32le, .f32leGzip, .f32leZlib:
            let w = width ?? DepthFormat.defaultWidth, h = height ?? DepthFormat.defaultHeight
            let expected = 4 * w * h
            switch format {
            case .f32leGzip, .f32leZlib:
                let bytes = try ZlibCodec.inflate(
                    data, container: format == .f32leGzip ? .gzip : .zlib,
                    capacity: expected + 1, source: source)
                if bytes.count > expected {
                    throw MediaError(
                        .sizeMismatch, source: source,
                        "depth payload decompresses to more than \(expected) bytes, expected "
                            + "4 x \(w) x \(h) = \(expected) bytes of float32; check width/height")
                }
                return try bytes.withUnsafeBytes {
                    try FloatPayload.decode($0, width: w, height: h, source: source, outOfRange: &outOfRange)
                }
            default:
                return try data.withUnsafeBytes {
                    try FloatPayload.decode($0, width: w, height: h, source: source, outOfRange: &outOfRange)
                }
            }
        case .u16PngMm, .u16PngScaled:
            let image = try sixteenBitGray(data, format: format, source: source)
            try checkSize(image.width, image.height, against: width, height, what: "depth PNG", source: source)
            return format == .u16PngMm
                ? millimetres(image) : scaled(image, scale: scale ?? 1, outOfRange: &outOfRange)
        case .npy:
            let map = try NPYArray.readDepth(data, scale: scale, source: source, outOfRange: &outOfRange)
            try checkSize(map.width, map.height, against: width, height, what: ".npy array", source: source)
            return map
        case .npz:
            let members = try NPZArchive.members(of: data, source: source)
            let member = try NPZArchive.select(array, from: members, source: source)
            let npy = try NPZArchive.extract(member, from: data, source: source)
            let map: DepthMap
            do {
                map = try NPYArray.readDepth(npy, scale: scale, source: source, outOfRange: &outOfRange)
            } catch let error as MediaError {
                throw MediaError(error.kind, source: source, "array '\(member.name)': \(error.detail)")
            }
            try checkSize(map.width, map.height, against: width, height, what: ".npz array", source: source)
            return map
        }
    }

    // MARK: - Internals

    private static func validate(
        format: DepthFormat, width: Int?, height: Int?, scale: Double?,
        source: String
    ) throws {
        if let width, width <= 0 {
            throw MediaError(.invalidArgument, source: source, "depth width must be positive, got \(width)")
        }
        if let height, height <= 0 {
            throw MediaError(.invalidArgument, source: source, "depth height must be positive, got \(height)")
        }
        if format.needsDimensions {
            let w = width ?? DepthFormat.defaultWidth, h = height ?? DepthFormat.defaultHeight
            let pixels = w.multipliedReportingOverflow(by: h)
            guard !pixels.overflow, pixels.partialValue <= DepthFormat.maxPixels else {
                throw MediaError(
                    .invalidArgument, source: source,
                    "depth size \(w)x\(h) exceeds the limit of \(DepthFormat.maxPixels) pixels")
            }
        }
        switch format {
        case .u16PngScaled:
            guard let scale else {
                throw MediaError(
                    .invalidArgument, source: source,
                    "format u16_png_scaled needs a scale (metres per unit, e.g. 0.00390625 for 1/256)")
            }
            guard scale.isFinite, scale > 0 else {
                throw MediaError(.invalidArgument, source: source, "depth scale must be finite and > 0, got \(scale)")
            }
        case .npy, .npz:
            if let scale, !(scale.isFinite && scale > 0) {
                throw MediaError(.invalidArgument, source: source, "depth scale must be finite and > 0, got \(scale)")
            }
        case .f32le, .f32leGzip, .f32leZlib, .u16PngMm:
            if scale != nil {
                throw MediaError(
                    .invalidArgument, source: source,
                    "format \(format.rawValue) takes no scale; scale applies to u16_png_scaled, npy and npz")
            }
        }
    }

    private static func sixteenBitGray(_ data: Data, format: DepthFormat, source: String) throws -> Image16 {
        let png = try PNGDecoder.decode(data, source: source, maxPixels: DepthFormat.maxPixels)
        guard case .sixteen(let image) = png, image.channels == 1 else {
            let kind = ["", "gray", "gray+alpha", "RGB", "RGBA"][png.channels]
            throw MediaError(
                .unsupported, source: source,
                "format \(format.rawValue) needs a 16-bit single-channel PNG; this one is "
                    + "\(png.bitDepth)-bit \(kind)")
        }
        return image
    }

    private static func checkSize(
        _ width: Int, _ height: Int, against expectedWidth: Int?, _ expectedHeight: Int?,
        what: String, source: String
    ) throws {
        if (expectedWidth.map { $0 != width } ?? false) || (expectedHeight.map { $0 != height } ?? false) {
            let w = expectedWidth.map(String.init) ?? "any", h = expectedHeight.map(String.init) ?? "any"
            throw MediaError(.sizeMismatch, source: source, "\(what) is \(width)x\(height), expected \(w)x\(h)")
        }
    }

    /// Millimetres to metres: `v / 1000` (one correctly rounded Float division), 0 -> NaN.
    private static func millimetres(_ image: Image16) -> DepthMap {
        var metres = [Float](repeating: .nan, count: image.samples.count)
        image.samples.withUnsafeBufferPointer { input in
            metres.withUnsafeMutableBufferPointer { out in
                for i in 0..<input.count where input[i] != 0 { out[i] = Float(input[i]) / 1000 }
            }
        }
        return DepthMap(width: image.width, height: image.height, metres: metres)!
    }

    /// Scaled units to metres: `Float(Double(v) * scale)`; 0 and values outside
    /// `DepthFormat.validMetres` -> NaN (the latter counted in `outOfRange`).
    private static func scaled(_ image: Image16, scale: Double, outOfRange: inout Int) -> DepthMap {
        var metres = [Float](repeating: .nan, count: image.samples.count)
        var outside = 0
        image.samples.withUnsafeBufferPointer { input in
            metres.withUnsafeMutableBufferPointer { out in
                for i in 0..<input.count where input[i] != 0 {
                    let value = Float(Double(input[i]) * scale)
                    if DepthFormat.validMetres.contains(value) { out[i] = value } else { outside += 1 }
                }
            }
        }
        outOfRange += outside
        return DepthMap(width: image.width, height: image.height, metres: metres)!
    }
}
