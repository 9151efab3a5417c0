import RialMedia

/// RGB to NV12, the layout the phone's frames have (`ARFrame.capturedImage`:
/// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange`, YCbCr 4:2:0 bi-planar, full range)
/// and the hash chain hashes (`ChainFrame`).
///
/// Full-range BT.601 as JFIF 1.02 writes it: Y = 0.299 R + 0.587 G + 0.114 B,
/// Cb = 128 - 0.168736 R - 0.331264 G + 0.5 B, Cr = 128 + 0.5 R - 0.418688 G - 0.081312 B,
/// rounded to the nearest integer and clamped to 0...255. Chroma is the conversion of
/// the mean RGB of each 2 x 2 block. Layout: `width x height` luma bytes, then
/// `height / 2` rows of `width / 2` (Cb, Cr) pairs.
public enum NV12 {
    /// The NV12 bytes of an 8-bit RGB image (3 or more channels; the first three are
    /// R, G, B).
    /// - Precondition: even width and height, at least 3 channels.
    public static func encode(_ image: Image8) -> [UInt8] {
        let w = image.width, h = image.height, c = image.channels
        precondition(w % 2 == 0 && h % 2 == 0 && c >= 3, "NV12 needs an even-sized RGB image")
        var out = [UInt8](repeating: 0, count: w * h * 3 / 2)
        func byte(_ v: Float) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        image.samples.withUnsafeBufferPointer { s in
            for i in 0..<(w * h) {
                let r = Float(s[i * c]), g = Float(s[i * c + 1]), b = Float(s[i * c + 2])
                out[i] = byte(0.299 * r + 0.587 * g + 0.114 * b)
            }
            var k = w * h
            for y in stride(from: 0, to: h, by: 2) {
                for x in stride(from: 0, to: w, by: 2) {
                    var r: Float = 0, g: Float = 0, b: Float = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let i = ((y + dy) * w + x + dx) * c
                        r += Float(s[i])
                        g += Float(s[i + 1])
                        b += Float(s[i + 2])
                    }
                    r /= 4
                    g /= 4
                    b /= 4
                    out[k] = byte(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
                    out[k + 1] = byte(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
                    k += 2
                }
            }
        }
        return out
    }
}
