import Foundation
import RialMedia

/// The three measurements of `artifacts/2` (see `ArtifactAnalyzerV2`), on contiguous
/// buffers allocated once per analysis.
enum ArtifactCuesV2 {
    /// The banding profiles, the detail variance, the surround ratio and the luma range
    /// of the analysis-scale image, accumulated one block row at a time as the shared
    /// reduction (`MoireBandFrame`) writes them, so that the work runs while the photo
    /// still decodes instead of after its last row (docs/end-to-end-latency.md). Every
    /// sum is added in the order a pass over the finished image adds it (rows top to
    /// bottom, left to right within a row; the detail variance's vertical box
    /// `detail_box / 2 + 1` rows behind the newest row), so the values do not depend on
    /// when the rows arrive.
    ///
    /// - Complexity: O(w) per row, O(w h) floats of memory (luma and its horizontal box
    ///   mean).
    final class LumaCues {
        let width: Int
        let height: Int
        /// Half the detail box.
        private let radius: Int
        /// BT.601 luma of the reduced planes, 0...255, rows `0..<rowsAdded` written.
        private var luma: [Float]
        /// `luma`'s horizontal `detail_box` mean (edges repeat).
        private var horizontal: [Float]
        private var prefix: [Float]
        private(set) var rowsAdded = 0
        private(set) var lowest = Float.infinity
        private(set) var highest = -Float.infinity
        /// Each row's mean luma.
        private var rowMeans: [Double]
        /// Each column's luma sum so far.
        private var columnSums: [Double]
        // The detail variance's vertical pass: column sums of `horizontal` over the box
        // around `nextDetailRow`, and the residual's moments up to it.
        private var boxColumns: [Double]
        private var boxStarted = false
        private var nextDetailRow = 0
        private var detailSum = 0.0
        private var detailSquares = 0.0
        // The surround's ring and centre.
        private let marginRows: Int, marginColumns: Int, centreRow: Int, centreColumn: Int
        private var ring = 0.0, ringCount = 0, centre = 0.0, centreCount = 0

        init(width w: Int, height h: Int, configuration c: ArtifactAnalyzerV2.Configuration) {
            precondition(w > 0 && h > 0, "LumaCues: empty image (the caller reports it)")
            width = w
            height = h
            radius = c.detailBox / 2
            luma = [Float](repeating: 0, count: w * h)
            horizontal = luma
            prefix = [Float](repeating: 0, count: w + 2 * radius + 1)
            rowMeans = [Double](repeating: 0, count: h)
            columnSums = [Double](repeating: 0, count: w)
            boxColumns = columnSums
            marginRows = Swift.max(1, Int(Double(h) * c.surroundMargin))
            marginColumns = Swift.max(1, Int(Double(w) * c.surroundMargin))
            centreRow = Int(Double(h) * (1 - c.surroundCentre) / 2)
            centreColumn = Int(Double(w) * (1 - c.surroundCentre) / 2)
        }

        /// Adds row `rowsAdded` of the planar red, green, blue `planes` (`width x height`
        /// each, as `MoireBandImage.planes`).
        func addRow(of planes: UnsafeBufferPointer<Float>) {
            let w = width, h = height, y = rowsAdded, plane = w * h, row = y * w, r = radius
            precondition(y < h && planes.count >= 3 * plane, "LumaCues: no row left, or planes too small")
            var lo = lowest, hi = highest, rowSum = 0.0
            var ringSum = ring, ringN = ringCount, centreSum = centre, centreN = centreCount
            let inY = y >= marginRows && y < h - marginRows
            let centreY = y >= centreRow && y < h - centreRow
            let mw = marginColumns, cx = centreColumn
            luma.withUnsafeMutableBufferPointer { l in
                columnSums.withUnsafeMutableBufferPointer { columns in
                    for x in 0..<w {
                        let v =
                            0.299 * planes[row + x] + 0.587 * planes[plane + row + x] + 0.114
                            * planes[2 * plane + row + x]
                        l[row + x] = v
                        lo = Swift.min(lo, v)
                        hi = Swift.max(hi, v)
                        let value = Double(v)
                        rowSum += value
                        columns[x] += value
                        if !(inY && x >= mw && x < w - mw) {
                            ringSum += value
                            ringN += 1
                        }
                        if centreY && x >= cx && x < w - cx {
                            centreSum += value
                            centreN += 1
                        }
                    }
                }
                horizontal.withUnsafeMutableBufferPointer { hz in
                    prefix.withUnsafeMutableBufferPointer { prefix in
                        prefix[0] = 0
                        for i in 0..<(w + 2 * r) {
                            prefix[i + 1] = prefix[i] + l[row + Swift.min(w - 1, Swift.max(0, i - r))]
                        }
                        let scale = 1 / Float(2 * r + 1)
                        for x in 0..<w { hz[row + x] = (prefix[x + 2 * r + 1] - prefix[x]) * scale }
                    }
                }
            }
            lowest = lo
            highest = hi
            ring = ringSum
            ringCount = ringN
            centre = centreSum
            centreCount = centreN
            rowMeans[y] = rowSum / Double(w)
            rowsAdded = y + 1
            advanceDetail()
        }

