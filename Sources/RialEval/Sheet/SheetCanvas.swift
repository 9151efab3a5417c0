import RialMedia

/// Rectangle fills and copies on 3-channel RGB `Image8`s, clipped to the image.
enum SheetCanvas {
    typealias Color = DepthHeatmap.Color

    /// Fills the rectangle with corner (`x`, `y`) and size `width x height`.
    static func fill(_ image: inout Image8, x: Int, y: Int, width: Int, height: Int, color: Color) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(image.width, x + width), y1 = min(image.height, y + height)
        guard x0 < x1, y0 < y1 else { return }
        let stride = image.width * 3
        image.samples.withUnsafeMutableBufferPointer { out in
            for row in y0..<y1 {
                var i = row * stride + x0 * 3
                for _ in x0..<x1 {
                    out[i] = color.r
                    out[i + 1] = color.g
                    out[i + 2] = color.b
                    i += 3
                }
            }
        }
    }

    /// A frame `thickness` pixels wide just inside the rectangle.
    static func frame(_ image: inout Image8, x: Int, y: Int, width: Int, height: Int, thickness: Int, color: Color) {
        fill(&image, x: x, y: y, width: width, height: thickness, color: color)
        fill(&image, x: x, y: y + height - thickness, width: width, height: thickness, color: color)
        fill(&image, x: x, y: y, width: thickness, height: height, color: color)
        fill(&image, x: x + width - thickness, y: y, width: thickness, height: height, color: color)
    }

    /// Copies the RGB image `source` with its top-left corner at (`x`, `y`).
    static func copy(_ source: Image8, into image: inout Image8, x: Int, y: Int) {
        source.samples.withUnsafeBufferPointer { src in
            image.samples.withUnsafeMutableBufferPointer { dst in
                copy(
                    src, width: source.width, height: source.height, into: dst,
                    canvasWidth: image.width, canvasHeight: image.height, x: x, y: y)
            }
        }
    }

    /// Copies `width x height` RGB pixels row by row into a canvas buffer at (`x`, `y`),
    /// clipped. Writes only inside that rectangle, so copies of disjoint rectangles may
    /// run concurrently on one buffer.
    static func copy(
        _ src: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        into dst: UnsafeMutableBufferPointer<UInt8>, canvasWidth: Int, canvasHeight: Int,
        x: Int, y: Int
    ) {
        let x0 = max(0, x), x1 = min(canvasWidth, x + width)
        guard x0 < x1, let from = src.baseAddress, let to = dst.baseAddress else { return }
        let count = (x1 - x0) * 3
        for row in 0..<height {
            let cy = y + row
            guard cy >= 0, cy < canvasHeight else { continue }
            (to + (cy * canvasWidth + x0) * 3).update(from: from + (row * width + (x0 - x)) * 3, count: count)
        }
    }
}
