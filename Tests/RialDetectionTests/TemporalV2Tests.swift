import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// temporal/2 on keyframes ray-cast from known geometry (`DepthScene`, no sensor noise):
/// every expectation is argued from the geometry in its comment, none is a number the
/// code produced.
@Suite struct TemporalV2Tests {
    /// The mechanism as designed: parallax weighs 1 (the default configuration measures
    /// parallax but gives it weight 0; see `Configuration.parallaxWeight`).
    static let analyzer: TemporalAnalyzerV2 = {
        var c = TemporalAnalyzerV2.Configuration()
        c.parallaxWeight = 1
        return try! TemporalAnalyzerV2(configuration: c)
    }()
    static let degree = Double.pi / 180

    /// A table-top scene: a floor 1.2 m below the camera (y down: the plane y = 1.2), a
    /// 30 cm box and a 20 cm step standing on it, seen from 40° above the horizon.
    static let boxOnFloor = DepthScene([
        .plane(normal: SIMD3(0, 1, 0), offset: 1.2),
        .box(min: SIMD3(-0.2, 0.9, 1.0), max: SIMD3(0.2, 1.2, 1.4)),
        .box(min: SIMD3(0.25, 1.0, 1.3), max: SIMD3(0.6, 1.2, 1.8)),
    ])
    static let lookingDown = DepthScene.Pose(position: .zero, pitchDown: 40 * degree)

    /// A screen (or a print) 0.6 m away, turned 15° about the vertical, filling the view:
    /// the plane through (0, 0, 0.6) with normal (sin 15°, 0, cos 15°).
    static let screen = DepthScene([
        .plane(normal: SIMD3(sin(15 * degree), 0, cos(15 * degree)), offset: 0.6 * cos(15 * degree))
    ])

    static func video(_ scene: DepthScene, base: DepthScene.Pose = .init(position: .zero), count: Int = 30)
        -> DepthKeyframes
    {
        scene.keyframes(count: count, width: 128, height: 96) { DepthScene.Pose.handHeld($0, base: base) }
    }

    /// A real 3D scene filmed hand-held. Geometry: the floor is the window's plane; the box
    /// and step tops stand 20-30 cm above it, far more than the noise band (3 σ(1.5 m) ≈
    /// 10 mm, or 15 mm): relief. Between keyframes 0.5 s apart the sway moves the camera by
    /// several centimetres, and a point at depth Z shifts against the floor point on its
    /// ray by about f |t| |1/Z - 1/Z_floor| ≈ 100 px x 0.05 m x 0.14 /m ≈ 0.7 px > 0.5 px
    /// (f ≈ 100 px for 128 px over 65°): parallax, and the later keyframe sees the box
    /// where the one rigid motion puts it (the scene is rigid, the depth exact). So some
    /// of the window is seen in parallax, the motion estimate explains nearly every
    /// correspondence, and the parallax term lifts the score above 0.5.
    @Test func rigidBoxOnFloorFilmedHandHeldIsReal() throws {
        let r = Self.analyzer.evaluate(.init(keyframes: Self.video(Self.boxOnFloor, base: Self.lookingDown)))
        #expect(r.status == .completed)
        let parallax = try #require(r.medianParallaxShare)
        #expect(parallax > 0.01)
        #expect(try #require(r.medianReliefShare) > 0.05)
        let rigid = try #require(r.rigidInlierShare).compactMap { $0 }
        #expect(rigid.count == r.positions?.count)
        #expect(rigid.allSatisfy { $0 > 0.8 })
        #expect(try #require(r.score) > 0.5)
        #expect(r.isLikelyRealScene == true)
    }

    /// The same scene with the camera held still: nothing moves, so nothing shows parallax
    /// (shift 0 < 0.5 px) whatever the relief: the parallax term is exactly 0 and the score
    /// is depth/2's flatness judgement alone, below the hand-held one.
    @Test func stillCameraGivesNoParallax() throws {
        let still = Self.boxOnFloor.keyframes(count: 30, width: 128, height: 96) { _ in Self.lookingDown }
        let r = Self.analyzer.evaluate(.init(keyframes: still))
        #expect(r.medianParallaxShare == 0)
        #expect(try #require(r.medianReliefShare) > 0.05)
        let moving = Self.analyzer.evaluate(.init(keyframes: Self.video(Self.boxOnFloor, base: Self.lookingDown)))
        let logOdds = try #require(r.logOdds)
        #expect(logOdds == r.medianFlatnessLogOdds)
        #expect(try #require(moving.score) > r.score!)
    }

