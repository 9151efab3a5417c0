import Foundation
import RialMedia

/// What `moire/2` measures in one tile of the analysis-scale image (`MoireBandImage`).
///
/// Frequencies are in cycles per analysis-scale pixel, `fx >= 0` (a conjugate pair is one
/// band); multiply by `1 / k` for cycles per full-resolution pixel.
struct MoireBandTile: Sendable, Equatable {
    /// Top-left corner at the analysis scale.
    var x: Int
    var y: Int
    /// Luma standard deviation above `flatLumaStd` (a flat tile is not scored).
    var textured: Bool
    /// Largest chroma prominence in the band (0 for a flat tile): the 3 x 3 box sum of the
    /// chroma power at a bin over 9 x the median chroma power of its ring (floored at the
    /// power of `noiseFloorStd` white noise).
    var chromaProminence: Double = 0
    /// The luma prominence at the same bin (same definition on the luma power).
    var lumaProminenceAtPeak: Double = 0
    /// Largest luma prominence anywhere in the band.
    var lumaProminence: Double = 0
    /// The chroma peak's frequency, refined to a fraction of a bin.
    var fx: Double = 0
    var fy: Double = 0
    /// Chroma over luma power at the peak (3 x 3 box sums): > 1 where colour oscillates
    /// more than brightness.
    var chromaLumaRatio: Double = 0
    /// Phase of red and of blue against green at the peak bin, degrees in (-180, 180].
    var phaseRedGreen: Double = 0
    var phaseBlueGreen: Double = 0
    /// Amplitude of the chroma oscillation at the peak, levels: `8 sqrt(P) / n²` of the
    /// 3 x 3 box sum over 1.5² (the periodic Hann main lobe), for C1 and C2 together.
    var chromaAmplitude: Double = 0
}

/// Windowed power spectra of luma and chroma of square analysis-scale tiles, and the
/// strongest chroma band of each (`MoireBandTile`).
///
/// Per tile of `n x n` pixels: luma `Y = 0.299 R + 0.587 G + 0.114 B` (BT.601) and the
/// opponent chroma `C1 = R - G`, `C2 = (R + G) / 2 - B`, each minus its tile mean, times
/// the periodic Hann window `sin²(pi j / n)` in x and y, then the 2D DFT. Chroma uses one
/// complex transform per tile (`C1 + i C2`, so `P_C(k) = |C1(k)|² + |C2(k)|² =
/// (|Z(k)|² + |Z(-k)|²) / 2`); luma one transform per pair of tiles (as `MoireSpectrum`).
///
/// Band bins: half plane (`kx > 0`, or `kx = 0` and `ky > 0`), radial frequency in
/// `bandLow...bandHigh`, and not within `latticeRadius` bins (Chebyshev) of the JPEG
/// block lattice: energy at multiples of 1/8 and 1/16 cycle per full-resolution pixel
/// (the 8 x 8 luma and 16 x 16 subsampled-chroma blocks) lands, after the k x k box
/// reduction, on multiples of `gcd(k, 16) / 16` cycle per analysis pixel.
///
/// Prominence of a bin: `box3(P)(k) / (9 max(median of P over the band bins of its
/// rounded radius, floor))`, `floor` the power of white noise of `noiseFloorStd` levels,
/// `noiseFloorStd² (3 n / 8)²` (the periodic Hann window's `sum w²` is `3 n / 8` per axis),
/// so a chroma-free (gray) or constant tile has prominence 0, not 0 / 0. A sinusoid of
/// amplitude `a` on a bin gives `P = (a n² / 8)²` there and 2.25 x that in the box sum.
///
/// - Complexity: O(tiles x n² log n); memory 6 n² doubles of scratch.
struct MoireBandSpectrum {
    let n: Int
    private let fft: FFT
    private let window: [Double]
    /// Band bins, row-major full-plane indices `ky * n + kx` (`ky` unsigned), grouped by
    /// ring: ring `r` is `bins[ringOffsets[r]..<ringOffsets[r + 1]]`.
    private let bins: [Int32]
    private let ringOffsets: [Int]
    /// `noiseFloorStd² (3 n / 8)²`.
    private let floorPower: Double
    /// The band in bins (radial), squared: the peak refinement stays inside it.
    private let bandBins2: ClosedRange<Double>

