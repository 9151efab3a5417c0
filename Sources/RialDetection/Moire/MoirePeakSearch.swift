import Foundation

/// Peak search on one half-plane magnitude spectrum, given as its power (`MoireSpectrum`
/// layout: `power[kx * n + ky]`, `kx` in `0...n/2`, `ky` unsigned; magnitude
/// `sqrt(power)`), the reference pipeline of methods.md section 3 with each conjugate
/// pair counted once.
///
/// 1. Band: bins with radial frequency `r = sqrt(fx² + fy²) >= bandLow` and
///    `|fx|, |fy| <= bandHigh` (cycles per pixel, `f = k / n`; the square keeps the
///    diagonals, where PenTile checkerboards lie, and drops the Nyquist lines, where
///    demosaicing leaves its artifacts), in the half plane `kx > 0`, or `kx = 0` and
///    `0 < ky < n/2` (`f` and `-f` are one real sinusoid: one peak).
/// 2. Noise floor: `noiseFloorFactor x` the median magnitude of the band bins (every
///    k-th band bin in storage order, k = max(1, bins / 8192): all of them below 16384
///    bins, else a subsample of 8192...16383).
/// 3. Candidates: strict local maxima over the 8 neighbours (the mirrored half plane
///    supplies neighbours across `kx = 0`) at or above the noise floor, not within
///    `jpegGridRadius` bins (Chebyshev) of a point `(a n / 8, b n / 8)`, integers a, b:
///    the 8x8 JPEG block grid puts energy at multiples of 1/8 cycle per pixel.
/// 4. Prominence: peak magnitude / median magnitude of the ring of bins at Chebyshev
///    distance `surroundInner...surroundOuter` (3...5: outside the Hann main lobe of
///    +-2 bins). Peaks need prominence >= `minProminence`. On the log scale of the
///    reference this is `log10 |X| - log10 surround >= log10 3`.
/// 5. Contrast: peak magnitude / the radial level at its radius, the median of the
///    per-ring medians (rings of equal rounded radius `round(|k|)`, each over at most 96
///    evenly spaced bins of the ring) within `contrastRadius` rings of the peak's: the
///    peak against the image's own (roughly 1/f) spectrum at that scale.
///    `strength = sqrt(prominence x contrast)` ranks the peaks.
/// 6. Frequency: the bin refined by a log-parabola through the bin and its two
///    neighbours on each axis (exact for a Gaussian main lobe, within about 0.1 bin for
///    Hann), clamped to +-0.5 bin.
///
/// Only the `maxCandidates` candidates of largest contrast get a prominence, which
/// bounds the work on spectra with many local maxima above the floor.
struct MoirePeakSearch: Sendable, Equatable {
    /// Tile side n (a power of two >= 8).
    let n: Int
    let noiseFloorFactor: Double
    let minProminence: Double
    let surroundInner: Int
    let surroundOuter: Int
    let maxCandidates: Int
    /// Half-width of the radial annulus of the contrast, bins.
    let contrastRadius: Int
    let rings: MoireRadialIndex
    /// Half-plane bins of the band (`kx * n + ky`).
    private let bandBins: [Int32]
    /// Band bins that may hold a peak (not on the JPEG lattice).
    private let eligibleBins: [Int32]
    /// The band median is taken over every `bandStride`-th band bin.
    private let bandStride: Int
    /// A ring median is taken over at most this many evenly spaced bins of the ring.
    let ringSamples = 96

