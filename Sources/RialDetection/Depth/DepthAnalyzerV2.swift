import Foundation
import RialMedia

/// `depth/2`: physically grounded planarity of the LiDAR point cloud, the fix of
/// `depth/1`'s known weaknesses (specs/methods.md section 1). A recapture is a screen
/// or a print: one plane (or a gently curved sheet) filling the frame, with residuals
/// at the sensor-noise level. Constants are those of `Configuration`.
///
/// 1. Valid pixels (finite, `0.1 <= d <= 20`) are back-projected with pinhole
///    intrinsics (argument, else configuration, else `CameraIntrinsics.assumed`: 65
///    degrees horizontal FOV over the map width, principal point at the centre).
///    Fewer than 64 valid pixels -> `.unavailable`, never a throw.
/// 2. Sequential RANSAC on the valid pixels of a stride-2 grid: per plane 32...200 seeded
///    (SplitMix64) three-point hypotheses (adaptive stop at 99.9% confidence) counted on <= 1024 evenly spaced remaining
///    points, inlier when the point-to-plane distance is `<= t(z) = 0.005 + 0.005 z²`
///    metres (LiDAR noise grows with the square of range); the best is refined 3 times
///    by total least squares on its inliers among all remaining points (closed-form
///    3x3 eigenvector); its inliers are removed; up to 4 planes, each with >= 10% of
///    the sample points.
/// 3. The dominant (first) plane is scored on ALL valid pixels at full resolution:
///    `dominant_inlier_fraction`, `rms_residual_mm` of its inliers, `tilt_degrees`.
/// 4. Optional luma image (any size, resampled to the depth grid by area average when
///    larger, bilinear otherwise): the share of depth discontinuities (4-neighbour
///    relative jump > 5%) with a strong luma gradient (> 8 levels per depth pixel)
///    within 1 pixel. Advisory; it does not enter the score.
/// 5. Score: see `Result.score`; `is_likely_real_scene = score > 0.5`.
///
/// Limits: a real flat subject (wall, document, table top) filling the frame scores
/// as low as a screen; `is_planar_subject` says so and aggregation must decide with
/// other signals. A strongly curved sheet can split into several planes and score as
/// real (no quadric fit yet).
///
/// - Complexity: O(w h) for the passes over the map plus
///   O(maxPlanes (iterations * hypothesisPoints + refinementRounds * w h / stride²)).
public struct DepthAnalyzerV2: Sendable, Equatable {
    /// `depth/2`.
    public static let identifier = MethodIdentifier.depthV2

    public let configuration: Configuration