    /// A screen or print filmed hand-held: every keyframe is one plane, so the window's
    /// plane holds every point within the band (relief 0) and nothing can show parallax
    /// (parallax 0): the score is depth/2's judgement of a plane filling the frame with
    /// nothing in front, which is below 0.5 (depth/2: "a surface filling the frame with
    /// nothing in front scores 0.071").
    ///
    /// temporal/1 passes the same video: every depth lies in 0.5-0.75 m, inside one
    /// 1.99 m histogram bin (consistency 1), nothing jumps by 2 m (stability 1), and the
    /// inverse-depth weights 1/0.75...1/0.5 differ too little to move the centroid by 1%
    /// of the grid between samples (every vector static: motion 1): real.
    @Test func screenFilmedHandHeldIsNotReal() throws {
        let video = Self.video(Self.screen)
        #expect(TemporalAnalyzerV1().evaluate(video).isLikelyRealScene == true)
        let r = Self.analyzer.evaluate(.init(keyframes: video))
        #expect(r.status == .completed)
        #expect(r.medianReliefShare == 0)
        #expect(r.medianParallaxShare == 0)
        #expect(try #require(r.score) < 0.5)
        #expect(r.isLikelyRealScene == false)
        #expect(r.planarSubjectShare == 1)
    }

    /// methods.md section 6's known failure: a perfectly flat video (uniform 0.5 m) passes
    /// temporal/1 (1.0 / 1.0 / 1.0, real). temporal/2 must not pass it: one plane, no
    /// relief, no motion, no parallax; depth/2 scores the plane filling the frame 0.071
    /// (log-odds -2.565), and the score is exactly that.
    @Test func flatVideoPassesTemporal1ButNotTemporal2() throws {
        let flat = depthMap(256, 192) { _, _ in 0.5 }
        let video = keyframes(Array(repeating: flat, count: 150))
        #expect(TemporalAnalyzerV1().evaluate(video).isLikelyRealScene == true)
        let r = Self.analyzer.evaluate(.init(keyframes: video))
        #expect(r.medianParallaxShare == 0)
        #expect(r.isLikelyRealScene == false)
        let expected = 1 / (1 + exp(2.565)) // DepthAnalyzerV2.Configuration.scoreIntercept
        #expect(abs(try #require(r.score) - expected) < 1e-9)
    }

    /// Stability against a single glitched keyframe: a screen video in which keyframe 0 (a
    /// judged position) shows the box-on-floor scene instead. depth/2 may judge that one
    /// keyframe real, but it is one of five: the median is a screen's. Its relief is not
    /// in the next keyframes at all (they show the screen), so no motion explains it:
    /// it is not counted as parallax. The video stays not real.
    @Test func oneGlitchedKeyframeDoesNotMakeAScreenReal() throws {
        let screen = Self.video(Self.screen)
        let glitch = Self.boxOnFloor.keyframes(count: 1, width: 128, height: 96) { _ in Self.lookingDown }
        var frames = screen.frames
        frames[0].depth = glitch.frames[0].depth
        let r = Self.analyzer.evaluate(.init(keyframes: try DepthKeyframes(frames)))
        #expect(r.positions?.first == 0)
        #expect(r.medianParallaxShare == 0)
        #expect(try #require(r.score) < 0.5)
    }

    /// Fewer than 2 keyframes: unavailable with a reason, no score.
    @Test func oneKeyframeIsUnavailable() {
        let one = Self.video(Self.screen, count: 1)
        let r = Self.analyzer.evaluate(.init(keyframes: one))
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.unavailableReason?.contains("at least 2") == true)
        let none = Self.analyzer.evaluate(.init(keyframes: DepthKeyframes(width: 4, height: 4)))
        #expect(none.status == .unavailable)
    }

    /// Every constant is configuration, validated with the key named.
    @Test func configurationIsValidated() {
        var c = TemporalAnalyzerV2.Configuration.standard
        c.pairGap = 0
        #expect(throws: ConfigurationError(key: "pair_gap", "must be >= 1, got 0")) { try c.validate() }
        c = .standard
        c.parallaxFloor = 0
        #expect(throws: ConfigurationError(key: "parallax_floor", "must be > 0, got 0.0")) { try c.validate() }
        c = .standard
        c.intrinsics = .init(fx: -1, fy: 1, cx: 0, cy: 0)
        #expect(throws: ConfigurationError.self) { try c.validate() }
        #expect(throws: Never.self) { try TemporalAnalyzerV2.Configuration.standard.validate() }
    }
}