    /// Precomputes the band of an n x n spectrum: radial frequency >= `bandLow`,
    /// |fx|, |fy| <= `bandHigh`, half plane; `jpegGridRadius` -1 disables the lattice
    /// exclusion.
    init(
        n: Int, bandLow: Double, bandHigh: Double, noiseFloorFactor: Double, minProminence: Double,
        surroundInner: Int, surroundOuter: Int, jpegGridRadius: Int, maxCandidates: Int, contrastRadius: Int
    ) {
        self.n = n
        self.noiseFloorFactor = noiseFloorFactor
        self.minProminence = minProminence
        self.surroundInner = surroundInner
        self.surroundOuter = surroundOuter
        self.maxCandidates = maxCandidates
        self.contrastRadius = contrastRadius
        rings = MoireRadialIndex(n: n)
        let half = n / 2, grid = n / 8
        let lo2 = bandLow * bandLow * Double(n * n)
        let hiBin = Int((bandHigh * Double(n)).rounded(.down))
        var band: [Int32] = [], eligible: [Int32] = []
        for kx in 0...half {
            for ky in 0..<n where kx > 0 || (ky > 0 && ky < half) {
                let sy = ky > half ? ky - n : ky
                guard kx <= hiBin, abs(sy) <= hiBin, Double(kx * kx + sy * sy) >= lo2 else { continue }
                band.append(Int32(kx * n + ky))
                if jpegGridRadius >= 0, grid > 0 {
                    let ax = kx % grid, ay = ((sy % grid) + grid) % grid
                    if Swift.min(ax, grid - ax) <= jpegGridRadius && Swift.min(ay, grid - ay) <= jpegGridRadius {
                        continue
                    }
                }
                eligible.append(Int32(kx * n + ky))
            }
        }
        bandBins = band
        eligibleBins = eligible
        bandStride = Swift.max(1, band.count / 8192)
    }

    /// One local maximum that passed every test.
    struct Found {
        var kx: Int
        var ky: Int
        /// Refined frequency, cycles per pixel (`fx >= 0` half plane, y down).
        var fx: Double
        var fy: Double
        var magnitude: Double
        var prominence: Double
        var contrast: Double
        /// `sqrt(prominence x contrast)`.
        var strength: Double
    }

    /// What one search finds.
    struct Outcome {
        /// Median band magnitude (before the noise-floor factor).
        var median: Double
        /// Peaks, strongest first.
        var peaks: [Found]
        /// Largest `sqrt(prominence x contrast)` over every evaluated candidate, with or
        /// without prominence >= `minProminence` (0 when there is none): a continuous
        /// measure that does not jump to 0 when the last peak fails the test.
        var bestStrength: Double
    }

