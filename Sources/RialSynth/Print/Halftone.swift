import Foundation

/// Amplitude-modulated CMYK halftoning and the reflectance of the printed sheet.
///
/// Each ink i has a square screen rotated by angle theta_i with cell period P (metres
/// on the paper). In cell coordinates (a, b) = R(theta_i) (s, t) / P the cosine spot
/// function q(a, b) = 1/2 - 1/4 (cos 2 pi a + cos 2 pi b) is 0 at dot centres and 1
/// between them; ink covers {q < th(T)} where th is chosen so that the covered area is
/// exactly the (dot-gained) tone T: round dots in highlights, a checkerboard at 50 %,
/// round holes in shadows.
///
/// A sensor pixel integrates the sheet over its footprint: S x S sub-samples at
/// stratified offsets mapped through the local Jacobian, each taking the analytic
/// area of ink within its own footprint along the spot gradient (a linear ramp of
/// width |grad q| * w, w = sub-sample size in cell units). Inks combine per sub-sample
/// (Neugebauer primaries under Demichel's independence, as transmittance products),
/// so the rosette and inter-screen moire come out of the geometry. S = 2 for cells
/// under 4 px, where dots are about a pixel wide; S = 1 above, where a dot edge is
/// nearly straight across a pixel and the ramp alone is an accurate box filter.
///
/// Tone: C, M, Y = 1 - sRGB-encoded R, G, B; K = gcr * min(C, M, Y) is removed from
/// the three; printed tone T' = T + 4 g T (1 - T) (mechanical dot gain g at 50 %).
struct HalftonePrinter: Sendable {
    /// Sub-samples per axis.
    let subsamples: Int
    let cosAngle: [Float]
    let sinAngle: [Float]
    private let cs: (Float, Float, Float, Float)
    private let sn: (Float, Float, Float, Float)
    /// 1 - transmittance of each ink (what full coverage absorbs), per channel.
    private let absorptionC: Vec3, absorptionM: Vec3, absorptionY: Vec3, absorptionK: Vec3
    let invPeriod: Float
    let dotGain: Float
    let gcr: Float
    /// Ink transmittances relative to paper, linear RGB, C M Y K.
    let ink: [Vec3]

    init(parameters p: PrintParameters, periodM: Float) {
        subsamples = p.periodPx < 4 ? 2 : 1
        let angles = p.screenAnglesDeg.count == 4 ? p.screenAnglesDeg : [15, 75, 0, 45]
        cosAngle = angles.map { cos($0 * .pi / 180) }
        sinAngle = angles.map { sin($0 * .pi / 180) }
        invPeriod = 1 / max(periodM, 1e-6)
        dotGain = min(max(p.dotGain, 0), 0.4)
        gcr = min(max(p.grayComponentReplacement, 0), 1)
        let k = min(max(p.inkBlack / max(p.paperWhite, 0.01), 0.01), 1)
        ink = [Vec3(0.03, 0.40, 0.85), Vec3(0.92, 0.06, 0.32), Vec3(0.98, 0.88, 0.05), Vec3(k, k, k)]
        let one = Vec3(1, 1, 1)
        absorptionC = one - ink[0]
        absorptionM = one - ink[1]
        absorptionY = one - ink[2]
        absorptionK = one - ink[3]
        cs = (cosAngle[0], cosAngle[1], cosAngle[2], cosAngle[3])
        sn = (sinAngle[0], sinAngle[1], sinAngle[2], sinAngle[3])
    }

    /// Per-tile constants: for each ink and sub-sample, cos/sin of 2 pi times the
    /// sub-sample's offset in cell coordinates, and the ramp scale 1 / w. 4 inks x S^2
    /// sub-samples x 4 values + 1 (sized for S = 2).
    static let tileStride = 4 * 2 * 2 * 4 + 1

    /// Fills `out` (tileStride values) for the Jacobian J = d(s, t) / d(x, y) in metres
    /// per sensor px.
    func prepareTile(
        jacobian j: (Float, Float, Float, Float), into out: UnsafeMutableBufferPointer<Float>, at base: Int
    ) {
        let s = subsamples
        var idx = base
        for i in 0..<4 {
            for sy in 0..<s {
                for sx in 0..<s {
                    let dx = (Float(sx) + 0.5) / Float(s) - 0.5, dy = (Float(sy) + 0.5) / Float(s) - 0.5
                    let ds = j.0 * dx + j.1 * dy, dt = j.2 * dx + j.3 * dy
                    let da = (cosAngle[i] * ds + sinAngle[i] * dt) * invPeriod
                    let db = (-sinAngle[i] * ds + cosAngle[i] * dt) * invPeriod
                    out[idx] = FastMath.cos2pi(da)
                    out[idx + 1] = FastMath.cos2pi(da - 0.25)
                    out[idx + 2] = FastMath.cos2pi(db)
                    out[idx + 3] = FastMath.cos2pi(db - 0.25)
                    idx += 4
                }
            }
        }
        let footprint = abs(j.0 * j.3 - j.1 * j.2).squareRoot() / Float(s) * invPeriod
        out[idx] = 1 / max(footprint, 1e-6)
    }

