import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct DepthV2CodableTests {
    @Test func partialConfigurationKeepsDefaults() throws {
        let json =
            #"{"max_planes": 3, "occluder_floor": 0.01, "intrinsics": {"fx": 211, "fy": 211, "cx": 127.5, "cy": 95.5}}"#
        let c = try JSONValue.parse(json).decode(DepthAnalyzerV2.Configuration.self, overlaying: .standard)
        #expect(c.maxPlanes == 3 && c.occluderFloor == 0.01)
        #expect(c.scoreIntercept == -2.565 && c.contentWindowFraction == 0.5 && c.sheetRounds == 4)
        #expect(c.intrinsics?.fx == 211)
        #expect(c.noiseSigmaBase == 0.001 && c.noiseSigmaQuadratic == 0.001 && c.horizontalFieldOfViewDegrees == 65)
        try c.validate()
        let empty = try JSONValue.parse("{}").decode(DepthAnalyzerV2.Configuration.self, overlaying: .standard)
        #expect(empty == .standard)
    }

    @Test(arguments: [
        (#"{"sample_stride": 0}"#, "sample_stride"),
        (#"{"min_plane_fraction": 0}"#, "min_plane_fraction"),
        (#"{"horizontal_field_of_view_degrees": 180}"#, "horizontal_field_of_view_degrees"),
        (#"{"noise_sigma_base": -1}"#, "noise_sigma_base"),
        (#"{"min_valid_depth": 5, "max_valid_depth": 1}"#, "min_valid_depth"),
        (#"{"intrinsics": {"fx": 200, "fy": -1, "cx": 0, "cy": 0}}"#, "intrinsics.fy"),
        (#"{"inlier_sigmas": 0}"#, "inlier_sigmas"),
        (#"{"content_window_fraction": 0}"#, "content_window_fraction"),
        (#"{"content_window_fraction": 1.5}"#, "content_window_fraction"),
        (#"{"sheet_rounds": -1}"#, "sheet_rounds"),
        (#"{"max_sheet_curvature": 0}"#, "max_sheet_curvature"),
        (#"{"min_occluder_height": -0.01}"#, "min_occluder_height"),
        (#"{"occluder_floor": 0}"#, "occluder_floor"),
        (#"{"planar_subject_min_share": 1.5}"#, "planar_subject_min_share"),
        (#"{"noise_sigma_base": 0, "noise_sigma_quadratic": 0}"#, "noise_sigma_base"),
    ])
    func validationNamesTheKey(json: String, key: String) throws {
        let c = try JSONValue.parse(json).decode(DepthAnalyzerV2.Configuration.self, overlaying: .standard)
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do { _ = try DepthAnalyzerV2(configuration: c) } catch { #expect(error.key == key) }
    }

    @Test func resultRoundTripsWithSnakeCaseKeys() throws {
        let r = DepthAnalyzerV2().analyze(DepthV2Scenes.threePlanes())
        let data = try JSONEncoder().encode(r)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"algorithm_version\":\"depth\\/2\"", "\"dominant_inlier_fraction\"", "\"rms_residual_mm\"",
            "\"plane_count\"", "\"is_planar_subject\"", "\"is_likely_real_scene\"", "\"tilt_degrees\"",
            "\"content_share\"", "\"content_window_share\"", "\"content_tilt_degrees\"", "\"content_depth\"",
            "\"content_curvature\"", "\"content_residual_ratio\"", "\"free_edge_share\"",
            "\"occluder_share\"", "\"log_odds\"",
        ] {
            #expect(text.contains(key))
        }
        #expect(!text.contains("edge_alignment"))
        #expect(try JSONDecoder().decode(DepthAnalyzerV2.Result.self, from: data) == r)
        let summary = try JSONDecoder().decode(MethodResultSummary.self, from: data)
        #expect(summary.score == r.score && summary.algorithmVersion == .depthV2)
    }
}
