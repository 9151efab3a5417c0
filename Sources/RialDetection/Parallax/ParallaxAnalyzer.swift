import Foundation
import RialMedia

/// `parallax/1`: is the disparity field between two rectified views of one phone that
/// of a single plane (specs/methods.md section 2)? Two cameras `B` apart (10-20 mm,
/// right camera to the right) see a point at depth `Z` with disparity `d = f B / Z`
/// (left x minus right x, px). For a plane `n · P = n · P0`, `1 / Z` is affine in the
/// image coordinates, so `d = a x + b y + c` exactly; a 3D scene breaks that.
/// Constants are those of `Configuration`.
///
/// 1. Luma (BT.601) of both views, area-averaged by the integer factor
///    `k = ceil(max(w, h) / 800)` to the working resolution (1600 x 1200 -> 800 x 600).
/// 2. Search range in working px: with focal length `f` (px) and baseline `B` (mm),
///    `f B / k / maxDepthM ... f B / k / minDepthM` (0.2 m ... infinity); otherwise
///    `0 ... 0.08 x working width`; the upper end is capped at 0.25 x working width and
///    both ends widened by 2 px.
/// 3. Block matching on a grid of 15 x 15 blocks every 15 px (`matchBlocks`): ZNCC cost,
///    texture, correlation, uniqueness and left-right tests, parabola subpixel fit.
///    `disparity_coverage` = valid blocks / grid blocks.
/// 4. Matching noise σ from second differences of neighbouring valid blocks
///    (`matchingNoise`, floored at 0.05 working px); inlier band
///    `t = clamp(3 σ, 0.25, 1.0)` working px.
/// 5. RANSAC affine fit of `(x, y, d)` over the valid blocks with least-squares
///    refinement (`fitPlane`, seeded SplitMix64): `inlier_fraction`,
///    `plane_residual_px` (inlier RMS), `residual_ratio` (that RMS / σ).
/// 6. Score (see `Result.score`) from the outlier fraction and the residual ratio;
///    `is_likely_real_scene = score > 0.5`; `is_planar_subject` when the plane holds
///    >= 80% of the valid blocks.
///
/// Bad input never throws: different sizes, an image side below 64 px, invalid focal
/// length or baseline, fewer than 30 valid blocks (constant, untextured or
/// unmatchable images) give `.unavailable` with the reason.
///
/// Limits: a real flat subject (wall, document, table top) filling the frame is planar
/// too and scores as low as a screen (`is_planar_subject` says so); so does a real
/// scene dominated by one surface (a table top seen from above, a floor). A screen or
/// print that fills only part of the frame shows the real room around it: the outlier
/// fraction then rises with the visible surroundings. Depth resolution is
/// `δZ ≈ Z² t / (f B)` for the inlier band `t`: at 3 m with f = 1167 px, B = 15 mm and
/// t = 0.6 px, δZ ≈ 0.3 m, so relief smaller than that is planar to this method. A
/// display grid coarser than about 2 sensor px aliases into moire whose apparent
/// disparity is not the surface's (its phase repeats whenever the shift is a whole
/// number of grid periods): such screens look non-planar. A uniform screen has no
/// texture to match and leaves only its surroundings. A strongly curved print bends
/// the field.
///
/// - Complexity: O(w h) for the downscale plus O(blocks x range x 225 x 2) for
///   matching, bounded by the working resolution, not the input size.
public struct ParallaxAnalyzer: Sendable, Equatable {
    /// `parallax/1`.
    public static let identifier = MethodIdentifier.parallaxV1

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

    /// Analyses the rectified pair and times it. `left` is the reference view; `right`
    /// the view of the camera `baselineMm` to its right, same size and intrinsics. Any
    /// channel count (gray, RGB, with alpha). `focalPx` (input pixels) and `baselineMm`
    /// set the search range and the depth fields when both are given. Never throws.
    public func analyze(left: Image8, right: Image8, focalPx: Double? = nil, baselineMm: Double? = nil) -> Result {
        analyze(Input(left: left, right: right, focalPx: focalPx, baselineMm: baselineMm))
    }

