// Cropping to a rectangle given by its top-left corner (x, y) and size, in stored
// pixel coordinates (x to the right, y down). The rectangle must be non-empty and lie
// inside the image: 0 <= x, 0 <= y, width >= 1, height >= 1, x + width <= image width,
// y + height <= image height; anything else throws MediaError .invalidArgument.

enum CropArguments {
    static func check(
        x: Int, y: Int, width: Int, height: Int,
        imageWidth: Int, imageHeight: Int
    ) throws {
        let (right, o1) = x.addingReportingOverflow(width)
        let (bottom, o2) = y.addingReportingOverflow(height)
        guard x >= 0, y >= 0, width >= 1, height >= 1, !o1, !o2,
            right <= imageWidth, bottom <= imageHeight
        else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "crop rectangle x=\(x) y=\(y) width=\(width) height=\(height) is empty or not inside the \(imageWidth)x\(imageHeight) image"
            )
        }
    }

    /// Copies rows `y ..< y + height`, elements `x * pixel ..< (x + width) * pixel` of
    /// each, from a plane of `srcWidth * pixel` elements per row.
    static func copy<T>(
        _ src: UnsafeBufferPointer<T>, srcWidth: Int, pixel: Int,
        x: Int, y: Int, width: Int, height: Int,
        into dst: UnsafeMutableBufferPointer<T>
    ) {
        let rowLength = width * pixel
        for row in 0..<height {
            let from = ((y + row) * srcWidth + x) * pixel
            let to = row * rowLength
            for i in 0..<rowLength { dst[to + i] = src[from + i] }
        }
    }
}

extension PixelImage {
    /// The `width x height` pixels whose top-left corner is `(x, y)`, all channels.
    /// - Throws: `MediaError` `.invalidArgument` when the rectangle is empty or not
    ///   inside the image.
    public func cropped(x: Int, y: Int, width newWidth: Int, height newHeight: Int) throws -> PixelImage {
        try CropArguments.check(
            x: x, y: y, width: newWidth, height: newHeight,
            imageWidth: width, imageHeight: height)
        var out = [Sample](repeating: 0, count: newWidth * newHeight * channels)
        samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                CropArguments.copy(
                    src, srcWidth: width, pixel: channels, x: x, y: y,
                    width: newWidth, height: newHeight, into: dst)
            }
        }
        return PixelImage(width: newWidth, height: newHeight, channels: channels, samples: out)!
    }
}

extension PlanarImage {
    /// The `width x height` pixels whose top-left corner is `(x, y)`, every plane.
    /// - Throws: `MediaError` `.invalidArgument` when the rectangle is empty or not
    ///   inside the image.
    public func cropped(x: Int, y: Int, width newWidth: Int, height newHeight: Int) throws -> PlanarImage {
        try CropArguments.check(
            x: x, y: y, width: newWidth, height: newHeight,
            imageWidth: width, imageHeight: height)
        let outPlane = newWidth * newHeight
        var out = [Float](repeating: 0, count: outPlane * channels)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for c in 0..<channels {
                    CropArguments.copy(
                        UnsafeBufferPointer(rebasing: src[(c * planeSize)..<((c + 1) * planeSize)]),
                        srcWidth: width, pixel: 1, x: x, y: y, width: newWidth, height: newHeight,
                        into: UnsafeMutableBufferPointer(rebasing: dst[(c * outPlane)..<((c + 1) * outPlane)]))
                }
            }
        }
        return PlanarImage(width: newWidth, height: newHeight, channels: channels, data: out)!
    }
}

extension DepthMap {
    /// The `width x height` depths whose top-left corner is `(x, y)`.
    /// - Throws: `MediaError` `.invalidArgument` when the rectangle is empty or not
    ///   inside the map.
    public func cropped(x: Int, y: Int, width newWidth: Int, height newHeight: Int) throws -> DepthMap {
        try CropArguments.check(
            x: x, y: y, width: newWidth, height: newHeight,
            imageWidth: width, imageHeight: height)
        var out = [Float](repeating: 0, count: newWidth * newHeight)
        metres.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                CropArguments.copy(
                    src, srcWidth: width, pixel: 1, x: x, y: y,
                    width: newWidth, height: newHeight, into: dst)
            }
        }
        return DepthMap(width: newWidth, height: newHeight, metres: out)!
    }
}
