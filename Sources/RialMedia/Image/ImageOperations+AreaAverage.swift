// Area-average downscaling (box filter): every output pixel is the mean of the input
// area it covers, the definition OpenCV's INTER_AREA uses when shrinking. Separable:
// rows first, then columns, accumulated in Float.

extension PlanarImage {
    /// Downscales by an integer `factor`: output pixel `(i, j)` is the mean of the
    /// `factor x factor` block of input pixels `x in i*f ..< (i+1)*f`,
    /// `y in j*f ..< (j+1)*f`. The output is `ceil(width / f) x ceil(height / f)`;
    /// blocks cut by the right or bottom edge are averaged over the pixels present.
    /// `factor == 1` returns the image unchanged.
    /// - Throws: `MediaError` `.invalidArgument` when `factor < 1`.
    /// - Complexity: O(width * height * channels).
    public func downscaled(by factor: Int) throws -> PlanarImage {
        try AreaAverageArguments.check(factor: factor)
        if factor == 1 { return self }
        return resampled(
            x: .blockMean(from: width, factor: factor),
            y: .blockMean(from: height, factor: factor))
    }

    /// Exact area average to `width x height` no larger than the input: output pixel
    /// `(i, j)` covers the input rectangle `[i * sx, (i+1) * sx) x [j * sy, (j+1) * sy)`
    /// with `sx = self.width / width`, `sy = self.height / height`, and is the mean of
    /// the input weighted by the fraction of each pixel inside it (box filter with
    /// fractional coverage). The same size returns the image unchanged.
    /// - Throws: `MediaError` `.invalidArgument` when a target dimension is below 1 or
    ///   larger than the input's.
    public func areaAveraged(width newWidth: Int, height newHeight: Int) throws -> PlanarImage {
        try AreaAverageArguments.check(
            width: newWidth, height: newHeight,
            from: width, height)
        if newWidth == width && newHeight == height { return self }
        return resampled(
            x: .areaAverage(from: width, to: newWidth),
            y: .areaAverage(from: height, to: newHeight))
    }
}

extension PixelImage where Sample == UInt8 {
    /// `PlanarImage.downscaled(by:)` for every channel (alpha included), means rounded
    /// half away from zero.
    /// - Throws: `MediaError` `.invalidArgument` when `factor < 1`.
    public func downscaled(by factor: Int) throws -> Image8 {
        try AreaAverageArguments.check(factor: factor)
        if factor == 1 { return self }
        return resampled(
            x: .blockMean(from: width, factor: factor),
            y: .blockMean(from: height, factor: factor))
    }

    /// `PlanarImage.areaAveraged(width:height:)` for every channel (alpha included),
    /// means rounded half away from zero.
    /// - Throws: `MediaError` `.invalidArgument` when a target dimension is below 1 or
    ///   larger than the input's.
    public func areaAveraged(width newWidth: Int, height newHeight: Int) throws -> Image8 {
        try AreaAverageArguments.check(
            width: newWidth, height: newHeight,
            from: width, height)
        if newWidth == width && newHeight == height { return self }
        return resampled(
            x: .areaAverage(from: width, to: newWidth),
            y: .areaAverage(from: height, to: newHeight))
    }
}

enum AreaAverageArguments {
    static func check(factor: Int) throws {
        guard factor >= 1 else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "downscale factor must be at least 1, got \(factor)")
        }
    }

    static func check(width: Int, height: Int, from inWidth: Int, _ inHeight: Int) throws {
        guard (1...inWidth).contains(width), (1...inHeight).contains(height) else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "area average to \(width)x\(height) needs a size between 1x1 and the input's \(inWidth)x\(inHeight)")
        }
    }
}
