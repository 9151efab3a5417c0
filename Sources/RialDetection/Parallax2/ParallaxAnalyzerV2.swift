import Foundation
import RialMedia

/// `parallax/2`: does the disparity field between two rectified views of one phone show
/// a 3D scene around the subject, or one plane (or gently bent sheet) with nothing in
/// front of it, as a photographed screen or print does? The analogue of `depth/2` on
/// stereo disparity. Two cameras `B` apart see a point at depth `Z` with disparity
/// `d = f B / Z`; for a plane `1 / Z`, hence `d`, is affine in the image coordinates,
/// and a gently bent sheet adds a small quadratic term (`|∂²d/∂x²| ≈ B κ / f` for
/// curvature κ). Constants are those of `Configuration`.
///
/// 1. Block matching as `parallax/1` (working luma at `ceil(max(w, h) / 800)`,
///    smoothed horizontal derivative, 15 x 15 ZNCC blocks every 15 px, texture,
///    correlation, uniqueness and left-right tests, subpixel parabola) with stricter
///    reliability (ZNCC >= 0.97, best cost <= 0.2 x the second best: a display grid's
///    moire gives false matches that pass parallax/1's 0.8 / 0.8), its matching noise σ
///    and inlier band `t = clamp(3 σ, 0.25, 1.0)` working px.
/// 2. The content window: the middle half of the block grid's columns and rows.
/// 3. The content surface (`contentSurface`): RANSAC plane of the window's blocks, the
///    valid blocks within `t` of it, refined into a quadric sheet when its bend stays
///    below what a sheet of curvature 5 /m gives (else the least-squares plane).
/// 4. What the surface leaves unexplained: `window_share` (how much of the window it
///    holds), `occluder_share` (blocks in the window or inside its outline standing in
///    front of it by more than `max(t, h d² / (f B))`, h = 15 mm: things lying on a
///    surface are not 3D evidence; an occluder needs a neighbour in front at a similar
///    disparity, so isolated false matches do not count), `structure_share` (coherent
///    off-surface blocks on either side), `free_edge_share` (its edges step down to a
///    background: a panel or a held sheet), and how far off-surface blocks lie in
///    matching noise (`off_surface_residual_ratio`); the window's disparity
///    percentiles and, with focal length and baseline, the depths they imply.
/// 5. Score: `1 / (1 + exp(-z))`, `z = -3.303 + 0.914 structure_share + 2.010 ln(1 +
///    occluder_share / 0.01)`, weights fitted on the synthetic `train` split (see
///    `Configuration`); `is_likely_real_scene = score > 0.5`; `is_planar_subject` when
///    the surface holds >= 80% of the valid blocks with occluders below 1%. The other
///    fields (window share, free edges, residual ratios, depths) are descriptive.
///
/// Bad input never throws: different sizes, a side below 64 px, invalid focal length or
/// baseline, too few valid blocks (constant, untextured or unmatchable views) or
/// collinear ones give `.unavailable` with the reason.
///
/// Limits: a real flat subject filling the frame (wall, document) is one plane and
/// scores low (`is_planar_subject`); so does a real scene whose centre is one bare
/// surface. A screen or print covering less than half of the centre, with the real
/// room around it inside the window, looks real. Relief below `δZ ≈ Z² t / (f B)` is
/// flat to it (0.3 m at 3 m with f = 1167 px, B = 15 mm, t = 0.6 px). A coarse display
/// grid's moire has an apparent disparity that is not the surface's (see `parallax/1`).
///
/// - Complexity: as `parallax/1`: O(w h) for the downscale plus
///   O(blocks x range x 225 x 2) for matching; the surface analysis is
///   O(blocks x (RANSAC iterations + sheet rounds)).
public struct ParallaxAnalyzerV2: Sendable, Equatable {
    /// `parallax/2`.
    public static let identifier = MethodIdentifier.parallaxV2

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

    /// Analyses the rectified pair and times it (see `ParallaxAnalyzer.analyze`). Never throws.
    public func analyze(left: Image8, right: Image8, focalPx: Double? = nil, baselineMm: Double? = nil) -> Result {
        analyze(Input(left: left, right: right, focalPx: focalPx, baselineMm: baselineMm))
    }