        /// The vertical box pass over every row whose box (and the next row's) is
        /// complete: output row `y` needs `horizontal` rows up to `min(h - 1, y + r + 1)`.
        private func advanceDetail() {
            let w = width, h = height, r = radius, available = rowsAdded
            let scale = 1 / Double(2 * r + 1)
            var y = nextDetailRow, sum = detailSum, squares = detailSquares
            let started = boxStarted || Swift.min(h - 1, r) < available
            guard started else { return }
            luma.withUnsafeBufferPointer { l in
                horizontal.withUnsafeBufferPointer { hz in
                    boxColumns.withUnsafeMutableBufferPointer { cs in
                        if !boxStarted {
                            for j in -r...r {
                                let row = Swift.min(h - 1, Swift.max(0, j)) * w
                                for x in 0..<w { cs[x] += Double(hz[row + x]) }
                            }
                        }
                        while y < h && Swift.min(h - 1, y + r + 1) < available {
                            let row = y * w
                            for x in 0..<w {
                                let d = Double(l[row + x]) - cs[x] * scale
                                sum += d
                                squares += d * d
                            }
                            let add = Swift.min(h - 1, y + r + 1) * w, drop = Swift.max(0, y - r) * w
                            for x in 0..<w { cs[x] += Double(hz[add + x]) - Double(hz[drop + x]) }
                            y += 1
                        }
                    }
                }
            }
            boxStarted = true
            nextDetailRow = y
            detailSum = sum
            detailSquares = squares
        }

        /// Whether every row has been added.
        var isComplete: Bool { rowsAdded == height }

        /// Population variance of luma minus its `detail_box x detail_box` mean (edges
        /// repeat). - Precondition: `isComplete`.
        var detailVariance: Double {
            precondition(isComplete && nextDetailRow == height, "LumaCues: rows missing")
            let n = Double(width * height)
            let mean = detailSum / n
            return Swift.max(0, detailSquares / n - mean * mean)
        }

        /// Each row's mean luma, top to bottom. - Precondition: `isComplete`.
        var rowProfile: [Double] {
            precondition(isComplete, "LumaCues: rows missing")
            return rowMeans
        }

        /// Each column's mean luma, left to right. - Precondition: `isComplete`.
        var columnProfile: [Double] {
            precondition(isComplete, "LumaCues: rows missing")
            return columnSums.map { $0 / Double(height) }
        }

        /// `(ring mean + offset) / (centre mean + offset)` (see
        /// `Configuration.surroundMargin`). - Precondition: `isComplete`.
        func surroundRatio(offset: Double) -> Double {
            precondition(isComplete, "LumaCues: rows missing")
            let ringMean = ringCount > 0 ? ring / Double(ringCount) : 0
            let centreMean = centreCount > 0 ? centre / Double(centreCount) : ringMean
            return (ringMean + offset) / (centreMean + offset)
        }
    }

    /// Moving average of `p` over `window` (odd) samples, edges repeating the end sample.
    static func movingAverage(_ p: [Double], window: Int) -> [Double] {
        let n = p.count, r = window / 2
        guard n > 0 else { return [] }
        // Prefix sums of the edge-padded profile: index i of the padding is p[clamp(i - r)].
        var prefix = [Double](repeating: 0, count: n + 2 * r + 1)
        for i in 0..<(n + 2 * r) {
            prefix[i + 1] = prefix[i] + p[Swift.min(n - 1, Swift.max(0, i - r))]
        }
        return (0..<n).map { (prefix[$0 + 2 * r + 1] - prefix[$0]) / Double(window) }
    }

