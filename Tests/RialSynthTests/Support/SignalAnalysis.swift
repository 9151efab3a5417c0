import Foundation
import RialMedia

/// Measurement tools for the physics tests, written independently of the generator
/// (textbook radix-2 FFT, least-squares planes, SAD block matching), in Double.
enum SignalAnalysis {
    /// BT.601 luma of an interleaved RGB image, row-major.
    static func luma(_ image: Image8) -> [Double] {
        var out = [Double](repeating: 0, count: image.width * image.height)
        for i in out.indices {
            let r = Double(image.samples[3 * i]), g = Double(image.samples[3 * i + 1]),
                b = Double(image.samples[3 * i + 2])
            out[i] = 0.299 * r + 0.587 * g + 0.114 * b
        }
        return out
    }

    /// One channel (0 R, 1 G, 2 B) as Double.
    static func channel(_ image: Image8, _ c: Int) -> [Double] {
        (0..<(image.width * image.height)).map { Double(image.samples[3 * $0 + c]) }
    }

    /// In-place iterative radix-2 FFT (forward, e^{-2 pi i k n / N}).
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        precondition(n & (n - 1) == 0)
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var len = 2
        while len <= n {
            let angle = -2 * Double.pi / Double(len)
            for start in stride(from: 0, to: n, by: len) {
                for k in 0..<(len / 2) {
                    let wr = cos(angle * Double(k)), wi = sin(angle * Double(k))
                    let a = start + k, b = a + len / 2
                    let tr = re[b] * wr - im[b] * wi, ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            len <<= 1
        }
    }

    /// Power spectrum of a square power-of-two image after removing the mean and
    /// applying a 2D Hann window. Index [ky * n + kx]; frequency of bin k is
    /// (k < n/2 ? k : k - n) / n cycles per px.
    static func powerSpectrum(_ values: [Double], size n: Int) -> [Double] {
        let mean = values.reduce(0, +) / Double(values.count)
        var re = [Double](repeating: 0, count: n * n), im = re
        for y in 0..<n {
            let wy = 0.5 - 0.5 * cos(2 * Double.pi * Double(y) / Double(n))
            for x in 0..<n {
                let wx = 0.5 - 0.5 * cos(2 * Double.pi * Double(x) / Double(n))
                re[y * n + x] = (values[y * n + x] - mean) * wx * wy
            }
        }
        // Rows, then columns.
        for y in 0..<n {
            var r = Array(re[(y * n)..<(y * n + n)]), i = Array(im[(y * n)..<(y * n + n)])
            fft(&r, &i)
            for x in 0..<n {
                re[y * n + x] = r[x]
                im[y * n + x] = i[x]
            }
        }
        for x in 0..<n {
            var r = (0..<n).map { re[$0 * n + x] }, i = (0..<n).map { im[$0 * n + x] }
            fft(&r, &i)
            for y in 0..<n {
                re[y * n + x] = r[y]
                im[y * n + x] = i[y]
            }
        }
        return (0..<(n * n)).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }

    /// Bin index of a frequency (cycles per px) on an n-point grid.
    static func bin(_ f: Double, _ n: Int) -> Int {
        let k = Int((f * Double(n)).rounded())
        return ((k % n) + n) % n
    }

    static func frequency(ofBin k: Int, _ n: Int) -> Double { Double(k < n / 2 ? k : k - n) / Double(n) }

    /// Largest power within `radius` bins of frequency (fx, fy).
    static func peakPower(_ spectrum: [Double], size n: Int, fx: Double, fy: Double, radius: Int = 1) -> Double {
        let cx = bin(fx, n), cy = bin(fy, n)
        var best = 0.0
        for dy in -radius...radius {
            for dx in -radius...radius {
                best = max(best, spectrum[((cy + dy + n) % n) * n + (cx + dx + n) % n])
            }
        }
        return best
    }

    /// The strongest bins with |f| >= minRadius, as (fx, fy, power), strongest first,
    /// one per conjugate pair, excluding bins within `separation` of an earlier one.
    static func topPeaks(_ spectrum: [Double], size n: Int, minRadius: Double, count: Int, separation: Int = 3)
        -> [(fx: Double, fy: Double, power: Double)]
    {
        var candidates: [(Int, Int, Double)] = []
        for ky in 0..<n {
            for kx in 0..<n {
                let fx = frequency(ofBin: kx, n), fy = frequency(ofBin: ky, n)
                if (fx * fx + fy * fy).squareRoot() < minRadius { continue }
                // Keep one of each conjugate pair: fy > 0, or fy == 0 and fx > 0.
                if fy < 0 || (fy == 0 && fx < 0) { continue }
                candidates.append((kx, ky, spectrum[ky * n + kx]))
            }
        }
        candidates.sort { $0.2 > $1.2 }
        var out: [(Double, Double, Double)] = []
        for c in candidates {
            let close = out.contains { o in
                let dx = abs(o.0 * Double(n) - Double(c.0 < n / 2 ? c.0 : c.0 - n))
                let dy = abs(o.1 * Double(n) - Double(c.1 < n / 2 ? c.1 : c.1 - n))
                return dx <= Double(separation) && dy <= Double(separation)
            }
            if close { continue }
            out.append((frequency(ofBin: c.0, n), frequency(ofBin: c.1, n), c.2))
            if out.count == count { break }
        }
        return out
    }

    /// Median of the spectrum over bins with |f| >= minRadius.
    static func medianPower(_ spectrum: [Double], size n: Int, minRadius: Double) -> Double {
        var v: [Double] = []
        for ky in 0..<n {
            for kx in 0..<n {
                let fx = frequency(ofBin: kx, n), fy = frequency(ofBin: ky, n)
                if (fx * fx + fy * fy).squareRoot() >= minRadius { v.append(spectrum[ky * n + kx]) }
            }
        }
        v.sort()
        return v[v.count / 2]
    }

    /// Least-squares fit z = a + b x + c y; returns coefficients and rms residual.
    static func affineFit(x: [Double], y: [Double], z: [Double]) -> (a: Double, b: Double, c: Double, rms: Double) {
        var s = [[Double]](repeating: [Double](repeating: 0, count: 3), count: 3)
        var r = [Double](repeating: 0, count: 3)
        for i in z.indices {
            let v = [1, x[i], y[i]]
            for p in 0..<3 {
                r[p] += v[p] * z[i]
                for q in 0..<3 { s[p][q] += v[p] * v[q] }
            }
        }
        let c = solve3(s, r)
        var sq = 0.0
        for i in z.indices {
            let e = z[i] - (c[0] + c[1] * x[i] + c[2] * y[i])
            sq += e * e
        }
        return (c[0], c[1], c[2], (sq / Double(max(z.count, 1))).squareRoot())
    }

    /// Total-least-squares plane through 3D points: rms of orthogonal distances
    /// (smallest eigenvalue of the covariance, by inverse iteration).
    static func planeFitRMS(_ points: [(Double, Double, Double)]) -> Double {
        let n = Double(points.count)
        var m = (0.0, 0.0, 0.0)
        for p in points {
            m.0 += p.0
            m.1 += p.1
            m.2 += p.2
        }
        m = (m.0 / n, m.1 / n, m.2 / n)
        var c = [[Double]](repeating: [0, 0, 0], count: 3)
        for p in points {
            let d = [p.0 - m.0, p.1 - m.1, p.2 - m.2]
            for i in 0..<3 { for j in 0..<3 { c[i][j] += d[i] * d[j] / n } }
        }
        // Inverse iteration with a tiny shift finds the smallest eigenvalue.
        var v = [0.0, 0.0, 1.0]
        let shifted = (0..<3).map { i in (0..<3).map { j in c[i][j] + (i == j ? 1e-15 : 0) } }
        for _ in 0..<50 {
            var w = solve3(shifted, v)
            let norm = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).squareRoot()
            w = w.map { $0 / norm }
            v = w
        }
        var sq = 0.0
        for p in points {
            let d = (p.0 - m.0) * v[0] + (p.1 - m.1) * v[1] + (p.2 - m.2) * v[2]
            sq += d * d
        }
        return (sq / n).squareRoot()
    }

