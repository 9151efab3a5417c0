import Foundation

extension TemporalAnalyzerV2 {
    /// Pinhole back-projection and projection on one keyframe size, with the valid range.
    struct Camera {
        let fx: Double, fy: Double, cx: Double, cy: Double
        let width: Int, height: Int
        let lo: Float, hi: Float

        /// The 3D point of pixel `(x, y)` of `d` (camera coordinates, metres), nil when its
        /// depth is not valid.
        @inline(__always) func point(_ d: UnsafeBufferPointer<Float>, _ x: Int, _ y: Int) -> SIMD3<Double>? {
            let v = d[y * width + x]
            guard v >= lo && v <= hi else { return nil }
            let z = Double(v)
            return SIMD3((Double(x) - cx) * z / fx, (Double(y) - cy) * z / fy, z)
        }

        /// The image position of `p`; nil behind the camera.
        @inline(__always) func project(_ p: SIMD3<Double>) -> (u: Double, v: Double)? {
            guard p.z > 1e-6 else { return nil }
            return (fx * p.x / p.z + cx, fy * p.y / p.z + cy)
        }

        /// The nearest pixel of `(u, v)` with a full 3x3 neighbourhood inside the map.
        @inline(__always) func pixel(_ u: Double, _ v: Double) -> (x: Int, y: Int)? {
            guard u.isFinite, v.isFinite else { return nil }
            let x = Int(u.rounded()), y = Int(v.rounded())
            guard x >= 1, y >= 1, x < width - 1, y < height - 1 else { return nil }
            return (x, y)
        }

        /// The unit surface normal at pixel `(x, y)` from central differences of the
        /// back-projected neighbours; nil when a neighbour is invalid or across a depth
        /// discontinuity (neighbours more than 5% apart in depth).
        @inline(__always) func normal(_ d: UnsafeBufferPointer<Float>, _ x: Int, _ y: Int) -> SIMD3<Double>? {
            guard let l = point(d, x - 1, y), let r = point(d, x + 1, y), let u = point(d, x, y - 1),
                let b = point(d, x, y + 1)
            else { return nil }
            guard abs(r.z - l.z) < 0.05 * (r.z + l.z), abs(b.z - u.z) < 0.05 * (b.z + u.z) else { return nil }
            let e1 = r - l, e2 = b - u
            let n = SIMD3(e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x)
            let length = (n * n).sum().squareRoot()
            guard length > 0, length.isFinite else { return nil }
            return n / length
        }
    }

    /// A rigid motion `p -> R p + t` (camera coordinates of one keyframe to another's).
    struct RigidMotion: Equatable {
        var r0 = SIMD3<Double>(1, 0, 0), r1 = SIMD3<Double>(0, 1, 0), r2 = SIMD3<Double>(0, 0, 1)
        var t = SIMD3<Double>(0, 0, 0)

        static let identity = RigidMotion()

        @inline(__always) func apply(_ p: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((r0 * p).sum(), (r1 * p).sum(), (r2 * p).sum()) + t
        }

        /// `other` after `self`: `p -> other(self(p))`.
        func followed(by other: RigidMotion) -> RigidMotion {
            let columns = (SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
            func row(_ o: SIMD3<Double>) -> SIMD3<Double> {
                SIMD3((o * columns.0).sum(), (o * columns.1).sum(), (o * columns.2).sum())
            }
            return RigidMotion(
                r0: row(other.r0), r1: row(other.r1), r2: row(other.r2),
                t: SIMD3((other.r0 * t).sum(), (other.r1 * t).sum(), (other.r2 * t).sum()) + other.t)
        }

        /// The rotation `exp([ω]x)` (Rodrigues) applied after this motion, then the
        /// translation `dt`.
        func updated(omega: SIMD3<Double>, dt: SIMD3<Double>) -> RigidMotion {
            let theta = (omega * omega).sum().squareRoot()
            var step = RigidMotion()
            if theta > 1e-15 {
                let k = omega / theta, s = sin(theta), c1 = 1 - cos(theta)
                step.r0 = SIMD3(1 - c1 * (k.y * k.y + k.z * k.z), -s * k.z + c1 * k.x * k.y, s * k.y + c1 * k.x * k.z)
                step.r1 = SIMD3(s * k.z + c1 * k.x * k.y, 1 - c1 * (k.x * k.x + k.z * k.z), -s * k.x + c1 * k.y * k.z)
                step.r2 = SIMD3(-s * k.y + c1 * k.x * k.z, s * k.x + c1 * k.y * k.z, 1 - c1 * (k.x * k.x + k.y * k.y))
            }
            step.t = dt
            return followed(by: step)
        }

        /// Rotation angle, degrees.
        var rotationDegrees: Double {
            acos(Swift.min(1, Swift.max(-1, (r0.x + r1.y + r2.z - 1) / 2))) * 180 / Double.pi
        }

        var translationLength: Double { (t * t).sum().squareRoot() }
    }

    /// The outcome of one motion estimate.
    struct Alignment {
        var motion: RigidMotion
        /// Correspondences of the final motion.
        var correspondences: Int
        /// Those within `band` (point-to-plane) after alignment.
        var inliers: Int
    }

