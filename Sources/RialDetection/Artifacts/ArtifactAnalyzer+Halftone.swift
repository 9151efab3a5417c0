import Foundation
import RialMedia

extension ArtifactAnalyzer {
    /// What the halftone detector measured.
    struct HalftoneMeasurement: Equatable {
        /// 0...1.
        var confidence: Double
        /// The weakest matched peak ratio of the best rosette; 0 when none matched.
        var statistic: Double
        var periodPx: Double?
        var anglesDeg: [Double]?
        var peakCount: Int
    }

    /// One spectral peak of a tile: power over its ring median, radial frequency in
    /// cycles/px, direction in degrees [0, 180).
    struct SpectralPeak {
        var ratio: Double
        var radius: Double
        var angle: Double
    }

    /// Halftone rosette: an AM print is four square dot screens of one ruling (period P
    /// px) at angles 15, 75, 0 and 45 degrees (C, M, Y, K). Each screen puts a conjugate
    /// pair of spectral peaks at radius 1/P in directions a and a + 90, so the strong
    /// C, M, K screens give peaks at one radius in three directions 30 degrees apart
    /// (modulo 90): a signature that a display's square pixel grid (0 and 45 degrees
    /// only) or natural texture does not have.
    ///
    /// Per tile (`halftone_tile_size` px square, full resolution, at the frame centre
    /// and at 1/3, 2/3 of width and height, clamped inside the frame):
    /// 1. BT.601 luma minus its mean, times a 2D Hann window; power spectrum of the
    ///    half plane `kx >= 0` (each conjugate pair counted once).
    /// 2. Ratio map: power over the median power of its ring (radius rounded to the
    ///    bin), so the 1/f fall-off of scene content cancels.
    /// 3. Peaks: 5x5 local maxima with ratio >= `halftone_min_peak_ratio`, radius in
    ///    `[1 / halftone_max_period_px, 1 / halftone_min_period_px]`, excluding bins
    ///    within `halftone_jpeg_exclusion_bins` of a point (k/8, l/8) cycles/px: the
    ///    8x8 JPEG block grid puts peaks exactly there (on the axes and the diagonal
    ///    lattice); a print ruling that falls on such a point is missed, the price of
    ///    not flagging every JPEG. The strongest `halftone_max_peaks` are kept.
    /// 4. Rosette: for every peak as anchor and every assignment of it to 15, 45 or 75
    ///    degrees (relative rotation phi), the strongest peak within
    ///    `halftone_angle_tolerance_deg` of phi + 15, phi + 45, phi + 75 (modulo 90) among
    ///    peaks within `halftone_radius_tolerance` of the anchor's radius. The rosette
    ///    statistic is the weakest of the three ratios (0 if one is missing).
    /// The best tile's statistic gives `halftone_confidence` (logistic in log space
    /// around `halftone_midpoint`); the period `1 / mean radius` and the three angles
    /// are those of the triple taken as the screens' fundamentals (see `bestRosette`:
    /// harmonics and inter-screen beats form 30-degree triples too). Rulings finer than
    /// about 2.8 px alias (a fundamental beyond 0.354 cycles/px on a diagonal folds back)
    /// and the reported period is then often the beat pattern's, about twice the ruling.
    ///
    /// Unavailable when either image side is smaller than the tile.
    /// - Complexity: `halftone_tiles` 2D transforms of `tile²` points.
    func measureHalftone(_ image: ImageRows) -> Detection<HalftoneMeasurement> {
        let c = configuration
        let n = c.halftoneTileSize
        let width = image.width, height = image.height, channels = image.channels
        guard width >= n, height >= n else {
            return .unavailable("\(width)x\(height) px is smaller than one \(n)x\(n) halftone tile")
        }
        let fractions: [(Double, Double)] = [
            (0.5, 0.5), (1.0 / 3, 1.0 / 3), (2.0 / 3, 1.0 / 3),
            (1.0 / 3, 2.0 / 3), (2.0 / 3, 2.0 / 3),
        ]
        let fft = FFT(size: n)
        let window = ArtifactSpectrum.hann(n)
        let half = n / 2
        var tile = [Double](repeating: 0, count: n * n)
        var power = [Double](repeating: 0, count: (half + 1) * n)
        var scratch = ArtifactSpectrum.TileScratch(n: n)
        let geometry = halftoneGeometry
        var best = HalftoneMeasurement(confidence: 0, statistic: 0, periodPx: nil, anglesDeg: nil, peakCount: 0)
        var bestSet = false

        for t in 0..<min(c.halftoneTiles, fractions.count) {
            let x0 = min(max(Int(fractions[t].0 * Double(width)) - half, 0), width - n)
            let y0 = min(max(Int(fractions[t].1 * Double(height)) - half, 0), height - n)
            image.waitForRows(y0 + n)
            do {
                let s = image.samples
                tile.withUnsafeMutableBufferPointer { d in
                    var mean = 0.0
                    for y in 0..<n {
                        let row = ((y0 + y) * width + x0) * channels
                        if channels >= 3 {
                            for x in 0..<n {
                                let i = row + x * channels
                                let v = 0.299 * Double(s[i]) + 0.587 * Double(s[i + 1]) + 0.114 * Double(s[i + 2])
                                d[y * n + x] = v
                                mean += v
                            }
                        } else {
                            for x in 0..<n {
                                let v = Double(s[row + x * channels])
                                d[y * n + x] = v
                                mean += v
                            }
                        }
                    }
                    mean /= Double(n * n)
                    for y in 0..<n {
                        for x in 0..<n { d[y * n + x] = (d[y * n + x] - mean) * window[y] * window[x] }
                    }
                }
            }
            ArtifactSpectrum.tilePower(tile, fft: fft, power: &power, scratch: &scratch)
            let peaks = geometry.peaks(power)
            let rosette = Self.bestRosette(peaks, configuration: c)
            if !bestSet || rosette.statistic > best.statistic {
                bestSet = true
                best = HalftoneMeasurement(
                    confidence: 0, statistic: rosette.statistic, periodPx: rosette.periodPx,
                    anglesDeg: rosette.angles, peakCount: peaks.count)
            }
        }
        best.confidence = ArtifactSpectrum.logistic(
            best.statistic, midpoint: c.halftoneMidpoint, scale: c.halftoneScale)
        return .measured(best)
    }

