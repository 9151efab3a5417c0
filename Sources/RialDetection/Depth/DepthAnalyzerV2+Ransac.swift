import Foundation
import RialMedia

extension DepthAnalyzerV2 {
    /// A plane found by sequential RANSAC and its share of the sample.
    struct FoundPlane {
        var model: PlaneModel
        var inliers: Int
        var sampleCount: Int
        var rmsResidual: Double

        var summary: Plane {
            let o = model.oriented
            return Plane(normal: [o.nx, o.ny, o.nz], distance: -o.d,
                         inlierFraction: Double(inliers) / Double(sampleCount),
                         rmsResidualMm: rmsResidual * 1000, tiltDegrees: o.tiltDegrees)
        }
    }

    /// Sequential RANSAC over the sample points `(x, y, z)` with per-point thresholds
    /// `t` (see the type's documentation); deterministic for a configuration.
    static func sequentialPlanes(x: [Double], y: [Double], z: [Double], t: [Double],
                                 configuration c: Configuration) -> [FoundPlane] {
        let n = z.count
        let minimum = Swift.max(3, Int((c.minPlaneFraction * Double(n)).rounded(.up)))
        var rng = SplitMix64(seed: c.seed)
        var active = [Int32](0..<Int32(n))
        var planes: [FoundPlane] = []
        x.withUnsafeBufferPointer { x in
        y.withUnsafeBufferPointer { y in
        z.withUnsafeBufferPointer { z in
        t.withUnsafeBufferPointer { t in
            @inline(__always) func distance(_ m: PlaneModel, _ i: Int) -> Double {
                abs(m.nx * x[i] + m.ny * y[i] + m.nz * z[i] + m.d)
            }
            @inline(__always) func point(_ i: Int) -> SIMD3<Double> { SIMD3(x[i], y[i], z[i]) }
            for _ in 0..<c.maxPlanes {
                let count = active.count
                guard count >= minimum else { break }
                let step = Swift.max(1, count / c.hypothesisPoints)
                var best: PlaneModel?
                var bestScore = -1
                active.withUnsafeBufferPointer { active in
                    var needed = c.ransacIterations
                    var iteration = 0
                    while iteration < needed {
                        iteration += 1
                        let a = Int(active[Int(rng.bounded(UInt64(count)))])
                        let b = Int(active[Int(rng.bounded(UInt64(count)))])
                        let e = Int(active[Int(rng.bounded(UInt64(count)))])
                        guard a != b, a != e, b != e, let m = PlaneModel(point(a), point(b), point(e)) else { continue }
                        var score = 0
                        var j = 0
                        while j < count {
                            let i = Int(active[j])
                            if distance(m, i) <= t[i] { score += 1 }
                            j += step
                        }
                        if score > bestScore {
                            bestScore = score
                            best = m
                            // Adaptive stop (Fischler & Bolles): enough draws that an
                            // all-inlier triple was seen with probability ransacConfidence.
                            let w = Double(score) / Double((count + step - 1) / step)
                            let miss = 1 - w * w * w
                            if miss <= 0 {
                                needed = Swift.min(needed, c.ransacMinIterations)
                            } else if miss < 1 {
                                let draws = (log(1 - c.ransacConfidence) / log(miss)).rounded(.up)
                                needed = Swift.min(c.ransacIterations, Swift.max(c.ransacMinIterations,
                                                                                   Int(Swift.min(draws, 1e9))))
                            }
                        }
                    }
                }
                guard var model = best else { break }
                for _ in 0..<c.refinementRounds {
                    var moments = MomentAccumulator()
                    for j in active {
                        let i = Int(j)
                        if distance(model, i) <= t[i] { moments.add(x[i], y[i], z[i]) }
                    }
                    guard let refined = moments.plane else { break }
                    model = refined
                }
                var inliers = 0, squares = 0.0
                var kept = 0
                for j in 0..<count {
                    let i = Int(active[j])
                    let r = distance(model, i)
                    if r <= t[i] {
                        inliers += 1
                        squares += r * r
                    } else {
                        active[kept] = active[j]
                        kept += 1
                    }
                }
                guard inliers >= minimum else { break }
                active.removeLast(count - kept)
                planes.append(FoundPlane(model: model, inliers: inliers, sampleCount: n,
                                         rmsResidual: (squares / Double(inliers)).squareRoot()))
            }
        }
        }
        }
        }
        return planes
    }
}
