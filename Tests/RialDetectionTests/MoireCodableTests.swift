import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct MoireCodableTests {
    @Test func partialConfigurationKeepsDefaults() throws {
        let json = #"{"tile_size": 512, "band_low": 0.08, "jpeg_grid_radius": -1}"#
        let c = try JSONValue.parse(json).decode(MoireAnalyzer.Configuration.self, overlaying: .standard)
        #expect(c.tileSize == 512 && c.bandLow == 0.08 && c.jpegGridRadius == -1)
        #expect(c.bandHigh == 0.45 && c.minProminence == 3 && c.noiseFloorFactor == 3 && c.maxPeaks == 10)
        try c.validate()
        let empty = try JSONValue.parse("{}").decode(MoireAnalyzer.Configuration.self, overlaying: .standard)
        #expect(empty == .standard)
        let roundTrip = try JSONDecoder().decode(
            MoireAnalyzer.Configuration.self,
            from: JSONEncoder().encode(c))
        #expect(roundTrip == c)
    }

    @Test(arguments: [
        (#"{"tile_size": 300}"#, "tile_size"),
        (#"{"tile_size": 2048}"#, "tile_size"),
        (#"{"min_tile_size": 512}"#, "min_tile_size"),
        (#"{"tile_columns": 0}"#, "tile_columns"),
        (#"{"band_low": 0.5}"#, "band_low"),
        (#"{"band_high": 0.5}"#, "band_high"),
        (#"{"surround_inner": 1}"#, "surround_inner"),
        (#"{"surround_outer": 2}"#, "surround_outer"),
        (#"{"jpeg_grid_radius": -2}"#, "jpeg_grid_radius"),
        (#"{"evidence_scale": 0}"#, "evidence_scale"),
        (#"{"detection_threshold": 1}"#, "detection_threshold"),
        (#"{"oled_axis_share": 0.9}"#, "oled_axis_share"),
    ])
    func validationNamesTheKey(json: String, key: String) throws {
        let c = try JSONValue.parse(json).decode(MoireAnalyzer.Configuration.self, overlaying: .standard)
        #expect(throws: ConfigurationError.self) { try c.validate() }
        do {
            _ = try MoireAnalyzer(configuration: c)
            Issue.record("configuration \(json) was accepted")
        } catch {
            #expect(error.key == key)
        }
    }

    @Test func resultRoundTripsWithSnakeCaseKeys() throws {
        let image = MoireScenes.gray(width: 256, height: 256, gratings: [.init(fx: 0.3, fy: 0.1, amplitude: 20)])
        let r = MoireAnalyzer().analyze(image)
        let data = try JSONEncoder().encode(r)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"algorithm_version\":\"moire\\/1\"", "\"screen_type\"", "\"tile_size\":256", "\"tile_count\"",
            "\"noise_floor\"", "\"band\"", "\"peaks\"", "\"prominence\"", "\"analysis_time_ms\"",
            "\"averaged_strength\"", "\"tile_strength\"", "\"tiles_with_peaks\"", "\"confidence\"",
        ] {
            #expect(text.contains(key), "missing \(key)")
        }
        #expect(!text.contains("unavailable_reason"))
        #expect(try JSONDecoder().decode(MoireAnalyzer.Result.self, from: data) == r)
        let summary = try JSONDecoder().decode(MethodResultSummary.self, from: data)
        #expect(summary.score == r.score && summary.algorithmVersion == .moireV1)

        let unavailable = MoireAnalyzer().analyze(Image8(width: 10, height: 10, channels: 1))
        let u = String(decoding: try JSONEncoder().encode(unavailable), as: UTF8.self)
        #expect(u.contains("\"status\":\"unavailable\"") && u.contains("unavailable_reason"))
        #expect(!u.contains("\"score\"") && !u.contains("\"peaks\"") && !u.contains("screen_type"))
    }

    @Test func screenTypeRawValues() {
        #expect(MoireAnalyzer.ScreenType.allCases.map(\.rawValue) == ["lcd", "oled", "high_refresh", "unknown"])
        #expect(MoireAnalyzer.identifier.description == "moire/1")
    }
}
