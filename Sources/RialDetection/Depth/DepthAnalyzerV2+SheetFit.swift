import Foundation

extension DepthAnalyzerV2 {
    /// A gently curved sheet: a quadric height field over a plane. With the plane's unit
    /// normal `n` (oriented away from the camera), in-plane unit axes `u`, `v` and a
    /// point `p`, the in-plane coordinates are `a = u · p - a0`, `b = v · p - b0` and the
    /// sheet is `n · p = h(a, b) = c0 + c1 a + c2 b + c3 a² + c4 a b + c5 b²` (metres).
    /// The plane itself is `c = (D, 0, 0, 0, 0, 0)` with `D` its distance from the camera.
    struct SheetModel: Equatable {
        var n: SIMD3<Double>, u: SIMD3<Double>, v: SIMD3<Double>
        var a0 = 0.0, b0 = 0.0
        var c: (Double, Double, Double, Double, Double, Double)

        static func == (l: SheetModel, r: SheetModel) -> Bool {
            l.n == r.n && l.u == r.u && l.v == r.v && l.a0 == r.a0 && l.b0 == r.b0
                && l.c.0 == r.c.0 && l.c.1 == r.c.1 && l.c.2 == r.c.2 && l.c.3 == r.c.3 && l.c.4 == r.c.4
                && l.c.5 == r.c.5
        }

        /// The plane as a sheet; `u` is the normal's cross product with the camera's y axis
        /// (or x axis for a plane facing up or down), `v = n × u`.
        init(plane: PlaneModel) {
            let o = plane.oriented
            n = SIMD3(o.nx, o.ny, o.nz)
            let axis: SIMD3<Double> = abs(o.ny) < 0.9 ? SIMD3(0, 1, 0) : SIMD3(1, 0, 0)
            var a = SIMD3(axis.y * n.z - axis.z * n.y, axis.z * n.x - axis.x * n.z, axis.x * n.y - axis.y * n.x)
            a /= (a * a).sum().squareRoot()
            u = a
            v = SIMD3(n.y * a.z - n.z * a.y, n.z * a.x - n.x * a.z, n.x * a.y - n.y * a.x)
            c = (-o.d, 0, 0, 0, 0, 0)
        }

        /// Signed depth residual `z - ẑ` of point `(x, y, z)` along its ray (positive: the
        /// point is behind the sheet), to first order: `z (n · p - h(a, b)) / (n · p)`,
        /// exact for the plane. `+infinity` when the ray does not meet the sheet's plane in
        /// front of the camera (`n · p <= 0`).
        /// Branch-free, so that loops over cells vectorise: the quotient is computed for
        /// every point and replaced when `s <= 0`.
        @inline(__always) func residual(_ x: Double, _ y: Double, _ z: Double) -> Double {
            let s = n.x * x + n.y * y + n.z * z
            let a = u.x * x + u.y * y + u.z * z - a0, b = v.x * x + v.y * y + v.z * z - b0
            let h = c.0 + c.1 * a + c.2 * b + c.3 * a * a + c.4 * a * b + c.5 * b * b
            let r = z * (s - h) / s
            return s > 0 ? r : .infinity
        }

        /// Largest absolute principal curvature of the height field, 1/m: the largest
        /// absolute eigenvalue of its Hessian `[[2 c3, c4], [c4, 2 c5]]` (exact where the
        /// sheet is parallel to the plane, `c1 = c2 = 0`). 0 for the plane.
        var curvature: Double {
            let p = c.3 + c.5, q = ((c.3 - c.5) * (c.3 - c.5) + c.4 * c.4).squareRoot()
            return Swift.max(abs(p + q), abs(p - q))
        }

        /// The weighted least-squares sheet over the same plane frame through the points
        /// `(x[i], y[i], z[i])` for `i` in `cells`: minimises `Σ (residual_i / σ_i)²`,
        /// i.e. `Σ w_i (n · p_i - h(a_i, b_i))²` with `w_i = (z_i / (σ_i n · p_i))²`, by
        /// the 6x6 normal equations (Cholesky), the in-plane coordinates centred on the
        /// points' weighted centroid for conditioning. Nil with fewer than 12 points, a
        /// singular system (points on a line) or a non-finite solution.
        func refitted(
            x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>,
            sigma: UnsafeBufferPointer<Double>, cells: UnsafeBufferPointer<Int32>
        ) -> SheetModel? {
            guard cells.count >= 12 else { return nil }
            // Centroid of the in-plane coordinates (unweighted, for conditioning only).
            var ma = 0.0, mb = 0.0
            for cell in cells {
                let i = Int(cell)
                ma += u.x * x[i] + u.y * y[i] + u.z * z[i]
                mb += v.x * x[i] + v.y * y[i] + v.z * z[i]
            }
            ma /= Double(cells.count)
            mb /= Double(cells.count)
            var normal = [Double](repeating: 0, count: 36), rhs = [Double](repeating: 0, count: 6)
            normal.withUnsafeMutableBufferPointer { normal in
                rhs.withUnsafeMutableBufferPointer { rhs in
                    for cell in cells {
                        let i = Int(cell)
                        let px = x[i], py = y[i], pz = z[i]
                        let s = n.x * px + n.y * py + n.z * pz
                        guard s > 0 else { continue }
                        let a = u.x * px + u.y * py + u.z * pz - ma, b = v.x * px + v.y * py + v.z * pz - mb
                        let r = pz / (sigma[i] * s)
                        let w = r * r
                        let phi = SIMD8<Double>(1, a, b, a * a, a * b, b * b, 0, 0)
                        for j in 0..<6 {
                            let wj = w * phi[j]
                            rhs[j] += wj * s
                            for k in 0...j { normal[j * 6 + k] += wj * phi[k] }
                        }
                    }
                }
            }
            guard let solution = Self.choleskySolve(&normal, rhs), solution.allSatisfy({ $0.isFinite }) else {
                return nil
            }
            var fitted = self
            fitted.a0 = ma
            fitted.b0 = mb
            fitted.c = (solution[0], solution[1], solution[2], solution[3], solution[4], solution[5])
            return fitted
        }

        /// Solves `M x = b` for the symmetric positive definite 6x6 `M` whose lower
        /// triangle is in `m` (row-major), in place; nil when a pivot is not positive
        /// (relative to the largest diagonal entry, 1e-12).
        static func choleskySolve(_ m: inout [Double], _ b: [Double]) -> [Double]? {
            let size = 6
            var largest = 0.0
            for j in 0..<size { largest = Swift.max(largest, m[j * size + j]) }
            guard largest > 0, largest.isFinite else { return nil }
            for j in 0..<size {
                var d = m[j * size + j]
                for k in 0..<j { d -= m[j * size + k] * m[j * size + k] }
                guard d > 1e-12 * largest else { return nil }
                let l = d.squareRoot()
                m[j * size + j] = l
                for i in (j + 1)..<size {
                    var s = m[i * size + j]
                    for k in 0..<j { s -= m[i * size + k] * m[j * size + k] }
                    m[i * size + j] = s / l
                }
            }
            var y = b
            for i in 0..<size {
                for k in 0..<i { y[i] -= m[i * size + k] * y[k] }
                y[i] /= m[i * size + i]
            }
            for i in stride(from: size - 1, through: 0, by: -1) {
                for k in (i + 1)..<size { y[i] -= m[k * size + i] * y[k] }
                y[i] /= m[i * size + i]
            }
            return y
        }
    }
}