    /// The analysis without timing (`analysisTimeMs` is 0).
    func evaluate(left: Image8, right: Image8, focalPx: Double?, baselineMm: Double?) -> Result {
        let c = configuration, m = c.matching
        let pair: ParallaxPair
        switch ParallaxPair.prepare(
            left: left, right: right, focalPx: focalPx, baselineMm: baselineMm, limits: c, method: .parallaxV2)
        {
        case .success(let prepared): pair = prepared
        case .failure(let problem): return .unavailable(reason: problem.reason)
        }
        let width = pair.width, scale = pair.scale
        let physical = pair.physical
        var partial = Result.unavailable(reason: "")
        pair.record(into: &partial, focalPx: focalPx, baselineMm: baselineMm)
        func unavailable(_ reason: String) -> Result {
            var result = partial
            result.unavailableReason = reason
            return result
        }

        let field: ParallaxAnalyzer.DisparityField
        switch pair.match(left: left, right: right, configuration: m, method: .parallaxV2, recordingInto: &partial) {
        case .success(let matched): field = matched
        case .failure(let problem): return unavailable(problem.reason)
        }
        let grid = field.grid

        // Blocks, the content window and the noise.
        let cells = grid.count
        var blocks = BlockPoints(
            columns: grid.columns, rows: grid.rows, x: [Double](repeating: 0, count: cells),
            y: [Double](repeating: 0, count: cells), d: field.disparity,
            window: [Bool](repeating: false, count: cells), valid: [], windowValid: [])
        let margin = (1 - c.contentWindowFraction) / 2
        let columnRange = (Double(grid.columns) * margin)..<(Double(grid.columns) * (1 - margin))
        let rowRange = (Double(grid.rows) * margin)..<(Double(grid.rows) * (1 - margin))
        for j in 0..<grid.rows {
            for i in 0..<grid.columns {
                let cell = j * grid.columns + i
                blocks.x[cell] = Double(grid.centreX(i))
                blocks.y[cell] = Double(grid.centreY(j))
                // A block is in the window when its centre (i + 0.5, j + 0.5 in grid units) is.
                let inWindow = columnRange.contains(Double(i) + 0.5) && rowRange.contains(Double(j) + 0.5)
                blocks.window[cell] = inWindow
                guard field.disparity[cell].isFinite else { continue }
                blocks.valid.append(cell)
                if inWindow { blocks.windowValid.append(cell) }
            }
        }
        let noise = Swift.max(
            c.minMatchingNoisePx, ParallaxAnalyzer.matchingNoise(field) ?? c.fallbackMatchingNoisePx)
        let threshold = Swift.min(
            c.maxInlierThresholdPx, Swift.max(c.minInlierThresholdPx, c.inlierNoiseMultiple * noise))
        let k = Double(scale)
        // f (input px) and B (m), given or assumed; working units: d_w = d / k, x_w = x / k.
        let assumedFocal = Double(width) / (2 * tan(c.assumedHorizontalFovDegrees * Double.pi / 360))
        let focal = focalPx ?? assumedFocal
        let baseline = (baselineMm ?? c.assumedBaselineMm) / 1000
        // Occluder step h d² / (f B) in working px: d = k d_w, so Δd_w = h k d_w² / (f B).
        let relief = physical.map { c.minOccluderHeightM * k / $0 } ?? 0
        // |∂²d_w/∂x_w²| = k |∂²d/∂x²| = k B κ / f.
        let maxSecond = k * baseline * c.maxSheetCurvature / focal
        guard
            let surface = Self.contentSurface(
                blocks, threshold: threshold, noise: noise, relief: relief,
                maxSecondDerivative: maxSecond, configuration: c)
        else {
            return unavailable("the \(field.valid) valid blocks are collinear: no disparity plane can be fitted")
        }

        let occluderTerm = log(1 + surface.occluderShare / c.occluderFloor)
        let z =
            c.scoreIntercept + c.scoreStructureWeight * surface.structureShare + c.scoreOccluderWeight * occluderTerm
        let score = 1 / (1 + exp(-z))

        var result = partial
        result.status = .completed
        result.unavailableReason = nil
        result.score = score
        result.matchingNoisePx = noise * k
        result.inlierThresholdPx = threshold * k
        result.windowBlocks = blocks.windowValid.count
        // Working x_w = (x + 0.5) / k - 0.5 for input x; d = k d_w.
        let tangent = surface.model.tangentPlane
        let plane = ParallaxAnalyzer.AffineDisparity(
            a: tangent.a, b: tangent.b, c: k * tangent.c + (tangent.a + tangent.b) * (0.5 - 0.5 * k))
        result.surfacePlane = plane
        result.surfaceModel = surface.model.isPlane ? "plane" : "sheet"
        let second = surface.model.secondDerivative / k
        result.sheetSecondDerivative = second
        if physical != nil, let focalPx, let baselineMm {
            result.sheetCurvaturePerM = second * focalPx / (baselineMm / 1000)
        }
        result.surfaceShare = surface.share
        result.windowShare = surface.windowShare
        result.occluderShare = surface.occluderShare
        result.freeEdgeShare = surface.freeEdgeShare
        result.surfaceResidualRatio = surface.residualRatio
        result.windowOffShare = blocks.windowValid.isEmpty ? 0 : 1 - surface.windowShare
        result.offSurfaceResidualRatio = surface.offSurfaceResidualRatio
        result.structureShare = surface.structureShare

        let windowSet = blocks.windowValid.isEmpty ? blocks.valid : blocks.windowValid
        let sorted = windowSet.map { blocks.d[$0] }.sorted()
        func percentile(_ p: Double) -> Double {
            let position = p * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down)), upper = Swift.min(lower + 1, sorted.count - 1)
            return k * (sorted[lower] + (position - Double(lower)) * (sorted[upper] - sorted[lower]))
        }
        let p5 = percentile(0.05), p50 = percentile(0.5), p95 = percentile(0.95)
        result.windowDisparityP5Px = p5
        result.windowDisparityMedianPx = p50
        result.windowDisparityP95Px = p95
        if let physical {
            result.windowDepthNearM = p95 > 0 ? physical / p95 : nil
            result.windowDepthMedianM = p50 > 0 ? physical / p50 : nil
            result.windowDepthFarM = p5 > 0 ? physical / p5 : nil
            let centre = k * surface.model.c.0
            result.surfaceDepthM = centre > 0 ? physical / centre : nil
        }
        result.isPlanarSubject =
            surface.share >= c.planarSubjectMinShare && surface.occluderShare < c.occluderFloor
        result.isLikelyRealScene = score > 0.5
        return result
    }
}