    /// Reflectance relative to paper (linear RGB) at sheet coordinates (s, t), metres,
    /// for sRGB-encoded content colour `e`.
    @inline(__always)
    func reflectance(
        s: Float, t: Float, content e: (Float, Float, Float),
        tile: UnsafeBufferPointer<Float>, at base: Int
    ) -> Vec3 {
        var c = 1 - min(max(e.0, 0), 1), m = 1 - min(max(e.1, 0), 1), y = 1 - min(max(e.2, 0), 1)
        let k = gcr * min(c, min(m, y))
        c -= k
        m -= k
        y -= k
        let n = subsamples * subsamples
        let invW = tile[base + 4 * n * 4]
        let inkC = inkState(tone: c, cos: cs.0, sin: sn.0, s: s, t: t, invW: invW)
        let inkM = inkState(tone: m, cos: cs.1, sin: sn.1, s: s, t: t, invW: invW)
        let inkY = inkState(tone: y, cos: cs.2, sin: sn.2, s: s, t: t, invW: invW)
        let inkK = inkState(tone: k, cos: cs.3, sin: sn.3, s: s, t: t, invW: invW)
        var sum = Vec3.zero
        for sIdx in 0..<n {
            // Transmittance products of the four inks at this sub-sample.
            let fc = absorb(inkC, tile, base + sIdx * 4, absorptionC)
            let fm = absorb(inkM, tile, base + (n + sIdx) * 4, absorptionM)
            let fy = absorb(inkY, tile, base + (2 * n + sIdx) * 4, absorptionY)
            let fk = absorb(inkK, tile, base + (3 * n + sIdx) * 4, absorptionK)
            sum = sum + fc.scaled(by: fm).scaled(by: fy.scaled(by: fk))
        }
        return n == 1 ? sum : sum * (1 / Float(n))
    }

    /// Per-pixel state of one ink: threshold, ramp slope, cos/sin of 2 pi a and 2 pi b.
    private struct InkState { var th, slope, ca, sa, cb, sb: Float }

    @inline(__always)
    private func inkState(tone t0: Float, cos ci: Float, sin si: Float, s: Float, t: Float, invW: Float) -> InkState {
        let tone = min(max(t0 + 4 * dotGain * t0 * (1 - t0), 0), 1)
        let spot = HalftoneSpot.threshold(tone: tone)
        let a = (ci * s + si * t) * invPeriod
        let b = (-si * s + ci * t) * invPeriod
        let scA = FastMath.sinCos2pi(a), scB = FastMath.sinCos2pi(b)
        return InkState(th: spot.threshold, slope: invW / spot.gradient, ca: scA.0, sa: scA.1, cb: scB.0, sb: scB.1)
    }

    /// 1 - coverage * (1 - transmittance) per channel at one sub-sample; the tile holds
    /// cos and sin of the sub-sample's phase offsets (cos(x + d) = cos x cos d - sin x sin d).
    @inline(__always)
    private func absorb(_ i: InkState, _ tile: UnsafeBufferPointer<Float>, _ o: Int, _ absorption: Vec3) -> Vec3 {
        let cosA = i.ca * tile[o] - i.sa * tile[o + 1]
        let cosB = i.cb * tile[o + 2] - i.sb * tile[o + 3]
        let q = 0.5 - 0.25 * (cosA + cosB)
        let cov = min(max(0.5 + (i.th - q) * i.slope, 0), 1)
        return Vec3(1 - cov * absorption.x, 1 - cov * absorption.y, 1 - cov * absorption.z)
    }
}

extension HalftonePrinter {
    /// Dot gain the raster image processor calibrates for (`PrintParameters.dot_gain`
    /// is what the press actually does, 0.06-0.18).
    static let nominalDotGain: Float = 0.12

    /// Separation table of `separation(_:)`: 1025 points over encoded 0...1.
    static let separationTable: [Float] = (0...1024).map { k in
        let l = ColorScience.srgbToLinear(Float(k) / 1024)
        let g = nominalDotGain
        // Coverage a with a + 4 g a (1 - a) = 1 - L, the smaller root.
        let b = 1 + 4 * g
        let a = (b - max(b * b - 16 * g * (1 - l), 0).squareRoot()) / (8 * g)
        return 1 - min(max(a, 0), 1)
    }

