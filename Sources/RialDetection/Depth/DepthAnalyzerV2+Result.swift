extension DepthAnalyzerV2 {
    /// What `depth/2` reports for one depth map (and optionally its image).
    ///
    /// When `status` is `.unavailable` only the common fields, `coverage` and
    /// `valid_pixels` are present. When `.completed` every field is present except the
    /// edge-alignment fields, which need an image and at least one depth discontinuity.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `depth/2`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 / (1 + exp(-z))`, continuous in (0, 1), with
        /// `z = (outlier - 0.3) / 0.07 + clamp((residual_ratio - 0.5) / 0.15, ±2)
        ///    + clamp((relative_depth_range - 0.15) / 0.1, ±1)`,
        /// `outlier = 1 - dominant_inlier_fraction` (constants: `Configuration`).
        /// A single plane filling the frame scores low whatever it is: this method
        /// cannot tell a real wall or document from a screen or print (see
        /// `isPlanarSubject`); aggregation must use other signals for those.
        public var score: Double?
        /// Valid pixels / all pixels, 0...1. Present in every result.
        public var coverage: Double
        /// Number of valid pixels. Present in every result.
        public var validPixels: Int
        /// The intrinsics used for back-projection.
        public var intrinsics: CameraIntrinsics?
        /// `argument`, `configuration` or `assumed` (65-degree horizontal FOV, centred).
        public var intrinsicsSource: String?
        /// Planes found by sequential RANSAC, largest first (each >= 10% of the sample).
        public var planes: [Plane]?
        /// `planes.count`, 1...maxPlanes (0 only if no plane reached 10%).
        public var planeCount: Int?
        /// Share of ALL valid pixels (full resolution) within `t(z)` of the dominant plane.
        public var dominantInlierFraction: Double?
        /// RMS point-to-plane distance of those inliers, millimetres.
        public var rmsResidualMm: Double?
        /// `rmsResidualMm / t(median depth)`: residual relative to the sensor-noise band.
        public var residualRatio: Double?
        /// Angle between the dominant plane's normal and the optical axis, degrees
        /// (0 = fronto-parallel, 90 = seen edge-on).
        public var tiltDegrees: Double?
        /// Median valid depth (sample grid), metres.
        public var medianDepth: Double?
        /// `(p95 - p5) / median` of the valid depths (sample grid; 1/256 histogram of [min, max]).
        public var relativeDepthRange: Double?
        /// Dominant plane holds >= 80% of the valid pixels: a wall, a document, a table
        /// top, or a screen/print. The score treats all of them alike (low).
        public var isPlanarSubject: Bool?
        /// Depth discontinuities (4-neighbour relative jump > 5%); needs an image.
        public var depthEdgeCount: Int?
        /// Share of depth discontinuities with a strong luma gradient within 1 depth
        /// pixel; nil without an image or without discontinuities. Advisory: not in the score.
        public var edgeAlignment: Double?
        /// Share of valid pixels with a strong luma gradient within 1 depth pixel: the
        /// chance level `edgeAlignment` should be compared with.
        public var lumaEdgeDensity: Double?
        /// `score > 0.5`.
        public var isLikelyRealScene: Bool?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score, coverage
            case validPixels = "valid_pixels"
            case intrinsics
            case intrinsicsSource = "intrinsics_source"
            case planes
            case planeCount = "plane_count"
            case dominantInlierFraction = "dominant_inlier_fraction"
            case rmsResidualMm = "rms_residual_mm"
            case residualRatio = "residual_ratio"
            case tiltDegrees = "tilt_degrees"
            case medianDepth = "median_depth"
            case relativeDepthRange = "relative_depth_range"
            case isPlanarSubject = "is_planar_subject"
            case depthEdgeCount = "depth_edge_count"
            case edgeAlignment = "edge_alignment"
            case lumaEdgeDensity = "luma_edge_density"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        static func unavailable(reason: String, coverage: Double, validPixels: Int) -> Result {
            Result(status: .unavailable, unavailableReason: reason, algorithmVersion: .depthV2, analysisTimeMs: 0,
                   score: nil, coverage: coverage, validPixels: validPixels)
        }

        init(status: MethodStatus, unavailableReason: String?, algorithmVersion: MethodIdentifier,
             analysisTimeMs: Double, score: Double?, coverage: Double, validPixels: Int) {
            self.status = status
            self.unavailableReason = unavailableReason
            self.algorithmVersion = algorithmVersion
            self.analysisTimeMs = analysisTimeMs
            self.score = score
            self.coverage = coverage
            self.validPixels = validPixels
        }
    }

    /// One plane `normal · p = distance` in camera coordinates (x right, y down, z
    /// forward, metres), `normal` a unit vector oriented away from the camera so that
    /// `distance` >= 0 is the distance from the camera centre to the plane.
    public struct Plane: Sendable, Equatable, Codable {
        /// `[nx, ny, nz]`.
        public var normal: [Double]
        public var distance: Double
        /// Share of the valid sample points assigned to this plane (sequential RANSAC).
        public var inlierFraction: Double
        /// RMS point-to-plane distance of its inliers, millimetres.
        public var rmsResidualMm: Double
        /// Angle between `normal` and the optical axis, degrees.
        public var tiltDegrees: Double

        enum CodingKeys: String, CodingKey {
            case normal, distance
            case inlierFraction = "inlier_fraction"
            case rmsResidualMm = "rms_residual_mm"
            case tiltDegrees = "tilt_degrees"
        }

        public init(normal: [Double], distance: Double, inlierFraction: Double, rmsResidualMm: Double,
                    tiltDegrees: Double) {
            self.normal = normal
            self.distance = distance
            self.inlierFraction = inlierFraction
            self.rmsResidualMm = rmsResidualMm
            self.tiltDegrees = tiltDegrees
        }
    }
}
