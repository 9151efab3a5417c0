// Bilinear resizing with half-pixel centres: the convention of OpenCV's
// cv::resize(INTER_LINEAR) and PyTorch's interpolate(mode="bilinear",
// align_corners=False). Output pixel (i, j) samples the input at
//   sx = (i + 0.5) * inWidth / outWidth - 0.5,  sy = (j + 0.5) * inHeight / outHeight - 0.5,
// each clamped to [0, size - 1] (edge pixels repeat), and blends the four neighbours
// floor(s), floor(s) + 1 with weights (1 - f) and f, f = s - floor(s). No
// anti-aliasing: for shrinking by more than 2 prefer the area average. Weights are
// computed in Double and applied in Float (OpenCV's 8-bit path uses 11-bit fixed
// point, so its 8-bit results can differ by one level).

extension PlanarImage {
    /// Bilinear resize of every plane to `width x height` (half-pixel centres, edges
    /// clamped; see the file comment). Any positive size, larger or smaller. A `NaN`
    /// input spreads to every output that gives it a positive weight.
    /// - Throws: `MediaError` `.invalidArgument` when a dimension is below 1.
    public func resizedBilinear(width newWidth: Int, height newHeight: Int) throws -> PlanarImage {
        try BilinearArguments.check(width: newWidth, height: newHeight)
        return resampled(
            x: .bilinear(from: width, to: newWidth),
            y: .bilinear(from: height, to: newHeight))
    }
}

extension PixelImage where Sample == UInt8 {
    /// Bilinear resize of every channel (alpha included), results rounded half away
    /// from zero and clamped to 0...255.
    /// - Throws: `MediaError` `.invalidArgument` when a dimension is below 1.
    public func resizedBilinear(width newWidth: Int, height newHeight: Int) throws -> Image8 {
        try BilinearArguments.check(width: newWidth, height: newHeight)
        return resampled(
            x: .bilinear(from: width, to: newWidth),
            y: .bilinear(from: height, to: newHeight))
    }
}

extension DepthMap {
    /// How a bilinear resize treats invalid (`NaN`) depth.
    public enum InvalidDepthPolicy: Sendable {
        /// Leave `NaN` neighbours out and divide by the weight of the valid ones; the
        /// output is `NaN` only when every neighbour with a positive weight is `NaN`.
        case ignore
        /// Plain bilinear: any `NaN` neighbour with a positive weight makes the output
        /// `NaN`.
        case propagate
    }

    /// Bilinear resize to `width x height` (half-pixel centres, edges clamped; see the
    /// file comment).
    ///
    /// With `.ignore` (the default) output = `sum(w_k * d_k) / sum(w_k)` over the up to
    /// four neighbours `k` with `w_k > 0` and `d_k` not `NaN`, and `NaN` when that sum
    /// of weights is 0. A neighbour with zero weight never counts, so an output that
    /// lands exactly on an invalid input pixel stays invalid and resizing to the same
    /// size returns the map unchanged.
    /// - Throws: `MediaError` `.invalidArgument` when a dimension is below 1.
    /// - Complexity: O(width * height) of the output.
    public func resizedBilinear(
        width newWidth: Int, height newHeight: Int,
        invalid: InvalidDepthPolicy = .ignore
    ) throws -> DepthMap {
        try BilinearArguments.check(width: newWidth, height: newHeight)
        let xw = AxisWeights.bilinear(from: width, to: newWidth)
        let yw = AxisWeights.bilinear(from: height, to: newHeight)
        switch invalid {
        case .propagate:
            var out = [Float](repeating: 0, count: newWidth * newHeight)
            metres.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    SeparableResampler.resample(
                        src, .planar(width: width, height: height, channels: 1), x: xw, y: yw,
                        into: dst, .planar(width: newWidth, height: newHeight, channels: 1))
                }
            }
            return DepthMap(width: newWidth, height: newHeight, metres: out)!
        case .ignore:
            return DepthMap(
                width: newWidth, height: newHeight,
                metres: nanAwareBilinear(xw, yw))!
        }
    }

    private func nanAwareBilinear(_ xw: AxisWeights, _ yw: AxisWeights) -> [Float] {
        let outW = xw.outputCount, outH = yw.outputCount, inW = width
        var out = [Float](repeating: .nan, count: outW * outH)
        metres.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                xw.starts.withUnsafeBufferPointer { xs in
                    xw.indices.withUnsafeBufferPointer { xi in
                        xw.weights.withUnsafeBufferPointer { xwt in
                            yw.starts.withUnsafeBufferPointer { ys in
                                yw.indices.withUnsafeBufferPointer { yi in
                                    yw.weights.withUnsafeBufferPointer { ywt in
                                        for oy in 0..<outH {
                                            for ox in 0..<outW {
                                                var sum: Float = 0, weight: Float = 0
                                                for ky in ys[oy]..<ys[oy + 1] {
                                                    let rowBase = yi[ky] * inW
                                                    for kx in xs[ox]..<xs[ox + 1] {
                                                        let d = src[rowBase + xi[kx]]
                                                        if d.isNaN { continue }
                                                        let w = ywt[ky] * xwt[kx]
                                                        sum += w * d
                                                        weight += w
                                                    }
                                                }
                                                if weight > 0 { dst[oy * outW + ox] = sum / weight }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}

enum BilinearArguments {
    static func check(width: Int, height: Int) throws {
        guard width >= 1, height >= 1 else {
            throw MediaError(
                .invalidArgument, source: inMemorySource,
                "resize target \(width)x\(height) must be at least 1x1")
        }
    }
}
