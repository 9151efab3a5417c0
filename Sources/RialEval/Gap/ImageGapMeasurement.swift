import Foundation
import RialCodecs
import RialMedia

/// The image statistics of the domain-gap report (`GapStatistic`), measured at a
/// resolution-normalised analysis scale so that a 12 MP photo and a 2 MP one are
/// compared on the same footing.
///
/// Algorithm:
/// 1. Analysis scale: JPEG decode at the largest DCT scale 1/n (n in 1, 2, 4, 8) that
///    keeps the short side >= `analysisShortSide`, then an exact area average to that
///    short side (smaller images are used as they are, never upscaled). Planes R, G, B,
///    Y = 0.299 R + 0.587 G + 0.114 B, Cb = B - Y, Cr = R - Y, in levels 0...255.
/// 2. Noise: blocks of 16 x 16 px; a block is eligible when its mean Y is in 16...235
///    and no channel reaches 0 or 255 in it (clipped pixels carry no noise). Its
///    structure is the standard deviation of its 16 cells of 4 x 4 px means (edges and
///    gradients, with noise reduced 4x). The `flatShare` (20%) least structured eligible blocks
///    (at least `minimumFlatBlocks`) are the flat blocks. Per plane and block the
///    Immerkaer (1996) estimate sigma = sqrt(pi / 2) mean|r| / 6, r the residual of the
///    kernel [1 -2 1; -2 4 -2; 1 -2 1] (Gaussian white noise of std s gives r of std 6 s,
///    E|r| = 6 s sqrt(2 / pi)); the statistic is the median over flat blocks. The
///    correlation statistics repeat it on the plane area-averaged 2 x 2 in the same
///    blocks: white noise falls by 2, low-pass (denoised, demosaiced) noise by less.
/// 3. Halos: at every pixel where the central difference of Y along x (or y) is a local
///    maximum of at least `minimumEdgeStep` levels and at least twice the cross
///    difference, the 11-px profile p[-5...5] across the edge, oriented rising; with
///    lo = (p[-5] + p[-4]) / 2, hi = (p[4] + p[5]) / 2, step = hi - lo, edges whose
///    plateaus vary by more than 10% of the step are skipped; overshoot =
///    ((max p[-3...3] - hi)+ + (lo - min p[-3...3])+) / step. Median over edges.
/// 4. Spectra: Welch average of the power of Hann-windowed, mean-removed 256 x 256 tiles
///    (all whole tiles on a centred grid) of Y, Cb and Cr; radial mean in bins of 1/256
///    cycles/px. Slope, high-frequency share, whitened peak (power over the median of its
///    ring) and chroma band ratio as `GapStatistic` describes.
///
/// Bad input never traps: too few flat blocks or edges give NaN for that statistic.
public enum ImageGapMeasurement {
    /// Short side of the analysis scale, pixels.
    public static let analysisShortSide = 1000
    static let blockSide = 16
    /// Share of eligible blocks taken as flat.
    static let flatShare = 0.2
    static let minimumFlatBlocks = 8
    static let minimumEdgeStep: Float = 20
    static let minimumEdges = 20
    static let tileSide = 256

    /// Measures the image file at `path`: pixel statistics and, for a JPEG, its tables.
    ///
    /// - Throws: `MediaError` naming `path` when the file cannot be read or decoded.
    public static func measure(path: String) throws -> [GapStatistic: Double] {
        let data = try MediaFile.read(path)
        let size = try ImageReader.storedSize(data: data, source: path)
        let short = min(size.width, size.height)
        var scale = JPEGScale.full
        for candidate in [JPEGScale.eighth, .quarter, .half] where short / candidate.denominator >= analysisShortSide {
            scale = candidate
            break
        }
        let loaded = try ImageReader.read(data: data, options: .init(jpegScale: scale), source: path)
        var statistics = measure(image: try analysisImage(loaded.image))
        if loaded.format == .jpeg, let tables = try? JPEGQuantizationTables.read(data, source: path) {
            if let luma = tables.luma,
                let fit = JPEGQuantizationTables.estimateQuality(luma, base: JPEGQuantizationTables.standardLuma)
            {
                statistics[.jpegLumaQuality] = Double(fit.quality)
                statistics[.jpegTableMismatch] = fit.meanAbsoluteError
            }
            if let chroma = tables.chroma,
                let fit = JPEGQuantizationTables.estimateQuality(chroma, base: JPEGQuantizationTables.standardChroma)
            {
                statistics[.jpegChromaQuality] = Double(fit.quality)
            }
        }
        return statistics
    }

