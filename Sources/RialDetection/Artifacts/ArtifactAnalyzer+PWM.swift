import Foundation
import RialMedia

extension ArtifactAnalyzer {
    /// What the banding detector measured.
    struct BandingMeasurement: Equatable {
        /// 0...1.
        var confidence: Double
        /// Period of the best peak, rows; nil when the spectrum has no local maximum.
        var periodRows: Double?
        var peakRatio: Double
        var coherence: Double
    }

    /// PWM / refresh banding: a rolling shutter reads row y at `t0 + y * row_time`, so a
    /// display whose light is modulated at f Hz is recorded with horizontal bands of
    /// period `1 / (f * row_time)` rows, identical in every column of the display.
    ///
    /// 1. The columns (sampled with stride `max(1, width / pwm_column_samples)`) are split
    ///    into `K = pwm_strips` vertical strips; each strip gives a row-mean BT.601 luma
    ///    profile `p_k(y)`.
    /// 2. Detrend to relative modulation: `r_k = p_k / MA(p_k) - 1`, MA a moving average
    ///    (reflected ends) over `W = height * pwm_max_period_fraction` rows.
    /// 3. Hann window over the height, zero-padded to `n = 2 * nextPow2(height)`, FFT
    ///    (two strips per complex transform): spectra `F_k(i)`.
    /// 4. For each local maximum `i` of the coherent power `C(i) = |sum_k F_k(i)|^2`
    ///    with period `n / i` in `[pwm_min_period_rows, W]`:
    ///    `ratio = C(i) / median C(j)` over `j` in `[i / s, i s]`, `|j - i| > 4`
    ///    (`s = pwm_floor_span`), and `coherence = C(i) / (K sum_k |F_k(i)|^2)`.
    ///    Bands are in phase in every strip over the display (coherence near 1); scene
    ///    content and moire are not (about 1/K).
    /// 5. Statistic `ratio * coherence`, maximised over `i`; the period is refined by a
    ///    parabola through the three bins around the peak. Confidence: logistic in log
    ///    space around `pwm_midpoint`.
    ///
    /// Unavailable when the image has fewer than `pwm_min_rows` rows.
    /// - Complexity: O(height * pwm_column_samples) reads plus K transforms of length n.
    func measureBanding(_ image: ImageRows) -> Detection<BandingMeasurement> {
        let c = configuration
        let width = image.width, height = image.height, channels = image.channels
        guard height >= c.pwmMinRows else {
            return .unavailable("\(height) rows; PWM banding needs at least \(c.pwmMinRows)")
        }
        let stride = max(1, width / c.pwmColumnSamples)
        let sampled = (width - stride / 2 + stride - 1) / stride
        let strips = max(1, min(c.pwmStrips, sampled))
        // Strip k holds the sampled columns j with j * strips / sampled == k: the range
        // [first[k], first[k + 1]). A `let` so the hot loop reads it without access checks.
        let first = (0...strips).map { ($0 * sampled + strips - 1) / strips }

        // 1. Row-mean luma per strip (BT.601 in integer thousandths).
        var profiles = [Double](repeating: 0, count: strips * height)
        do {
            let s = image.samples
            profiles.withUnsafeMutableBufferPointer { p in
                let step = stride * channels
                for y in 0..<height {
                    if y % 64 == 0 { image.waitForRows(y + 64) }
                    let row = y * width * channels + (stride / 2) * channels
                    for k in 0..<strips {
                        let j0 = first[k], j1 = first[k + 1]
                        var i = row + j0 * step
                        var sum = 0
                        if channels >= 3 {
                            for _ in j0..<j1 {
                                sum += 299 * Int(s[i]) + 587 * Int(s[i + 1]) + 114 * Int(s[i + 2])
                                i += step
                            }
                        } else {
                            for _ in j0..<j1 {
                                sum += 1000 * Int(s[i])
                                i += step
                            }
                        }
                        p[k * height + y] = Double(sum) / (1000 * Double(j1 - j0))
                    }
                }
            }
        }

        // 2. Relative modulation around a moving average over W rows (reflected ends).
        let maxPeriod = Double(height) * c.pwmMaxPeriodFraction
        let window = max(3, Int(maxPeriod) | 1), half = window / 2
        let n = 2 * ArtifactSpectrum.powerOfTwo(atLeast: height)
        let hann = ArtifactSpectrum.hann(height)
        var prefix = [Double](repeating: 0, count: height + 2 * half + 1)
        var modulation = [Double](repeating: 0, count: strips * height)
        for k in 0..<strips {
            let base = k * height
            for e in 0..<(height + 2 * half) {
                var j = e - half
                if j < 0 { j = -j }
                if j >= height { j = 2 * height - 2 - j }
                prefix[e + 1] = prefix[e] + profiles[base + min(max(j, 0), height - 1)]
            }
            for y in 0..<height {
                let mean = (prefix[y + window] - prefix[y]) / Double(window)
                modulation[base + y] = (profiles[base + y] / max(mean, 1) - 1) * hann[y]
            }
        }

        // 3. Spectra, two strips per complex transform; coherent and incoherent sums.
        let fft = FFT(size: n)
        let bins = n / 2 + 1
        var coherentRe = [Double](repeating: 0, count: bins), coherentIm = [Double](repeating: 0, count: bins)
        var incoherent = [Double](repeating: 0, count: bins)
        var re = [Double](repeating: 0, count: n), im = [Double](repeating: 0, count: n)
        var yRe = [Double](repeating: 0, count: n), yIm = [Double](repeating: 0, count: n)
        var k = 0
        while k < strips {
            for i in 0..<n {
                re[i] = 0
                im[i] = 0
            }
            for y in 0..<height {
                re[y] = modulation[k * height + y]
                if k + 1 < strips { im[y] = modulation[(k + 1) * height + y] }
            }
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { m in
                    yRe.withUnsafeMutableBufferPointer { a in
                        yIm.withUnsafeMutableBufferPointer { b in
                            ArtifactSpectrum.twoRealTransforms(
                                fft: fft, re: r.baseAddress!, im: m.baseAddress!,
                                yRe: a.baseAddress!, yIm: b.baseAddress!)
                        }
                    }
                }
            }
            for i in 0..<bins {
                coherentRe[i] += re[i]
                coherentIm[i] += im[i]
                incoherent[i] += re[i] * re[i] + im[i] * im[i]
                if k + 1 < strips {
                    coherentRe[i] += yRe[i]
                    coherentIm[i] += yIm[i]
                    incoherent[i] += yRe[i] * yRe[i] + yIm[i] * yIm[i]
                }
            }
            k += 2
        }
        let coherent = (0..<bins).map { coherentRe[$0] * coherentRe[$0] + coherentIm[$0] * coherentIm[$0] }
        let incoherentPower = incoherent