    /// Step 4 of `measureHalftone` on one tile's peaks.
    static func bestRosette(_ peaks: [SpectralPeak], configuration c: Configuration)
        -> (statistic: Double, periodPx: Double?, angles: [Double]?)
    {
        let rosette = [15.0, 45.0, 75.0]
        /// Distance of two directions modulo 90 degrees, 0...45.
        func distance90(_ a: Double, _ b: Double) -> Double {
            let d = (a - b).truncatingRemainder(dividingBy: 90)
            let e = d < 0 ? d + 90 : d
            return min(e, 90 - e)
        }
        // Every matched rosette: (statistic, mean radius, angles).
        var candidates: [(statistic: Double, radius: Double, angles: [Double])] = []
        for anchor in peaks {
            for assigned in rosette {
                let phi = anchor.angle - assigned
                var weakest = Double.infinity
                var radiusSum = 0.0
                var angles: [Double] = []
                for direction in rosette {
                    var match: SpectralPeak? = nil
                    for p in peaks
                    where abs(p.radius / anchor.radius - 1) <= c.halftoneRadiusTolerance
                        && distance90(p.angle, phi + direction) <= c.halftoneAngleToleranceDeg
                    {
                        if match == nil || p.ratio > match!.ratio { match = p }
                    }
                    guard let m = match else {
                        weakest = 0
                        break
                    }
                    weakest = min(weakest, m.ratio)
                    radiusSum += m.radius
                    angles.append(m.angle)
                }
                if weakest > 0 { candidates.append((weakest, radiusSum / 3, angles)) }
            }
        }
        guard let strongest = candidates.max(by: { $0.statistic < $1.statistic }) else { return (0, nil, nil) }
        // Which ruling explains the matched triples? Besides the fundamentals (radius
        // r0 = 1/P) the screens' (1, 1) harmonics (sqrt 2 r0), (2, 1) harmonics (sqrt 5 r0)
        // and the beats between screens (2 sin(15 degrees) r0 = 0.518 r0) also form 30-degree
        // triples. Hypotheses: the strongest triple is the fundamental, or one of those;
        // each is scored by the summed statistics of the triples (>= 10% of the strongest)
        // at its four radii, and must have a triple at r0 itself. The strongest triple
        // wins ties and stands when no hypothesis has its fundamental (aliased rulings).
        let relations = [1.0, 2.0.squareRoot(), 5.0.squareRoot(), 2 * sin(15 * Double.pi / 180)]
        let strong = candidates.filter { $0.statistic >= 0.1 * strongest.statistic }
        func near(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) <= 0.05 }
        var ruling = strongest
        var bestSupport = -1.0
        for relation in relations {
            let r0 = strongest.radius / relation
            guard let fundamental = strong.filter({ near($0.radius, r0) }).max(by: { $0.statistic < $1.statistic })
            else { continue }
            let support = strong.filter { c in relations.contains { near(c.radius, r0 * $0) } }
                .reduce(0) { $0 + $1.statistic }
            if support > bestSupport {
                bestSupport = support
                ruling = fundamental
            }
        }
        return (strongest.statistic, 1 / ruling.radius, ruling.angles)
    }
}