    /// The rigid motion taking keyframe `source` onto keyframe `target`: point-to-plane ICP
    /// with projective data association (Chen and Medioni 1992; the association of
    /// KinectFusion, Newcombe et al. 2011). Each iteration moves the valid source pixels
    /// of a `stride` grid by the current motion, projects them into the target, pairs each
    /// with the target's point and normal at the nearest pixel, drops pairs farther than
    /// `rejection` apart along the normal, and solves the linearised 6x6 normal equations
    /// (small-angle rotation, damped by 1e-6 of the largest diagonal entry so the
    /// directions a plane leaves free stay put) with depth/2's Cholesky solver, until
    /// `iterations` or an update below 1e-4 (rad + m). With `band`, a last pass counts the
    /// final motion's correspondences and those within `band(z)` (`Alignment.inliers`).
    ///
    /// A plane constrains only three of the six motion parameters (it slides in itself):
    /// the estimate is then whatever the damping leaves, which is harmless because no
    /// relief exists to show parallax. Nil with fewer than `minimum` correspondences.
    ///
    /// - Complexity: O((iterations + 1) w h / stride²); no allocation per point.
    static func align(
        source: UnsafeBufferPointer<Float>, target: UnsafeBufferPointer<Float>, camera: Camera, stride: Int,
        iterations: Int, rejection: Double, initial: RigidMotion, minimum: Int, band: ((Double) -> Double)?,
        points: inout [SIMD3<Double>]
    ) -> Alignment? {
        points.removeAll(keepingCapacity: true)
        var y = stride / 2
        while y < camera.height {
            var x = stride / 2
            while x < camera.width {
                if let p = camera.point(source, x, y) { points.append(p) }
                x += stride
            }
            y += stride
        }
        var motion = initial
        var normal = [Double](repeating: 0, count: 36)
        var count = 0
        for _ in 0..<iterations {
            // Lower triangle of Σ J Jᵀ and Σ J r, J = [q × n, n].
            var h = (
                0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
            )
            var g = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            count = 0
            for p in points {
                let q = motion.apply(p)
                guard let uv = camera.project(q), let px = camera.pixel(uv.u, uv.v),
                    let target3 = camera.point(target, px.x, px.y), let n = camera.normal(target, px.x, px.y)
                else { continue }
                let r = (n * (q - target3)).sum()
                guard abs(r) <= rejection else { continue }
                count += 1
                let a = q.y * n.z - q.z * n.y, b = q.z * n.x - q.x * n.z, c = q.x * n.y - q.y * n.x
                let d = n.x, e = n.y, f = n.z
                h.0 += a * a
                h.1 += b * a
                h.2 += b * b
                h.3 += c * a
                h.4 += c * b
                h.5 += c * c
                h.6 += d * a
                h.7 += d * b
                h.8 += d * c
                h.9 += d * d
                h.10 += e * a
                h.11 += e * b
                h.12 += e * c
                h.13 += e * d
                h.14 += e * e
                h.15 += f * a
                h.16 += f * b
                h.17 += f * c
                h.18 += f * d
                h.19 += f * e
                h.20 += f * f
                g.0 -= a * r
                g.1 -= b * r
                g.2 -= c * r
                g.3 -= d * r
                g.4 -= e * r
                g.5 -= f * r
            }
            guard count >= minimum else { return nil }
            let lower = [
                h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7, h.8, h.9, h.10, h.11, h.12, h.13, h.14, h.15, h.16, h.17,
                h.18, h.19, h.20,
            ]
            var k = 0
            for j in 0..<6 {
                for i in 0...j {
                    normal[j * 6 + i] = lower[k]
                    k += 1
                }
            }
            let largest = Swift.max(h.0, h.2, h.5, h.9, h.14, h.20)
            for j in 0..<6 { normal[j * 6 + j] += 1e-6 * largest }
            guard let step = DepthAnalyzerV2.SheetModel.choleskySolve(&normal, [g.0, g.1, g.2, g.3, g.4, g.5]),
                step.allSatisfy({ $0.isFinite })
            else { break }
            motion = motion.updated(omega: SIMD3(step[0], step[1], step[2]), dt: SIMD3(step[3], step[4], step[5]))
            // Converged: the update moves a point 1 m away by less than 0.1 mm.
            if abs(step[0]) + abs(step[1]) + abs(step[2]) + abs(step[3]) + abs(step[4]) + abs(step[5]) < 1e-4 {
                break
            }
        }
        guard let band else { return Alignment(motion: motion, correspondences: count, inliers: 0) }
        // The final motion's correspondences and those it explains to within the band.
        var inliers = 0
        count = 0
        for p in points {
            let q = motion.apply(p)
            guard let uv = camera.project(q), let px = camera.pixel(uv.u, uv.v),
                let target3 = camera.point(target, px.x, px.y), let n = camera.normal(target, px.x, px.y)
            else { continue }
            let r = abs((n * (q - target3)).sum())
            guard r <= rejection else { continue }
            count += 1
            if r <= band(target3.z) { inliers += 1 }
        }
        guard count >= minimum else { return nil }
        return Alignment(motion: motion, correspondences: count, inliers: inliers)
    }
}
