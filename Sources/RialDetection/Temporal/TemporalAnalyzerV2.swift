import Foundation
import RialMedia

/// `temporal/2`: what a video's depth keyframes show that one depth map cannot, the sound
/// counterpart of `temporal/1` (issue 15 item 2). A screen or a print is a rigid plane
/// (or a gently curved sheet): from any viewpoint its depth is flat, and when the camera
/// moves, the change of its depth between keyframes is the plane seen from elsewhere (a
/// homography), with no parallax. A real scene has relief — surfaces off the subject's
/// plane — that stays where it is in 3D while the camera moves, so it shifts against the
/// plane by an amount that depends on its depth (parallax), and the later keyframe sees it
/// exactly where one rigid camera motion puts it. Constants are those of `Configuration`.
///
/// 1. Positions: `positions` (5) keyframes evenly spaced over the recording, each the
///    start of a parallax pair with the keyframe `pair_gap` (5, 0.5 s) later. Fewer than
///    2 keyframes -> `.unavailable` (one keyframe is a photo's depth: depth/2).
/// 2. Flatness per position, as depth/2 judges a single map (`DepthAnalyzerV2`, default
///    configuration, same intrinsics): its log-odds. The median over the positions is
///    the flatness term: one glitched keyframe (a hand passing, a depth spike) among five
///    cannot move it.
/// 3. Relief per position: depth/2's RANSAC plane (`DepthAnalyzerV2.ransacPlane`) of the
///    content window's points (the middle half of width and height, every `fine_stride`
///    pixel); a point is relief when its depth residual along the ray exceeds `max(3 σ(z),
///    min_relief)` (depth/2's noise model `σ(z)`, 15 mm).
/// 4. Camera motion per pair: point-to-plane ICP (`align`) chained over the consecutive
///    keyframes of the pair at `coarse_stride` (small steps: converges from rest), then
///    refined on the pair at `fine_stride`. `rigid_inlier_share`: the share of the pair's
///    correspondences the one rigid motion explains to within the noise band.
/// 5. Parallax per pair: the share of the window's valid points that (a) are relief,
///    (b) are moved by the estimated motion at least `min_parallax_px` away from where the
///    same motion puts the plane point on their ray (the plane's, i.e. a homography's,
///    prediction), and (c) are found in the later keyframe at the predicted depth (3x3
///    neighbourhood, within the noise band). A plane gives no (a); a camera at rest no
///    (b); relief that is not rigid 3D (a glitch, depth that does not follow the motion)
///    no (c). The median over the pairs is the parallax term (a pair without a motion
///    estimate counts 0).
/// 6. `log_odds = flatness_weight x median flatness log-odds + parallax_weight x ln(1 +
///    median parallax / parallax_floor) + score_intercept`; `score = 1 / (1 + e^-log_odds)`;
///    `is_likely_real_scene = score > 0.5`.
///
/// What it cannot see: a real 3D scene replayed on a screen is, to the depth sensor, a
/// flat screen (caught: flat and without parallax); the hard case is a curved or folded
/// print moved by hand, whose bend is relief that moves rigidly (it gains parallax
/// evidence like a real scene; depth/2's sheet fit still judges the frames). A real flat
/// subject (a wall, a document) filmed alone has neither relief nor parallax and scores
/// like a screen, as in depth/2. A camera held still gives no parallax: the score is then
/// depth/2's alone. A screen small in the window in front of a room, or the room seen
/// around a held print inside the window, is relief with parallax. Moving people or
/// objects are not rigid: their relief fails (c) and counts for nothing, not against.
///
/// - Complexity: `positions` depth/2 analyses plus `positions x (pair_gap x
///   (coarse_iterations + 1) w h / coarse_stride² + (fine_iterations + 2) w h / fine_stride²)`;
///   no per-pixel allocation.
public struct TemporalAnalyzerV2: Sendable, Equatable {
    /// `temporal/2`.
    public static let identifier = MethodIdentifier.temporalV2

    public let configuration: Configuration
    /// The single-map flatness judge (depth/2, default configuration).
    let flatness: DepthAnalyzerV2

    /// The default configuration.
    public init() {
        configuration = .standard
        flatness = DepthAnalyzerV2()
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        flatness = DepthAnalyzerV2()
    }

    /// What temporal/2 reads: the keyframes and, when the capture records them, their
    /// intrinsics.
    public struct Input: Sendable {
        public var keyframes: DepthKeyframes
        public var intrinsics: DepthAnalyzerV2.CameraIntrinsics?

        public init(keyframes: DepthKeyframes, intrinsics: DepthAnalyzerV2.CameraIntrinsics? = nil) {
            self.keyframes = keyframes
            self.intrinsics = intrinsics
        }
    }