    /// `image` area-averaged to `analysisShortSide` on its short side (unchanged when
    /// it is not larger), as float planes R, G, B (a gray image gives three equal planes).
    public static func analysisImage(_ image: Image8) throws -> PlanarImage {
        var planar = PlanarImage(image)
        let short = min(planar.width, planar.height)
        if short > analysisShortSide {
            let f = Double(analysisShortSide) / Double(short)
            let w = max(1, Int((Double(planar.width) * f).rounded()))
            let h = max(1, Int((Double(planar.height) * f).rounded()))
            planar = try planar.areaAveraged(width: w, height: h)
        }
        if planar.channels == 1 {
            planar = PlanarImage(
                width: planar.width, height: planar.height, channels: 3, data: planar.data + planar.data + planar.data)!
        }
        return planar
    }

    /// The pixel statistics of an RGB planar image (levels 0...255) taken as it is.
    public static func measure(image: PlanarImage) -> [GapStatistic: Double] {
        let w = image.width, h = image.height, n = w * h
        guard image.channels >= 3, w >= 32, h >= 32 else { return [:] }
        let r = Array(image.data[0..<n]), g = Array(image.data[n..<2 * n]), b = Array(image.data[2 * n..<3 * n])
        var y = [Float](repeating: 0, count: n), cb = y, cr = y
        var sumY = 0.0, sumY2 = 0.0, sumCb = 0.0, sumCr = 0.0, sumSat = 0.0, clipped = 0
        for i in 0..<n {
            let l = 0.299 * r[i] + 0.587 * g[i] + 0.114 * b[i]
            y[i] = l
            cb[i] = b[i] - l
            cr[i] = r[i] - l
            sumY += Double(l)
            sumY2 += Double(l) * Double(l)
            sumCb += Double(cb[i])
            sumCr += Double(cr[i])
            sumSat += Double((cb[i] * cb[i] + cr[i] * cr[i]).squareRoot())
            if l >= 250 { clipped += 1 }
        }
        var out: [GapStatistic: Double] = [:]
        let mean = sumY / Double(n)
        out[.meanLuma] = mean
        out[.lumaContrast] = max(sumY2 / Double(n) - mean * mean, 0).squareRoot()
        out[.clippedFraction] = Double(clipped) / Double(n)
        out[.colourCastCb] = sumCb / Double(n)
        out[.colourCastCr] = sumCr / Double(n)
        out[.saturation] = sumSat / Double(n)

        let blocks = flatBlocks(r: r, g: g, b: b, luma: y, width: w, height: h)
        if !blocks.isEmpty {
            let sy = noiseSigma(y, width: w, height: h, blocks: blocks)
            let scb = noiseSigma(cb, width: w, height: h, blocks: blocks)
            let scr = noiseSigma(cr, width: w, height: h, blocks: blocks)
            out[.noiseLuma] = sy
            out[.noiseCb] = scb
            out[.noiseCr] = scr
            out[.noiseRed] = noiseSigma(r, width: w, height: h, blocks: blocks)
            out[.noiseGreen] = noiseSigma(g, width: w, height: h, blocks: blocks)
            out[.noiseBlue] = noiseSigma(b, width: w, height: h, blocks: blocks)
            out[.chromaToLumaNoise] = (scb + scr) / (2 * sy)
            let coarseY = noiseSigma(
                halved(y, width: w, height: h), width: w / 2, height: h / 2, blocks: blocks, coarse: true)
            let coarseCb = noiseSigma(
                halved(cb, width: w, height: h), width: w / 2, height: h / 2, blocks: blocks, coarse: true)
            let coarseCr = noiseSigma(
                halved(cr, width: w, height: h), width: w / 2, height: h / 2, blocks: blocks, coarse: true)
            out[.noiseCorrelationLuma] = 2 * coarseY / sy
            out[.noiseCorrelationChroma] = (2 * coarseCb / scb + 2 * coarseCr / scr) / 2
        }
        out[.haloOvershoot] = haloOvershoot(y, width: w, height: h)
        for (key, value) in spectralStatistics(y: y, cb: cb, cr: cr, width: w, height: h) { out[key] = value }
        return out.filter { $0.value.isFinite }
    }

