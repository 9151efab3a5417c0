import Foundation
import RialMedia

extension DepthAnalyzerV2 {
    /// Back-projected sample points (structure of arrays, metres) with each point's
    /// inlier band `t = inlierSigmas σ(z)`.
    struct SamplePoints {
        var x: [Double] = [], y: [Double] = [], z: [Double] = [], band: [Double] = []

        var count: Int { z.count }

        mutating func reserve(_ n: Int) {
            x.reserveCapacity(n)
            y.reserveCapacity(n)
            z.reserveCapacity(n)
            band.reserveCapacity(n)
        }

        mutating func append(x px: Double, y py: Double, z pz: Double, band t: Double) {
            x.append(px)
            y.append(py)
            z.append(pz)
            band.append(t)
        }
    }

    /// A plane found by sequential RANSAC and its share of the sample.
    struct FoundPlane {
        var model: PlaneModel
        var inliers: Int
        var sampleCount: Int
        /// RMS depth residual of the inliers along their rays, metres.
        var rmsResidual: Double

        var summary: Plane {
            let o = model.oriented
            return Plane(
                normal: [o.nx, o.ny, o.nz], distance: -o.d,
                inlierFraction: Double(inliers) / Double(sampleCount),
                rmsResidualMm: rmsResidual * 1000, tiltDegrees: o.tiltDegrees)
        }
    }

    /// Whether point `p = (x, y, z)` is within its band `t` of plane `m` (`n · p + d = 0`),
    /// by its depth residual along the ray: with `s = n · p`, the ray through `p` meets
    /// the plane at depth `ẑ = -d z / s`, so `|z - ẑ| = z |s + d| / |s|` and the test
    /// `z |s + d| <= t |s|` needs no division (false for a ray parallel to the plane).
    @inline(__always)
    static func isInlier(_ m: PlaneModel, _ x: Double, _ y: Double, _ z: Double, _ t: Double) -> Bool {
        let s = m.nx * x + m.ny * y + m.nz * z
        return z * abs(s + m.d) <= t * abs(s)
    }

    /// Signed depth residual `z - ẑ` of a point against plane `m` (positive: the point is
    /// behind the plane), `+infinity` when its ray does not meet the plane in front of the
    /// camera.
    @inline(__always)
    static func depthResidual(_ m: PlaneModel, _ x: Double, _ y: Double, _ z: Double) -> Double {
        let o = m.d > 0 ? PlaneModel(nx: -m.nx, ny: -m.ny, nz: -m.nz, d: -m.d) : m
        let s = o.nx * x + o.ny * y + o.nz * z
        guard s > 0 else { return .infinity }
        return z * (s + o.d) / s
    }

    /// The best plane of the points `active[0..<count]` by RANSAC: up to
    /// `ransacIterations` seeded three-point hypotheses (adaptive stop at
    /// `ransacConfidence`, at least `ransacMinIterations`) counted on at most
    /// `hypothesisPoints` evenly spaced active points, then `refinementRounds` total
    /// least-squares re-fits on the inliers among all active points. Nil when no
    /// hypothesis is proper (fewer than 3 points, or all collinear).
    ///
    /// The active points are first copied into contiguous arrays, in `active` order, and
    /// the evenly spaced ones into a second set when they are not all of them: every
    /// hypothesis and refinement then reads consecutive memory instead of gathering
    /// through `active`, with the same points, the same order and the same arithmetic, so
    /// the same plane to the last bit.
    static func ransacPlane(
        _ points: SamplePoints, active: UnsafeBufferPointer<Int32>, rng: inout SplitMix64,
        configuration c: Configuration
    ) -> PlaneModel? {
        let count = active.count
        guard count >= 3 else { return nil }
        var all = PackedPoints(capacity: count)
        points.x.withUnsafeBufferPointer { x in
            points.y.withUnsafeBufferPointer { y in
                points.z.withUnsafeBufferPointer { z in
                    points.band.withUnsafeBufferPointer { t in
                        for j in active {
                            let i = Int(j)
                            all.append(x[i], y[i], z[i], t[i])
                        }
                    }
                }
            }
        }
        let sample = all.every(Swift.max(1, count / c.hypothesisPoints))
        // Distinct positions in `active` are distinct points (its indices are distinct).
        let best = ThreePointRansac.best(
            count: count, scoredCount: sample.count, rng: &rng, maximum: c.ransacIterations,
            minimum: c.ransacMinIterations, confidence: c.ransacConfidence,
            model: { PlaneModel(all.point($0), all.point($1), all.point($2)) }, inliers: { sample.inliers(of: $0) })
        guard var model = best else { return nil }
        for _ in 0..<c.refinementRounds {
            guard let refined = all.inlierMoments(of: model).plane else { break }
            model = refined
        }
        return model
    }