    /// The analysis, untimed (`analyze(_:)` times it). Never throws.
    public func evaluate(_ input: Input) -> Result {
        let c = configuration
        let keyframes = input.keyframes
        let count = keyframes.count, width = keyframes.width, height = keyframes.height
        guard count >= 2 else {
            return Result(
                status: .unavailable,
                reason: "\(count) depth keyframe(s); temporal/2 needs at least 2 (one map is depth/2's case)",
                keyframeCount: count)
        }
        let source: String, k: DepthAnalyzerV2.CameraIntrinsics
        if let given = input.intrinsics {
            do { try given.check(key: Configuration.CodingKeys.intrinsics) } catch {
                return Result(
                    status: .unavailable, reason: "capture intrinsics: \(error.description)", keyframeCount: count)
            }
            (source, k) = ("capture", given)
        } else if let configured = c.intrinsics {
            (source, k) = ("configuration", configured)
        } else {
            (source, k) = (
                "assumed",
                .assumed(width: width, height: height, horizontalFieldOfViewDegrees: c.horizontalFieldOfViewDegrees)
            )
        }
        let camera = Camera(
            fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: width, height: height, lo: Float(c.minValidDepth),
            hi: Float(c.maxValidDepth))
        let gap = Swift.min(c.pairGap, count - 1)
        let last = count - 1 - gap
        let judged = Swift.min(c.positions, last + 1)
        let positions =
            judged == 1
            ? [0] : (0..<judged).map { Int((Double($0) * Double(last) / Double(judged - 1)).rounded()) }

        var flatnessLogOdds: [Double?] = [], planar = 0, judgedMaps = 0
        var relief: [Double?] = [], parallax: [Double?] = []
        var translation: [Double?] = [], rotation: [Double?] = [], rigid: [Double?] = []
        var firstReason: String?
        var scratch = PairScratch()
        for p in positions {
            let flat = flatness.evaluate(keyframes.frames[p].depth, luma: nil, intrinsics: k)
            if flat.status == .completed, let logOdds = flat.logOdds {
                flatnessLogOdds.append(logOdds)
                judgedMaps += 1
                if flat.isPlanarSubject == true { planar += 1 }
            } else {
                flatnessLogOdds.append(nil)
                firstReason = firstReason ?? flat.unavailableReason
            }
            let pair = measurePair(keyframes, from: p, gap: gap, camera: camera, scratch: &scratch)
            relief.append(pair.relief)
            parallax.append(pair.parallax)
            translation.append(pair.motion.map { $0.translationLength * 1000 })
            rotation.append(pair.motion.map(\.rotationDegrees))
            rigid.append(pair.rigidInlierShare)
        }
        guard judgedMaps > 0 else {
            return Result(
                status: .unavailable,
                reason: "depth/2 could judge none of the \(positions.count) keyframes at \(positions): "
                    + (firstReason ?? "no result"), keyframeCount: count)
        }
        let medianFlatness = Self.median(flatnessLogOdds.compactMap { $0 })
        let medianParallax = Self.median(parallax.map { $0 ?? 0 })
        let logOdds =
            c.flatnessWeight * medianFlatness + c.parallaxWeight * log1p(medianParallax / c.parallaxFloor)
            + c.scoreIntercept
        let score = 1 / (1 + exp(-logOdds))

        var result = Result(status: .completed, reason: nil, keyframeCount: count)
        result.score = score
        result.positions = positions
        result.pairGap = gap
        result.intrinsics = k
        result.intrinsicsSource = source
        result.flatnessLogOdds = flatnessLogOdds
        result.medianFlatnessLogOdds = medianFlatness
        result.planarSubjectShare = Double(planar) / Double(judgedMaps)
        result.reliefShare = relief
        let reliefs = relief.compactMap { $0 }
        result.medianReliefShare = reliefs.isEmpty ? nil : Self.median(reliefs)
        result.parallaxShare = parallax
        result.medianParallaxShare = medianParallax
        result.cameraTranslationMm = translation
        result.cameraRotationDegrees = rotation
        result.rigidInlierShare = rigid
        result.logOdds = logOdds
        result.isLikelyRealScene = score > 0.5
        return result
    }

    /// Buffers reused by every pair (no allocation per pair after the first).
    struct PairScratch {
        var points: [SIMD3<Double>] = []
        var window = DepthAnalyzerV2.SamplePoints()
        var active: [Int32] = []
    }

    /// What one parallax pair measured (nil: not measurable).
    struct PairMeasure {
        var relief: Double?
        var parallax: Double?
        var motion: RigidMotion?
        var rigidInlierShare: Double?
    }