    // MARK: - Noise

    /// Block origin `(x, y)` of block `index` on the fine grid: blocks start at pixel 2 so
    /// that block `(i, j)` at 1/2 scale starts at pixel 1 and covers the same area.
    static func blockGrid(width w: Int, height h: Int) -> (columns: Int, rows: Int) {
        (max(0, (w - 4) / blockSide), max(0, (h - 4) / blockSide))
    }

    /// The flat blocks (indices `row * columns + column`), as the type describes.
    static func flatBlocks(r: [Float], g: [Float], b: [Float], luma y: [Float], width w: Int, height h: Int) -> [Int] {
        let (columns, rows) = blockGrid(width: w, height: h)
        var candidates: [(structure: Float, index: Int)] = []
        let cell = blockSide / 4
        for j in 0..<rows {
            for i in 0..<columns {
                let x0 = 2 + i * blockSide, y0 = 2 + j * blockSide
                var clipped = false, sum: Float = 0
                var cells = [Float](repeating: 0, count: 16)
                for yy in y0..<(y0 + blockSide) {
                    let row = yy * w
                    for xx in x0..<(x0 + blockSide) {
                        let p = row + xx
                        let lo = min(r[p], g[p], b[p]), hi = max(r[p], g[p], b[p])
                        if lo <= 0 || hi >= 255 { clipped = true }
                        sum += y[p]
                        cells[((yy - y0) / cell) * 4 + (xx - x0) / cell] += y[p]
                    }
                }
                let mean = sum / Float(blockSide * blockSide)
                guard !clipped, mean >= 16, mean <= 235 else { continue }
                let cellMean = cells.reduce(0, +) / 16
                let variance = cells.reduce(Float(0)) { $0 + ($1 - cellMean) * ($1 - cellMean) } / 16
                candidates.append((variance.squareRoot() / Float(cell * cell), j * columns + i))
            }
        }
        guard !candidates.isEmpty else { return [] }
        candidates.sort { $0.structure != $1.structure ? $0.structure < $1.structure : $0.index < $1.index }
        let take = min(candidates.count, max(minimumFlatBlocks, Int((Double(candidates.count) * flatShare).rounded())))
        guard take >= minimumFlatBlocks else { return [] }
        return candidates.prefix(take).map(\.index)
    }

    /// Median over `blocks` of the Immerkaer sigma of `plane`; `coarse`: the plane is at
    /// 1/2 scale and each block is 8 x 8 px from `(1 + 8 i, 1 + 8 j)`.
    static func noiseSigma(_ plane: [Float], width w: Int, height h: Int, blocks: [Int], coarse: Bool = false) -> Double
    {
        let (columns, _) = blockGrid(width: coarse ? w * 2 : w, height: coarse ? h * 2 : h)
        let side = coarse ? blockSide / 2 : blockSide, origin = coarse ? 1 : 2
        var sigmas: [Double] = []
        sigmas.reserveCapacity(blocks.count)
        plane.withUnsafeBufferPointer { p in
            for index in blocks {
                let x0 = origin + (index % columns) * side, y0 = origin + (index / columns) * side
                guard x0 >= 1, y0 >= 1, x0 + side < w, y0 + side < h else { continue }
                var total: Double = 0
                for yy in y0..<(y0 + side) {
                    let up = (yy - 1) * w, mid = yy * w, down = (yy + 1) * w
                    for xx in x0..<(x0 + side) {
                        let v =
                            p[up + xx - 1] - 2 * p[up + xx] + p[up + xx + 1]
                            - 2 * p[mid + xx - 1] + 4 * p[mid + xx] - 2 * p[mid + xx + 1]
                            + p[down + xx - 1] - 2 * p[down + xx] + p[down + xx + 1]
                        total += Double(abs(v))
                    }
                }
                sigmas.append((Double.pi / 2).squareRoot() * total / Double(side * side) / 6)
            }
        }
        return Median.of(sigmas)
    }

