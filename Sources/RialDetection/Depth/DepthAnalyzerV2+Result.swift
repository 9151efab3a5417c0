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
        /// `1 / (1 + exp(-log_odds))`, continuous in (0, 1), with
        /// `log_odds = -2.565 - 0.725 free_edge_share + 1.712 ln(1 + occluder_share / 0.005)`
        /// (constants: `Configuration`). A surface whose edges step down to a background
        /// with nothing in front of it (a screen, a held print) scores 0.036; one with
        /// things standing on it (a table top, a floor) scores higher: with no free edge,
        /// 0.34 at 1% occluders, 0.55 at 2%, 0.93 at 10%. A plane filling the frame with
        /// nothing in front (a wall, a document, a screen held close) scores 0.071
        /// whatever it is: this method cannot tell them apart (see `isPlanarSubject`);
        /// aggregation must use other signals for those.
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
        /// `planes.count`, 1...maxPlanes.
        public var planeCount: Int?
        /// Share of ALL valid pixels (full resolution) within `3 σ(z)` of the dominant
        /// plane along their rays.
        public var dominantInlierFraction: Double?
        /// RMS depth residual along the ray of those inliers, millimetres.
        public var rmsResidualMm: Double?
        /// RMS of `residual / σ(z)` over those inliers: the residual in units of the sensor
        /// noise model. ≈ 0.99 for a plane with Gaussian noise at the model (the 3 σ band
        /// keeps 99.7% of it); above 1 for a rough or gently curved surface.
        public var residualRatio: Double?
        /// Angle between the dominant plane's normal and the optical axis, degrees
        /// (0 = fronto-parallel, 90 = seen edge-on).
        public var tiltDegrees: Double?
        /// Median valid depth (sample grid), metres.
        public var medianDepth: Double?
        /// `(p95 - p5) / median` of the valid depths (sample grid; 1/1024 histogram of [min, max]).
        public var relativeDepthRange: Double?
        /// Content surface (the plane or gently curved sheet holding most of the central
        /// window): its share of the valid sample points, 0...1.
        public var contentShare: Double?
        /// Its share of the valid sample points inside the central window, 0...1.
        public var contentWindowShare: Double?
        /// Angle between its (RANSAC plane) normal and the optical axis, degrees, 0...90.
        /// Not in the score (see `DepthAnalyzerV2`).
        public var contentTiltDegrees: Double?
        /// Its median depth, metres.
        public var contentDepth: Double?
        /// Largest principal curvature of its quadric sheet, 1/m (0: a plane).
        public var contentCurvature: Double?
        /// RMS of `residual / σ(z)` over it (see `residualRatio`).
        public var contentResidualRatio: Double?
        /// Share of its boundary (4-neighbour pairs to cells off it: on its outline, or
        /// holes standing off it by more than the occluder height) that steps down to
        /// something behind it: 1 for a panel or sheet standing free of its background, 0
        /// when it meets other surfaces at creases, has things standing on it, or fills
        /// the map. In the score.
        public var freeEdgeShare: Double?
        /// Share of the valid cells of the window and of the surface's outline that stand
        /// in front of it by more than `max(3 σ(z), 15 mm)`: objects on a table or floor.
        /// In the score.
        public var occluderShare: Double?
        /// The score's log-odds (see `score`); unbounded, for margins and ROC curves.
        public var logOdds: Double?
        /// The content surface holds >= 70% of the valid sample points and < 0.5% of
        /// occluders: a wall, a document, a table top, or a screen/print filling the frame.
        /// Depth cannot tell these apart; the score treats them alike (low).
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
            case contentShare = "content_share"
            case contentWindowShare = "content_window_share"
            case contentTiltDegrees = "content_tilt_degrees"
            case contentDepth = "content_depth"
            case contentCurvature = "content_curvature"
            case contentResidualRatio = "content_residual_ratio"
            case freeEdgeShare = "free_edge_share"
            case occluderShare = "occluder_share"
            case logOdds = "log_odds"
            case isPlanarSubject = "is_planar_subject"
            case depthEdgeCount = "depth_edge_count"
            case edgeAlignment = "edge_alignment"
            case lumaEdgeDensity = "luma_edge_density"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        static func unavailable(reason: String, coverage: Double, validPixels: Int) -> Result {
            Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .depthV2, analysisTimeMs: 0,
                score: nil, coverage: coverage, validPixels: validPixels)
        }

        init(
            status: MethodStatus, unavailableReason: String?, algorithmVersion: MethodIdentifier,
            analysisTimeMs: Double, score: Double?, coverage: Double, validPixels: Int
        ) {
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
        /// RMS depth residual along the ray of its inliers, millimetres.
        public var rmsResidualMm: Double
        /// Angle between `normal` and the optical axis, degrees.
        public var tiltDegrees: Double

        enum CodingKeys: String, CodingKey {
            case normal, distance
            case inlierFraction = "inlier_fraction"
            case rmsResidualMm = "rms_residual_mm"
            case tiltDegrees = "tilt_degrees"
        }

        public init(
            normal: [Double], distance: Double, inlierFraction: Double, rmsResidualMm: Double,
            tiltDegrees: Double
        ) {
            self.normal = normal
            self.distance = distance
            self.inlierFraction = inlierFraction
            self.rmsResidualMm = rmsResidualMm
            self.tiltDegrees = tiltDegrees
        }
    }
}