    /// What a colour-managed printer sends to the screens for sRGB content `e`: the
    /// tone input (1 - coverage) whose printed reflectance relative to paper is about
    /// the content's linear value L = sRGB^-1(e) (each ink mainly absorbs one band:
    /// C red, M green, Y blue), with the nominal dot gain pre-compensated:
    /// a + 4 g a (1 - a) = 1 - L. Without it the coverage would be linear in the
    /// encoded value and prints would come out washed out in the mid-tones.
    @inline(__always) func separation(_ e: (Float, Float, Float)) -> (Float, Float, Float) {
        HalftonePrinter.separationTable.withUnsafeBufferPointer { t in
            @inline(__always) func f(_ x: Float) -> Float {
                let u = min(max(x, 0), 1) * 1024
                let i = min(Int(u), 1023)
                return t[i] + (t[i + 1] - t[i]) * (u - Float(i))
            }
            return (f(e.0), f(e.1), f(e.2))
        }
    }

    /// Paper tint (`PrintParameters.paper_tint`) from one warmth w in -1...1:
    /// (1 + 0.015 w, 1, 1 - 0.045 w): cream paper for w > 0, blue-white paper with
    /// optical brighteners for w < 0.
    static func samplePaperTint(_ rng: inout SynthRandom) -> [Float] {
        let w = rng.uniform(-1...1)
        return [1 + 0.015 * w, 1, 1 - 0.045 * w]
    }
}

/// Tables for the cosine spot function q(a, b) = 1/2 - 1/4 (cos 2 pi a + cos 2 pi b):
/// the threshold th(T) whose sub-level set {q < th} has area T, and the mean gradient
/// magnitude |grad q| (per cell unit) on that contour. Computed once by histogramming
/// q over a 1024 x 1024 grid of one cell.
enum HalftoneSpot {
    private static let bins = 1024
    private static let tables: (threshold: [Float], gradient: [Float]) = {
        let grid = 1024
        var count = [Int](repeating: 0, count: bins)
        var gradSum = [Double](repeating: 0, count: bins)
        for j in 0..<grid {
            let b = (Double(j) + 0.5) / Double(grid)
            for i in 0..<grid {
                let a = (Double(i) + 0.5) / Double(grid)
                let q = 0.5 - 0.25 * (cos(2 * .pi * a) + cos(2 * .pi * b))
                let g = 0.5 * Double.pi * (pow(sin(2 * .pi * a), 2) + pow(sin(2 * .pi * b), 2)).squareRoot()
                let k = min(Int(q * Double(bins)), bins - 1)
                count[k] += 1
                gradSum[k] += g
            }
        }
        // Cumulative area -> threshold for tone T = index / bins.
        var threshold = [Float](repeating: 0, count: bins + 1)
        var gradient = [Float](repeating: 0, count: bins + 1)
        var cumulative = 0
        var qIndex = 0
        let total = Double(grid * grid)
        for t in 0...bins {
            let target = Double(t) / Double(bins) * total
            while qIndex < bins && Double(cumulative + count[qIndex]) < target {
                cumulative += count[qIndex]
                qIndex += 1
            }
            let k = min(qIndex, bins - 1)
            let within = count[k] > 0 ? (target - Double(cumulative)) / Double(count[k]) : 0
            threshold[t] = Float((Double(k) + min(max(within, 0), 1)) / Double(bins))
            // Mean gradient around the contour (+-2 bins to smooth the histogram).
            var gs = 0.0, gc = 0
            for kk in max(k - 2, 0)...min(k + 2, bins - 1) {
                gs += gradSum[kk]
                gc += count[kk]
            }
            gradient[t] = Float(max(gc > 0 ? gs / Double(gc) : 1, 0.05))
        }
        threshold[0] = -0.01
        threshold[bins] = 1.01
        return (threshold, gradient)
    }()

    /// (threshold, gradient) pairs for tones k / bins, k = 0...bins; allocated once.
    nonisolated(unsafe) private static let table: UnsafePointer<Float> = {
        let t = tables
        let p = UnsafeMutablePointer<Float>.allocate(capacity: 2 * (bins + 1))
        for k in 0...bins {
            p[2 * k] = t.threshold[k]
            p[2 * k + 1] = t.gradient[k]
        }
        return UnsafePointer(p)
    }()

    /// Threshold and mean contour gradient for tone T in 0...1.
    @inline(__always) static func threshold(tone: Float) -> (threshold: Float, gradient: Float) {
        let x = min(max(tone, 0), 1) * Float(bins)
        let i = min(Int(x), bins - 1)
        let f = x - Float(i)
        let p = table + 2 * i
        return (p[0] + (p[2] - p[0]) * f, p[1] + (p[3] - p[1]) * f)
    }
}