    /// - Parameters:
    ///   - n: tile side, a power of two >= 16.
    ///   - bandLow, bandHigh: radial band, cycles per analysis pixel, `0 < low < high <= 0.5`.
    ///   - latticeSpacing: JPEG lattice spacing, cycles per analysis pixel; nil or
    ///     `latticeRadius < 0` keeps every bin.
    init(
        n: Int, bandLow: Double, bandHigh: Double, latticeSpacing: Double?, latticeRadius: Int,
        noiseFloorStd: Double
    ) {
        self.n = n
        fft = FFT(size: n)
        window = (0..<n).map { j in
            let s = sin(Double.pi * Double(j) / Double(n))
            return s * s
        }
        let half = n / 2
        var byRing: [Int: [Int32]] = [:]
        let spacingBins = latticeSpacing.map { $0 * Double(n) } ?? 0
        func onLattice(_ k: Int) -> Bool {
            guard spacingBins >= 1, latticeRadius >= 0 else { return false }
            let q = Double(k) / spacingBins
            return abs(Double(k) - q.rounded() * spacingBins) <= Double(latticeRadius)
        }
        for sy in -(half - 1)...half {
            for kx in 0...half where kx > 0 || sy > 0 {
                let r = Double(kx * kx + sy * sy).squareRoot()
                let f = r / Double(n)
                guard f >= bandLow, f <= bandHigh else { continue }
                if onLattice(kx) && onLattice(sy) { continue }
                let ky = (sy + n) & (n - 1)
                byRing[Int(r.rounded()), default: []].append(Int32(ky * n + kx))
            }
        }
        var bins: [Int32] = []
        var offsets = [0]
        for r in byRing.keys.sorted() {
            bins.append(contentsOf: byRing[r]!)
            offsets.append(bins.count)
        }
        self.bins = bins
        ringOffsets = offsets
        bandBins2 = (bandLow * Double(n) * bandLow * Double(n))...(bandHigh * Double(n) * bandHigh * Double(n))
        let sumW2 = 3 * Double(n) / 8
        floorPower = noiseFloorStd * noiseFloorStd * sumW2 * sumW2
    }

    /// The number of band bins (0 when the band holds none at this tile size).
    var bandBinCount: Int { bins.count }

    /// The measurement of the tiles at `origins` (each inside the image; the caller
    /// places them), one pair of tiles at a time (luma is transformed in pairs, in
    /// `origins`' order), so that a caller can measure the top tiles while the bottom rows
    /// of the analysis-scale image are still being written: the same tiles, the same
    /// values, whenever each pair is measured.
    struct Measurement {
        let spectrum: MoireBandSpectrum
        let origins: [(x: Int, y: Int)]
        let flatLumaStd: Double
        private(set) var tiles: [MoireBandTile] = []
        /// The first tile of the next pair.
        private var pair = 0
        private var lumaRe: [Double], lumaIm: [Double], chromaRe: [Double], chromaIm: [Double]
        private var powerY: [Double], powerC: [Double]
        private var scratch: [Double] = []

        init(_ spectrum: MoireBandSpectrum, origins: [(x: Int, y: Int)], flatLumaStd: Double) {
            self.spectrum = spectrum
            self.origins = origins
            self.flatLumaStd = flatLumaStd
            let nn = spectrum.n * spectrum.n
            lumaRe = [Double](repeating: 0, count: nn)
            (lumaIm, chromaRe, chromaIm, powerY, powerC) = (lumaRe, lumaRe, lumaRe, lumaRe, lumaRe)
            scratch.reserveCapacity(spectrum.bins.count)
            tiles.reserveCapacity(origins.count)
        }

        /// Every tile measured.
        var isComplete: Bool { pair >= origins.count }

        /// The analysis-scale rows the next pair reads are `0..<rowsNeeded` (0 when complete).
        var rowsNeeded: Int {
            guard !isComplete else { return 0 }
            let second = Swift.min(pair + 1, origins.count - 1)
            return Swift.max(origins[pair].y, origins[second].y) + spectrum.n
        }