    /// 2 x 2 block means (the odd last row or column dropped).
    static func halved(_ plane: [Float], width w: Int, height h: Int) -> [Float] {
        let hw = w / 2, hh = h / 2
        var out = [Float](repeating: 0, count: hw * hh)
        for j in 0..<hh {
            for i in 0..<hw {
                let p = 2 * j * w + 2 * i
                out[j * hw + i] = (plane[p] + plane[p + 1] + plane[p + w] + plane[p + w + 1]) / 4
            }
        }
        return out
    }

    // MARK: - Halos

    /// Median relative overshoot at isolated step edges (see the type); NaN with fewer
    /// than `minimumEdges` edges.
    static func haloOvershoot(_ y: [Float], width w: Int, height h: Int) -> Double {
        var values: [Double] = []
        y.withUnsafeBufferPointer { p in
            func profile(_ at: Int, _ stride: Int, _ sign: Float) -> Double? {
                var q = [Float](repeating: 0, count: 11)
                for k in -5...5 { q[k + 5] = sign * p[at + k * stride] }
                return relativeOvershoot(q)
            }
            for yy in 5..<(h - 5) {
                let row = yy * w
                for xx in 5..<(w - 5) {
                    let at = row + xx
                    let gx = p[at + 1] - p[at - 1], gy = p[at + w] - p[at - w]
                    if abs(gx) >= minimumEdgeStep, abs(gx) >= 2 * abs(gy), abs(gx) >= abs(p[at + 2] - p[at]),
                        abs(gx) > abs(p[at] - p[at - 2]), let v = profile(at, 1, gx > 0 ? 1 : -1)
                    {
                        values.append(v)
                    }
                    if abs(gy) >= minimumEdgeStep, abs(gy) >= 2 * abs(gx), abs(gy) >= abs(p[at + 2 * w] - p[at]),
                        abs(gy) > abs(p[at] - p[at - 2 * w]), let v = profile(at, w, gy > 0 ? 1 : -1)
                    {
                        values.append(v)
                    }
                }
            }
        }
        return values.count >= minimumEdges ? Median.of(values) : .nan
    }

    /// The overshoot of one rising 11-sample profile `p[0...10]` (centre 5), or nil when
    /// it is not an isolated step (step below `minimumEdgeStep`, plateaus varying by
    /// more than 10% of the step).
    public static func relativeOvershoot(_ p: [Float]) -> Double? {
        guard p.count == 11 else { return nil }
        let lo = (p[0] + p[1]) / 2, hi = (p[9] + p[10]) / 2, step = hi - lo
        guard step >= minimumEdgeStep, abs(p[0] - p[1]) <= 0.1 * step, abs(p[9] - p[10]) <= 0.1 * step else {
            return nil
        }
        let inner = p[2...8]
        let over = max(0, inner.max()! - hi) + max(0, lo - inner.min()!)
        return Double(over / step)
    }

    // MARK: - Spectra