    /// The peaks of the magnitude spectrum `sqrt(power)` (`power` in the half-plane
    /// layout), sorted by strength, largest first.
    ///
    /// Square roots are taken only where a magnitude is used, and every magnitude used
    /// is the one `sqrt(power)` gives, so the outcome is that of a search over the
    /// magnitude array: medians are those of the powers, then rooted (the square root is
    /// monotone, so the k-th smallest magnitude is the root of the k-th smallest power);
    /// a bin is rooted for the floor test only when its power could reach the floor
    /// (`power >= floor² (1 - 1e-12)`: below, its root is below the floor whatever the
    /// rounding); a local maximum is rejected at once when a neighbour's power is not
    /// below its own (the neighbour's magnitude is then not below either) and confirmed
    /// on the neighbours' magnitudes otherwise.
    func search(power: UnsafeBufferPointer<Double>, scratch: inout [Double]) -> Outcome {
        let n = self.n, half = n / 2
        // Any (kx, ky): wrap into (-n/2, n/2] and mirror negative kx.
        @inline(__always) func powerAt(_ kx: Int, _ ky: Int) -> Double {
            var x = kx & (n - 1), y = ky & (n - 1)
            if x > half {
                x = n - x
                y = (n - y) & (n - 1)
            }
            return power[x * n + y]
        }
        @inline(__always) func value(_ kx: Int, _ ky: Int) -> Double { powerAt(kx, ky).squareRoot() }

        scratch.removeAll(keepingCapacity: true)
        for i in Swift.stride(from: 0, to: bandBins.count, by: bandStride) { scratch.append(power[Int(bandBins[i])]) }
        guard !scratch.isEmpty else { return Outcome(median: 0, peaks: [], bestStrength: 0) }
        let median = OrderStatistics.lowerMedian(scratch).squareRoot()
        let floor = noiseFloorFactor * median
        let floorPower = floor * floor * (1 - 1e-12)

        // Radial level of radius r: the median of the ring medians r - contrastRadius ...
        // r + contrastRadius (rings of equal rounded radius), computed on first use.
        let radii = rings.radiusCount
        var ringMedian = [Double](repeating: -1, count: radii)
        var annulus = [Double](repeating: -1, count: radii)
        var window = [Double]()
        func level(_ r: Int) -> Double {
            if annulus[r] >= 0 { return annulus[r] }
            window.removeAll(keepingCapacity: true)
            for q in Swift.max(0, r - contrastRadius)...Swift.min(radii - 1, r + contrastRadius) {
                if ringMedian[q] < 0 {
                    rings.collect(power, radius: q, maxCount: ringSamples, into: &scratch)
                    ringMedian[q] = OrderStatistics.lowerMedian(scratch).squareRoot()
                }
                window.append(ringMedian[q])
            }
            annulus[r] = OrderStatistics.lowerMedian(window)
            return annulus[r]
        }

        struct Candidate {
            var kx: Int
            var ky: Int
            var magnitude: Double
            var contrast: Double
        }
        var candidates: [Candidate] = []
        for i in eligibleBins {
            let index = Int(i)
            let p = power[index]
            guard p >= floorPower else { continue }
            let m = p.squareRoot()
            guard m >= floor, m > 0 else { continue }
            let kx = index / n, ky = index % n
            let sy = ky > half ? ky - n : ky
            // The largest neighbour power: the root is monotone, so its root is the largest
            // neighbour magnitude.
            let highest: Double
            if kx > 0 && kx < half {
                // Interior column: all 8 neighbours are stored bins.
                let up = (ky + 1) & (n - 1), down = (ky - 1) & (n - 1)
                let left = index - ky - n, right = index - ky + n, here = index - ky
                highest = Swift.max(
                    power[left + down], power[left + ky], power[left + up], power[here + down],
                    power[here + up], power[right + down], power[right + ky], power[right + up])
            } else {
                highest = Swift.max(
                    powerAt(kx - 1, sy - 1), powerAt(kx - 1, sy), powerAt(kx - 1, sy + 1),
                    powerAt(kx, sy - 1), powerAt(kx, sy + 1),
                    powerAt(kx + 1, sy - 1), powerAt(kx + 1, sy), powerAt(kx + 1, sy + 1))
            }
            // A strict local maximum of the magnitudes. A power at or above p has a root at
            // or above m (rejected without rooting); one below may still round to m.
            guard highest < p, highest.squareRoot() < m else { continue }
            let a = level(rings.radius(kx: kx, ky: sy))
            candidates.append(Candidate(kx: kx, ky: sy, magnitude: m, contrast: a > 0 ? m / a : 1e6))
        }
        candidates.sort { $0.contrast > $1.contrast }
        if candidates.count > maxCandidates { candidates.removeLast(candidates.count - maxCandidates) }

        var found: [Found] = []
        var bestStrength = 0.0
        for c in candidates {
            scratch.removeAll(keepingCapacity: true)
            for dy in -surroundOuter...surroundOuter {
                for dx in -surroundOuter...surroundOuter where Swift.max(abs(dx), abs(dy)) >= surroundInner {
                    scratch.append(powerAt(c.kx + dx, c.ky + dy))
                }
            }
            let surround = OrderStatistics.lowerMedian(scratch).squareRoot()
            let prominence = surround > 0 ? Swift.min(c.magnitude / surround, 1e6) : 1e6
            let contrast = Swift.min(c.contrast, 1e6)
            bestStrength = Swift.max(bestStrength, (prominence * contrast).squareRoot())
            guard prominence >= minProminence else { continue }
            let ox = Self.parabolicOffset(value(c.kx - 1, c.ky), c.magnitude, value(c.kx + 1, c.ky))
            let oy = Self.parabolicOffset(value(c.kx, c.ky - 1), c.magnitude, value(c.kx, c.ky + 1))
            found.append(
                Found(
                    kx: c.kx, ky: c.ky, fx: (Double(c.kx) + ox) / Double(n),
                    fy: (Double(c.ky) + oy) / Double(n), magnitude: c.magnitude,
                    prominence: prominence, contrast: contrast,
                    strength: (prominence * contrast).squareRoot()))
        }
        found.sort { $0.strength > $1.strength }
        return Outcome(median: median, peaks: found, bestStrength: bestStrength)
    }