    static func solve3(_ a: [[Double]], _ b: [Double]) -> [Double] {
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(a)
        return (0..<3).map { k in
            var m = a
            for i in 0..<3 { m[i][k] = b[i] }
            return det(m) / d
        }
    }

    /// Back-projects a depth map through a pinhole whose image is `imageWidth` x
    /// `imageHeight` px with focal `focal` px: depth cell (i, j) is the image point
    /// ((i + 1/2) W / w, (j + 1/2) H / h); X = (x - W/2) z / f, Y = (y - H/2) z / f.
    static func backProject(_ depth: DepthMap, imageWidth: Int, imageHeight: Int, focal: Double)
        -> [(Double, Double, Double)]
    {
        var out: [(Double, Double, Double)] = []
        let sx = Double(imageWidth) / Double(depth.width), sy = Double(imageHeight) / Double(depth.height)
        for j in 0..<depth.height {
            for i in 0..<depth.width {
                let z = Double(depth[i, j])
                guard z.isFinite else { continue }
                let x = (Double(i) + 0.5) * sx - Double(imageWidth) / 2
                let y = (Double(j) + 0.5) * sy - Double(imageHeight) / 2
                out.append((x * z / focal, y * z / focal, z))
            }
        }
        return out
    }

    /// SAD block matching of the left image against the right one (rectified, right
    /// camera to the right, so a left pixel x appears at x - d): integer search over
    /// 0...maxDisparity, parabolic sub-pixel refinement. Returns (x, y, d) at block
    /// centres whose match is unambiguous (best SAD at least 15 % below the second best
    /// outside +-1 and enough texture).
    static func blockMatch(
        left: [Double], right: [Double], width w: Int, height h: Int,
        block: Int, step: Int, maxDisparity: Int
    ) -> [(Double, Double, Double)] {
        var out: [(Double, Double, Double)] = []
        let r = block / 2
        var y = r
        while y < h - r {
            var x = r + maxDisparity
            while x < w - r {
                var mean = 0.0, sq = 0.0
                for dy in -r...r {
                    for dx in -r...r {
                        let v = left[(y + dy) * w + x + dx]
                        mean += v
                        sq += v * v
                    }
                }
                let count = Double((2 * r + 1) * (2 * r + 1))
                let variance = sq / count - (mean / count) * (mean / count)
                if variance < 4 {
                    x += step
                    continue
                }
                var costs = [Double](repeating: 0, count: maxDisparity + 1)
                for d in 0...maxDisparity {
                    var sad = 0.0
                    for dy in -r...r {
                        let rowL = (y + dy) * w, rowR = rowL - d
                        for dx in -r...r { sad += abs(left[rowL + x + dx] - right[rowR + x + dx]) }
                    }
                    costs[d] = sad
                }
                let best = costs.indices.min { costs[$0] < costs[$1] }!
                let second = costs.indices.filter { abs($0 - best) > 1 }.map { costs[$0] }.min() ?? .infinity
                if best > 0 && best < maxDisparity && costs[best] < 0.85 * second {
                    let c0 = costs[best - 1], c1 = costs[best], c2 = costs[best + 1]
                    let denom = c0 - 2 * c1 + c2
                    let sub = denom > 0 ? 0.5 * (c0 - c2) / denom : 0
                    out.append((Double(x), Double(y), Double(best) + sub))
                }
                x += step
            }
            y += step
        }
        return out
    }

    /// Affine fit with iterative rejection of points beyond 3 x the median absolute
    /// residual (robust against mismatches); returns the fit and the inlier share.
    static func robustAffineFit(_ pts: [(Double, Double, Double)]) -> (
        a: Double, b: Double, c: Double, rms: Double, inliers: Double
    ) {
        var keep = pts
        var fit = affineFit(x: keep.map { $0.0 }, y: keep.map { $0.1 }, z: keep.map { $0.2 })
        for _ in 0..<3 {
            let res = pts.map { abs($0.2 - (fit.a + fit.b * $0.0 + fit.c * $0.1)) }
            let mad = res.sorted()[res.count / 2]
            let limit = max(3 * 1.4826 * mad, 0.05)
            keep = zip(pts, res).filter { $0.1 <= limit }.map { $0.0 }
            fit = affineFit(x: keep.map { $0.0 }, y: keep.map { $0.1 }, z: keep.map { $0.2 })
        }
        return (fit.a, fit.b, fit.c, fit.rms, Double(keep.count) / Double(pts.count))
    }
}
