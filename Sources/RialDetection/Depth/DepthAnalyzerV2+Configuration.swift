import Foundation

extension DepthAnalyzerV2 {
    /// Pinhole intrinsics of the depth map in depth-pixel units: pixel `(x, y)` (integer
    /// indices, OpenCV convention: the centre of pixel 0 is at 0) with depth `z` metres
    /// back-projects to `X = (x - cx) z / fx`, `Y = (y - cy) z / fy`, `Z = z`.
    public struct CameraIntrinsics: Sendable, Equatable, Codable {
        /// Horizontal focal length in depth pixels, finite and > 0.
        public var fx: Double
        /// Vertical focal length in depth pixels, finite and > 0.
        public var fy: Double
        /// Principal point x in depth pixels (pixel 0's centre is 0), finite.
        public var cx: Double
        /// Principal point y in depth pixels, finite.
        public var cy: Double

        public init(fx: Double, fy: Double, cx: Double, cy: Double) {
            self.fx = fx
            self.fy = fy
            self.cx = cx
            self.cy = cy
        }

        /// The typical-phone assumption used when intrinsics are unknown: square pixels,
        /// `fx = fy = width / (2 tan(hfov / 2))`, principal point at the centre
        /// `cx = (width - 1) / 2`, `cy = (height - 1) / 2`. With the default 65 degrees a
        /// 256x192 map gets `fx = fy ≈ 200.9` px (ARKit's 256x192 scene depth of an iPhone
        /// Pro reports about 211 px, i.e. a 62-degree field of view).
        public static func assumed(width: Int, height: Int, horizontalFieldOfViewDegrees: Double) -> CameraIntrinsics {
            let f = Double(width) / (2 * tan(horizontalFieldOfViewDegrees * Double.pi / 360))
            return CameraIntrinsics(fx: f, fy: f, cx: Double(width - 1) / 2, cy: Double(height - 1) / 2)
        }

        func check(key: some CodingKey) throws(ConfigurationError) {
            for (name, value) in [(CodingKeys.fx, fx), (.fy, fy)] where !(value.isFinite && value > 0) {
                throw ConfigurationError(key: name, "must be finite and > 0, got \(value)").prefixed(by: key)
            }
            for (name, value) in [(CodingKeys.cx, cx), (.cy, cy)] where !value.isFinite {
                throw ConfigurationError(key: name, "must be a finite number, got \(value)").prefixed(by: key)
            }
        }
    }

