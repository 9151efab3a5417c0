extension PlanarImage {
    /// Converts an 8-bit image to planes of `Float` in 0...255 (the sample values
    /// unchanged).
    ///
    /// Gray (1 channel) and gray + alpha (2) give one plane; RGB (3) and RGBA (4) give
    /// three planes R, G, B. Alpha is dropped.
    /// - Complexity: O(width * height * channels).
    public init(_ image: Image8) {
        let planes = image.channels >= 3 ? 3 : 1
        let plane = image.width * image.height
        var data = [Float](repeating: 0, count: plane * planes)
        image.samples.withUnsafeBufferPointer { s in
            data.withUnsafeMutableBufferPointer { d in
                let stride = image.channels
                if planes == 3 {
                    for i in 0..<plane {
                        let p = i * stride
                        d[i] = Float(s[p])
                        d[plane + i] = Float(s[p + 1])
                        d[2 * plane + i] = Float(s[p + 2])
                    }
                } else {
                    for i in 0..<plane { d[i] = Float(s[i * stride]) }
                }
            }
        }
        self.init(width: image.width, height: image.height, channels: planes, data: data)!
    }
}

extension PixelImage where Sample == UInt8 {
    /// Converts planes back to an interleaved 8-bit image with the same number of
    /// channels: each value rounded half away from zero, clamped to 0...255, `NaN`
    /// becomes 0.
    /// - Throws: `MediaError` `.invalidArgument` when `planar` has more than 4 channels
    ///   (an 8-bit image holds at most RGBA).
    public init(_ planar: PlanarImage) throws {
        guard (1...4).contains(planar.channels) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "cannot convert a \(planar.channels)-channel planar image to 8-bit: at most 4 channels")
        }
        var result = Image8(width: planar.width, height: planar.height, channels: planar.channels)
        let plane = planar.planeSize, channels = planar.channels
        planar.data.withUnsafeBufferPointer { d in
            result.samples.withUnsafeMutableBufferPointer { s in
                for c in 0..<channels {
                    let base = c * plane
                    for i in 0..<plane { s[i * channels + c] = ImageSampleConversion.uint8(d[base + i]) }
                }
            }
        }
        self = result
    }
}
