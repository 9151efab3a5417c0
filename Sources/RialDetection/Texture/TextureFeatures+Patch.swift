import Foundation
import RialMedia

/// Sums over all patches of one image, turned into features by `features()`.
struct PatchAccumulator {
    static let bands = TextureFeatures.bandEdgeBins.count
    static let radii = TextureFeatures.lbpRadii.count

    /// LBP code counts, 10 per radius.
    var lbpCounts = [Int](repeating: 0, count: 10 * radii)
    var sumGx2 = 0.0, sumGy2 = 0.0, sumG4 = 0.0, sumL2 = 0.0
    var gradientCount = 0
    var hpRG = 0.0, hpGB = 0.0, hpRB = 0.0, hpRR = 0.0, hpGG = 0.0, hpBB = 0.0
    var hpChroma = 0.0, hpLuma = 0.0
    var lumaBandPower = [Double](repeating: 0, count: bands)
    var chromaBandPower = [Double](repeating: 0, count: bands)
    var lumaPeakSum = [Double](repeating: 0, count: bands)
    var lumaPeakMax = [Double](repeating: 0, count: bands)
    var chromaPeakMax = [Double](repeating: 0, count: bands)
    var patches = 0

    static let powerEpsilon = 1.0
    static let gradientEpsilon = 1e-6

    /// The features in `TextureFeatures.names` order.
    func features() -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(TextureFeatures.count)
        for r in 0..<Self.radii {
            let total = (0..<10).reduce(0) { $0 + lbpCounts[r * 10 + $1] }
            for code in 0..<10 { out.append(total > 0 ? Double(lbpCounts[r * 10 + code]) / Double(total) : 0) }
        }
        let e = Self.gradientEpsilon
        let g2 = sumGx2 + sumGy2
        out.append(log((sumGx2 + e) / (sumGy2 + e)))
        out.append(g2 > 0 ? log(Double(gradientCount) * sumG4 / (g2 * g2)) : 0)
        out.append(log((sumL2 + e) / (g2 + e)))
        func correlation(_ ab: Double, _ aa: Double, _ bb: Double) -> Double {
            aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
        }
        out.append(correlation(hpRG, hpRR, hpGG))
        out.append(correlation(hpGB, hpGG, hpBB))
        out.append(correlation(hpRB, hpRR, hpBB))
        out.append(log((hpChroma + e) / (hpLuma + e)))

        let p = Self.powerEpsilon
        let lumaTotal = lumaBandPower.reduce(0, +)
        for b in 0..<Self.bands {
            out.append(log((lumaTotal > 0 ? lumaBandPower[b] / lumaTotal : 0) + 1e-6))
        }
        for b in 0..<Self.bands { out.append(patches > 0 ? lumaPeakSum[b] / Double(patches) : 0) }
        for b in 0..<Self.bands { out.append(lumaPeakMax[b]) }
        for b in 0..<Self.bands { out.append(log((chromaBandPower[b] + p) / (lumaBandPower[b] + p))) }
        for b in 0..<Self.bands { out.append(chromaPeakMax[b]) }
        return out
    }
}

/// Scratch buffers for one 64 x 64 patch, reused across the patches of an image.
struct PatchWorkspace {
    static let n = TextureFeatures.patchSize
    var red = [Float](repeating: 0, count: n * n)
    var green = [Float](repeating: 0, count: n * n)
    var blue = [Float](repeating: 0, count: n * n)
    var luma = [Float](repeating: 0, count: n * n)
    var re = [Double](repeating: 0, count: n * n)
    var im = [Double](repeating: 0, count: n * n)