    /// Points copied into consecutive memory (structure of arrays) for RANSAC's inner
    /// loops.
    struct PackedPoints {
        private(set) var x: [Double] = [], y: [Double] = [], z: [Double] = [], t: [Double] = []

        init(capacity: Int) {
            x.reserveCapacity(capacity)
            y.reserveCapacity(capacity)
            z.reserveCapacity(capacity)
            t.reserveCapacity(capacity)
        }

        @inline(__always) mutating func append(_ px: Double, _ py: Double, _ pz: Double, _ pt: Double) {
            x.append(px)
            y.append(py)
            z.append(pz)
            t.append(pt)
        }

        var count: Int { x.count }

        @inline(__always) func point(_ i: Int) -> SIMD3<Double> { SIMD3(x[i], y[i], z[i]) }

        /// Points `0, step, 2 step, ...`: these points themselves (no copy) when `step` is 1.
        func every(_ step: Int) -> PackedPoints {
            guard step > 1 else { return self }
            var sample = PackedPoints(capacity: (x.count + step - 1) / step)
            for i in Swift.stride(from: 0, to: x.count, by: step) { sample.append(x[i], y[i], z[i], t[i]) }
            return sample
        }

        /// How many points are within their band of `m` (`isInlier`).
        func inliers(of m: PlaneModel) -> Int {
            withColumns { x, y, z, t in
                var count = 0
                for i in 0..<x.count where isInlier(m, x[i], y[i], z[i], t[i]) { count &+= 1 }
                return count
            }
        }

        /// The moments of the points within their band of `m`, in order.
        func inlierMoments(of m: PlaneModel) -> MomentAccumulator {
            withColumns { x, y, z, t in
                var moments = MomentAccumulator()
                for i in 0..<x.count where isInlier(m, x[i], y[i], z[i], t[i]) { moments.add(x[i], y[i], z[i]) }
                return moments
            }
        }

        /// `body` on the four columns.
        @inline(__always) private func withColumns<R>(
            _ body: (
                UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>,
                UnsafeBufferPointer<Double>
            ) -> R
        ) -> R {
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    z.withUnsafeBufferPointer { z in t.withUnsafeBufferPointer { t in body(x, y, z, t) } }
                }
            }
        }
    }

    /// Sequential RANSAC over the sample points: `ransacPlane` on the remaining points,
    /// its inliers removed, up to `maxPlanes` planes each holding at least
    /// `minPlaneFraction` of the sample; deterministic for a configuration.
    static func sequentialPlanes(_ points: SamplePoints, configuration c: Configuration) -> [FoundPlane] {
        let n = points.count
        let minimum = Swift.max(3, Int((c.minPlaneFraction * Double(n)).rounded(.up)))
        var rng = SplitMix64(seed: c.seed)
        var active = [Int32](0..<Int32(n))
        var planes: [FoundPlane] = []
        for _ in 0..<c.maxPlanes {
            let count = active.count
            guard count >= minimum else { break }
            guard
                let model = active.withUnsafeBufferPointer({
                    ransacPlane(points, active: $0, rng: &rng, configuration: c)
                })
            else { break }
            var inliers = 0, squares = 0.0
            var kept = 0
            for j in 0..<count {
                let i = Int(active[j])
                let (x, y, z, t) = (points.x[i], points.y[i], points.z[i], points.band[i])
                if isInlier(model, x, y, z, t) {
                    inliers += 1
                    let r = depthResidual(model, x, y, z)
                    squares += r * r
                } else {
                    active[kept] = active[j]
                    kept += 1
                }
            }
            guard inliers >= minimum else { break }
            active.removeLast(count - kept)
            planes.append(
                FoundPlane(
                    model: model, inliers: inliers, sampleCount: n,
                    rmsResidual: (squares / Double(inliers)).squareRoot()))
        }
        return planes
    }
}