    /// Variance of the detrended profile (population) and the period, in samples, of
    /// its strongest component among periods `banding_min_period ... n / 4` (Hann
    /// window, direct DFT; 0 when no frequency lies in that range).
    static func banding(_ p: [Double], configuration c: ArtifactAnalyzerV2.Configuration) -> (
        variance: Double, period: Double
    ) {
        let n = p.count
        guard n >= 2 else { return (0, 0) }
        let window = Swift.max(c.bandingMinWindow, n / c.bandingTrendDivisor) | 1
        let trend = movingAverage(p, window: window)
        var residual = [Double](repeating: 0, count: n)
        var mean = 0.0
        for i in 0..<n {
            residual[i] = p[i] - trend[i]
            mean += residual[i]
        }
        mean /= Double(n)
        var variance = 0.0
        for v in residual { variance += (v - mean) * (v - mean) }
        variance /= Double(n)

        let hann = ArtifactSpectrum.hann(n)
        for i in 0..<n { residual[i] *= hann[i] }
        // Periods n / 4 (frequency 4) down to `banding_min_period`; cosines from one table.
        let lowest = 4, highest = Int((Double(n) / c.bandingMinPeriod).rounded(.down))
        var best = 0.0, bestFrequency = 0
        if lowest <= highest {
            let table = (0..<n).map { 2 * Double.pi * Double($0) / Double(n) }
            let cosines = table.map { cos($0) }, sines = table.map { sin($0) }
            for f in lowest...highest {
                var re = 0.0, im = 0.0, m = 0
                for j in 0..<n {
                    re += residual[j] * cosines[m]
                    im -= residual[j] * sines[m]
                    m += f
                    if m >= n { m -= n }
                }
                let power = re * re + im * im
                if power > best {
                    best = power
                    bestFrequency = f
                }
            }
        }
        return (variance, bestFrequency > 0 ? Double(n) / Double(bestFrequency) : 0)
    }

    /// The configured tile side, halved until it fits in both dimensions (>= 1).
    static func detailTileSide(width: Int, height: Int, wanted: Int) -> Int {
        var t = wanted
        while t > Swift.min(width, height) && t > 1 { t /= 2 }
        return t
    }

    /// Share of the centre tile's power (radial frequency > `detail_floor_frequency`)
    /// in the band of periods `detail_min_period ... detail_max_period`, axes and JPEG
    /// lattice left out of the band; 0 when the tile has no power.
    static func fineDetailShare(
        _ image: ImageRows, tile t: Int, configuration c: ArtifactAnalyzerV2.Configuration
    ) -> Double {
        guard t >= 2 else { return 0 }
        let x0 = (image.width - t) / 2, y0 = (image.height - t) / 2
        image.waitForRows(y0 + t)
        var re = [Double](repeating: 0, count: t * t), im = re
        let channels = image.channels, stride = image.rowStride
        var mean = 0.0
        re.withUnsafeMutableBufferPointer { out in
            let s = image.samples
            for y in 0..<t {
                var p = (y0 + y) * stride + x0 * channels
                for x in 0..<t {
                    let v =
                        channels >= 3
                        ? 0.299 * Double(s[p]) + 0.587 * Double(s[p + 1]) + 0.114 * Double(s[p + 2])
                        : Double(s[p])
                    out[y * t + x] = v
                    mean += v
                    p += channels
                }
            }
            mean /= Double(t * t)
            let hann = ArtifactSpectrum.hann(t)
            for y in 0..<t {
                for x in 0..<t { out[y * t + x] = (out[y * t + x] - mean) * hann[y] * hann[x] }
            }
        }
        FFT(size: t).transform2D(re: &re, im: &im, sign: -1)
        let low = 1 / c.detailMaxPeriod, high = 1 / c.detailMinPeriod
        let latticeStep = Double(t) / 8
        func onLattice(_ f: Int) -> Bool {
            guard c.jpegLatticeRadius >= 0 else { return false }
            let q = Double(f) / latticeStep
            return abs(q - q.rounded()) * latticeStep <= Double(c.jpegLatticeRadius)
        }
        var band = 0.0, total = 0.0
        for ky in 0..<t {
            let fy = ky < t / 2 ? ky : ky - t
            let yLattice = onLattice(fy)
            for kx in 0..<t {
                let fx = kx < t / 2 ? kx : kx - t
                let r = Double(fy * fy + fx * fx).squareRoot() / Double(t)
                guard r > c.detailFloorFrequency else { continue }
                let power = re[ky * t + kx] * re[ky * t + kx] + im[ky * t + kx] * im[ky * t + kx]
                total += power
                guard r >= low, r <= high, abs(fy) > 1, abs(fx) > 1 else { continue }
                if yLattice && onLattice(fx) { continue }
                band += power
            }
        }
        return total > 0 ? band / total : 0
    }
}