        /// Measures every pair not yet measured whose rows are among rows
        /// `0..<rowsWritten` of `image` (all of them once every row is written).
        mutating func measurePairs(of image: MoireBandImage, rowsWritten: Int) {
            while !isComplete && rowsNeeded <= rowsWritten { measureNextPair(image) }
        }

        /// Measures the next pair (one tile if it is the last); rows `0..<rowsNeeded` of
        /// `image` must be written.
        mutating func measureNextPair(_ image: MoireBandImage) {
            precondition(!isComplete, "MoireBandSpectrum.Measurement: every tile is measured")
            let s = spectrum
            let second = pair + 1 < origins.count ? pair + 1 : -1
            let texturedA = s.loadLuma(image, origins[pair], into: &lumaRe, flatLumaStd: flatLumaStd)
            var texturedB = false
            if second >= 0 {
                texturedB = s.loadLuma(image, origins[second], into: &lumaIm, flatLumaStd: flatLumaStd)
            } else {
                lumaIm.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
            s.fft.transform2D(re: &lumaRe, im: &lumaIm, sign: -1)
            for (index, textured, isSecond) in [(pair, texturedA, false), (second, texturedB, true)] where index >= 0 {
                var tile = MoireBandTile(x: origins[index].x, y: origins[index].y, textured: textured)
                if textured {
                    s.loadChroma(image, origins[index], re: &chromaRe, im: &chromaIm)
                    s.fft.transform2D(re: &chromaRe, im: &chromaIm, sign: -1)
                    s.measureTile(
                        &tile, lumaRe: lumaRe, lumaIm: lumaIm, secondLuma: isSecond, chromaRe: chromaRe,
                        chromaIm: chromaIm, powerY: &powerY, powerC: &powerC, scratch: &scratch)
                }
                tiles.append(tile)
            }
            pair += 2
        }
    }

    /// Windowed, mean-free luma of one tile into `buffer`; whether its standard
    /// deviation exceeds `flatLumaStd`.
    private func loadLuma(
        _ image: MoireBandImage, _ origin: (x: Int, y: Int), into buffer: inout [Double], flatLumaStd: Double
    ) -> Bool {
        let n = self.n, w = image.width, plane = image.width * image.height
        let red = Double(BT601.red), green = Double(BT601.green), blue = Double(BT601.blue)
        var sum = 0.0, squares = 0.0
        image.planes.withUnsafeBufferPointer { p in
            buffer.withUnsafeMutableBufferPointer { out in
                for y in 0..<n {
                    let row = (origin.y + y) * w + origin.x
                    for x in 0..<n {
                        let i = row + x
                        let v = red * Double(p[i]) + green * Double(p[plane + i]) + blue * Double(p[2 * plane + i])
                        out[y * n + x] = v
                        sum += v
                        squares += v * v
                    }
                }
                let mean = sum / Double(n * n)
                window.withUnsafeBufferPointer { win in
                    for y in 0..<n {
                        let wy = win[y]
                        for x in 0..<n { out[y * n + x] = (out[y * n + x] - mean) * wy * win[x] }
                    }
                }
            }
        }
        let count = Double(n * n)
        let variance = Swift.max(0, squares / count - (sum / count) * (sum / count))
        return variance.squareRoot() > flatLumaStd
    }

