import Foundation
import RialCodecs
import RialMedia

/// Small RGB pictures of a sample's image, depth and right view, made without holding
/// a full-size image: a JPEG is decoded with DCT scaling, then area-averaged.
public enum SheetThumbnail {
    /// An image thumbnail and what is known about its file.
    public struct Picture: Sendable, Equatable {
        /// 3-channel RGB, at most `side x side`, upright (EXIF orientation applied).
        public var image: Image8
        /// The orientation that was applied (`.up` for PNG or without EXIF).
        public var orientation: ExifOrientation
        public var storedWidth: Int
        public var storedHeight: Int
    }

    /// A depth heatmap thumbnail.
    public struct DepthPicture: Sendable, Equatable {
        /// 3-channel RGB Turbo heatmap, invalid pixels magenta, at most `side x side`.
        public var image: Image8
        /// The depths (metres) mapped to the colour map's ends: the 2nd...98th
        /// percentile (`DepthHeatmap.defaultRange`); `nil` when no pixel is valid.
        public var range: ClosedRange<Float>?
    }

    /// The size of a `width x height` picture scaled to fit a `side x side` box, aspect
    /// kept: `f = side / max(width, height)`, each side `max(1, round(n * f))`. Small
    /// pictures are scaled up.
    public static func fittedSize(width: Int, height: Int, side: Int) -> (width: Int, height: Int) {
        let longest = Double(max(width, height, 1))
        let f = Double(side) / longest
        return (max(1, Int((Double(width) * f).rounded())), max(1, Int((Double(height) * f).rounded())))
    }

    /// The smallest JPEG decode (largest 1/n, n in 8, 4, 2, 1) whose output,
    /// `ceil(width / n) x ceil(height / n)`, still covers `target` in both directions,
    /// so the final area average only ever shrinks. Sizes are of the stored grid (the
    /// target is swapped beforehand when the orientation swaps sides).
    public static func jpegScale(
        storedWidth: Int, storedHeight: Int,
        target: (width: Int, height: Int)
    ) -> JPEGScale {
        for scale in [JPEGScale.eighth, .quarter, .half] {
            let n = scale.denominator
            if (storedWidth + n - 1) / n >= target.width && (storedHeight + n - 1) / n >= target.height {
                return scale
            }
        }
        return .full
    }

    /// Reads the image at `path` upright and fitted to a `side x side` box.
    ///
    /// JPEG: the header and EXIF are read first, the decode uses `jpegScale`, then the
    /// area average (bilinear when the picture is smaller than the box). PNG has no
    /// scaled decode: it is decoded whole, then shrunk. Gray becomes RGB; alpha is
    /// dropped.
    /// - Throws: `MediaError` naming `path` when the file is missing or not a readable
    ///   JPEG or PNG.
    public static func image(at path: String, side: Int) throws -> Picture {
        let data = try MediaFile.read(path)
        var options = ImageReader.Options(applyOrientation: true)
        if SniffedFormat.sniff(data) == .jpeg {
            let info = try JPEGDecoder.readInfo(data, source: path)
            let orientation = (try? ExifReader.read(jpeg: data, source: path))?.orientation ?? .up
            let swap = orientation.swapsDimensions
            let display = swap ? (info.height, info.width) : (info.width, info.height)
            let fitted = fittedSize(width: display.0, height: display.1, side: side)
            let storedTarget = swap ? (width: fitted.height, height: fitted.width) : fitted
            options.jpegScale = jpegScale(storedWidth: info.width, storedHeight: info.height, target: storedTarget)
        }
        let loaded = try ImageReader.read(data: data, options: options, source: path)
        let fitted = fittedSize(width: loaded.image.width, height: loaded.image.height, side: side)
        return Picture(
            image: try rgb(resized(loaded.image, to: fitted)), orientation: loaded.appliedOrientation,
            storedWidth: loaded.storedWidth, storedHeight: loaded.storedHeight)
    }

    /// Reads a depth map, turns it like its image (`orientation`, since depth is stored
    /// on the image's stored grid) and renders it as a heatmap fitted to `side x side`
    /// (nearest neighbour, so invalid pixels stay crisp magenta).
    /// - Throws: `MediaError` naming `path`.
    public static func depth(
        at path: String, reference: DepthReference, orientation: ExifOrientation,
        side: Int
    ) throws -> DepthPicture {
        let map = try DepthReader.read(
            path: path, format: reference.format, width: reference.width,
            height: reference.height, scale: reference.scale
        )
        .oriented(orientation)
        let range = DepthHeatmap.defaultRange(for: map)
        let heatmap = try DepthHeatmap.render(map, range: range, scale: 1, legend: false)
        let fitted = fittedSize(width: map.width, height: map.height, side: side)
        return DepthPicture(image: nearest(heatmap, width: fitted.width, height: fitted.height), range: range)
    }

    /// Area average when shrinking (both sides no larger), bilinear otherwise.
    static func resized(_ image: Image8, to size: (width: Int, height: Int)) throws -> Image8 {
        if size.width == image.width && size.height == image.height { return image }
        if size.width <= image.width && size.height <= image.height {
            return try image.areaAveraged(width: size.width, height: size.height)
        }
        return try image.resizedBilinear(width: size.width, height: size.height)
    }

    /// 3-channel RGB: gray replicated, alpha dropped.
    static func rgb(_ image: Image8) -> Image8 {
        if image.channels == 3 { return image }
        let n = image.width * image.height
        var out = [UInt8](repeating: 0, count: n * 3)
        image.samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let c = image.channels
                for i in 0..<n {
                    if c >= 3 {
                        dst[3 * i] = src[c * i]
                        dst[3 * i + 1] = src[c * i + 1]
                        dst[3 * i + 2] = src[c * i + 2]
                    } else {
                        let v = src[c * i]
                        dst[3 * i] = v
                        dst[3 * i + 1] = v
                        dst[3 * i + 2] = v
                    }
                }
            }
        }
        return Image8(width: image.width, height: image.height, channels: 3, samples: out)!
    }

    /// Nearest-neighbour resize: output pixel `(i, j)` is input pixel
    /// `(floor((i + 0.5) * w / width), floor((j + 0.5) * h / height))`.
    static func nearest(_ image: Image8, width: Int, height: Int) -> Image8 {
        if width == image.width && height == image.height { return image }
        let c = image.channels
        var out = [UInt8](repeating: 0, count: width * height * c)
        let columns = (0..<width).map { min(image.width - 1, (2 * $0 + 1) * image.width / (2 * width)) }
        image.samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let sy = min(image.height - 1, (2 * y + 1) * image.height / (2 * height))
                    let srcRow = sy * image.width * c, dstRow = y * width * c
                    for x in 0..<width {
                        let s = srcRow + columns[x] * c, d = dstRow + x * c
                        for k in 0..<c { dst[d + k] = src[s + k] }
                    }
                }
            }
        }
        return Image8(width: width, height: height, channels: c, samples: out)!
    }
}
