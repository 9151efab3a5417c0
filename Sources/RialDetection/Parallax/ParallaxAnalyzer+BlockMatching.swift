import Foundation
import RialMedia

extension ParallaxAnalyzer {
    /// BT.601 luma (`0.299 R + 0.587 G + 0.114 B`; gray passes through, alpha ignored)
    /// averaged over `factor x factor` input blocks: output pixel `(i, j)` is the mean of
    /// columns `i k ..< (i + 1) k` and rows `j k ..< (j + 1) k`. The output is
    /// `floor(w / k) x floor(h / k)`; the last `w mod k` columns and `h mod k` rows are
    /// dropped, so working pixel `i` is centred on input column `(i + 0.5) k - 0.5`.
    /// Integer sums per channel, one multiply per output pixel.
    ///
    /// - Complexity: O(w h): each input sample is read once.
    static func workingLuma(_ image: Image8, factor k: Int) -> [Float] {
        let outWidth = image.width / k, outHeight = image.height / k
        var out = [Float](repeating: 0, count: outWidth * outHeight)
        let channels = image.channels, rowStride = image.width * channels
        let colour = channels >= 3
        var sums = [UInt32](repeating: 0, count: outWidth * 3)
        let scale = 1 / Float(k * k)
        image.samples.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { out in
                sums.withUnsafeMutableBufferPointer { sums in
                    for j in 0..<outHeight {
                        for i in 0..<sums.count { sums[i] = 0 }
                        for dy in 0..<k {
                            var p = (j * k + dy) * rowStride
                            for i in 0..<outWidth {
                                var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                                if colour {
                                    for _ in 0..<k {
                                        r &+= UInt32(s[p])
                                        g &+= UInt32(s[p + 1])
                                        b &+= UInt32(s[p + 2])
                                        p += channels
                                    }
                                } else {
                                    for _ in 0..<k {
                                        r &+= UInt32(s[p])
                                        p += channels
                                    }
                                }
                                sums[3 * i] &+= r
                                sums[3 * i + 1] &+= g
                                sums[3 * i + 2] &+= b
                            }
                        }
                        let row = j * outWidth
                        for i in 0..<outWidth {
                            out[row + i] =
                                colour
                                ? (BT601.red * Float(sums[3 * i]) + BT601.green * Float(sums[3 * i + 1])
                                    + BT601.blue * Float(sums[3 * i + 2])) * scale
                                : Float(sums[3 * i]) * scale
                        }
                    }
                }
            }
        }
        return out
    }

    /// The signal the matcher compares: the horizontal derivative of the Gaussian-smoothed
    /// working luma, `g(x, y) = (S(x + 1, y) - S(x - 1, y)) / 2` with
    /// `S = G_σ * L` (separable, kernel radius `ceil(3 σ)`, borders clamped; `σ = 0`
    /// skips the smoothing; one-sided differences at the left and right borders).
    ///
    /// The smoothing removes periodic fine structure that makes block matching
    /// ambiguous (a display's subpixel grid, a print's halftone: periods of 1-6 input px
    /// are attenuated by `exp(-2 π² σ² / T²)`, below 1% for T <= 4 working px at
    /// σ = 2). The derivative removes what carries no horizontal disparity and differs
    /// between the two cameras: the mean level, shading, and the horizontal edges of
    /// rolling-shutter flicker bands, whose phase differs between the two modules.
    ///
    /// - Complexity: O(w h (2 ceil(3 σ) + 1)).
    static func matchingSignal(_ luma: [Float], width: Int, height: Int, sigma: Double) -> [Float] {
        var smooth = luma
        let radius = sigma > 0 ? Int((3 * sigma).rounded(.up)) : 0
        if radius > 0 {
            var kernel = [Float](repeating: 0, count: 2 * radius + 1)
            var total: Float = 0
            for i in -radius...radius {
                let w = Float(exp(-Double(i * i) / (2 * sigma * sigma)))
                kernel[i + radius] = w
                total += w
            }
            for i in kernel.indices { kernel[i] /= total }
            var temporary = [Float](repeating: 0, count: luma.count)
            // One row with `radius` clamped samples on each side, so every tap is a plain
            // contiguous multiply-add.
            var padded = [Float](repeating: 0, count: width + 2 * radius)
            kernel.withUnsafeBufferPointer { k in
                luma.withUnsafeBufferPointer { src in
                    temporary.withUnsafeMutableBufferPointer { tmp in
                        padded.withUnsafeMutableBufferPointer { pad in
                            for y in 0..<height {
                                let row = y * width
                                for x in 0..<pad.count {
                                    pad[x] = src[row + Swift.min(width - 1, Swift.max(0, x - radius))]
                                }
                                Self.convolveRow(
                                    taps: k, source: UnsafeBufferPointer(pad),
                                    into: UnsafeMutableBufferPointer(rebasing: tmp[row..<(row + width)]))
                            }
                        }
                    }
                }
                temporary.withUnsafeBufferPointer { tmp in
                    smooth.withUnsafeMutableBufferPointer { out in
                        // Columns: whole rows (contiguous) per tap, rows clamped at the borders.
                        for y in 0..<height {
                            let row = y * width
                            let target = UnsafeMutableBufferPointer(rebasing: out[row..<(row + width)])
                            for x in 0..<width { target[x] = 0 }
                            for i in 0..<k.count {
                                let source = Swift.min(height - 1, Swift.max(0, y + i - radius)) * width
                                Self.multiplyAdd(
                                    k[i], UnsafeBufferPointer(rebasing: tmp[source..<(source + width)]),
                                    into: target)
                            }
                        }
                    }
                }
            }
        }
        var gradient = [Float](repeating: 0, count: luma.count)
        guard width >= 2 else { return gradient }
        smooth.withUnsafeBufferPointer { s in
            gradient.withUnsafeMutableBufferPointer { g in
                for y in 0..<height {
                    let row = y * width
                    g[row] = s[row + 1] - s[row]
                    for x in 1..<(width - 1) { g[row + x] = 0.5 * (s[row + x + 1] - s[row + x - 1]) }
                    g[row + width - 1] = s[row + width - 1] - s[row + width - 2]
                }
            }
        }
        return gradient
    }

    /// `target[x] += weight * source[x]` for every `x` of `target` (`source` at least as
    /// long), eight lanes at a time.
    @inline(__always)
    static func multiplyAdd(
        _ weight: Float, _ source: UnsafeBufferPointer<Float>,
        into target: UnsafeMutableBufferPointer<Float>
    ) {
        guard let s = source.baseAddress, let t = target.baseAddress else { return }
        let n = target.count, w = SIMD8<Float>(repeating: weight)
        var x = 0
        while x + 8 <= n {
            let a = UnsafeRawPointer(s + x).loadUnaligned(as: SIMD8<Float>.self)
            let b = UnsafeRawPointer(t + x).loadUnaligned(as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(t + x).storeBytes(of: b + w * a, as: SIMD8<Float>.self)
            x += 8
        }
        while x < n {
            t[x] += weight * s[x]
            x += 1
        }
    }

    /// `target[x] = Σ_i taps[i] source[x + i]` (a correlation along a padded row).
    static func convolveRow(
        taps: UnsafeBufferPointer<Float>, source: UnsafeBufferPointer<Float>,
        into target: UnsafeMutableBufferPointer<Float>
    ) {
        for x in 0..<target.count { target[x] = 0 }
        for i in 0..<taps.count {
            multiplyAdd(taps[i], UnsafeBufferPointer(rebasing: source[i..<(i + target.count)]), into: target)
        }
    }

    /// The block grid on a working image: block `(i, j)` is centred on working pixel
    /// `(r + i step, r + j step)` and covers `(2r + 1)²` pixels, all inside the image.
    struct BlockGrid: Equatable {
        var radius: Int
        var step: Int
        var columns: Int
        var rows: Int

        init(width: Int, height: Int, radius: Int, step: Int) {
            self.radius = radius
            self.step = step
            let size = 2 * radius + 1
            columns = width >= size ? (width - size) / step + 1 : 0
            rows = height >= size ? (height - size) / step + 1 : 0
        }

        var count: Int { columns * rows }
        func centreX(_ i: Int) -> Int { radius + i * step }
        func centreY(_ j: Int) -> Int { radius + j * step }
    }

    /// Disparities of the block grid (NaN = invalid) and why blocks were rejected.
    struct DisparityField {
        var grid: BlockGrid
        /// `grid.count` values, working px, row-major.
        var disparity: [Double]
        var textured = 0
        var valid = 0
        var rejections = Rejections()
    }

    /// Block matching of the rectified working pair, left view as reference.
    ///
    /// Inputs are the two views' `matchingSignal`. For each textured block (signal std
    /// >= `minBlockStdDev`) the zero-mean normalised
    /// cross-correlation `ρ(d) = Σ (L - L̄)(R - R̄) / sqrt(Σ (L - L̄)² Σ (R - R̄)²)` with the
    /// right block at `x - d` is computed for every integer `d` in `range` whose right
    /// block lies inside the image (window sums from per-row prefix sums). Cost
    /// `C = 1 - ρ`. A block is valid when the minimum is not at an end of the candidates,
    /// `ρ >= minCorrelation`, `C_best <= uniquenessRatio x` the lowest cost at least 2
    /// px away, and the right block at `x - d` searched over the same range finds its own
    /// best left match within `leftRightTolerancePx`. Subpixel: parabola through the
    /// three costs around the minimum, `δ = (C₋ - C₊) / (2 (C₋ - 2 C₀ + C₊))`, |δ| <= 0.5.
    /// ZNCC makes the match insensitive to gain and offset differences between the two
    /// cameras within a block.
    ///
    /// - Complexity: O(blocks x range x (2r + 1)²), twice (left-right check).
    static func matchBlocks(
        left: [Float], right: [Float], width: Int, height: Int, range: ClosedRange<Int>,
        configuration c: Configuration
    ) -> DisparityField {
        let grid = BlockGrid(width: width, height: height, radius: c.blockRadius, step: c.gridStep)
        var field = DisparityField(grid: grid, disparity: [Double](repeating: .nan, count: grid.count))
        guard grid.count > 0 else { return field }
        let r = c.blockRadius, size = 2 * r + 1, n = Double(size * size)
        let minVariance = c.minBlockStdDev * c.minBlockStdDev * n
        let candidates = range.count
        // The template is stored in rows of `pitch` floats (whole 16-lane chunks, zero beyond
        // the block) so a row's dot product is `chunks` SIMD16 multiply-adds.
        let chunks = (size + 15) / 16, pitch = 16 * chunks
        var template = [Float](repeating: 0, count: size * pitch)
        var costs = [Double](repeating: 0, count: candidates)
        // Per band of block rows: column sums, then prefix sums along x (index x + 1 = sum of 0...x).
        var prefixL = [Double](repeating: 0, count: width + 1), prefixL2 = prefixL
        var prefixR = prefixL, prefixR2 = prefixL

        left.withUnsafeBufferPointer { L in
            right.withUnsafeBufferPointer { R in
                template.withUnsafeMutableBufferPointer { T in
                    costs.withUnsafeMutableBufferPointer { cost in
                        prefixL.withUnsafeMutableBufferPointer { pL in
                            prefixL2.withUnsafeMutableBufferPointer { pL2 in
                                prefixR.withUnsafeMutableBufferPointer { pR in
                                    prefixR2.withUnsafeMutableBufferPointer { pR2 in
                                        /// Σ over the block of `template * image` with the block's left column at `x0`.
                                        /// Rows whose last chunk would read past the image fall back to scalar code.
                                        @inline(__always) func dot(
                                            _ image: UnsafeBufferPointer<Float>, top: Int, x0: Int
                                        ) -> Double {
                                            guard let base = image.baseAddress, let t = T.baseAddress else { return 0 }
                                            var lanes = SIMD16<Float>()
                                            var total: Float = 0
                                            for j in 0..<size {
                                                let row = (top + j) * width + x0, tRow = j * pitch
                                                if row + pitch <= image.count {
                                                    for chunk in 0..<chunks {
                                                        let a = UnsafeRawPointer(base + row + 16 * chunk).loadUnaligned(
                                                            as: SIMD16<Float>.self)
                                                        let b = UnsafeRawPointer(t + tRow + 16 * chunk).loadUnaligned(
                                                            as: SIMD16<Float>.self)
                                                        lanes += a * b
                                                    }
                                                } else {
                                                    for i in 0..<size { total += T[tRow + i] * image[row + i] }
                                                }
                                            }
                                            return Double(total + lanes.sum())
                                        }
                                        /// Fills `T` with the zero-mean block (zeros beyond `size` in each row); returns
                                        /// its `Σ (v - mean)²`.
                                        @inline(__always) func loadTemplate(
                                            _ image: UnsafeBufferPointer<Float>, top: Int, x0: Int,
                                            sum: Double, squares: Double
                                        ) -> Double {
                                            let mean = Float(sum / n)
                                            for j in 0..<size {
                                                let row = (top + j) * width + x0
                                                for i in 0..<size { T[j * pitch + i] = image[row + i] - mean }
                                            }
                                            return squares - sum * sum / n
                                        }
                                        /// `ZNCC` from the template's norm and the window sums of the other block.
                                        @inline(__always) func correlation(
                                            _ product: Double, templateNorm: Double, sum: Double, squares: Double
                                        ) -> Double {
                                            let variance = squares - sum * sum / n
                                            guard variance > 1e-6 * n else { return 0 }
                                            return product / (templateNorm * variance.squareRoot())
                                        }

                                        for by in 0..<grid.rows {
                                            let cy = grid.centreY(by), top = cy - r
                                            pL[0] = 0
                                            pL2[0] = 0
                                            pR[0] = 0
                                            pR2[0] = 0
                                            for x in 0..<width {
                                                var sl: Double = 0, sl2: Double = 0, sr: Double = 0, sr2: Double = 0
                                                var p = top * width + x
                                                for _ in 0..<size {
                                                    let l = Double(L[p]), q = Double(R[p])
                                                    sl += l
                                                    sl2 += l * l
                                                    sr += q
                                                    sr2 += q * q
                                                    p += width
                                                }
                                                pL[x + 1] = pL[x] + sl
                                                pL2[x + 1] = pL2[x] + sl2
                                                pR[x + 1] = pR[x] + sr
                                                pR2[x + 1] = pR2[x] + sr2
                                            }
                                            for bx in 0..<grid.columns {
                                                let cx = grid.centreX(bx), x0 = cx - r
                                                let sumL = pL[x0 + size] - pL[x0], squaresL = pL2[x0 + size] - pL2[x0]
                                                guard squaresL - sumL * sumL / n >= Swift.max(minVariance, 1e-6 * n)
                                                else { continue }
                                                field.textured += 1

                                                // Left to right: right block at x0 - d must satisfy 0 <= x0 - d and x0 - d + size <= width.
                                                let first = Swift.max(range.lowerBound, x0 + size - width),
                                                    last = Swift.min(range.upperBound, x0)
                                                guard last - first >= 2 else {
                                                    field.rejections.outOfRange += 1
                                                    continue
                                                }
                                                let norm = loadTemplate(
                                                    L, top: top, x0: x0, sum: sumL, squares: squaresL
                                                ).squareRoot()
                                                var best = 0, bestCost = Double.infinity
                                                for d in first...last {
                                                    let xr = x0 - d
                                                    let rho = correlation(
                                                        dot(R, top: top, x0: xr), templateNorm: norm,
                                                        sum: pR[xr + size] - pR[xr], squares: pR2[xr + size] - pR2[xr])
                                                    let k = d - first
                                                    cost[k] = 1 - rho
                                                    if cost[k] < bestCost {
                                                        bestCost = cost[k]
                                                        best = k
                                                    }
                                                }
                                                let count = last - first + 1
                                                guard best > 0, best < count - 1 else {
                                                    field.rejections.outOfRange += 1
                                                    continue
                                                }
                                                guard 1 - bestCost >= c.minCorrelation else {
                                                    field.rejections.lowCorrelation += 1
                                                    continue
                                                }
                                                var second = Double.infinity
                                                for k in 0..<count where abs(k - best) >= 2 && cost[k] < second {
                                                    second = cost[k]
                                                }
                                                guard bestCost <= c.uniquenessRatio * second else {
                                                    field.rejections.ambiguous += 1
                                                    continue
                                                }
                                                let c0 = cost[best - 1], c1 = cost[best], c2 = cost[best + 1]
                                                let curvature = c0 - 2 * c1 + c2
                                                let delta =
                                                    curvature > 0
                                                    ? Swift.min(0.5, Swift.max(-0.5, 0.5 * (c0 - c2) / curvature)) : 0
                                                let disparity = first + best

                                                // Right to left: the right block at xr, left blocks at xr + d' inside the image.
                                                let xr = x0 - disparity
                                                let sumR = pR[xr + size] - pR[xr], squaresR = pR2[xr + size] - pR2[xr]
                                                let normR = loadTemplate(
                                                    R, top: top, x0: xr, sum: sumR, squares: squaresR
                                                ).squareRoot()
                                                let backFirst = Swift.max(range.lowerBound, -xr),
                                                    backLast = Swift.min(range.upperBound, width - size - xr)
                                                var backBest = disparity, backCost = Double.infinity
                                                if normR > 0 && backFirst <= backLast {
                                                    for d in backFirst...backLast {
                                                        let xl = xr + d
                                                        let rho = correlation(
                                                            dot(L, top: top, x0: xl), templateNorm: normR,
                                                            sum: pL[xl + size] - pL[xl],
                                                            squares: pL2[xl + size] - pL2[xl])
                                                        if 1 - rho < backCost {
                                                            backCost = 1 - rho
                                                            backBest = d
                                                        }
                                                    }
                                                }
                                                guard normR > 0, abs(backBest - disparity) <= c.leftRightTolerancePx
                                                else {
                                                    field.rejections.inconsistent += 1
                                                    continue
                                                }
                                                field.disparity[by * grid.columns + bx] = Double(disparity) + delta
                                                field.valid += 1
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
        return field
    }

    /// Robust matching noise of a disparity field: the second differences
    /// `Δ² = d[i-1] - 2 d[i] + d[i+1]` of three consecutive valid blocks along rows and
    /// columns cancel any affine trend; for independent errors of std σ,
    /// `Var Δ² = 6 σ²`, so `σ = 1.4826 median|Δ²| / sqrt(6)` (MAD estimator; depth
    /// edges are outliers the median ignores). Nil with fewer than 10 triples.
    static func matchingNoise(_ field: DisparityField) -> Double? {
        let g = field.grid, d = field.disparity
        var values: [Double] = []
        values.reserveCapacity(2 * g.count)
        for j in 0..<g.rows {
            for i in 0..<g.columns {
                let v = d[j * g.columns + i]
                guard v.isFinite else { continue }
                if i >= 1, i + 1 < g.columns {
                    let a = d[j * g.columns + i - 1], b = d[j * g.columns + i + 1]
                    if a.isFinite && b.isFinite { values.append(abs(a - 2 * v + b)) }
                }
                if j >= 1, j + 1 < g.rows {
                    let a = d[(j - 1) * g.columns + i], b = d[(j + 1) * g.columns + i]
                    if a.isFinite && b.isFinite { values.append(abs(a - 2 * v + b)) }
                }
            }
        }
        guard values.count >= 10 else { return nil }
        values.sort()
        let median =
            values.count % 2 == 1
            ? values[values.count / 2]
            : (values[values.count / 2 - 1] + values[values.count / 2]) / 2
        return 1.4826 * median / 6.0.squareRoot()
    }
}