    /// Every constant of `depth/2`. Depths and distances in metres unless the name says
    /// otherwise. A partial object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`):
    /// a missing key keeps its default.
    /// Call `validate()` (or build a `DepthAnalyzerV2`, which does) before use.
    ///
    /// The score weights (`scoreIntercept`, `scoreFreeEdgeWeight`, `scoreOccluderWeight`)
    /// were fitted by logistic regression (L2, C = 10) on the `train` split of the default
    /// synthetic set (seed 20261121: 18 real 3D scenes against 81 screens and prints; the
    /// 11 flat real subjects left out because depth cannot tell them from a screen
    /// filling the frame) with every other constant at its default, as computed by this
    /// code (`DepthV2DatasetTests`). Change a geometric constant and the weights no
    /// longer match.
    public struct Configuration: Sendable, Equatable, Codable {
        /// A pixel is valid when finite and `minValidDepth <= d <= maxValidDepth`. 0.1.
        public var minValidDepth: Double = 0.1
        /// Upper bound of the valid range (inclusive). 20.0.
        public var maxValidDepth: Double = 20.0
        /// Fewer valid pixels than this gives `.unavailable`. 64; >= 3.
        public var minValidPixels: Int = 64
        /// Intrinsics of the depth grid; nil = `CameraIntrinsics.assumed` with
        /// `horizontalFieldOfViewDegrees`. An intrinsics argument to `analyze` wins.
        public var intrinsics: CameraIntrinsics? = nil
        /// Assumed horizontal field of view over the depth map width, degrees. 65
        /// (a typical phone wide camera); in (0, 180).
        public var horizontalFieldOfViewDegrees: Double = 65
        /// Sensor noise model: the standard deviation of a depth reading at range `z` is
        /// `σ(z) = noiseSigmaBase + noiseSigmaQuadratic z²` metres along the ray (ToF
        /// noise grows with the square of range). 0.001 m; >= 0.
        ///
        /// Calibration: a least-squares plane through the ARKitScenes poster (iPad LiDAR,
        /// 0.68 m) leaves 1.28 mm rms and the floor beside it 0.54-0.66 mm, against
        /// σ(0.68) = 1.46 mm; PromptDA's ARKit floor at ~2.2 m and the default synthetic
        /// set's surfaces give `residual_ratio` 0.7-0.8, so the model is a slightly
        /// pessimistic upper envelope.
        public var noiseSigmaBase: Double = 0.001
        /// See `noiseSigmaBase`. 0.001 m per m²: σ = 1.25 mm at 0.5 m, 2 mm at 1 m, 5 mm at
        /// 2 m, 17 mm at 4 m; >= 0, not both 0.
        public var noiseSigmaQuadratic: Double = 0.001
        /// A point lies on a surface model (plane or sheet) when its depth residual along
        /// the ray is within `inlierSigmas σ(z)`: `|z - ẑ| <= inlierSigmas σ(z)`, where `ẑ`
        /// is the depth at which the pixel's ray meets the model. 3; > 0.
        public var inlierSigmas: Double = 3
        /// RANSAC and the content surface work on the valid pixels of a
        /// `sampleStride x sampleStride` grid. 2; >= 1.
        public var sampleStride: Int = 2
        /// At most this many RANSAC hypotheses per plane. 200; >= 1.
        public var ransacIterations: Int = 200
        /// At least this many hypotheses per plane before the adaptive stop. 32; >= 1.
        public var ransacMinIterations: Int = 32
        /// Adaptive stop: after the best hypothesis with inlier share `w` (on the counted
        /// points), draw until `log(1 - confidence) / log(1 - w³)` hypotheses. 0.999; in (0, 1).
        public var ransacConfidence: Double = 0.999
        /// Hypotheses are counted on at most this many evenly spaced remaining sample
        /// points (refinement uses all of them). 1024; >= 16.
        public var hypothesisPoints: Int = 1024
        /// Least-squares refinement rounds of a RANSAC plane (re-select inliers, re-fit). 3; >= 0.
        public var refinementRounds: Int = 3
        /// Seed of the SplitMix64 generator: the result is a function of the input.
        public var seed: UInt64 = 0x5EED_DE97_0002
        /// Sequential RANSAC finds at most this many planes. 4; >= 1.
        public var maxPlanes: Int = 4
        /// A plane counts only with at least this fraction of the valid sample points. 0.10; in (0, 1].
        public var minPlaneFraction: Double = 0.10
        /// The content window: the centred rectangle spanning this fraction of the map's
        /// width and of its height (0.5: the middle half of each, a quarter of the area),
        /// where the photographer put the subject. The content surface is the surface
        /// holding most of its valid sample points. With fewer than 16 valid sample points
        /// inside, the whole map is the window. 0.5; in (0, 1].
        public var contentWindowFraction: Double = 0.5
        /// Rounds of the sheet fit: re-select the content surface (connected inliers of
        /// the model holding most window points) and re-fit a quadric height field to it,
        /// so a gently curved sheet (a bent print) stays one surface. 4; >= 0 (0 = plane only).
        public var sheetRounds: Int = 4
        /// A quadric fit is kept only when its largest principal curvature is at most
        /// this, 1/m (a sheet bent to a radius under 1 / this is no longer "gently
        /// curved"; the synthetic prints reach 2 /m). 5; > 0.
        public var maxSheetCurvature: Double = 5
        /// A point counts as an occluder (something standing in front of the content
        /// surface) when it is nearer than the surface by more than
        /// `max(inlierSigmas σ(z), minOccluderHeight)`: thin things lying on a surface
        /// (paper, a photo, a phone or tablet, 7-8 mm) are not 3D evidence. 0.015 m; >= 0.
        public var minOccluderHeight: Double = 0.015
        /// Occluder shares below this are noise (isolated sensor outliers, the ragged rim
        /// of a surface): the score's occluder term is `ln(1 + occluder_share /
        /// occluderFloor)` (0 without occluders, 1 at a share of 1.72 floors), and
        /// `is_planar_subject` requires a share below it. 0.005; > 0.
        public var occluderFloor: Double = 0.005
        /// Score log-odds: `z = scoreIntercept + scoreFreeEdgeWeight free_edge_share
        /// + scoreOccluderWeight ln(1 + occluder_share / occluderFloor)`; see the type's
        /// note. -2.565: a surface filling the frame with nothing in front scores 0.071.
        public var scoreIntercept: Double = -2.565
        /// Log-odds at `free_edge_share` 1 (the content surface ends everywhere at a step
        /// down to something behind it, as a screen or a held print does): -0.725, so such
        /// a panel with nothing in front scores 0.036.
        public var scoreFreeEdgeWeight: Double = -0.725
        /// Log-odds per unit of `ln(1 + occluder_share / occluderFloor)`. 1.712: a 1%
        /// occluder share adds 1.88, 2% adds 2.76, 10% adds 5.21.
        public var scoreOccluderWeight: Double = 1.712
        /// `is_planar_subject` requires the content surface to hold at least this share of
        /// the valid sample points (and an occluder share below `occluderFloor`). 0.7; in 0...1.
        public var planarSubjectMinShare: Double = 0.7
        /// Depth discontinuity between 4-neighbours: `|d1 - d2| / min(d1, d2) >` this. 0.05; > 0.
        public var depthEdgeRelativeJump: Double = 0.05
        /// Strong luma gradient: central-difference magnitude on the depth grid, in luma
        /// units per depth pixel (0...255 luma), strictly above this. 8; > 0.
        public var lumaEdgeThreshold: Double = 8
        /// A depth edge aligns when a strong luma gradient lies within this many depth
        /// pixels (Chebyshev). 1; >= 0.
        public var edgeTolerance: Int = 1

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        /// `σ(z)`, metres (see `noiseSigmaBase`).
        @inline(__always) func sigma(_ z: Double) -> Double { noiseSigmaBase + noiseSigmaQuadratic * z * z }