    /// Vertex of the parabola through `(−1, ln a)`, `(0, ln b)`, `(1, ln c)`, clamped to
    /// +-0.5; 0 when any value is not positive or the curvature is not negative.
    static func parabolicOffset(_ a: Double, _ b: Double, _ c: Double) -> Double {
        guard a > 0, b > 0, c > 0 else { return 0 }
        let la = log(a), lb = log(b), lc = log(c)
        let curvature = la - 2 * lb + lc
        guard curvature < 0 else { return 0 }
        return Swift.min(0.5, Swift.max(-0.5, 0.5 * (la - lc) / curvature))
    }
}

/// The half-plane bins of an n x n spectrum grouped by rounded radius
/// `round(sqrt(kx² + ky²))` (compressed rows: `offsets[r]..<offsets[r + 1]` index
/// `bins`), so the bins of an annulus are gathered without scanning the plane.
struct MoireRadialIndex: Sendable, Equatable {
    let n: Int
    /// Largest rounded radius + 1.
    let radiusCount: Int
    private let offsets: [Int]
    private let bins: [Int32]
    /// Rounded radius of each half-plane bin, `kx * n + ky`.
    private let radiusOfBin: [Int32]

    init(n: Int) {
        self.n = n
        let half = n / 2
        var radii = [Int32](repeating: 0, count: (half + 1) * n)
        var maxRadius = 0
        for kx in 0...half {
            for ky in 0..<n {
                let sy = ky > half ? ky - n : ky
                let r = Int(Double(kx * kx + sy * sy).squareRoot().rounded())
                radii[kx * n + ky] = Int32(r)
                maxRadius = Swift.max(maxRadius, r)
            }
        }
        radiusCount = maxRadius + 1
        var counts = [Int](repeating: 0, count: radiusCount + 1)
        for kx in 0...half {
            for ky in 0..<n where kx > 0 || (ky > 0 && ky < half) { counts[Int(radii[kx * n + ky]) + 1] += 1 }
        }
        for r in 0..<radiusCount { counts[r + 1] += counts[r] }
        var fill = counts
        var list = [Int32](repeating: 0, count: counts[radiusCount])
        for kx in 0...half {
            for ky in 0..<n where kx > 0 || (ky > 0 && ky < half) {
                let r = Int(radii[kx * n + ky])
                list[fill[r]] = Int32(kx * n + ky)
                fill[r] += 1
            }
        }
        offsets = counts
        bins = list
        radiusOfBin = radii
    }

    /// Rounded radius of bin (kx, ky), `kx` in `0...n/2`, `ky` signed.
    func radius(kx: Int, ky: Int) -> Int { Int(radiusOfBin[kx * n + (ky & (n - 1))]) }

    /// Replaces `values` with the values in `spectrum` of at most `maxCount` evenly spaced bins
    /// (every `ceil(count / maxCount)`-th, in storage order) of the half-plane ring of
    /// rounded radius `radius` (empty outside the existing radii).
    func collect(_ spectrum: UnsafeBufferPointer<Double>, radius: Int, maxCount: Int, into values: inout [Double]) {
        values.removeAll(keepingCapacity: true)
        guard radius >= 0, radius < radiusCount else { return }
        let start = offsets[radius], end = offsets[radius + 1]
        let step = Swift.max(1, (end - start + maxCount - 1) / maxCount)
        for i in Swift.stride(from: start, to: end, by: step) { values.append(spectrum[Int(bins[i])]) }
    }
}
