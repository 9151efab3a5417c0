/// Where sample `(x, y, c)` of a raster lives in a flat buffer:
/// `x * xStride + y * yStride + c * channelStride`.
struct RasterLayout: Equatable {
    let width: Int
    let height: Int
    let channels: Int
    let xStride: Int
    let yStride: Int
    let channelStride: Int

    /// `PlanarImage`/`DepthMap` order: planes one after another, rows within a plane.
    static func planar(width: Int, height: Int, channels: Int) -> RasterLayout {
        RasterLayout(
            width: width, height: height, channels: channels,
            xStride: 1, yStride: width, channelStride: width * height)
    }

    /// `PixelImage` order: pixels with their channels together, rows top to bottom.
    static func interleaved(width: Int, height: Int, channels: Int) -> RasterLayout {
        RasterLayout(
            width: width, height: height, channels: channels,
            xStride: channels, yStride: width * channels, channelStride: 1)
    }

    var count: Int { width * height * channels }
}

/// A 1-D resampling kernel as a sparse matrix in compressed rows: output `i` is
/// `sum(weights[k] * input[indices[k]])` for `k` in `starts[i]..<starts[i + 1]`.
/// Taps with zero weight are left out, so a `NaN` they would multiply cannot leak in.
struct AxisWeights {
    let inputCount: Int
    let outputCount: Int
    let starts: [Int]
    let indices: [Int]
    let weights: [Float]

    private init(inputCount: Int, outputCount: Int, taps: (Int, (Int, Int, Double) -> Void) -> Void) {
        var starts = [0]
        var indices: [Int] = []
        var weights: [Float] = []
        starts.reserveCapacity(outputCount + 1)
        for i in 0..<outputCount {
            taps(i) { _, index, weight in
                if weight > 0 {
                    indices.append(index)
                    weights.append(Float(weight))
                }
            }
            starts.append(indices.count)
        }
        self.inputCount = inputCount
        self.outputCount = outputCount
        self.starts = starts
        self.indices = indices
        self.weights = weights
    }

    /// Exact area average from `n` to `m <= n` samples: output `i` covers the input
    /// interval `[i * n/m, (i + 1) * n/m)` and each input sample `[x, x + 1)` is
    /// weighted by its overlap with it, divided by `n/m`. Computed in integer units of
    /// `1/m` sample, so the weights are exact rationals before the final division.
    static func areaAverage(from n: Int, to m: Int) -> AxisWeights {
        AxisWeights(inputCount: n, outputCount: m) { i, emit in
            let lo = i * n, hi = (i + 1) * n // in units of 1/m input sample
            var x = lo / m
            while x * m < hi && x < n {
                let overlap = min((x + 1) * m, hi) - max(x * m, lo)
                emit(i, x, Double(overlap) / Double(n))
                x += 1
            }
        }
    }

    /// Block mean with an integer `factor`: output `i` is the mean of inputs
    /// `i * factor ..< min((i + 1) * factor, n)`; the last block may be partial and is
    /// averaged over the samples present. `ceil(n / factor)` outputs.
    static func blockMean(from n: Int, factor: Int) -> AxisWeights {
        let m = (n + factor - 1) / factor
        return AxisWeights(inputCount: n, outputCount: m) { i, emit in
            let lo = i * factor, hi = min(lo + factor, n)
            let w = 1.0 / Double(hi - lo)
            for x in lo..<hi { emit(i, x, w) }
        }
    }

    /// Linear interpolation from `n` to `m` samples with half-pixel centres (OpenCV
    /// `INTER_LINEAR`, PyTorch `align_corners=False`): output `i` samples the input at
    /// `s = (i + 0.5) * n / m - 0.5`, clamped to `[0, n - 1]`; the result is
    /// `(1 - f) * input[floor(s)] + f * input[floor(s) + 1]` with `f = s - floor(s)`.
    static func bilinear(from n: Int, to m: Int) -> AxisWeights {
        let scale = Double(n) / Double(m)
        return AxisWeights(inputCount: n, outputCount: m) { i, emit in
            let s = min(max((Double(i) + 0.5) * scale - 0.5, 0), Double(n - 1))
            let x0 = Int(s.rounded(.down))
            let f = s - Double(x0)
            emit(i, x0, 1 - f)
            if f > 0 && x0 + 1 < n { emit(i, x0 + 1, f) }
        }
    }
}