        enum CodingKeys: String, CodingKey {
            case minValidDepth = "min_valid_depth"
            case maxValidDepth = "max_valid_depth"
            case minValidPixels = "min_valid_pixels"
            case intrinsics
            case horizontalFieldOfViewDegrees = "horizontal_field_of_view_degrees"
            case noiseSigmaBase = "noise_sigma_base"
            case noiseSigmaQuadratic = "noise_sigma_quadratic"
            case inlierSigmas = "inlier_sigmas"
            case sampleStride = "sample_stride"
            case ransacIterations = "ransac_iterations"
            case ransacMinIterations = "ransac_min_iterations"
            case ransacConfidence = "ransac_confidence"
            case hypothesisPoints = "hypothesis_points"
            case refinementRounds = "refinement_rounds"
            case seed
            case maxPlanes = "max_planes"
            case minPlaneFraction = "min_plane_fraction"
            case contentWindowFraction = "content_window_fraction"
            case sheetRounds = "sheet_rounds"
            case maxSheetCurvature = "max_sheet_curvature"
            case minOccluderHeight = "min_occluder_height"
            case occluderFloor = "occluder_floor"
            case scoreIntercept = "score_intercept"
            case scoreFreeEdgeWeight = "score_free_edge_weight"
            case scoreOccluderWeight = "score_occluder_weight"
            case planarSubjectMinShare = "planar_subject_min_share"
            case depthEdgeRelativeJump = "depth_edge_relative_jump"
            case lumaEdgeThreshold = "luma_edge_threshold"
            case edgeTolerance = "edge_tolerance"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(CodingKeys, Double)] = [
                (.minValidDepth, minValidDepth), (.maxValidDepth, maxValidDepth),
                (.horizontalFieldOfViewDegrees, horizontalFieldOfViewDegrees),
                (.noiseSigmaBase, noiseSigmaBase), (.noiseSigmaQuadratic, noiseSigmaQuadratic),
                (.inlierSigmas, inlierSigmas), (.minPlaneFraction, minPlaneFraction),
                (.contentWindowFraction, contentWindowFraction), (.maxSheetCurvature, maxSheetCurvature),
                (.minOccluderHeight, minOccluderHeight), (.occluderFloor, occluderFloor),
                (.scoreIntercept, scoreIntercept), (.scoreFreeEdgeWeight, scoreFreeEdgeWeight),
                (.scoreOccluderWeight, scoreOccluderWeight), (.planarSubjectMinShare, planarSubjectMinShare),
                (.depthEdgeRelativeJump, depthEdgeRelativeJump), (.lumaEdgeThreshold, lumaEdgeThreshold),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            guard minValidDepth > 0, minValidDepth <= maxValidDepth else {
                throw ConfigurationError(
                    key: CodingKeys.minValidDepth,
                    "must satisfy 0 < min_valid_depth <= max_valid_depth, got \(minValidDepth) and \(maxValidDepth)")
            }
            let minimums: [(CodingKeys, Int, Int)] = [
                (.minValidPixels, minValidPixels, 3), (.sampleStride, sampleStride, 1),
                (.ransacIterations, ransacIterations, 1), (.ransacMinIterations, ransacMinIterations, 1),
                (.hypothesisPoints, hypothesisPoints, 16),
                (.refinementRounds, refinementRounds, 0), (.maxPlanes, maxPlanes, 1),
                (.sheetRounds, sheetRounds, 0), (.edgeTolerance, edgeTolerance, 0),
            ]
            for (key, value, minimum) in minimums where value < minimum {
                throw ConfigurationError(key: key, "must be >= \(minimum), got \(value)")
            }
            guard horizontalFieldOfViewDegrees > 0, horizontalFieldOfViewDegrees < 180 else {
                throw ConfigurationError(
                    key: CodingKeys.horizontalFieldOfViewDegrees,
                    "must be in (0, 180), got \(horizontalFieldOfViewDegrees)")
            }
            for (key, value) in [
                (CodingKeys.noiseSigmaBase, noiseSigmaBase), (.noiseSigmaQuadratic, noiseSigmaQuadratic),
                (.minOccluderHeight, minOccluderHeight),
            ] where value < 0 {
                throw ConfigurationError(key: key, "must be >= 0, got \(value)")
            }
            guard noiseSigmaBase > 0 || noiseSigmaQuadratic > 0 else {
                throw ConfigurationError(
                    key: CodingKeys.noiseSigmaBase, "noise_sigma_base and noise_sigma_quadratic cannot both be 0")
            }
            guard ransacConfidence.isFinite, ransacConfidence > 0, ransacConfidence < 1 else {
                throw ConfigurationError(key: CodingKeys.ransacConfidence, "must be in (0, 1), got \(ransacConfidence)")
            }
            for (key, value) in [
                (CodingKeys.minPlaneFraction, minPlaneFraction), (.contentWindowFraction, contentWindowFraction),
            ]
            where !(value > 0 && value <= 1) {
                throw ConfigurationError(key: key, "must be in (0, 1], got \(value)")
            }
            guard (0...1).contains(planarSubjectMinShare) else {
                throw ConfigurationError(
                    key: CodingKeys.planarSubjectMinShare, "must be in 0...1, got \(planarSubjectMinShare)")
            }
            let positives: [(CodingKeys, Double)] = [
                (.inlierSigmas, inlierSigmas), (.maxSheetCurvature, maxSheetCurvature),
                (.occluderFloor, occluderFloor),
                (.depthEdgeRelativeJump, depthEdgeRelativeJump), (.lumaEdgeThreshold, lumaEdgeThreshold),
            ]
            for (key, value) in positives where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            try intrinsics?.check(key: CodingKeys.intrinsics)
        }
    }
}