    static func spectralStatistics(y: [Float], cb: [Float], cr: [Float], width w: Int, height h: Int) -> [GapStatistic:
        Double]
    {
        let n = tileSide
        let tx = w / n, ty = h / n
        guard tx >= 1, ty >= 1 else { return [:] }
        let x0 = (w - tx * n) / 2, y0 = (h - ty * n) / 2
        let fft = FFT(size: n)
        var window = [Double](repeating: 0, count: n)
        for i in 0..<n { window[i] = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n)) }
        var power = [[Double]](repeating: [Double](repeating: 0, count: n * n), count: 3)
        var re = [Double](repeating: 0, count: n * n), im = re
        for (c, plane) in [y, cb, cr].enumerated() {
            for j in 0..<ty {
                for i in 0..<tx {
                    var mean = 0.0
                    for yy in 0..<n {
                        let row = (y0 + j * n + yy) * w + x0 + i * n
                        for xx in 0..<n { mean += Double(plane[row + xx]) }
                    }
                    mean /= Double(n * n)
                    for yy in 0..<n {
                        let row = (y0 + j * n + yy) * w + x0 + i * n
                        for xx in 0..<n {
                            re[yy * n + xx] = (Double(plane[row + xx]) - mean) * window[xx] * window[yy]
                            im[yy * n + xx] = 0
                        }
                    }
                    fft.transform2D(re: &re, im: &im, sign: -1)
                    for k in 0..<(n * n) { power[c][k] += re[k] * re[k] + im[k] * im[k] }
                }
            }
        }
        // Radial bins of 1/n cycles/px.
        let bins = n / 2 + 1
        var radius = [Double](repeating: 0, count: n * n)
        var binOf = [Int](repeating: -1, count: n * n)
        var radialSum = [Double](repeating: 0, count: bins), radialCount = [Int](repeating: 0, count: bins)
        for v in 0..<n {
            let fv = Double(v < n / 2 ? v : v - n) / Double(n)
            for u in 0..<n {
                let fu = Double(u < n / 2 ? u : u - n) / Double(n)
                let rr = (fu * fu + fv * fv).squareRoot()
                radius[v * n + u] = rr
                let bin = Int((rr * Double(n)).rounded())
                if bin < bins {
                    binOf[v * n + u] = bin
                    radialSum[bin] += power[0][v * n + u]
                    radialCount[bin] += 1
                }
            }
        }
        let radial = (0..<bins).map { radialCount[$0] > 0 ? radialSum[$0] / Double(radialCount[$0]) : 0 }
        // Robust ring baseline for whitening: the median power of each ring, so that a
        // narrow peak does not raise its own baseline.
        var rings = [[Double]](repeating: [], count: bins)
        for k in 0..<(n * n) where binOf[k] >= 0 { rings[binOf[k]].append(power[0][k]) }
        let ringMedian = rings.map { Median.of($0) }
        var out: [GapStatistic: Double] = [:]
        var xs: [Double] = [], ys: [Double] = []
        for bin in 0..<bins {
            let f = Double(bin) / Double(n)
            if f >= 0.02, f <= 0.45, radial[bin] > 0 {
                xs.append(log10(f))
                ys.append(log10(radial[bin]))
            }
        }
        out[.spectralSlope] = slope(xs, ys)
        var high = 0.0, all = 0.0, chromaBand = 0.0, lumaBand = 0.0
        var peak = 0.0, peakRadius = Double.nan
        for k in 0..<(n * n) {
            let rr = radius[k]
            guard rr <= 0.5 else { continue }
            if rr >= 0.02 {
                all += power[0][k]
                if rr >= 0.25 { high += power[0][k] }
            }
            if rr >= 0.01, rr <= 0.1 {
                lumaBand += power[0][k]
                chromaBand += power[1][k] + power[2][k]
            }
            if rr >= 0.008, rr <= 0.45, binOf[k] >= 0, ringMedian[binOf[k]] > 0 {
                let whitened = power[0][k] / ringMedian[binOf[k]]
                if whitened > peak {
                    peak = whitened
                    peakRadius = rr
                }
            }
        }
        out[.highFrequencyEnergy] = log10(high / all)
        out[.bandChromaToLuma] = log10(chromaBand / lumaBand)
        out[.bandPeakFrequency] = peakRadius
        out[.bandPeakProminence] = log10(peak)
        return out
    }

    /// Least-squares slope of `ys` on `xs`; NaN with fewer than 2 distinct xs.
    static func slope(_ xs: [Double], _ ys: [Double]) -> Double {
        let n = Double(xs.count)
        guard xs.count >= 2 else { return .nan }
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
        }
        return sxx > 0 ? sxy / sxx : .nan
    }

}