    /// Windowed, mean-free `C1` into `re` and `C2` into `im`.
    private func loadChroma(_ image: MoireBandImage, _ origin: (x: Int, y: Int), re: inout [Double], im: inout [Double])
    {
        let n = self.n, w = image.width, plane = image.width * image.height
        var sum1 = 0.0, sum2 = 0.0
        image.planes.withUnsafeBufferPointer { p in
            re.withUnsafeMutableBufferPointer { c1 in
                im.withUnsafeMutableBufferPointer { c2 in
                    for y in 0..<n {
                        let row = (origin.y + y) * w + origin.x
                        for x in 0..<n {
                            let i = row + x
                            let r = Double(p[i]), g = Double(p[plane + i]), b = Double(p[2 * plane + i])
                            let a = r - g, c = 0.5 * (r + g) - b
                            c1[y * n + x] = a
                            c2[y * n + x] = c
                            sum1 += a
                            sum2 += c
                        }
                    }
                    let m1 = sum1 / Double(n * n), m2 = sum2 / Double(n * n)
                    window.withUnsafeBufferPointer { win in
                        for y in 0..<n {
                            let wy = win[y]
                            for x in 0..<n {
                                let wxy = wy * win[x]
                                c1[y * n + x] = (c1[y * n + x] - m1) * wxy
                                c2[y * n + x] = (c2[y * n + x] - m2) * wxy
                            }
                        }
                    }
                }
            }
        }
    }

