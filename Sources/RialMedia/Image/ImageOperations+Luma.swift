/// Luma coefficients of ITU-R BT.601 (Rec. 601, section 2.5.1 "E'Y = 0.299 E'R +
/// 0.587 E'G + 0.114 E'B"), the same weights JPEG/JFIF and OpenCV's `COLOR_RGB2GRAY`
/// use. Applied to the stored (gamma-encoded) 8-bit values; no linearisation.
public enum BT601 {
    public static let red: Float = 0.299
    public static let green: Float = 0.587
    public static let blue: Float = 0.114
}

extension PixelImage where Sample == UInt8 {
    /// Luma as a one-plane `PlanarImage` in 0...255:
    /// `Y = 0.299 R + 0.587 G + 0.114 B` (ITU-R BT.601) for RGB and RGBA (alpha
    /// ignored); gray and gray + alpha pass the gray value through unchanged. Not
    /// rounded: pure red gives 76.245.
    /// - Complexity: O(width * height).
    public func luma() -> PlanarImage {
        let n = width * height
        var out = [Float](repeating: 0, count: n)
        let stride = channels
        samples.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { y in
                if stride >= 3 {
                    for i in 0..<n {
                        let p = i * stride
                        y[i] =
                            BT601.red * Float(s[p]) + BT601.green * Float(s[p + 1])
                            + BT601.blue * Float(s[p + 2])
                    }
                } else {
                    for i in 0..<n { y[i] = Float(s[i * stride]) }
                }
            }
        }
        return PlanarImage(width: width, height: height, channels: 1, data: out)!
    }
}

extension PlanarImage {
    /// Luma of a planar image: one plane is returned unchanged, three planes (R, G, B)
    /// are combined with the BT.601 weights as in `Image8.luma()`.
    /// - Throws: `MediaError` `.invalidArgument` for any other channel count.
    public func luma() throws -> PlanarImage {
        if channels == 1 { return self }
        guard channels == 3 else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "luma needs 1 or 3 planes (gray or R, G, B), got \(channels)")
        }
        let n = planeSize
        var out = [Float](repeating: 0, count: n)
        data.withUnsafeBufferPointer { d in
            out.withUnsafeMutableBufferPointer { y in
                for i in 0..<n {
                    y[i] = BT601.red * d[i] + BT601.green * d[n + i] + BT601.blue * d[2 * n + i]
                }
            }
        }
        return PlanarImage(width: width, height: height, channels: 1, data: out)!
    }
}
