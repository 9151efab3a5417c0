import Foundation
import RialMedia

/// Raw little-endian float32 rasters (the payload of `f32le`, `f32le_gzip`, `f32le_zlib`).
enum FloatPayload {
    /// Decodes `width * height` little-endian float32 values, row-major; values outside
    /// `DepthFormat.validMetres` (non-finite, <= 0, out of a sensor's range) become
    /// `NaN`. `outOfRange` is increased by the number of finite non-zero values that
    /// were outside the range.
    ///
    /// - Throws: `MediaError.sizeMismatch` naming both byte counts when
    ///   `bytes.count != 4 * width * height`.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, source: String, outOfRange: inout Int
    ) throws -> DepthMap {
        let count = width * height
        guard bytes.count == 4 * count else {
            throw MediaError(
                .sizeMismatch, source: source,
                "depth payload is \(bytes.count) bytes, expected 4 x \(width) x \(height) = "
                    + "\(4 * count) bytes of float32; check width/height")
        }
        var values = [Float](repeating: .nan, count: count)
        var outside = 0
        values.withUnsafeMutableBufferPointer { out in
            for i in 0..<count {
                let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                let value = Float(bitPattern: bits)
                if DepthFormat.validMetres.contains(value) {
                    out[i] = value
                } else if value.isFinite && value != 0 {
                    outside += 1
                }
            }
        }
        outOfRange += outside
        guard let map = DepthMap(width: width, height: height, metres: values) else {
            throw MediaError(.invalidArgument, source: source, "invalid depth size \(width)x\(height)")
        }
        return map
    }

    /// The little-endian bytes of `values` (NaN stays NaN).
    static func littleEndianBytes(_ values: [Float]) -> Data {
        var data = Data(count: values.count * 4)
        data.withUnsafeMutableBytes { out in
            for (i, value) in values.enumerated() {
                out.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
        }
        return data
    }
}