    /// The chroma peak of one textured tile and the luma at it.
    private func measureTile(
        _ tile: inout MoireBandTile, lumaRe: [Double], lumaIm: [Double], secondLuma: Bool, chromaRe: [Double],
        chromaIm: [Double], powerY: inout [Double], powerC: inout [Double], scratch: inout [Double]
    ) {
        let n = self.n, mask = n - 1
        // Full-plane powers (only the band bins and their 3 x 3 neighbours are read, but a
        // full pass is cheaper than tracking them).
        lumaRe.withUnsafeBufferPointer { lr in
            lumaIm.withUnsafeBufferPointer { li in
                chromaRe.withUnsafeBufferPointer { cr in
                    chromaIm.withUnsafeBufferPointer { ci in
                        powerY.withUnsafeMutableBufferPointer { py in
                            powerC.withUnsafeMutableBufferPointer { pc in
                                for ky in 0..<n {
                                    let my = (n - ky) & mask
                                    for kx in 0..<n {
                                        let mx = (n - kx) & mask
                                        let k = ky * n + kx, m = my * n + mx
                                        let zr = lr[k], zi = li[k], mr = lr[m], mi = li[m]
                                        if secondLuma {
                                            let dr = zr - mr, si = zi + mi
                                            py[k] = (dr * dr + si * si) * 0.25
                                        } else {
                                            let sr = zr + mr, di = zi - mi
                                            py[k] = (sr * sr + di * di) * 0.25
                                        }
                                        pc[k] = (cr[k] * cr[k] + ci[k] * ci[k] + cr[m] * cr[m] + ci[m] * ci[m]) * 0.5
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        func box3(_ p: UnsafeBufferPointer<Double>, _ k: Int) -> Double {
            let kx = k & mask, ky = k / n
            let xl = (kx - 1) & mask, xr = (kx + 1) & mask
            var s = 0.0
            for dy in -1...1 {
                let row = ((ky + dy) & mask) * n
                s += p[row + xl] + p[row + kx] + p[row + xr]
            }
            return s
        }
        var bestC = 0.0, bestCBin = -1, bestCBox = 0.0, bestYAtC = 0.0, bestYBoxAtC = 0.0, bestY = 0.0
        powerY.withUnsafeBufferPointer { py in
            powerC.withUnsafeBufferPointer { pc in
                bins.withUnsafeBufferPointer { b in
                    for r in 0..<(ringOffsets.count - 1) {
                        let start = ringOffsets[r], end = ringOffsets[r + 1]
                        scratch.removeAll(keepingCapacity: true)
                        for i in start..<end { scratch.append(pc[Int(b[i])]) }
                        let levelC = 9 * Swift.max(OrderStatistics.lowerMedian(scratch), floorPower)
                        scratch.removeAll(keepingCapacity: true)
                        for i in start..<end { scratch.append(py[Int(b[i])]) }
                        let levelY = 9 * Swift.max(OrderStatistics.lowerMedian(scratch), floorPower)
                        for i in start..<end {
                            let k = Int(b[i])
                            let boxC = box3(pc, k), boxY = box3(py, k)
                            let promC = boxC / levelC, promY = boxY / levelY
                            if promY > bestY { bestY = promY }
                            if promC > bestC {
                                bestC = promC
                                bestCBin = k
                                bestCBox = boxC
                                bestYAtC = promY
                                bestYBoxAtC = boxY
                            }
                        }
                    }
                }
            }
        }
        tile.lumaProminence = bestY
        guard bestCBin >= 0 else { return }
        tile.chromaProminence = bestC
        tile.lumaProminenceAtPeak = bestYAtC
        tile.chromaLumaRatio = bestYBoxAtC > 0 ? Swift.min(bestCBox / bestYBoxAtC, 1e6) : 1e6
        tile.chromaAmplitude = 8 * (bestCBox / 2.25).squareRoot() / Double(n * n)

        // The box sum can rank a main-lobe neighbour first (its ring's median differs):
        // climb to the local maximum of the chroma power inside the band before refining
        // (outside it, the 1/f slope would lead towards the origin).
        func at(_ x: Int, _ y: Int) -> Double { powerC[((y & mask) * n) + (x & mask)] }
        func inBand(_ x: Int, _ y: Int) -> Bool {
            let sx = x & mask > n / 2 ? (x & mask) - n : x & mask
            let sy = y & mask > n / 2 ? (y & mask) - n : y & mask
            return bandBins2.contains(Double(sx * sx + sy * sy))
        }
        var kx = bestCBin & mask, ky = bestCBin / n
        for _ in 0..<4 {
            var bx = kx, by = ky
            for dy in -1...1 {
                for dx in -1...1 where inBand(kx + dx, ky + dy) && at(kx + dx, ky + dy) > at(bx, by) {
                    bx = (kx + dx) & mask
                    by = (ky + dy) & mask
                }
            }
            if bx == kx && by == ky { break }
            kx = bx
            ky = by
        }
        let sx = kx > n / 2 ? kx - n : kx, sy = ky > n / 2 ? ky - n : ky
        let ox = MoirePeakSearch.parabolicOffset(at(kx - 1, ky), at(kx, ky), at(kx + 1, ky))
        let oy = MoirePeakSearch.parabolicOffset(at(kx, ky - 1), at(kx, ky), at(kx, ky + 1))
        var fx = (Double(sx) + ox) / Double(n), fy = (Double(sy) + oy) / Double(n)
        if fx < 0 || (fx == 0 && fy < 0) {
            fx = -fx
            fy = -fy
        }
        tile.fx = fx
        tile.fy = fy

        // Complex spectra at the peak: C1, C2 from the chroma transform, Y from the luma
        // pair, then R, G, B by inverting Y = G + 0.356 C1 - 0.114 C2, R = G + C1,
        // B = G + C1 / 2 - C2.
        let mx = (n - kx) & mask, my = (n - ky) & mask
        let k = ky * n + kx, m = my * n + mx
        let c1 = (re: (chromaRe[k] + chromaRe[m]) / 2, im: (chromaIm[k] - chromaIm[m]) / 2)
        let c2 = (re: (chromaIm[k] + chromaIm[m]) / 2, im: -(chromaRe[k] - chromaRe[m]) / 2)
        let y =
            secondLuma
            ? (re: (lumaIm[k] + lumaIm[m]) / 2, im: -(lumaRe[k] - lumaRe[m]) / 2)
            : (re: (lumaRe[k] + lumaRe[m]) / 2, im: (lumaIm[k] - lumaIm[m]) / 2)
        let a = 0.299 + 0.114 / 2, b = 0.114
        let g = (re: y.re - a * c1.re + b * c2.re, im: y.im - a * c1.im + b * c2.im)
        let red = (re: g.re + c1.re, im: g.im + c1.im)
        let blue = (re: g.re + c1.re / 2 - c2.re, im: g.im + c1.im / 2 - c2.im)
        func phase(_ u: (re: Double, im: Double), against v: (re: Double, im: Double)) -> Double {
            // arg(u conj v)
            let re = u.re * v.re + u.im * v.im, im = u.im * v.re - u.re * v.im
            return re == 0 && im == 0 ? 0 : atan2(im, re) * 180 / Double.pi
        }
        tile.phaseRedGreen = phase(red, against: g)
        tile.phaseBlueGreen = phase(blue, against: g)
    }
}