    /// The analysis without timing (`analysisTimeMs` is 0).
    func evaluate(left: Image8, right: Image8, focalPx: Double?, baselineMm: Double?) -> Result {
        let c = configuration
        let pair: ParallaxPair
        switch ParallaxPair.prepare(
            left: left, right: right, focalPx: focalPx, baselineMm: baselineMm, limits: c, method: .parallaxV1)
        {
        case .success(let prepared): pair = prepared
        case .failure(let problem): return .unavailable(reason: problem.reason)
        }
        let width = pair.width, height = pair.height, scale = pair.scale
        let physical = pair.physical
        var partial = Result.unavailable(reason: "")
        pair.record(into: &partial, focalPx: focalPx, baselineMm: baselineMm)
        func unavailable(_ reason: String) -> Result {
            var result = partial
            result.unavailableReason = reason
            return result
        }

        let field: DisparityField
        switch pair.match(left: left, right: right, configuration: c, method: .parallaxV1, recordingInto: &partial) {
        case .success(let matched): field = matched
        case .failure(let problem): return unavailable(problem.reason)
        }
        let grid = field.grid

        // Points of the valid blocks, working px.
        var xs = [Double](), ys = [Double](), ds = [Double]()
        xs.reserveCapacity(field.valid)
        ys.reserveCapacity(field.valid)
        ds.reserveCapacity(field.valid)
        for j in 0..<grid.rows {
            for i in 0..<grid.columns {
                let d = field.disparity[j * grid.columns + i]
                guard d.isFinite else { continue }
                xs.append(Double(grid.centreX(i)))
                ys.append(Double(grid.centreY(j)))
                ds.append(d)
            }
        }
        let noise = Swift.max(c.minMatchingNoisePx, Self.matchingNoise(field) ?? c.fallbackMatchingNoisePx)
        let threshold = Swift.min(
            c.maxInlierThresholdPx, Swift.max(c.minInlierThresholdPx, c.inlierNoiseMultiple * noise))
        let cell = Double(c.gridStep * c.gridStep)
        guard let fit = Self.fitPlane(x: xs, y: ys, d: ds, threshold: threshold, minimumArea2: cell, configuration: c)
        else {
            return unavailable("the \(field.valid) valid blocks are collinear: no disparity plane can be fitted")
        }

        let inlierFraction = Double(fit.inliers) / Double(field.valid)
        let residualRatio = fit.inlierRMS / noise
        let outlierTerm = ((1 - inlierFraction) - c.outlierMidpoint) / c.outlierScale
        let residualTerm = Swift.min(
            c.residualClamp,
            Swift.max(
                -c.residualClamp,
                (residualRatio - c.residualMidpoint) / c.residualScale))
        let score = 1 / (1 + exp(-(outlierTerm + residualTerm)))

        var result = partial
        result.status = .completed
        result.unavailableReason = nil
        result.score = score
        let k = Double(scale)
        // Working x_w = (x + 0.5) / k - 0.5 for input x; d = k d_w.
        let m = fit.model
        let plane = AffineDisparity(a: m.a, b: m.b, c: k * m.c + (m.a + m.b) * (0.5 - 0.5 * k))
        result.disparityPlane = plane
        result.centreDisparityPx = plane.disparity(x: Double(width - 1) / 2, y: Double(height - 1) / 2)
        result.matchingNoisePx = noise * k
        result.inlierThresholdPx = threshold * k
        result.inlierFraction = inlierFraction
        result.inlierBlocks = fit.inliers
        result.planeResidualPx = fit.inlierRMS * k
        result.allResidualPx = fit.allRMS * k
        result.residualRatio = residualRatio
        let sorted = ds.sorted()
        func percentile(_ p: Double) -> Double {
            // Linear interpolation between closest ranks (numpy's default).
            let position = p * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down)), upper = Swift.min(lower + 1, sorted.count - 1)
            return k * (sorted[lower] + (position - Double(lower)) * (sorted[upper] - sorted[lower]))
        }
        let p5 = percentile(0.05), p50 = percentile(0.5), p95 = percentile(0.95)
        result.disparityP5Px = p5
        result.disparityMedianPx = p50
        result.disparityP95Px = p95
        result.disparityRangePx = p95 - p5
        if let physical {
            result.depthNearM = p95 > 0 ? physical / p95 : nil
            result.depthMedianM = p50 > 0 ? physical / p50 : nil
            result.depthFarM = p5 > 0 ? physical / p5 : nil
        }
        result.isPlanarSubject = inlierFraction >= c.planarSubjectMinFraction
        result.isLikelyRealScene = score > 0.5
        return result
    }
}