    /// Steps 3-5 for the pair (`from`, `from + gap`).
    func measurePair(
        _ keyframes: DepthKeyframes, from p: Int, gap: Int, camera: Camera, scratch: inout PairScratch
    ) -> PairMeasure {
        let c = configuration, f = flatness.configuration
        let band = { (z: Double) -> Double in Swift.max(f.inlierSigmas * f.sigma(z), c.minRelief) }
        var measure = PairMeasure()
        return keyframes.frames[p].depth.metres.withUnsafeBufferPointer { a -> PairMeasure in
            // Step 3: the window's plane and the relief.
            let margin = (1 - c.contentWindowFraction) / 2
            let x0 = Int((Double(camera.width) * margin).rounded(.up))
            let x1 = Int((Double(camera.width) * (1 - margin)).rounded(.down))
            let y0 = Int((Double(camera.height) * margin).rounded(.up))
            let y1 = Int((Double(camera.height) * (1 - margin)).rounded(.down))
            scratch.window = DepthAnalyzerV2.SamplePoints()
            scratch.window.reserve(((x1 - x0) / c.fineStride + 1) * ((y1 - y0) / c.fineStride + 1))
            var y = y0
            while y < y1 {
                var x = x0
                while x < x1 {
                    if let q = camera.point(a, x, y) {
                        scratch.window.append(x: q.x, y: q.y, z: q.z, band: f.inlierSigmas * f.sigma(q.z))
                    }
                    x += c.fineStride
                }
                y += c.fineStride
            }
            let n = scratch.window.count
            scratch.active.removeAll(keepingCapacity: true)
            for i in 0..<n { scratch.active.append(Int32(i)) }
            var rng = SplitMix64(seed: f.seed &+ 2)
            let window = scratch.window
            guard
                let plane = scratch.active.withUnsafeBufferPointer({
                    DepthAnalyzerV2.ransacPlane(window, active: $0, rng: &rng, configuration: f)
                })
            else { return measure }
            var reliefIndex: [Int32] = []
            for i in 0..<n {
                let r = DepthAnalyzerV2.depthResidual(plane, window.x[i], window.y[i], window.z[i])
                if !(abs(r) <= band(window.z[i])) { reliefIndex.append(Int32(i)) }
            }
            measure.relief = n > 0 ? Double(reliefIndex.count) / Double(n) : nil

            // Step 4: the camera motion, chained coarse steps then the fine pair.
            var motion = RigidMotion.identity
            for step in 0..<gap {
                let moved = keyframes.frames[p + step].depth.metres.withUnsafeBufferPointer { s in
                    keyframes.frames[p + step + 1].depth.metres.withUnsafeBufferPointer { t in
                        Self.align(
                            source: s, target: t, camera: camera, stride: c.coarseStride,
                            iterations: c.coarseIterations, rejection: c.coarseRejection, initial: .identity,
                            minimum: c.minCorrespondences, band: nil, points: &scratch.points)
                    }
                }
                guard let moved else { return measure }
                motion = motion.followed(by: moved.motion)
            }
            return keyframes.frames[p + gap].depth.metres.withUnsafeBufferPointer { b -> PairMeasure in
                guard
                    let fine = Self.align(
                        source: a, target: b, camera: camera, stride: c.fineStride, iterations: c.fineIterations,
                        rejection: c.fineRejection, initial: motion, minimum: c.minCorrespondences, band: band,
                        points: &scratch.points)
                else { return measure }
                measure.motion = fine.motion
                measure.rigidInlierShare = Double(fine.inliers) / Double(fine.correspondences)

                // Step 5: relief seen in parallax and found where the rigid motion puts it.
                var seen = 0
                for index in reliefIndex {
                    let i = Int(index)
                    let point = SIMD3(window.x[i], window.y[i], window.z[i])
                    let residual = DepthAnalyzerV2.depthResidual(plane, point.x, point.y, point.z)
                    guard residual.isFinite, point.z - residual > 0 else { continue }
                    let onPlane = point * ((point.z - residual) / point.z)
                    let moved = fine.motion.apply(point)
                    guard let u = camera.project(moved), let v = camera.project(fine.motion.apply(onPlane)) else {
                        continue
                    }
                    let shift = ((u.u - v.u) * (u.u - v.u) + (u.v - v.v) * (u.v - v.v)).squareRoot()
                    guard shift >= c.minParallaxPx, let px = camera.pixel(u.u, u.v) else { continue }
                    let tolerance = band(moved.z)
                    var found = false
                    for dy in -1...1 where !found {
                        for dx in -1...1 {
                            let d = b[(px.y + dy) * camera.width + px.x + dx]
                            if d >= camera.lo && d <= camera.hi && abs(Double(d) - moved.z) <= tolerance {
                                found = true
                                break
                            }
                        }
                    }
                    if found { seen += 1 }
                }
                measure.parallax = n > 0 ? Double(seen) / Double(n) : nil
                return measure
            }
        }
    }

    /// The median (mean of the middle two for an even count); 0 for none.
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }
}
