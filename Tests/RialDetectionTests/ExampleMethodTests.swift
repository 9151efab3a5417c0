import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// A complete detection method in one type, as the README's "Adding a detection method"
/// shows: a configuration, a result, what it reads, the analysis, and how its fields
/// count. Registering it (`MethodRegistry.standard.adding(LumaRange.self)`) is all the
/// pipeline needs: it is configured, validated, run, aggregated and reported like the
/// built-in methods.
///
/// `artifacts/99` scores the spread of luma over strided rows: `score = (max - min) / 255`
/// (a photo of a dim screen in a dark room has little spread). A toy, not a detector.
struct LumaRange: DetectionMethod {
    struct Configuration: MethodConfiguration {
        /// Every `row_stride`-th row is read. 4; >= 1.
        var rowStride = 4

        enum CodingKeys: String, CodingKey { case rowStride = "row_stride" }

        func validate() throws(ConfigurationError) {
            guard rowStride >= 1 else {
                throw ConfigurationError(key: CodingKeys.rowStride.stringValue, "must be >= 1, got \(rowStride)")
            }
        }
    }

    struct Result: MethodResult {
        var status: MethodStatus
        var unavailableReason: String?
        var algorithmVersion = LumaRange.identifier
        var analysisTimeMs: Double = 0
        var score: Double?
        var lumaRange: Int?

        enum CodingKeys: String, CodingKey {
            case status, score
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case lumaRange = "luma_range"
        }
    }

    static let identifier = MethodIdentifier(literal: "artifacts", version: 99)
    static let summary = MethodSummary(
        title: "Luma range (example)", signal: "Spread of luma over strided rows.",
        blindTo: "Everything.", latencyTarget: LatencyTarget(milliseconds: 1, source: "test"))
    static let readsRowsWhileDecoding = true

    let configuration: Configuration

    init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    func input(from capture: MethodCapture) -> InputCheck<ImageRows, Result> {
        guard let rows = capture.rows else {
            return .decided(Result(status: .unavailable, unavailableReason: capture.imageProblem))
        }
        return .ready(rows)
    }

    func evaluate(_ rows: ImageRows) -> Result {
        var low = UInt8.max, high = UInt8.min
        for y in stride(from: 0, to: rows.height, by: configuration.rowStride) {
            rows.waitForRows(y + 1)
            for x in 0..<rows.width {
                let v = rows.samples[(y * rows.width + x) * rows.channels]
                low = min(low, v)
                high = max(high, v)
            }
        }
        let range = Int(high) - Int(low)
        return Result(status: .completed, score: Double(range) / 255, lumaRange: range)
    }

    static func detections(in fields: JSONObject) -> Detections { .none }
    static func payloadScore(_ fields: JSONObject) -> Double? { nil }
}

@Suite struct ExampleMethodTests {
    static let registry = MethodRegistry.standard.adding(LumaRange.self)

    /// Rows alternate 50 and 200: luma range 150, score 150 / 255 (by hand).
    static func capture() -> CaptureInput {
        let width = 64, height = 48
        let samples = (0..<(width * height)).map { ($0 / width) % 2 == 0 ? UInt8(50) : UInt8(200) }
        return CaptureInput(image: Image8(width: width, height: height, channels: 1, samples: samples)!)
    }

    @Test func registeredMethodRunsAndIsAggregated() throws {
        let configuration = PipelineConfiguration(registry: Self.registry)
        #expect(configuration.methods.last == LumaRange.identifier)
        // The newest version of its family feeds aggregation by default.
        #expect(configuration.aggregateWith[.artifacts] == LumaRange.identifier)
        // Row stride 1 reads rows of both values.
        var strideOne = configuration
        strideOne[LumaRange.self].rowStride = 1
        let analysis = try CaptureAnalyzer(configuration: strideOne).analyze(Self.capture(), concurrent: true)
        let outcome = try #require(analysis.outcome("artifacts/99"))
        #expect(outcome.summary.score == 150.0 / 255)
        #expect(outcome.fields["luma_range"] == .number(150))
        #expect(analysis.aggregated.contains("artifacts/99") && !analysis.aggregated.contains("artifacts/1"))
        #expect(analysis.evidence.sceneAnalysis.breakdown["artifacts/99"]?["role"] == .string("supporting"))
        // Row stride 2 reads only even rows (all 50): range 0.
        var strideTwo = configuration
        strideTwo[LumaRange.self].rowStride = 2
        let even = try CaptureAnalyzer(configuration: strideTwo).analyze(Self.capture(), concurrent: false)
        #expect(even.outcome("artifacts/99")?.summary.score == 0)
    }

    @Test func itsSectionIsEncodedDecodedAndValidated() throws {
        var configuration = PipelineConfiguration(registry: Self.registry)
        configuration[LumaRange.self].rowStride = 7
        let data = try JSONEncoder().encode(configuration)
        let object = try #require(try JSONValue.parse(data).objectValue)
        #expect(object["artifacts/99"]?["row_stride"] == .number(7))

        let decoder = JSONDecoder()
        decoder.userInfo[.methodRegistry] = Self.registry
        let decoded = try decoder.decode(PipelineConfiguration.self, from: data)
        #expect(decoded == configuration)
        #expect(decoded[LumaRange.self].rowStride == 7)

        configuration[LumaRange.self].rowStride = 0
        #expect(throws: ConfigurationError(key: "artifacts/99.row_stride", "must be >= 1, got 0")) {
            try configuration.validate()
        }
        // The standard registry does not know it.
        var standard = PipelineConfiguration.standard
        standard.methods.append(LumaRange.identifier)
        #expect(throws: ConfigurationError.self) { try standard.validate() }
    }

    @Test func rowAnalysisGivesTheSameOutcome() throws {
        let analyzer = try CaptureAnalyzer(configuration: PipelineConfiguration(registry: Self.registry))
        let input = Self.capture()
        let rows = input.image.withRows { analyzer.analyzeRows($0, depth: nil, concurrent: false) }
        let streamed = try analyzer.analyze(input, rows: rows)
        let direct = try analyzer.analyze(input)
        #expect(
            streamed.outcome("artifacts/99")?.fields.removingTime == direct.outcome("artifacts/99")?.fields.removingTime
        )
        #expect(rows.outcomes[LumaRange.identifier] != nil)
    }
}

extension JSONObject {
    var removingTime: JSONObject {
        var copy = self
        copy["analysis_time_ms"] = nil
        return copy
    }
}
