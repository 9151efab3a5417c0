import Foundation
import RialMedia
import Testing

@testable import RialDetection

@Suite struct DepthV1CodableTests {
    func keys(_ value: some Encodable) throws -> Set<String> {
        Set((try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as! [String: Any]).keys)
    }

    @Test func completedResultRoundTripsWithSnakeCaseKeys() throws {
        let result = DepthAnalyzerV1().analyze(depthMap(8, 6) { _, y in y < 3 ? 0.4 : 2.0 })
        let data = try JSONEncoder().encode(result)
        #expect(try JSONDecoder().decode(DepthAnalyzerV1.Result.self, from: data) == result)
        #expect(
            try keys(result) == [
                "status", "algorithm_version", "analysis_time_ms", "score", "margin", "depth_variance", "min_depth",
                "max_depth", "mean_depth", "median_depth", "depth_range", "coverage", "depth_layers", "edge_ratio",
                "edge_coherence", "uniformity", "is_screen_pattern", "quadrant_check", "is_likely_real_scene",
            ])
        #expect(try keys(result.quadrantCheck!) == ["quadrant_stds", "passes", "advisory"])
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(object["algorithm_version"] as? String == "depth/1")
        #expect(object["status"] as? String == "completed")
    }

    /// A quadrant with too few pixels is `null`, keeping four positions.
    @Test func sparseQuadrantEncodesNull() throws {
        let check = DepthAnalyzerV1.QuadrantCheck(quadrantStds: [nil, 0.5, nil, 1], passes: true)
        let data = try JSONEncoder().encode(check)
        #expect(String(decoding: data, as: UTF8.self).contains(#""quadrant_stds":[null,0.5,null,1]"#))
        #expect(try JSONDecoder().decode(DepthAnalyzerV1.QuadrantCheck.self, from: data) == check)
    }

    @Test func unavailableResultRoundTrips() throws {
        let result = DepthAnalyzerV1().analyze(DepthMap(width: 2, height: 2, metres: [.nan, .nan, .nan, .nan])!)
        let data = try JSONEncoder().encode(result)
        #expect(try JSONDecoder().decode(DepthAnalyzerV1.Result.self, from: data) == result)
        // Explicit nulls decode like absent keys.
        let withNulls =
            #"{"status":"unavailable","unavailable_reason":"r","algorithm_version":"depth/1","#
            + #""analysis_time_ms":0.5,"coverage":0,"score":null,"margin":null}"#
        let decoded = try JSONDecoder().decode(DepthAnalyzerV1.Result.self, from: Data(withNulls.utf8))
        #expect(decoded.score == nil && decoded.status == .unavailable)
    }

    @Test func configurationRoundTripsAndDecodesPartially() throws {
        var custom = DepthAnalyzerV1.Configuration.prd
        custom.histogramBins = 64
        custom.marginScales.std = 0.2
        let data = try JSONEncoder().encode(custom)
        #expect(try JSONDecoder().decode(DepthAnalyzerV1.Configuration.self, from: data) == custom)
        #expect(try keys(custom).contains("gradient_neighbour_min_depth"))
        #expect(try keys(custom).count == 24)
        #expect(try keys(custom.marginScales) == ["std", "layers", "coherence", "range", "uniformity", "mean"])

        let decode = { (json: String) in
            try JSONValue.parse(json).decode(DepthAnalyzerV1.Configuration.self, overlaying: .reference)
        }
        #expect(try decode("{}") == .reference)
        #expect(try decode(#"{"coherence_threshold": 0.7}"#) == .prd)
        var scaled = DepthAnalyzerV1.Configuration.reference
        scaled.marginScales.layers = 2
        #expect(try decode(#"{"margin_scales": {"layers": 2}}"#) == scaled)
        #expect(throws: DecodingError.self) { try decode(#"{"histogram_bins": "fifty"}"#) }
    }

    /// The reference constants of methods.md section 1.
    @Test func referenceDefaults() {
        let c = DepthAnalyzerV1.Configuration.reference
        #expect(c.minValidDepth == 0.1 && c.maxValidDepth == 20)
        #expect(c.histogramBins == 50 && c.smoothingWindow == 3 && c.peakThresholdFraction == 0.05)
        #expect(c.gradientNeighbourMinDepth == 0.1 && c.edgeThreshold == 0.1 && c.coherenceExpFactor == 30)
        #expect(c.screenMaxRange == 0.15 && c.uniformityBand == 0.05 && c.screenMinUniformity == 0.85)
        #expect(c.screenMinMean == 0.2 && c.screenMaxMean == 1.5)
        #expect(c.quadrantMinValid == 10 && c.quadrantStdThreshold == 0.1)
        #expect(c.stdThreshold == 0.5 && c.minLayers == 3 && c.coherenceThreshold == 0.3)
        #expect(c.realScore == 1 && c.notRealScore == 0.2 && c.flatScore == 0.1)
        #expect(c.flatMaxStd == 0.2 && c.flatMaxLayers == 2)
        #expect(DepthAnalyzerV1.Configuration.prd.coherenceThreshold == 0.7)
    }

    /// One invalid value per entry, with the key the error must name.
    static let invalidConfigurations: [(String, DepthAnalyzerV1.Configuration)] = {
        func changed(_ change: (inout DepthAnalyzerV1.Configuration) -> Void) -> DepthAnalyzerV1.Configuration {
            var c = DepthAnalyzerV1.Configuration.reference
            change(&c)
            return c
        }
        return [
            ("histogram_bins", changed { $0.histogramBins = 1 }),
            ("smoothing_window", changed { $0.smoothingWindow = 2 }),
            ("smoothing_window", changed { $0.smoothingWindow = 0 }),
            ("quadrant_min_valid", changed { $0.quadrantMinValid = 0 }),
            ("min_valid_depth", changed { $0.minValidDepth = 30 }),
            ("std_threshold", changed { $0.stdThreshold = .nan }),
            ("real_score", changed { $0.realScore = 2 }),
            ("margin_scales.mean", changed { $0.marginScales.mean = 0 }),
        ]
    }()

    @Test(arguments: invalidConfigurations)
    func invalidConfigurationIsRefused(key: String, configuration: DepthAnalyzerV1.Configuration) {
        do {
            _ = try DepthAnalyzerV1(configuration: configuration)
            Issue.record("accepted an invalid \(key)")
        } catch {
            #expect(error.key == key)
            #expect(error.description.hasPrefix("\(key): "))
        }
    }

    /// The common fields read back from any method's JSON, ignoring its own fields.
    @Test func summaryReadsAnyMethodsCommonFields() throws {
        let result = DepthAnalyzerV1().analyze(depthMap(4, 4) { x, _ in Float(x + 1) })
        let fromJSON = try JSONDecoder().decode(MethodResultSummary.self, from: JSONEncoder().encode(result))
        #expect(fromJSON == result.summary)
        #expect(fromJSON.score == result.score && fromJSON.algorithmVersion == .depthV1)

        let phone =
            #"{"status":"completed","algorithm_version":"moire/1","analysis_time_ms":12.5,"#
            + #""score":0.3,"detected":true,"peaks":[{"frequency":0.2}]}"#
        let moire = try JSONDecoder().decode(MethodResultSummary.self, from: Data(phone.utf8))
        #expect(
            moire
                == MethodResultSummary(
                    status: .completed, unavailableReason: nil,
                    algorithmVersion: try MethodIdentifier(parsing: "moire/1"),
                    analysisTimeMs: 12.5, score: 0.3))
        let encoded = try JSONEncoder().encode(moire)
        #expect(try keys(moire) == ["status", "algorithm_version", "analysis_time_ms", "score"])
        #expect(try JSONDecoder().decode(MethodResultSummary.self, from: encoded) == moire)
    }
}