/// Per-tile-size constants of the halftone peak search: ring index and validity of each
/// half-plane bin (`kx` in `0...n/2`, every `ky`, column-major like `tilePower`).
struct HalftoneGeometry: Sendable, Equatable {
    let n: Int
    /// Ring (rounded radius in bins) of each bin; -1 where the bin is not searched
    /// (outside the radius band, on the JPEG lattice, or the mirrored duplicate).
    let ring: [Int32]
    /// Every half-plane bin's ring, for the ring medians (all bins, not only searched ones).
    let allRings: [Int32]
    let ringCount: Int
    let minPeakRatio: Double
    let maxPeaks: Int

    init(n: Int, configuration c: ArtifactAnalyzer.Configuration) {
        self.n = n
        let half = n / 2
        let rMin = Double(n) / c.halftoneMaxPeriodPx, rMax = Double(n) / c.halftoneMinPeriodPx
        let jpegStep = n / 8, exclusion = c.halftoneJPEGExclusionBins
        var ring = [Int32](repeating: -1, count: (half + 1) * n)
        var allRings = [Int32](repeating: 0, count: (half + 1) * n)
        var maxRing = 0
        for kx in 0...half {
            for ky in 0..<n {
                let fy = ky <= half ? ky : ky - n
                let r = (Double(kx * kx + fy * fy)).squareRoot()
                let ri = Int(r.rounded())
                allRings[kx * n + ky] = Int32(ri)
                maxRing = max(maxRing, ri)
                // One bin per conjugate pair: on kx = 0 and kx = n/2 keep fy >= 0 only.
                if (kx == 0 || kx == half) && fy < 0 { continue }
                guard r >= rMin, r <= rMax else { continue }
                if jpegStep > 0 {
                    let dx = abs(kx - Int((Double(kx) / Double(jpegStep)).rounded()) * jpegStep)
                    let dy = abs(fy - Int((Double(fy) / Double(jpegStep)).rounded()) * jpegStep)
                    if dx <= exclusion && dy <= exclusion { continue }
                }
                ring[kx * n + ky] = Int32(ri)
            }
        }
        self.ring = ring
        self.allRings = allRings
        ringCount = maxRing + 1
        minPeakRatio = c.halftoneMinPeakRatio
        maxPeaks = c.halftoneMaxPeaks
    }

    /// Peaks of one half-plane power spectrum (steps 2-3 of `measureHalftone`),
    /// strongest first.
    func peaks(_ power: [Double]) -> [ArtifactAnalyzer.SpectralPeak] {
        let half = n / 2
        // Ring medians by counting sort of the bins into their rings.
        var starts = [Int](repeating: 0, count: ringCount + 1)
        for r in allRings { starts[Int(r) + 1] += 1 }
        for i in 0..<ringCount { starts[i + 1] += starts[i] }
        var fill = starts
        var bucket = [Double](repeating: 0, count: power.count)
        for i in 0..<power.count {
            let r = Int(allRings[i])
            bucket[fill[r]] = power[i]
            fill[r] += 1
        }
        var median = [Double](repeating: 0, count: ringCount)
        bucket.withUnsafeBufferPointer { b in
            for r in 0..<ringCount where starts[r + 1] > starts[r] {
                median[r] = OrderStatistics.lowerMedian(UnsafeBufferPointer(rebasing: b[starts[r]..<starts[r + 1]]))
            }
        }
        let ringMedian = median
        var found: [ArtifactAnalyzer.SpectralPeak] = []
        power.withUnsafeBufferPointer { p in
            for kx in 0...half {
                for ky in 0..<n {
                    let i = kx * n + ky
                    let r = Int(ring[i])
                    guard r >= 0, ringMedian[r] > 0 else { continue }
                    let value = p[i]
                    let ratio = value / ringMedian[r]
                    guard ratio >= minPeakRatio else { continue }
                    // 5x5 local maximum (ky wraps; kx neighbours beyond 0...n/2 mirror to
                    // the conjugate bin (-kx, -ky)).
                    var isMax = true
                    outer: for dx in -2...2 {
                        for dy in -2...2 where dx != 0 || dy != 0 {
                            var x = kx + dx, y = ky + dy
                            if x < 0 || x > half {
                                x = x < 0 ? -x : n - x
                                y = -y
                            }
                            y = ((y % n) + n) % n
                            if p[x * n + y] > value {
                                isMax = false
                                break outer
                            }
                        }
                    }
                    guard isMax else { continue }
                    let fy = ky <= half ? ky : ky - n
                    var angle = atan2(Double(fy), Double(kx)) * 180 / Double.pi
                    if angle < 0 { angle += 180 }
                    if angle >= 180 { angle -= 180 }
                    found.append(
                        .init(
                            ratio: ratio, radius: (Double(kx * kx + fy * fy)).squareRoot() / Double(n),
                            angle: angle))
                }
            }
        }
        found.sort { $0.ratio > $1.ratio }
        if found.count > maxPeaks { found.removeLast(found.count - maxPeaks) }
        return found
    }
}
