import Foundation
import RialMedia

/// The three measurements of `artifacts/2` (see `ArtifactAnalyzerV2`), on contiguous
/// buffers allocated once per analysis.
enum ArtifactCuesV2 {
    /// BT.601 luma of the reduced planes, `width * height` values, 0...255.
    static func luma(_ image: MoireBandImage) -> [Float] {
        let plane = image.width * image.height
        var out = [Float](repeating: 0, count: plane)
        image.planes.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<plane {
                    o[i] = 0.299 * p[i] + 0.587 * p[plane + i] + 0.114 * p[2 * plane + i]
                }
            }
        }
        return out
    }

    static func rowMeans(_ luma: [Float], width w: Int, height h: Int) -> [Double] {
        var out = [Double](repeating: 0, count: h)
        luma.withUnsafeBufferPointer { l in
            for y in 0..<h {
                var s = 0.0
                for x in 0..<w { s += Double(l[y * w + x]) }
                out[y] = s / Double(w)
            }
        }
        return out
    }

    static func columnMeans(_ luma: [Float], width w: Int, height h: Int) -> [Double] {
        var out = [Double](repeating: 0, count: w)
        luma.withUnsafeBufferPointer { l in
            for y in 0..<h {
                for x in 0..<w { out[x] += Double(l[y * w + x]) }
            }
        }
        for x in 0..<w { out[x] /= Double(h) }
        return out
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

    /// Population variance of `luma` minus its `box x box` mean (edges repeat).
    static func detailVariance(_ luma: [Float], width w: Int, height h: Int, box: Int) -> Double {
        let r = box / 2
        var horizontal = [Float](repeating: 0, count: w * h)
        var padded = [Float](repeating: 0, count: w + 2 * r + 1)
        luma.withUnsafeBufferPointer { l in
            horizontal.withUnsafeMutableBufferPointer { hz in
                padded.withUnsafeMutableBufferPointer { prefix in
                    for y in 0..<h {
                        let row = y * w
                        prefix[0] = 0
                        for i in 0..<(w + 2 * r) {
                            prefix[i + 1] = prefix[i] + l[row + Swift.min(w - 1, Swift.max(0, i - r))]
                        }
                        let scale = 1 / Float(box)
                        for x in 0..<w { hz[row + x] = (prefix[x + 2 * r + 1] - prefix[x]) * scale }
                    }
                }
            }
        }
        // Vertical pass with running column sums; accumulate the residual's moments.
        var columnSum = [Double](repeating: 0, count: w)
        var sum = 0.0, sumSquares = 0.0
        let scale = 1 / Double(box)
        luma.withUnsafeBufferPointer { l in
            horizontal.withUnsafeBufferPointer { hz in
                columnSum.withUnsafeMutableBufferPointer { cs in
                    for j in -r...r {
                        let row = Swift.min(h - 1, Swift.max(0, j)) * w
                        for x in 0..<w { cs[x] += Double(hz[row + x]) }
                    }
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            let d = Double(l[row + x]) - cs[x] * scale
                            sum += d
                            sumSquares += d * d
                        }
                        let add = Swift.min(h - 1, y + r + 1) * w, drop = Swift.max(0, y - r) * w
                        for x in 0..<w { cs[x] += Double(hz[add + x]) - Double(hz[drop + x]) }
                    }
                }
            }
        }
        let n = Double(w * h)
        let mean = sum / n
        return Swift.max(0, sumSquares / n - mean * mean)
    }

    /// `(ring mean + offset) / (centre mean + offset)` (see `Configuration.surroundMargin`).
    static func surroundRatio(
        _ luma: [Float], width w: Int, height h: Int, configuration c: ArtifactAnalyzerV2.Configuration
    ) -> Double {
        let mh = Swift.max(1, Int(Double(h) * c.surroundMargin)), mw = Swift.max(1, Int(Double(w) * c.surroundMargin))
        let cy = Int(Double(h) * (1 - c.surroundCentre) / 2), cx = Int(Double(w) * (1 - c.surroundCentre) / 2)
        var ring = 0.0, ringCount = 0, centre = 0.0, centreCount = 0
        luma.withUnsafeBufferPointer { l in
            for y in 0..<h {
                let inY = y >= mh && y < h - mh
                let centreY = y >= cy && y < h - cy
                for x in 0..<w {
                    let v = Double(l[y * w + x])
                    if !(inY && x >= mw && x < w - mw) {
                        ring += v
                        ringCount += 1
                    }
                    if centreY && x >= cx && x < w - cx {
                        centre += v
                        centreCount += 1
                    }
                }
            }
        }
        let ringMean = ringCount > 0 ? ring / Double(ringCount) : 0
        let centreMean = centreCount > 0 ? centre / Double(centreCount) : ringMean
        return (ringMean + c.surroundOffset) / (centreMean + c.surroundOffset)
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
