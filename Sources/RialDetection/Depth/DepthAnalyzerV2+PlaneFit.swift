import Foundation

extension DepthAnalyzerV2 {
    /// A plane `n · p + d = 0` with unit `n`, in the working precision of the fit.
    struct PlaneModel: Equatable {
        var nx: Double, ny: Double, nz: Double, d: Double

        /// Through three points; nil when they are (nearly) collinear.
        init?(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>) {
            let u = b - a, v = c - a
            let n = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
            let length = (n * n).sum().squareRoot()
            let scale = ((u * u).sum() * (v * v).sum()).squareRoot()
            guard length.isFinite, length > 1e-9 * scale, length > 0 else { return nil }
            let unit = n / length
            self.init(nx: unit.x, ny: unit.y, nz: unit.z, d: -(unit * a).sum())
        }

        init(nx: Double, ny: Double, nz: Double, d: Double) {
            self.nx = nx
            self.ny = ny
            self.nz = nz
            self.d = d
        }

        /// Oriented away from the camera (`d <= 0`, so `n · p = -d >= 0` on the plane).
        var oriented: PlaneModel {
            d > 0 ? PlaneModel(nx: -nx, ny: -ny, nz: -nz, d: -d) : self
        }

        /// Angle between the normal and the optical axis, degrees, 0...90.
        var tiltDegrees: Double { acos(Swift.min(1, abs(nz))) * 180 / Double.pi }
    }

    /// Accumulates first and second moments of points for the least-squares plane: the
    /// plane through the centroid whose normal is the eigenvector of the smallest
    /// eigenvalue of the covariance (total least squares, minimising Σ distance²).
    struct MomentAccumulator {
        var count = 0
        var sx = 0.0, sy = 0.0, sz = 0.0
        var sxx = 0.0, syy = 0.0, szz = 0.0, sxy = 0.0, sxz = 0.0, syz = 0.0

        @inline(__always) mutating func add(_ x: Double, _ y: Double, _ z: Double) {
            count += 1
            sx += x
            sy += y
            sz += z
            sxx += x * x
            syy += y * y
            szz += z * z
            sxy += x * y
            sxz += x * z
            syz += y * z
        }

        /// Nil with fewer than 3 points or a degenerate (collinear) cloud.
        var plane: PlaneModel? {
            guard count >= 3 else { return nil }
            let n = Double(count)
            let mx = sx / n, my = sy / n, mz = sz / n
            let a = sxx / n - mx * mx, b = syy / n - my * my, c = szz / n - mz * mz
            let ab = sxy / n - mx * my, ac = sxz / n - mx * mz, bc = syz / n - my * mz
            guard let normal = Self.smallestEigenvector(a, b, c, ab, ac, bc) else { return nil }
            return PlaneModel(
                nx: normal.x, ny: normal.y, nz: normal.z,
                d: -(normal.x * mx + normal.y * my + normal.z * mz))
        }

        /// Unit eigenvector of the smallest eigenvalue of the symmetric matrix
        /// `[[a, ab, ac], [ab, b, bc], [ac, bc, c]]`: eigenvalues in closed form
        /// (trigonometric solution of the characteristic cubic, Smith 1961), the vector
        /// as the longest cross product of two rows of `M - λ I`.
        static func smallestEigenvector(
            _ a: Double, _ b: Double, _ c: Double,
            _ ab: Double, _ ac: Double, _ bc: Double
        ) -> SIMD3<Double>? {
            let q = (a + b + c) / 3
            let p1 = ab * ab + ac * ac + bc * bc
            let p2 = (a - q) * (a - q) + (b - q) * (b - q) + (c - q) * (c - q) + 2 * p1
            let p = (p2 / 6).squareRoot()
            guard p.isFinite, p > 0 else { return nil }
            let b11 = (a - q) / p, b22 = (b - q) / p, b33 = (c - q) / p
            let b12 = ab / p, b13 = ac / p, b23 = bc / p
            let det = b11 * (b22 * b33 - b23 * b23) - b12 * (b12 * b33 - b23 * b13) + b13 * (b12 * b23 - b22 * b13)
            let r = Swift.min(1, Swift.max(-1, det / 2))
            let phi = acos(r) / 3
            let lambda = q + 2 * p * cos(phi + 2 * Double.pi / 3)
            let r0 = SIMD3(a - lambda, ab, ac), r1 = SIMD3(ab, b - lambda, bc), r2 = SIMD3(ac, bc, c - lambda)
            func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
                SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
            }
            let candidates = [cross(r0, r1), cross(r0, r2), cross(r1, r2)]
            var best = candidates[0], bestNorm = (best * best).sum()
            for v in candidates.dropFirst() {
                let norm = (v * v).sum()
                if norm > bestNorm {
                    best = v
                    bestNorm = norm
                }
            }
            guard bestNorm.isFinite, bestNorm > 0 else { return nil }
            return best / bestNorm.squareRoot()
        }
    }
}