    /// The default configuration.
    public init() {
        configuration = .standard
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// Analyses `map` (and `luma`, a one-plane luma image 0...255 of the same view, or an
    /// RGB planar image, any size) and times it. `intrinsics` in depth-pixel units
    /// overrides the configuration's. Never throws: bad pixels are invalid; too few
    /// valid pixels or invalid intrinsics give `.unavailable`; an unusable image only
    /// leaves the edge fields out.
    public func analyze(_ map: DepthMap, luma: PlanarImage? = nil, intrinsics: CameraIntrinsics? = nil) -> Result {
        let timer = AnalysisTimer()
        var result = evaluate(map, luma: luma, intrinsics: intrinsics)
        result.analysisTimeMs = timer.elapsedMilliseconds
        return result
    }

    /// The analysis without timing (`analysisTimeMs` is 0).
    func evaluate(_ map: DepthMap, luma: PlanarImage? = nil, intrinsics argument: CameraIntrinsics? = nil) -> Result {
        let c = configuration
        let width = map.width, height = map.height, total = width * height
        let lo = Float(c.minValidDepth), hi = Float(c.maxValidDepth)

        var validCount = 0
        for d in map.metres where d >= lo && d <= hi { validCount += 1 }
        let coverage = Double(validCount) / Double(total)
        guard validCount >= c.minValidPixels else {
            return .unavailable(reason: "\(validCount) valid depth pixels of \(total) (finite, \(c.minValidDepth)...\(c.maxValidDepth) m); "
                                + "depth/2 needs at least \(c.minValidPixels)", coverage: coverage, validPixels: validCount)
        }

        let source: String, k: CameraIntrinsics
        if let argument {
            do { try argument.check(key: "intrinsics") } catch {
                return .unavailable(reason: "intrinsics argument: \(error.description)", coverage: coverage,
                                    validPixels: validCount)
            }
            (source, k) = ("argument", argument)
        } else if let configured = c.intrinsics {
            (source, k) = ("configuration", configured)
        } else {
            (source, k) = ("assumed", .assumed(width: width, height: height,
                                               horizontalFieldOfViewDegrees: c.horizontalFieldOfViewDegrees))
        }
        // Normalised ray coordinates per column and row.
        var rayX = [Double](repeating: 0, count: width), rayY = [Double](repeating: 0, count: height)
        for x in 0..<width { rayX[x] = (Double(x) - k.cx) / k.fx }
        for y in 0..<height { rayY[y] = (Double(y) - k.cy) / k.fy }

        // Sample grid: back-projected points and their inlier thresholds (structure of arrays).
        let stride = c.sampleStride
        let capacity = ((width + stride - 1) / stride) * ((height + stride - 1) / stride)
        var px = [Double](), py = [Double](), pz = [Double](), pt = [Double]()
        px.reserveCapacity(capacity); py.reserveCapacity(capacity); pz.reserveCapacity(capacity); pt.reserveCapacity(capacity)
        map.metres.withUnsafeBufferPointer { depth in
            for y in Swift.stride(from: 0, to: height, by: stride) {
                for x in Swift.stride(from: 0, to: width, by: stride) {
                    let d = depth[y * width + x]
                    guard d >= lo && d <= hi else { continue }
                    let z = Double(d)
                    px.append(rayX[x] * z); py.append(rayY[y] * z); pz.append(z)
                    pt.append(c.noiseBase + c.noiseQuadratic * z * z)
                }
            }
        }
        let sampleCount = pz.count
        guard sampleCount >= 3 else {
            return .unavailable(reason: "\(sampleCount) valid pixels on the stride-\(stride) sample grid; need at least 3",
                                coverage: coverage, validPixels: validCount)
        }

        let planes = Self.sequentialPlanes(x: px, y: py, z: pz, t: pt, configuration: c)
        guard let dominant = planes.first else {
            return .unavailable(reason: "degenerate point cloud: no plane holds \(c.minPlaneFraction * 100)% of the "
                                + "\(sampleCount) sample points", coverage: coverage, validPixels: validCount)
        }

        // Dominant plane on every valid pixel.
        var inliers = 0, squares = 0.0
        let plane = dominant.model
        map.metres.withUnsafeBufferPointer { depth in
            for y in 0..<height {
                let ry = rayY[y]
                for x in 0..<width {
                    let d = depth[y * width + x]
                    guard d >= lo && d <= hi else { continue }
                    let z = Double(d)
                    let distance = abs(plane.nx * rayX[x] * z + plane.ny * ry * z + plane.nz * z + plane.d)
                    if distance <= c.noiseBase + c.noiseQuadratic * z * z {
                        inliers += 1
                        squares += distance * distance
                    }
                }
            }
        }
        let inlierFraction = Double(inliers) / Double(validCount)
        let rmsMm = inliers > 0 ? (squares / Double(inliers)).squareRoot() * 1000 : 0

        let quantiles = Self.quantiles(pz, [0.05, 0.5, 0.95])
        let median = quantiles[1]
        let relativeRange = median > 0 ? (quantiles[2] - quantiles[0]) / median : 0
        let band = c.noiseBase + c.noiseQuadratic * median * median
        let residualRatio = rmsMm / 1000 / band

        let outlierTerm = ((1 - inlierFraction) - c.outlierMidpoint) / c.outlierScale
        let residualTerm = Swift.min(c.residualClamp, Swift.max(-c.residualClamp,
                                                                (residualRatio - c.residualMidpoint) / c.residualScale))
        let rangeTerm = Swift.min(c.rangeClamp, Swift.max(-c.rangeClamp, (relativeRange - c.rangeMidpoint) / c.rangeScale))
        let score = 1 / (1 + exp(-(outlierTerm + residualTerm + rangeTerm)))

        var result = Result(status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier,
                            analysisTimeMs: 0, score: score, coverage: coverage, validPixels: validCount)
        result.intrinsics = k
        result.intrinsicsSource = source
        result.planes = planes.map { $0.summary }
        result.planeCount = planes.count
        result.dominantInlierFraction = inlierFraction
        result.rmsResidualMm = rmsMm
        result.residualRatio = residualRatio
        result.tiltDegrees = plane.tiltDegrees
        result.medianDepth = median
        result.relativeDepthRange = relativeRange
        result.isPlanarSubject = inlierFraction >= c.planarSubjectMinFraction
        result.isLikelyRealScene = score > 0.5
        if let luma, let edges = Self.edgeAlignment(map, luma: luma, configuration: c) {
            result.depthEdgeCount = edges.depthEdges
            result.edgeAlignment = edges.depthEdges > 0 ? Double(edges.aligned) / Double(edges.depthEdges) : nil
            result.lumaEdgeDensity = edges.lumaDensity
        }
        return result
    }

    /// Nearest-rank-on-a-histogram quantiles of `values` (1024 bins over [min, max],
    /// bin centres): exact to (max - min) / 1024 without sorting.
    static func quantiles(_ values: [Double], _ probabilities: [Double]) -> [Double] {
        guard let low = values.min(), let high = values.max(), high > low else {
            return probabilities.map { _ in values.first ?? 0 }
        }
        let bins = 1024
        var histogram = [Int](repeating: 0, count: bins)
        let scale = Double(bins) / (high - low)
        for v in values { histogram[Swift.min(bins - 1, Int((v - low) * scale))] += 1 }
        return probabilities.map { p in
            let rank = Swift.max(1, Int((p * Double(values.count)).rounded(.up)))
            var cumulative = 0
            for (i, count) in histogram.enumerated() {
                cumulative += count
                if cumulative >= rank { return low + (Double(i) + 0.5) / scale }
            }
            return high
        }
    }
}