    /// Copies the patch at `(x0, y0)` out of interleaved samples and computes its luma.
    mutating func load(_ samples: UnsafeBufferPointer<UInt8>, width: Int, channels: Int, x0: Int, y0: Int) {
        let n = Self.n
        red.withUnsafeMutableBufferPointer { r in
            green.withUnsafeMutableBufferPointer { g in
                blue.withUnsafeMutableBufferPointer { b in
                    luma.withUnsafeMutableBufferPointer { y in
                        for row in 0..<n {
                            var s = ((y0 + row) * width + x0) * channels
                            for column in 0..<n {
                                let i = row * n + column
                                let rv = Float(samples[s]), gv = Float(samples[s + 1]), bv = Float(samples[s + 2])
                                r[i] = rv
                                g[i] = gv
                                b[i] = bv
                                y[i] = BT601.red * rv + BT601.green * gv + BT601.blue * bv
                                s += channels
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds this patch's LBP, gradient, high-pass and spectral sums to `a`.
    mutating func accumulate(into a: inout PatchAccumulator) {
        a.patches += 1
        luma.withUnsafeBufferPointer { y in
            Self.localBinaryPatterns(y, into: &a)
            Self.gradients(y, into: &a)
        }
        red.withUnsafeBufferPointer { r in
            green.withUnsafeBufferPointer { g in
                blue.withUnsafeBufferPointer { b in
                    Self.highPass(r, g, b, into: &a)
                }
            }
        }
        spectra(into: &a)
    }

    /// LBP riu2 codes at every radius over the pixels whose neighbourhood is inside.
    static func localBinaryPatterns(_ y: UnsafeBufferPointer<Float>, into a: inout PatchAccumulator) {
        let n = Self.n
        let threshold = TextureFeatures.lbpThreshold
        TextureFeatures.riu2Code.withUnsafeBufferPointer { code in
            for (ri, r) in TextureFeatures.lbpRadii.enumerated() {
                // Circular order: E, SE, S, SW, W, NW, N, NE (image rows grow downwards).
                let o0 = r, o1 = r * n + r, o2 = r * n, o3 = r * n - r
                let o4 = -r, o5 = -r * n - r, o6 = -r * n, o7 = -r * n + r
                var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &counts) { raw in
                    let c = raw.bindMemory(to: Int.self)
                    for row in r..<(n - r) {
                        for column in r..<(n - r) {
                            let i = row * n + column
                            let t = y[i] + threshold
                            var p = 0
                            if y[i + o0] > t { p |= 1 }
                            if y[i + o1] > t { p |= 2 }
                            if y[i + o2] > t { p |= 4 }
                            if y[i + o3] > t { p |= 8 }
                            if y[i + o4] > t { p |= 16 }
                            if y[i + o5] > t { p |= 32 }
                            if y[i + o6] > t { p |= 64 }
                            if y[i + o7] > t { p |= 128 }
                            c[Int(code[p])] += 1
                        }
                    }
                    for k in 0..<10 { a.lbpCounts[ri * 10 + k] += c[k] }
                }
            }
        }
    }

    /// Central-difference gradients and the 5-point Laplacian over the interior.
    static func gradients(_ y: UnsafeBufferPointer<Float>, into a: inout PatchAccumulator) {
        let n = Self.n
        var sx = 0.0, sy = 0.0, s4 = 0.0, sl = 0.0
        for row in 1..<(n - 1) {
            var rx: Float = 0, ry: Float = 0, r4: Float = 0, rl: Float = 0
            for column in 1..<(n - 1) {
                let i = row * n + column
                let gx = (y[i + 1] - y[i - 1]) * 0.5
                let gy = (y[i + n] - y[i - n]) * 0.5
                let l = y[i + 1] + y[i - 1] + y[i + n] + y[i - n] - 4 * y[i]
                let g2 = gx * gx + gy * gy
                rx += gx * gx
                ry += gy * gy
                r4 += g2 * g2
                rl += l * l
            }
            sx += Double(rx)
            sy += Double(ry)
            s4 += Double(r4)
            sl += Double(rl)
        }
        a.sumGx2 += sx
        a.sumGy2 += sy
        a.sumG4 += s4
        a.sumL2 += sl
        a.gradientCount += (n - 2) * (n - 2)
    }

    /// Per-channel high-pass `c - mean(4 neighbours)`: cross products and chroma energy.
    static func highPass(
        _ r: UnsafeBufferPointer<Float>, _ g: UnsafeBufferPointer<Float>,
        _ b: UnsafeBufferPointer<Float>, into a: inout PatchAccumulator
    ) {
        let n = Self.n
        @inline(__always) func hp(_ p: UnsafeBufferPointer<Float>, _ i: Int) -> Float {
            p[i] - 0.25 * (p[i + 1] + p[i - 1] + p[i + n] + p[i - n])
        }
        var rg = 0.0, gb = 0.0, rb = 0.0, rr = 0.0, gg = 0.0, bb = 0.0, chroma = 0.0, lumaEnergy = 0.0
        for row in 1..<(n - 1) {
            var srg: Float = 0, sgb: Float = 0, srb: Float = 0, srr: Float = 0, sgg: Float = 0, sbb: Float = 0
            var sc: Float = 0, sy: Float = 0
            for column in 1..<(n - 1) {
                let i = row * n + column
                let hr = hp(r, i), hg = hp(g, i), hb = hp(b, i)
                let hy = BT601.red * hr + BT601.green * hg + BT601.blue * hb
                srg += hr * hg
                sgb += hg * hb
                srb += hr * hb
                srr += hr * hr
                sgg += hg * hg
                sbb += hb * hb
                let cr = hr - hy, cb = hb - hy
                sc += cr * cr + cb * cb
                sy += hy * hy
            }
            rg += Double(srg)
            gb += Double(sgb)
            rb += Double(srb)
            rr += Double(srr)
            gg += Double(sgg)
            bb += Double(sbb)
            chroma += Double(sc)
            lumaEnergy += Double(sy)
        }
        a.hpRG += rg
        a.hpGB += gb
        a.hpRB += rb
        a.hpRR += rr
        a.hpGG += gg
        a.hpBB += bb
        a.hpChroma += chroma
        a.hpLuma += lumaEnergy
    }

    /// Windowed luma and chroma spectra: band powers and peak ratios.
    mutating func spectra(into a: inout PatchAccumulator) {
        let n = Self.n, count = n * n
        let bands = PatchAccumulator.bands
        let red = self.red, blue = self.blue, luma = self.luma
        // Means in Double: a constant patch then has exactly zero deviations.
        var lumaSum = 0.0, crSum = 0.0, cbSum = 0.0
        for i in 0..<count {
            lumaSum += Double(luma[i])
            crSum += Double(red[i] - luma[i])
            cbSum += Double(blue[i] - luma[i])
        }
        let lumaMean = lumaSum / Double(count), crMean = crSum / Double(count), cbMean = cbSum / Double(count)
        let window = TextureFeatures.hann

        // Luma: real input.
        re.withUnsafeMutableBufferPointer { re in
            im.withUnsafeMutableBufferPointer { im in
                luma.withUnsafeBufferPointer { y in
                    for row in 0..<n {
                        for column in 0..<n {
                            let i = row * n + column
                            re[i] = (Double(y[i]) - lumaMean) * window[row] * window[column]
                            im[i] = 0
                        }
                    }
                }
            }
        }
        TextureFeatures.fft.transform2D(re: &re, im: &im, sign: -1)
        var power = [Double](repeating: 0, count: bands), peak = [Double](repeating: 0, count: bands)
        var offLattice = [Double](repeating: 0, count: bands)
        Self.bandStatistics(re: re, im: im, symmetrise: false, power: &power, peak: &peak, offLattice: &offLattice)
        for b in 0..<bands {
            a.lumaBandPower[b] += power[b]
            let ratio = Self.peakRatio(peak[b], offLattice[b], bins: TextureFeatures.peakBinCounts[b])
            a.lumaPeakSum[b] += ratio
            a.lumaPeakMax[b] = Swift.max(a.lumaPeakMax[b], ratio)
        }

        // Chroma: (R - Y) + i (B - Y) in one complex transform.
        re.withUnsafeMutableBufferPointer { re in
            im.withUnsafeMutableBufferPointer { im in
                for row in 0..<n {
                    for column in 0..<n {
                        let i = row * n + column
                        let w = window[row] * window[column]
                        re[i] = (Double(red[i] - luma[i]) - crMean) * w
                        im[i] = (Double(blue[i] - luma[i]) - cbMean) * w
                    }
                }
            }
        }
        TextureFeatures.fft.transform2D(re: &re, im: &im, sign: -1)
        Self.bandStatistics(re: re, im: im, symmetrise: true, power: &power, peak: &peak, offLattice: &offLattice)
        for b in 0..<bands {
            a.chromaBandPower[b] += power[b]
            let ratio = Self.peakRatio(peak[b], offLattice[b], bins: TextureFeatures.peakBinCounts[b])
            a.chromaPeakMax[b] = Swift.max(a.chromaPeakMax[b], ratio)
        }
    }

    /// `ln((max + ε) / (mean + ε))` of a band.
    static func peakRatio(_ peak: Double, _ sum: Double, bins: Int) -> Double {
        guard bins > 0 else { return 0 }
        let e = PatchAccumulator.powerEpsilon
        return log((peak + e) / (sum / Double(bins) + e))
    }

    /// Per band: total power, and the maximum and sum of the bins off the JPEG block
    /// lattice. With `symmetrise`, the power of bin k is `(|Z[k]|² + |Z[-k]|²) / 2`: the
    /// summed power spectra of the real and imaginary inputs of one complex transform.
    static func bandStatistics(
        re: [Double], im: [Double], symmetrise: Bool,
        power: inout [Double], peak: inout [Double], offLattice: inout [Double]
    ) {
        let n = Self.n
        for b in power.indices {
            power[b] = 0
            peak[b] = 0
            offLattice[b] = 0
        }
        TextureFeatures.bandOfBin.withUnsafeBufferPointer { band in
            TextureFeatures.isBlockLatticeBin.withUnsafeBufferPointer { lattice in
                re.withUnsafeBufferPointer { re in
                    im.withUnsafeBufferPointer { im in
                        for row in 0..<n {
                            let mirrorRow = (n - row) & (n - 1)
                            for column in 0..<n {
                                let i = row * n + column
                                let b = Int(band[i])
                                guard b >= 0 else { continue }
                                var p = re[i] * re[i] + im[i] * im[i]
                                if symmetrise {
                                    let j = mirrorRow * n + ((n - column) & (n - 1))
                                    p = 0.5 * (p + re[j] * re[j] + im[j] * im[j])
                                }
                                power[b] += p
                                if !lattice[i] {
                                    offLattice[b] += p
                                    if p > peak[b] { peak[b] = p }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The strided global luma sample: how much the frame varies at all.
enum GlobalSample {
    /// Standard deviation of BT.601 luma (levels) over pixels `(stride/2 + i stride,
    /// stride/2 + j stride)`, `stride = max(1, max(W, H) / 192)`.
    static func lumaStandardDeviation(
        _ samples: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        channels: Int
    ) -> Double {
        let stride = Swift.max(1, Swift.max(width, height) / TextureFeatures.globalSampleDivisor)
        var count = 0.0, sum = 0.0, squares = 0.0
        var y = stride / 2
        while y < height {
            var x = stride / 2
            while x < width {
                let s = (y * width + x) * channels
                let luma =
                    Double(BT601.red) * Double(samples[s]) + Double(BT601.green) * Double(samples[s + 1])
                    + Double(BT601.blue) * Double(samples[s + 2])
                sum += luma
                squares += luma * luma
                count += 1
                x += stride
            }
            y += stride
        }
        let mean = sum / count
        return Swift.max(0, squares / count - mean * mean).squareRoot()
    }
}
