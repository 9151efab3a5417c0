import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct ParallaxCodableTests {
    @Test func partialConfigurationKeepsDefaults() throws {
        let json = #"{"block_radius": 4, "max_depth_m": 5, "seed": 7}"#
        let c = try JSONValue.parse(json).decode(ParallaxAnalyzer.Configuration.self, overlaying: .standard)
        #expect(c.blockRadius == 4 && c.maxDepthM == 5 && c.seed == 7)
        #expect(c.gridStep == 15 && c.minDepthM == 0.2 && c.workingLongSide == 800 && c.prefilterSigmaPx == 2)
        try c.validate()
        let empty = try JSONValue.parse("{}").decode(ParallaxAnalyzer.Configuration.self, overlaying: .standard)
        #expect(empty == .standard)
        #expect(empty.maxDepthM == nil)
    }

    @Test func configurationRoundTrips() throws {
        var c = ParallaxAnalyzer.Configuration()
        c.maxDepthM = 8
        c.uniquenessRatio = 0.7
        let data = try JSONEncoder().encode(c)
        #expect(String(decoding: data, as: UTF8.self).contains("\"uniqueness_ratio\":0.7"))
        #expect(try JSONDecoder().decode(ParallaxAnalyzer.Configuration.self, from: data) == c)
    }

    @Test(arguments: [
        (#"{"block_radius": 0}"#, "block_radius"),
        (#"{"grid_step": 0}"#, "grid_step"),
        (#"{"working_long_side": 32}"#, "working_long_side"),
        (#"{"min_depth_m": 0}"#, "min_depth_m"),
        (#"{"min_depth_m": 2, "max_depth_m": 1}"#, "max_depth_m"),
        (#"{"max_disparity_fraction": 1}"#, "max_disparity_fraction"),
        (#"{"uniqueness_ratio": 0}"#, "uniqueness_ratio"),
        (#"{"min_correlation": 2}"#, "min_correlation"),
        (#"{"prefilter_sigma_px": -1}"#, "prefilter_sigma_px"),
        (#"{"min_inlier_threshold_px": 2, "max_inlier_threshold_px": 1}"#, "max_inlier_threshold_px"),
        (#"{"outlier_scale": 0}"#, "outlier_scale"),
        (#"{"min_valid_blocks": 2}"#, "min_valid_blocks"),
    ])
    func validationNamesTheKey(json: String, key: String) throws {
        let c = try JSONValue.parse(json).decode(ParallaxAnalyzer.Configuration.self, overlaying: .standard)
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do {
            _ = try ParallaxAnalyzer(configuration: c)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.key == key)
        }
    }

    @Test func resultRoundTripsWithSnakeCaseKeys() throws {
        let pair = ParallaxScenes.affinePair(a: 0.01, b: 0, c: 6, seed: 21)
        let r = ParallaxAnalyzer().analyze(left: pair.left, right: pair.right, focalPx: 400, baselineMm: 15)
        #expect(r.status == .completed)
        let data = try JSONEncoder().encode(r)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"algorithm_version\":\"parallax\\/1\"", "\"disparity_coverage\"", "\"plane_residual_px\"",
            "\"inlier_fraction\"", "\"disparity_plane\":{", "\"disparity_range_px\"", "\"valid_blocks\"",
            "\"total_blocks\"", "\"working_width\"", "\"is_planar_subject\"", "\"is_likely_real_scene\"",
            "\"depth_median_m\"", "\"rejected_blocks\":{", "\"matching_noise_px\"",
        ] {
            #expect(text.contains(key), "missing \(key)")
        }
        #expect(!text.contains("unavailable_reason"))
        #expect(try JSONDecoder().decode(ParallaxAnalyzer.Result.self, from: data) == r)
        // The common fields alone decode from the same object.
        #expect(try JSONDecoder().decode(MethodResultSummary.self, from: data) == r.summary)
    }

    @Test func unavailableResultLeavesMeasurementsOut() throws {
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 4)
        let small = ParallaxScenes.affinePair(width: 200, height: 240, a: 0, b: 0, c: 4)
        let r = ParallaxAnalyzer().analyze(left: pair.left, right: small.right)
        let text = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
        #expect(text.contains("\"status\":\"unavailable\"") && text.contains("\"unavailable_reason\""))
        for key in ["\"score\"", "\"inlier_fraction\"", "\"disparity_plane\"", "\"is_likely_real_scene\""] {
            #expect(!text.contains(key), "unexpected \(key)")
        }
    }
}