        // 4-5. Best local maximum of ratio * coherence in the period range.
        let lo = max(2, Int((Double(n) / maxPeriod).rounded(.up)))
        let hi = min(bins - 2, Int(Double(n) / c.pwmMinPeriodRows))
        guard lo <= hi else {
            return .unavailable(
                "\(height) rows leave no band period between \(c.pwmMinPeriodRows) rows and "
                    + "\(c.pwmMaxPeriodFraction) of the height")
        }
        var best = BandingMeasurement(confidence: 0, periodRows: nil, peakRatio: 0, coherence: 0)
        var bestStatistic = -1.0
        var scratch = [Double](repeating: 0, count: bins)
        let exclusion = 4
        scratch.withUnsafeMutableBufferPointer { sc in
            for i in lo...hi where coherent[i] > 0 && coherent[i] >= coherent[i - 1] && coherent[i] >= coherent[i + 1] {
                let a = max(1, Int(Double(i) / c.pwmFloorSpan))
                let b = min(bins - 1, Int(Double(i) * c.pwmFloorSpan) + 1)
                var count = 0
                for j in a..<b where abs(j - i) > exclusion {
                    sc[count] = coherent[j]
                    count += 1
                }
                guard count >= 6 else { continue }
                let floor = OrderStatistics.lowerMedian(UnsafeBufferPointer(rebasing: sc[0..<count]))
                let ratio = floor > 0 ? coherent[i] / floor : Double.greatestFiniteMagnitude
                let coherence = incoherentPower[i] > 0 ? min(1, coherent[i] / (Double(strips) * incoherentPower[i])) : 0
                let statistic = ratio * coherence
                if statistic > bestStatistic {
                    bestStatistic = statistic
                    let l = coherent[i - 1], m = coherent[i], r = coherent[i + 1]
                    let curvature = l - 2 * m + r
                    let delta = curvature < 0 ? min(max(0.5 * (l - r) / curvature, -0.5), 0.5) : 0
                    best = BandingMeasurement(
                        confidence: 0, periodRows: Double(n) / (Double(i) + delta),
                        peakRatio: min(ratio, 1e12), coherence: coherence)
                }
            }
        }
        best.confidence = ArtifactSpectrum.logistic(
            best.peakRatio * best.coherence, midpoint: c.pwmMidpoint,
            scale: c.pwmScale)
        return .measured(best)
    }
}