/// Separable resampling of every channel: rows with `x` weights first, then columns
/// with `y` weights. Accumulates in `Float`; one intermediate buffer per call, nothing
/// allocated per pixel.
enum SeparableResampler {
    static func resample(
        _ src: UnsafeBufferPointer<Float>, _ srcLayout: RasterLayout,
        x xw: AxisWeights, y yw: AxisWeights,
        into dst: UnsafeMutableBufferPointer<Float>, _ dstLayout: RasterLayout
    ) {
        precondition(
            xw.inputCount == srcLayout.width && yw.inputCount == srcLayout.height
                && xw.outputCount == dstLayout.width && yw.outputCount == dstLayout.height
                && srcLayout.channels == dstLayout.channels
                && src.count >= srcLayout.count && dst.count >= dstLayout.count,
            "SeparableResampler: layouts and weights disagree")
        let outW = dstLayout.width, inH = srcLayout.height
        // Horizontal pass into a planar (channel, input row, output column) buffer.
        var horizontal = [Float](repeating: 0, count: srcLayout.channels * inH * outW)
        var row = [Float](repeating: 0, count: outW)
        xw.starts.withUnsafeBufferPointer { xs in
            xw.indices.withUnsafeBufferPointer { xi in
                xw.weights.withUnsafeBufferPointer { xwt in
                    yw.starts.withUnsafeBufferPointer { ys in
                        yw.indices.withUnsafeBufferPointer { yi in
                            yw.weights.withUnsafeBufferPointer { ywt in
                                horizontal.withUnsafeMutableBufferPointer { h in
                                    row.withUnsafeMutableBufferPointer { acc in
                                        for c in 0..<srcLayout.channels {
                                            for y in 0..<inH {
                                                let inBase = c * srcLayout.channelStride + y * srcLayout.yStride
                                                let outBase = (c * inH + y) * outW
                                                for ox in 0..<outW {
                                                    var sum: Float = 0
                                                    for k in xs[ox]..<xs[ox + 1] {
                                                        sum += xwt[k] * src[inBase + xi[k] * srcLayout.xStride]
                                                    }
                                                    h[outBase + ox] = sum
                                                }
                                            }
                                            // Vertical pass: each output row is a weighted sum of intermediate rows.
                                            for oy in 0..<dstLayout.height {
                                                for ox in 0..<outW { acc[ox] = 0 }
                                                for k in ys[oy]..<ys[oy + 1] {
                                                    let w = ywt[k]
                                                    let rowBase = (c * inH + yi[k]) * outW
                                                    for ox in 0..<outW { acc[ox] += w * h[rowBase + ox] }
                                                }
                                                let outBase = c * dstLayout.channelStride + oy * dstLayout.yStride
                                                for ox in 0..<outW { dst[outBase + ox * dstLayout.xStride] = acc[ox] }
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
    }
}

extension PixelImage where Sample == UInt8 {
    /// Resamples all channels (alpha included) with separable weights; results are
    /// rounded half away from zero and clamped to 0...255.
    func resampled(x xw: AxisWeights, y yw: AxisWeights) -> Image8 {
        let srcLayout = RasterLayout.interleaved(width: width, height: height, channels: channels)
        let dstLayout = RasterLayout.interleaved(
            width: xw.outputCount, height: yw.outputCount,
            channels: channels)
        var input = [Float](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { s in
            input.withUnsafeMutableBufferPointer { f in
                for i in 0..<s.count { f[i] = Float(s[i]) }
            }
        }
        var output = [Float](repeating: 0, count: dstLayout.count)
        input.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                SeparableResampler.resample(src, srcLayout, x: xw, y: yw, into: dst, dstLayout)
            }
        }
        var result = Image8(width: dstLayout.width, height: dstLayout.height, channels: channels)
        output.withUnsafeBufferPointer { f in
            result.samples.withUnsafeMutableBufferPointer { s in
                for i in 0..<f.count { s[i] = ImageSampleConversion.uint8(f[i]) }
            }
        }
        return result
    }
}

extension PlanarImage {
    /// Resamples every plane with separable weights.
    func resampled(x xw: AxisWeights, y yw: AxisWeights) -> PlanarImage {
        let srcLayout = RasterLayout.planar(width: width, height: height, channels: channels)
        let dstLayout = RasterLayout.planar(
            width: xw.outputCount, height: yw.outputCount,
            channels: channels)
        var result = PlanarImage(width: dstLayout.width, height: dstLayout.height, channels: channels)
        data.withUnsafeBufferPointer { src in
            result.data.withUnsafeMutableBufferPointer { dst in
                SeparableResampler.resample(src, srcLayout, x: xw, y: yw, into: dst, dstLayout)
            }
        }
        return result
    }
}

/// Float to 8-bit sample conversion shared by the image operations.
enum ImageSampleConversion {
    /// Rounds half away from zero and clamps to 0...255; `NaN` becomes 0.
    @inline(__always)
    static func uint8(_ v: Float) -> UInt8 {
        guard v > 0 else { return 0 } // also catches NaN
        guard v < 255 else { return 255 }
        return UInt8(v.rounded(.toNearestOrAwayFromZero))
    }
}
