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

        func check(key: String) throws(ConfigurationError) {
            for (name, value) in [("fx", fx), ("fy", fy)] where !(value.isFinite && value > 0) {
                throw ConfigurationError(key: "\(key).\(name)", "must be finite and > 0, got \(value)")
            }
            for (name, value) in [("cx", cx), ("cy", cy)] where !value.isFinite {
                throw ConfigurationError(key: "\(key).\(name)", "must be a finite number, got \(value)")
            }
        }
    }

    /// Every constant of `depth/2`. Depths and distances in metres unless the name says
    /// otherwise. Decoding accepts a partial object: a missing key keeps its default.
    /// Call `validate()` (or build a `DepthAnalyzerV2`, which does) before use.
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
        /// Inlier threshold `t(z) = noiseBase + noiseQuadratic z²` on the point-to-plane
        /// distance, the shape of LiDAR/ToF depth noise (grows with the square of range).
        /// 0.005 m.
        public var noiseBase: Double = 0.005
        /// See `noiseBase`. 0.005 m per m²: t = 6.25 mm at 0.5 m, 10 mm at 1 m, 25 mm at 2 m, 85 mm at 4 m.
        public var noiseQuadratic: Double = 0.005
        /// RANSAC works on the valid pixels of a `sampleStride x sampleStride` grid. 2; >= 1.
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
        /// Least-squares refinement rounds (re-select inliers, re-fit). 3; >= 0.
        public var refinementRounds: Int = 3
        /// Seed of the SplitMix64 generator: the result is a function of the input.
        public var seed: UInt64 = 0x5EED_DE97_0002
        /// Sequential RANSAC finds at most this many planes. 4; >= 1.
        public var maxPlanes: Int = 4
        /// A plane counts only with at least this fraction of the valid sample points. 0.10; in (0, 1].
        public var minPlaneFraction: Double = 0.10
        /// `is_planar_subject` when the dominant plane holds at least this fraction of the
        /// valid pixels. 0.8; in 0...1.
        public var planarSubjectMinFraction: Double = 0.8
        /// Score: logistic midpoint of the outlier fraction `1 - dominant inlier fraction`. 0.3.
        public var outlierMidpoint: Double = 0.3
        /// Score: logistic scale of the outlier fraction. 0.07; > 0.
        public var outlierScale: Double = 0.07
        /// Score: midpoint of `residual_ratio` (inlier rms / t(median depth)). 0.5.
        /// Sensor noise alone gives ~0.2-0.4; a curved sheet cut by the band ~0.58.
        public var residualMidpoint: Double = 0.5
        /// Score: scale of `residual_ratio`. 0.15; > 0.
        public var residualScale: Double = 0.15
        /// Score: the residual term is clamped to ±this. 2; >= 0.
        public var residualClamp: Double = 2
        /// Score: midpoint of `relative_depth_range` ((p95 - p5) / median). 0.15.
        public var rangeMidpoint: Double = 0.15
        /// Score: scale of the relative range. 0.1; > 0.
        public var rangeScale: Double = 0.1
        /// Score: the range term is clamped to ±this. 1; >= 0.
        public var rangeClamp: Double = 1
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

        enum CodingKeys: String, CodingKey {
            case minValidDepth = "min_valid_depth"
            case maxValidDepth = "max_valid_depth"
            case minValidPixels = "min_valid_pixels"
            case intrinsics
            case horizontalFieldOfViewDegrees = "horizontal_field_of_view_degrees"
            case noiseBase = "noise_base"
            case noiseQuadratic = "noise_quadratic"
            case sampleStride = "sample_stride"
            case ransacIterations = "ransac_iterations"
            case ransacMinIterations = "ransac_min_iterations"
            case ransacConfidence = "ransac_confidence"
            case hypothesisPoints = "hypothesis_points"
            case refinementRounds = "refinement_rounds"
            case seed
            case maxPlanes = "max_planes"
            case minPlaneFraction = "min_plane_fraction"
            case planarSubjectMinFraction = "planar_subject_min_fraction"
            case outlierMidpoint = "outlier_midpoint"
            case outlierScale = "outlier_scale"
            case residualMidpoint = "residual_midpoint"
            case residualScale = "residual_scale"
            case residualClamp = "residual_clamp"
            case rangeMidpoint = "range_midpoint"
            case rangeScale = "range_scale"
            case rangeClamp = "range_clamp"
            case depthEdgeRelativeJump = "depth_edge_relative_jump"
            case lumaEdgeThreshold = "luma_edge_threshold"
            case edgeTolerance = "edge_tolerance"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Configuration()
            func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
                try c.decodeIfPresent(T.self, forKey: key) ?? fallback
            }
            minValidDepth = try value(.minValidDepth, d.minValidDepth)
            maxValidDepth = try value(.maxValidDepth, d.maxValidDepth)
            minValidPixels = try value(.minValidPixels, d.minValidPixels)
            intrinsics = try c.decodeIfPresent(CameraIntrinsics.self, forKey: .intrinsics)
            horizontalFieldOfViewDegrees = try value(.horizontalFieldOfViewDegrees, d.horizontalFieldOfViewDegrees)
            noiseBase = try value(.noiseBase, d.noiseBase)
            noiseQuadratic = try value(.noiseQuadratic, d.noiseQuadratic)
            sampleStride = try value(.sampleStride, d.sampleStride)
            ransacIterations = try value(.ransacIterations, d.ransacIterations)
            ransacMinIterations = try value(.ransacMinIterations, d.ransacMinIterations)
            ransacConfidence = try value(.ransacConfidence, d.ransacConfidence)
            hypothesisPoints = try value(.hypothesisPoints, d.hypothesisPoints)
            refinementRounds = try value(.refinementRounds, d.refinementRounds)
            seed = try value(.seed, d.seed)
            maxPlanes = try value(.maxPlanes, d.maxPlanes)
            minPlaneFraction = try value(.minPlaneFraction, d.minPlaneFraction)
            planarSubjectMinFraction = try value(.planarSubjectMinFraction, d.planarSubjectMinFraction)
            outlierMidpoint = try value(.outlierMidpoint, d.outlierMidpoint)
            outlierScale = try value(.outlierScale, d.outlierScale)
            residualMidpoint = try value(.residualMidpoint, d.residualMidpoint)
            residualScale = try value(.residualScale, d.residualScale)
            residualClamp = try value(.residualClamp, d.residualClamp)
            rangeMidpoint = try value(.rangeMidpoint, d.rangeMidpoint)
            rangeScale = try value(.rangeScale, d.rangeScale)
            rangeClamp = try value(.rangeClamp, d.rangeClamp)
            depthEdgeRelativeJump = try value(.depthEdgeRelativeJump, d.depthEdgeRelativeJump)
            lumaEdgeThreshold = try value(.lumaEdgeThreshold, d.lumaEdgeThreshold)
            edgeTolerance = try value(.edgeTolerance, d.edgeTolerance)
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(String, Double)] = [
                ("min_valid_depth", minValidDepth), ("max_valid_depth", maxValidDepth),
                ("horizontal_field_of_view_degrees", horizontalFieldOfViewDegrees),
                ("noise_base", noiseBase), ("noise_quadratic", noiseQuadratic),
                ("min_plane_fraction", minPlaneFraction), ("planar_subject_min_fraction", planarSubjectMinFraction),
                ("outlier_midpoint", outlierMidpoint), ("outlier_scale", outlierScale),
                ("residual_midpoint", residualMidpoint), ("residual_scale", residualScale),
                ("residual_clamp", residualClamp), ("range_midpoint", rangeMidpoint),
                ("range_scale", rangeScale), ("range_clamp", rangeClamp),
                ("depth_edge_relative_jump", depthEdgeRelativeJump), ("luma_edge_threshold", lumaEdgeThreshold),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            guard minValidDepth > 0, minValidDepth <= maxValidDepth else {
                throw ConfigurationError(key: "min_valid_depth",
                                         "must satisfy 0 < min_valid_depth <= max_valid_depth, got \(minValidDepth) and \(maxValidDepth)")
            }
            let minimums: [(String, Int, Int)] = [
                ("min_valid_pixels", minValidPixels, 3), ("sample_stride", sampleStride, 1),
                ("ransac_iterations", ransacIterations, 1), ("ransac_min_iterations", ransacMinIterations, 1),
                ("hypothesis_points", hypothesisPoints, 16),
                ("refinement_rounds", refinementRounds, 0), ("max_planes", maxPlanes, 1),
                ("edge_tolerance", edgeTolerance, 0),
            ]
            for (key, value, minimum) in minimums where value < minimum {
                throw ConfigurationError(key: key, "must be >= \(minimum), got \(value)")
            }
            guard horizontalFieldOfViewDegrees > 0, horizontalFieldOfViewDegrees < 180 else {
                throw ConfigurationError(key: "horizontal_field_of_view_degrees",
                                         "must be in (0, 180), got \(horizontalFieldOfViewDegrees)")
            }
            for (key, value) in [("noise_base", noiseBase), ("noise_quadratic", noiseQuadratic)] where value < 0 {
                throw ConfigurationError(key: key, "must be >= 0, got \(value)")
            }
            guard noiseBase > 0 || noiseQuadratic > 0 else {
                throw ConfigurationError(key: "noise_base", "noise_base and noise_quadratic cannot both be 0")
            }
            guard ransacConfidence.isFinite, ransacConfidence > 0, ransacConfidence < 1 else {
                throw ConfigurationError(key: "ransac_confidence", "must be in (0, 1), got \(ransacConfidence)")
            }
            guard minPlaneFraction > 0, minPlaneFraction <= 1 else {
                throw ConfigurationError(key: "min_plane_fraction", "must be in (0, 1], got \(minPlaneFraction)")
            }
            guard (0...1).contains(planarSubjectMinFraction) else {
                throw ConfigurationError(key: "planar_subject_min_fraction",
                                         "must be in 0...1, got \(planarSubjectMinFraction)")
            }
            let positives: [(String, Double)] = [
                ("outlier_scale", outlierScale), ("residual_scale", residualScale), ("range_scale", rangeScale),
                ("depth_edge_relative_jump", depthEdgeRelativeJump), ("luma_edge_threshold", lumaEdgeThreshold),
            ]
            for (key, value) in positives where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            for (key, value) in [("residual_clamp", residualClamp), ("range_clamp", rangeClamp)] where value < 0 {
                throw ConfigurationError(key: key, "must be >= 0, got \(value)")
            }
            try intrinsics?.check(key: "intrinsics")
        }
    }
}

