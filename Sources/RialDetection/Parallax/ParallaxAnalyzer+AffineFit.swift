import Foundation
import RialMedia

extension ParallaxAnalyzer {
    /// `d = a x + b y + c` in the coordinates of the fit (working px).
    struct AffineModel: Equatable {
        var a: Double, b: Double, c: Double

        @inline(__always) func residual(_ x: Double, _ y: Double, _ d: Double) -> Double { d - (a * x + b * y + c) }

        /// Through three points `(x, y, d)`; nil when they are (nearly) collinear in the
        /// image plane (twice the triangle area below `minimumArea2`).
        init?(_ p: SIMD3<Double>, _ q: SIMD3<Double>, _ r: SIMD3<Double>, minimumArea2: Double) {
            let ux = q.x - p.x, uy = q.y - p.y, vx = r.x - p.x, vy = r.y - p.y
            let det = ux * vy - uy * vx
            guard abs(det) >= minimumArea2, det.isFinite else { return nil }
            let ud = q.z - p.z, vd = r.z - p.z
            a = (ud * vy - uy * vd) / det
            b = (ux * vd - ud * vx) / det
            c = p.z - a * p.x - b * p.y
        }

        init(a: Double, b: Double, c: Double) {
            self.a = a
            self.b = b
            self.c = c
        }
    }

    /// Sums for the least-squares plane `d = a x + b y + c` (minimises Σ residual²),
    /// accumulated about a fixed origin so the 3x3 normal equations stay well conditioned.
    struct AffineAccumulator {
        let ox: Double, oy: Double
        var n = 0.0, sx = 0.0, sy = 0.0, sd = 0.0
        var sxx = 0.0, syy = 0.0, sxy = 0.0, sxd = 0.0, syd = 0.0

        init(originX: Double, originY: Double) {
            ox = originX
            oy = originY
        }

        @inline(__always) mutating func add(_ x: Double, _ y: Double, _ d: Double) {
            let u = x - ox, v = y - oy
            n += 1
            sx += u
            sy += v
            sd += d
            sxx += u * u
            syy += v * v
            sxy += u * v
            sxd += u * d
            syd += v * d
        }

        /// Nil with fewer than 3 points or collinear points (Cramer's rule on the
        /// normal equations, relative determinant below 1e-12).
        var model: AffineModel? {
            guard n >= 3 else { return nil }
            // [sxx sxy sx; sxy syy sy; sx sy n] [a b c']ᵀ = [sxd syd sd]ᵀ
            let m00 = sxx, m01 = sxy, m02 = sx, m11 = syy, m12 = sy, m22 = n
            let c00 = m11 * m22 - m12 * m12, c01 = m02 * m12 - m01 * m22, c02 = m01 * m12 - m02 * m11
            let det = m00 * c00 + m01 * c01 + m02 * c02
            guard det.isFinite, abs(det) > 1e-12 * (m00 * m11 * m22 + 1e-300) else { return nil }
            let c11 = m00 * m22 - m02 * m02, c12 = m01 * m02 - m00 * m12, c22 = m00 * m11 - m01 * m01
            let a = (c00 * sxd + c01 * syd + c02 * sd) / det
            let b = (c01 * sxd + c11 * syd + c12 * sd) / det
            let c = (c02 * sxd + c12 * syd + c22 * sd) / det
            return AffineModel(a: a, b: b, c: c - a * ox - b * oy)
        }
    }

    /// The dominant affine disparity plane and its inliers.
    struct AffineFit {
        var model: AffineModel
        var inliers: Int
        /// RMS of the inliers' residuals and of every point's residual, fit units.
        var inlierRMS: Double
        var allRMS: Double
    }

    /// RANSAC on the points `(x, y, d)` (working px) with inlier band `|residual| <=
    /// threshold`: `ransacMinIterations...ransacIterations` seeded (SplitMix64) three-point
    /// hypotheses with the adaptive stop of Fischler & Bolles at `ransacConfidence`,
    /// triples spanning less than one grid cell of area skipped; the best (most inliers)
    /// is refined `refinementRounds` times by least squares on its inliers. Nil with
    /// fewer than 3 points or when every hypothesis is degenerate. Deterministic for a
    /// configuration.
    ///
    /// - Complexity: O(iterations x n + refinementRounds x n).
    static func fitPlane(
        x: [Double], y: [Double], d: [Double], threshold: Double, minimumArea2: Double,
        configuration c: Configuration
    ) -> AffineFit? {
        let n = d.count
        guard n >= 3 else { return nil }
        var rng = SplitMix64(seed: c.seed)
        let best = x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                d.withUnsafeBufferPointer { d in
                    @inline(__always) func point(_ i: Int) -> SIMD3<Double> { SIMD3(x[i], y[i], d[i]) }
                    return ThreePointRansac.best(
                        count: n, scoredCount: n, rng: &rng, maximum: c.ransacIterations,
                        minimum: c.ransacMinIterations, confidence: c.ransacConfidence,
                        model: { AffineModel(point($0), point($1), point($2), minimumArea2: minimumArea2) },
                        inliers: { m in
                            var count = 0
                            for p in 0..<n where abs(m.residual(x[p], y[p], d[p])) <= threshold { count += 1 }
                            return count
                        })
                }
            }
        }
        guard var model = best else { return nil }
        let ox = x.reduce(0, +) / Double(n), oy = y.reduce(0, +) / Double(n)
        for _ in 0..<c.refinementRounds {
            var sums = AffineAccumulator(originX: ox, originY: oy)
            for p in 0..<n where abs(model.residual(x[p], y[p], d[p])) <= threshold { sums.add(x[p], y[p], d[p]) }
            guard let refined = sums.model else { break }
            model = refined
        }
        var inliers = 0, inlierSquares = 0.0, allSquares = 0.0
        for p in 0..<n {
            let e = model.residual(x[p], y[p], d[p])
            allSquares += e * e
            if abs(e) <= threshold {
                inliers += 1
                inlierSquares += e * e
            }
        }
        return AffineFit(
            model: model, inliers: inliers,
            inlierRMS: inliers > 0 ? (inlierSquares / Double(inliers)).squareRoot() : 0,
            allRMS: (allSquares / Double(n)).squareRoot())
    }
}
