import Foundation
import RialMedia

/// `depth/2`: the geometry of the LiDAR point cloud around the subject, the fix of
/// `depth/1`'s known weaknesses (specs/methods.md section 1). A recapture is a screen or
/// a print: a rigid plane (or a gently curved sheet) facing the camera, nothing standing
/// in front of it, its edges a step down to whatever is behind. A real scene's main
/// surface (a floor, a table, a wall) has things standing on or in front of it and meets
/// other surfaces at creases. Constants are those of `Configuration`.
///
/// 1. Valid pixels (finite, `0.1 <= d <= 20`) are back-projected with pinhole
///    intrinsics (argument, else configuration, else `CameraIntrinsics.assumed`: 65
///    degrees horizontal FOV over the map width, principal point at the centre).
///    Fewer than 64 valid pixels -> `.unavailable`, never a throw.
/// 2. Sensor noise model `σ(z) = 1 mm + 1 mm/m² z²` along the ray; a point is on a
///    model surface when its depth residual along the ray is within `3 σ(z)`.
/// 3. Scene planes: sequential RANSAC (`sequentialPlanes`) on the valid pixels of a
///    stride-2 grid, up to 4 planes of >= 10% of the sample each; the dominant (first)
///    plane is scored on ALL valid pixels at full resolution (`dominant_inlier_fraction`,
///    `rms_residual_mm`, `residual_ratio`, `tilt_degrees`). Descriptive: not in the score.
/// 4. Content surface (`contentSurface`): the plane, refined into a quadric sheet, that
///    holds most of the central window (the middle half of the width and height); its
///    free-edge share (its boundary that steps down to something behind it: a panel or
///    a held sheet) and its occluder share (things in front of it by more than
///    `max(3 σ, 15 mm)` in the window or inside its outline: objects on a table).
/// 5. Score (`Result.score`): `1 / (1 + exp(-z))`, `z = -2.565 - 0.725 free_edge_share
///    + 1.712 ln(1 + occluder_share / 0.005)`, weights fitted on the synthetic `train` split;
///    `is_likely_real_scene = score > 0.5`; `is_planar_subject` when the content surface
///    holds >= 70% of the sample with < 0.5% occluders. The content surface's tilt is
///    reported, not scored: on the synthetic set it separates well (real subjects are
///    floors and tables seen from above, recaptures face the camera) but that is how
///    the scenes were staged, not physics, and it misjudges a frontal 3D scene.
/// 6. Optional luma image (any size, resampled to the depth grid by area average when
///    larger, bilinear otherwise): the share of depth discontinuities (4-neighbour
///    relative jump > 5%) with a strong luma gradient (> 8 levels per depth pixel)
///    within 1 pixel. Advisory; it does not enter the score.
///
/// Limits: depth alone cannot tell a real flat subject (a wall, a document, a poster on
/// the floor) from a screen or print that fills the frame: both are one plane facing the
/// camera with nothing in front. They score low and say `is_planar_subject`; aggregation
/// must decide with other signals. A real scene with nothing standing in front of its
/// main surface (a bare floor running into a wall) scores low too. Anything that covers
/// most of the centre and stands free of its background (a box face, a picture frame)
/// looks like a panel; a small screen covering less than half of the centre, or a
/// strongly curled print, becomes an "occluder" in front of the wall behind it and looks
/// real. Outside its outline "in front of the surface" means nearer than the surface's
/// extension, so the background beside a strongly tilted panel can count as occluders.
/// A print lying on a desk among real objects is, to depth, a real desk. The weights
/// come from synthetic scenes (rooms, table tops, displays, prints); people, close-ups
/// and outdoor scenes are not represented.
///
/// - Complexity: O(w h) for the passes over the map, O((1 + sheetRounds) w h / stride²)
///   for the content surface, plus `maxPlanes + 1` RANSAC planes of
///   O(iterations * hypothesisPoints + refinementRounds * w h / stride²).
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
        analyze(Input(depth: map, intrinsics: intrinsics, luma: { luma }))
    }

    /// The analysis without timing (`analysisTimeMs` is 0).
    func evaluate(_ map: DepthMap, luma: PlanarImage? = nil, intrinsics argument: CameraIntrinsics? = nil) -> Result {
        evaluate(map, lumaWhenNeeded: { luma }, intrinsics: argument)
    }

    /// The analysis without timing, the luma image made when the edge step needs it.
    func evaluate(
        _ map: DepthMap, lumaWhenNeeded: () -> PlanarImage?,
        intrinsics argument: CameraIntrinsics?
    ) -> Result {
        let c = configuration
        let width = map.width, height = map.height, total = width * height
        let lo = Float(c.minValidDepth), hi = Float(c.maxValidDepth)

        var validCount = 0
        for d in map.metres where d >= lo && d <= hi { validCount += 1 }
        let coverage = Double(validCount) / Double(total)
        guard validCount >= c.minValidPixels else {
            return .unavailable(
                reason:
                    "\(validCount) valid depth pixels of \(total) (finite, \(c.minValidDepth)...\(c.maxValidDepth) m); "
                    + "depth/2 needs at least \(c.minValidPixels)", coverage: coverage, validPixels: validCount)
        }

        let source: String, k: CameraIntrinsics
        if let argument {
            do { try argument.check(key: Configuration.CodingKeys.intrinsics) } catch {
                return .unavailable(
                    reason: "intrinsics argument: \(error.description)", coverage: coverage,
                    validPixels: validCount)
            }
            (source, k) = ("argument", argument)
        } else if let configured = c.intrinsics {
            (source, k) = ("configuration", configured)
        } else {
            (source, k) = (
                "assumed",
                .assumed(
                    width: width, height: height,
                    horizontalFieldOfViewDegrees: c.horizontalFieldOfViewDegrees)
            )
        }
        // Normalised ray coordinates per column and row.
        var rayX = [Double](repeating: 0, count: width), rayY = [Double](repeating: 0, count: height)
        for x in 0..<width { rayX[x] = (Double(x) - k.cx) / k.fx }
        for y in 0..<height { rayY[y] = (Double(y) - k.cy) / k.fy }

        // Sample grid (every cell, z = 0 when invalid) and its valid points.
        let stride = c.sampleStride
        let gridWidth = (width + stride - 1) / stride, gridHeight = (height + stride - 1) / stride
        let cells = gridWidth * gridHeight
        let margin = (1 - c.contentWindowFraction) / 2
        let windowX = (Double(width) * margin)..<(Double(width) * (1 - margin))
        let windowY = (Double(height) * margin)..<(Double(height) * (1 - margin))
        var grid = SampleGrid(
            width: gridWidth, height: gridHeight,
            x: [Double](repeating: 0, count: cells), y: [Double](repeating: 0, count: cells),
            z: [Double](repeating: 0, count: cells), sigma: [Double](repeating: 0, count: cells),
            band: [Double](repeating: 0, count: cells),
            window: [Bool](repeating: false, count: cells), windowValid: 0, valid: 0)
        var points = SamplePoints()
        points.reserve(cells)
        var pointCells = [Int32]()
        pointCells.reserveCapacity(cells)
        map.metres.withUnsafeBufferPointer { depth in
            for gy in 0..<gridHeight {
                let y = gy * stride
                for gx in 0..<gridWidth {
                    let x = gx * stride, cell = gy * gridWidth + gx
                    let inWindow = windowX.contains(Double(x)) && windowY.contains(Double(y))
                    grid.window[cell] = inWindow
                    let d = depth[y * width + x]
                    guard d >= lo && d <= hi else { continue }
                    let z = Double(d), sigma = c.sigma(z), band = c.inlierSigmas * sigma
                    let px = rayX[x] * z, py = rayY[y] * z
                    grid.x[cell] = px
                    grid.y[cell] = py
                    grid.z[cell] = z
                    grid.sigma[cell] = sigma
                    grid.band[cell] = band
                    grid.valid += 1
                    if inWindow { grid.windowValid += 1 }
                    points.append(x: px, y: py, z: z, band: band)
                    pointCells.append(Int32(cell))
                }
            }
        }
        let sampleCount = points.count
        guard sampleCount >= 3 else {
            return .unavailable(
                reason: "\(sampleCount) valid pixels on the stride-\(stride) sample grid; need at least 3",
                coverage: coverage, validPixels: validCount)
        }

        let planes = Self.sequentialPlanes(points, configuration: c)
        guard let dominant = planes.first else {
            return .unavailable(
                reason: "degenerate point cloud: no plane holds \(c.minPlaneFraction * 100)% of the "
                    + "\(sampleCount) sample points", coverage: coverage, validPixels: validCount)
        }
        guard let surface = Self.contentSurface(grid, points: points, pointCells: pointCells, configuration: c) else {
            return .unavailable(
                reason: "degenerate point cloud: no plane fits the \(grid.windowValid) valid sample "
                    + "points of the content window", coverage: coverage, validPixels: validCount)
        }

        // Dominant plane on every valid pixel: depth residual along the ray.
        var inliers = 0, squares = 0.0, normalisedSquares = 0.0
        let plane = dominant.model.oriented
        map.metres.withUnsafeBufferPointer { depth in
            for y in 0..<height {
                let ry = rayY[y]
                for x in 0..<width {
                    let d = depth[y * width + x]
                    guard d >= lo && d <= hi else { continue }
                    let z = Double(d)
                    let projection = plane.nx * rayX[x] + plane.ny * ry + plane.nz
                    guard projection > 0 else { continue }
                    let residual = z + plane.d / projection
                    let sigma = c.sigma(z)
                    if abs(residual) <= c.inlierSigmas * sigma {
                        inliers += 1
                        squares += residual * residual
                        normalisedSquares += (residual / sigma) * (residual / sigma)
                    }
                }
            }
        }
        let inlierFraction = Double(inliers) / Double(validCount)
        let rmsMm = inliers > 0 ? (squares / Double(inliers)).squareRoot() * 1000 : 0
        let residualRatio = inliers > 0 ? (normalisedSquares / Double(inliers)).squareRoot() : 0

        let quantiles = Self.quantiles(points.z, [0.05, 0.5, 0.95])
        let median = quantiles[1]
        let relativeRange = median > 0 ? (quantiles[2] - quantiles[0]) / median : 0

        let logOdds = Self.logOdds(
            freeEdgeShare: surface.freeEdgeShare, occluderShare: surface.occluderShare,
            configuration: c)
        let score = 1 / (1 + exp(-logOdds))

        var result = Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier,
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
        result.contentShare = surface.share
        result.contentWindowShare = surface.windowShare
        result.contentTiltDegrees = surface.tiltDegrees
        result.contentDepth = surface.depth
        result.contentCurvature = surface.curvature
        result.contentResidualRatio = surface.residualRatio
        result.freeEdgeShare = surface.freeEdgeShare
        result.occluderShare = surface.occluderShare
        result.logOdds = logOdds
        result.isPlanarSubject = surface.share >= c.planarSubjectMinShare && surface.occluderShare < c.occluderFloor
        result.isLikelyRealScene = score > 0.5
        if let luma = lumaWhenNeeded(), let edges = Self.edgeAlignment(map, luma: luma, configuration: c) {
            result.depthEdgeCount = edges.depthEdges
            result.edgeAlignment = edges.depthEdges > 0 ? Double(edges.aligned) / Double(edges.depthEdges) : nil
            result.lumaEdgeDensity = edges.lumaDensity
        }
        return result
    }

    /// The score's log-odds `z = scoreIntercept + scoreFreeEdgeWeight freeEdge
    /// + scoreOccluderWeight ln(1 + occluders / occluderFloor)`.
    static func logOdds(freeEdgeShare: Double, occluderShare: Double, configuration c: Configuration) -> Double {
        c.scoreIntercept + c.scoreFreeEdgeWeight * freeEdgeShare
            + c.scoreOccluderWeight * log1p(occluderShare / c.occluderFloor)
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
