// Applying an EXIF orientation: the stored pixel grid is transformed into the grid a
// viewer displays (see the table on ExifOrientation). For a stored image of size
// w x h, display pixel (X, Y) is taken from stored pixel:
//   1 up             (X,         Y)            display w x h
//   2 upMirrored     (w-1-X,     Y)            flip horizontally
//   3 down           (w-1-X,     h-1-Y)        rotate 180
//   4 downMirrored   (X,         h-1-Y)        flip vertically
//   5 leftMirrored   (Y,         X)            transpose, display h x w
//   6 right          (Y,         h-1-X)        rotate 90 clockwise, display h x w
//   7 rightMirrored  (w-1-Y,     h-1-X)        transverse, display h x w
//   8 left           (w-1-Y,     X)            rotate 90 counter-clockwise, display h x w

enum OrientationMapping {
    /// Display size, and the stored pixel index `base + X * dx + Y * dy` (in pixels,
    /// row-major over the stored grid) of display pixel `(X, Y)`.
    static func mapping(_ o: ExifOrientation, width w: Int, height h: Int)
        -> (width: Int, height: Int, base: Int, dx: Int, dy: Int)
    {
        switch o {
        case .up: (w, h, 0, 1, w)
        case .upMirrored: (w, h, w - 1, -1, w)
        case .down: (w, h, (h - 1) * w + w - 1, -1, -w)
        case .downMirrored: (w, h, (h - 1) * w, 1, -w)
        case .leftMirrored: (h, w, 0, w, 1)
        case .right: (h, w, (h - 1) * w, -w, 1)
        case .rightMirrored: (h, w, (h - 1) * w + w - 1, -w, -1)
        case .left: (h, w, w - 1, w, -1)
        }
    }

    /// Writes the displayed grid of `src` (`pixel` consecutive elements per pixel)
    /// into `dst`, which holds the same number of elements.
    ///
    /// Walks the output in 64 x 64 tiles so the transposing cases (5-8), which read the
    /// source down its columns, stay within cache.
    static func apply<T>(
        _ o: ExifOrientation, _ src: UnsafeBufferPointer<T>, width: Int,
        height: Int, pixel: Int, into dst: UnsafeMutableBufferPointer<T>
    ) {
        let m = mapping(o, width: width, height: height)
        let tile = 64
        for tileY in stride(from: 0, to: m.height, by: tile) {
            let endY = min(tileY + tile, m.height)
            for tileX in stride(from: 0, to: m.width, by: tile) {
                let endX = min(tileX + tile, m.width)
                for y in tileY..<endY {
                    var s = m.base + y * m.dy + tileX * m.dx
                    var d = y * m.width + tileX
                    if pixel == 1 {
                        for _ in tileX..<endX {
                            dst[d] = src[s]
                            d += 1
                            s += m.dx
                        }
                    } else {
                        for _ in tileX..<endX {
                            let from = s * pixel, to = d * pixel
                            for c in 0..<pixel { dst[to + c] = src[from + c] }
                            d += 1
                            s += m.dx
                        }
                    }
                }
            }
        }
    }
}

extension PixelImage {
    /// The image as it should be displayed given its EXIF orientation (see the table
    /// above `OrientationMapping`); values 5-8 swap width and height. `.up` returns
    /// the image unchanged.
    /// - Complexity: O(width * height * channels).
    public func oriented(_ orientation: ExifOrientation) -> PixelImage {
        if orientation == .up { return self }
        var out = samples
        samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                OrientationMapping.apply(
                    orientation, src, width: width, height: height,
                    pixel: channels, into: dst)
            }
        }
        let swap = orientation.swapsDimensions
        return PixelImage(
            width: swap ? height : width, height: swap ? width : height,
            channels: channels, samples: out)!
    }
}

extension PlanarImage {
    /// Every plane as it should be displayed given its EXIF orientation; values 5-8
    /// swap width and height.
    public func oriented(_ orientation: ExifOrientation) -> PlanarImage {
        if orientation == .up { return self }
        var out = data
        let n = planeSize
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for c in 0..<channels {
                    OrientationMapping.apply(
                        orientation, UnsafeBufferPointer(rebasing: src[(c * n)..<((c + 1) * n)]),
                        width: width, height: height, pixel: 1,
                        into: UnsafeMutableBufferPointer(rebasing: dst[(c * n)..<((c + 1) * n)]))
                }
            }
        }
        let swap = orientation.swapsDimensions
        return PlanarImage(
            width: swap ? height : width, height: swap ? width : height,
            channels: channels, data: out)!
    }
}

extension DepthMap {
    /// The depth map on the displayed grid of its image's EXIF orientation, so it stays
    /// aligned with `Image8.oriented(_:)` of that image.
    public func oriented(_ orientation: ExifOrientation) -> DepthMap {
        if orientation == .up { return self }
        var out = metres
        metres.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                OrientationMapping.apply(
                    orientation, src, width: width, height: height,
                    pixel: 1, into: dst)
            }
        }
        let swap = orientation.swapsDimensions
        return DepthMap(
            width: swap ? height : width, height: swap ? width : height,
            metres: out)!
    }
}
