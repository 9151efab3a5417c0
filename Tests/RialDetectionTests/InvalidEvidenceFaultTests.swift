import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// Issue 17 item 6: a depth map or a detection payload that is entirely invalid lowers
/// or fails the evidence, never raises the confidence. Each case is compared with the
/// same capture without that input; the result must be no better (level, score,
/// ranking score, no screen/print flag lost) and the evidence must say why.
@Suite struct InvalidEvidenceFaultTests {
    /// A real screen recapture (MoireIDT: a TV photographed with a phone); the local
    /// moire/texture/artifacts methods see it, so dropping them would raise the score.
    static let screen: CaptureInput = {
        let loaded = try! ImageReader.read(path: Fixtures.real("moiredet/xiaomi10_labtv_219.jpg"))
        return CaptureInput(
            image: loaded.image, attestation: AttestationEvidence(status: .pass, method: .secureEnclave),
            platform: "ios")
    }()

    /// A real scene photo (PromptDA, 1920 x 1440) without depth.
    static let scene: CaptureInput = {
        let loaded = try! ImageReader.read(path: Fixtures.real("promptda/image.jpg"))
        return CaptureInput(
            image: loaded.image, attestation: AttestationEvidence(status: .pass, method: .secureEnclave),
            platform: "ios")
    }()

    static let analyzer = try! CaptureAnalyzer()
    static let screenBaseline = try! analyzer.analyze(screen, concurrent: false)
    static let sceneBaseline = try! analyzer.analyze(scene, concurrent: false)

    /// Why `result` is better than `baseline`, or nil when it is not.
    static func improvement(_ result: AggregationResult, over baseline: AggregationResult) -> String? {
        if result.confidenceLevel > baseline.confidenceLevel {
            return "level \(baseline.confidenceLevel.rawValue) -> \(result.confidenceLevel.rawValue)"
        }
        if result.confidenceScore > baseline.confidenceScore + 1e-12 {
            return "score \(baseline.confidenceScore) -> \(result.confidenceScore)"
        }
        if result.rankingScore > baseline.rankingScore + 1e-12 {
            return "ranking score \(baseline.rankingScore) -> \(result.rankingScore)"
        }
        let lost = Set(baseline.flags).intersection([.screenDetected, .printDetected]).subtracting(result.flags)
        if !lost.isEmpty { return "flags lost: \(lost.map(\.rawValue).sorted())" }
        return nil
    }

    // MARK: Depth

    /// Every pixel invalid, each way a sensor or a broken file spells it.
    static let invalidDepths: [(name: String, value: Float)] = [
        ("zero", 0), ("nan", .nan), ("+inf", .infinity), ("-inf", -.infinity), ("negative", -1.5),
        ("beyond 1 km", 1500), ("3e38", 3e38), ("subnormal", 1e-42), ("greatest finite", .greatestFiniteMagnitude),
    ]

    @Test(arguments: invalidDepths.indices)
    func allInvalidDepthIsNoBetterThanNoDepth(index: Int) throws {
        let (name, value) = Self.invalidDepths[index]
        var input = Self.scene
        input.depth = DepthMap(width: 256, height: 192, metres: [Float](repeating: value, count: 256 * 192))
        let analysis = try Self.analyzer.analyze(input, concurrent: false)
        let baseline = Self.sceneBaseline.aggregation
        #expect(Self.improvement(analysis.aggregation, over: baseline) == nil, "depth all \(name)")
        for key in ["depth/1", "depth/2"] {
            let outcome = try #require(analysis.outcome(key))
            #expect(outcome.summary.status == .unavailable, "\(key), depth all \(name)")
            #expect(outcome.summary.unavailableReason?.contains("valid depth pixel") == true, "\(key), \(name)")
        }
        #expect(analysis.aggregation.flags.contains(.primarySignalFailed), "depth all \(name)")
        #expect(analysis.evidence.sceneAnalysis.breakdown["depth/2"]?["available"] == .bool(false))
    }

    @Test func depthMixingEveryInvalidSpellingIsNoBetterThanNoDepth() throws {
        var input = Self.scene
        let values = Self.invalidDepths.map(\.value)
        input.depth = DepthMap(width: 256, height: 192, metres: (0..<(256 * 192)).map { values[$0 % values.count] })
        let analysis = try Self.analyzer.analyze(input, concurrent: false)
        #expect(Self.improvement(analysis.aggregation, over: Self.sceneBaseline.aggregation) == nil)
        #expect(analysis.outcome("depth/2")?.summary.status == .unavailable)
    }

    // MARK: Payload, as the phone sends it (JSON)

    /// Payloads whose every method entry is invalid or absent. JSON cannot spell NaN or
    /// infinity (`1e999` is refused by the parser, see `nonFiniteNumbersAreRefused`).
    static let invalidPayloads: [String] = [
        #"{"moire": {"status": "bogus"}, "texture": {"status": "done"}, "artifacts": {"status": "OK"}}"#,
        #"{"moire": {"status": 1}, "texture": {"status": true}, "artifacts": {"status": {"a": 1}}}"#,
        #"{"moire": {"status": 1, "confidence": 0}, "texture": {"status": [], "classification": "real_scene", "confidence": 1}, "artifacts": {"status": 0, "overall_confidence": 0}}"#,
        #"{"moire": {}, "texture": {}, "artifacts": {}}"#,
        #"{"moire": {"status": "completed"}, "texture": {"status": "success"}, "artifacts": {"status": "completed"}}"#,
        #"{"moire": {"status": "failed"}, "texture": {"status": "unavailable"}, "artifacts": {"status": "error"}}"#,
        #"{"moire": null, "texture": null, "artifacts": null, "aggregated_confidence": {"overall_confidence": 1}}"#,
        #"{"aggregated_confidence": {"overall_confidence": 1.0, "confidence_level": "very_high"}}"#,
        #"{"cross_validation": {"methods_agree": true}}"#,
        #"{"moire": {"status": "bogus", "detected": false, "confidence": 0}, "texture": {"status": "x", "classification": "real_scene", "confidence": 1}, "artifacts": {"status": "y", "overall_confidence": 0}}"#,
    ]

    /// Out-of-range or wrongly typed values are refused with the key named (issue 14
    /// item 6: "a clear error, never a silently dropped method that raises the confidence").
    static let refusedPayloads: [(json: String, key: String)] = [
        (#"{"moire": {"score": 1.5}, "texture": {"score": -0.2}, "artifacts": {"score": 7}}"#, "moire.score"),
        (
            #"{"moire": {"confidence": -3}, "texture": {"classification": "real_scene", "confidence": 2}, "artifacts": {"overall_confidence": -1}}"#,
            "moire.confidence"
        ),
        (
            #"{"texture": {"all_classifications": {"real_scene": 1e300}}, "artifacts": {"pwm_confidence": -1e300}}"#,
            "texture.all_classifications.real_scene"
        ),
        (#"{"moire": {"confidence": "0.0"}, "texture": {"classification": 1, "confidence": 1}}"#, "moire.confidence"),
        (#"{"texture": {"score": true}, "artifacts": {"score": [1]}}"#, "texture.score"),
        (#"{"detection": {"moire": {"status": "?"}, "texture": {}, "artifacts": {"score": 2}}}"#, "artifacts.score"),
    ]

    @Test(arguments: refusedPayloads.indices)
    func outOfRangePayloadIsRefusedNamingTheKey(index: Int) {
        let (json, key) = Self.refusedPayloads[index]
        #expect {
            try DetectionPayload.parse(Data(json.utf8))
        } throws: { error in
            (error as? PayloadError)?.message.contains("'\(key)'") == true
        }
    }

    @Test(arguments: invalidPayloads.indices)
    func allInvalidPayloadIsNoBetterThanNoPayload(index: Int) throws {
        let json = Self.invalidPayloads[index]
        var input = Self.screen
        input.payload = try DetectionPayload.parse(Data(json.utf8))
        let analysis = try Self.analyzer.analyze(input, concurrent: false)
        let baseline = Self.screenBaseline
        #expect(Self.improvement(analysis.aggregation, over: baseline.aggregation) == nil, "payload \(json)")
        // Nothing usable came from the phone: the local methods are what aggregation saw.
        #expect(analysis.aggregated == baseline.aggregated, "payload \(json)")
        #expect(analysis.aggregation.weightsUsed == baseline.aggregation.weightsUsed, "payload \(json)")
        // Every payload entry says why it did not count.
        let breakdown = analysis.evidence.sceneAnalysis.breakdown
        for outcome in analysis.outcomes where outcome.source == .payload {
            let entry = breakdown[outcome.key]
            #expect(entry?["available"] == .bool(false), "\(outcome.key) of \(json)")
            #expect(entry?["aggregated"] == .bool(false), "\(outcome.key) of \(json)")
            #expect(outcome.summary.unavailableReason?.isEmpty == false, "\(outcome.key) of \(json)")
        }
    }

    @Test func nonFiniteNumbersAreRefused() {
        for json in [
            #"{"moire": {"confidence": 1e999}}"#, #"{"moire": {"score": -1e999}}"#, #"{"moire": {"score": NaN}}"#,
            #"{"texture": {"confidence": Infinity, "classification": "real_scene"}}"#,
        ] {
            #expect(throws: PayloadError.self, "\(json)") { try DetectionPayload.parse(Data(json.utf8)) }
        }
    }

    @Test func nonStringStatusIsAFailureNamingIt() throws {
        let payload = try DetectionPayload.parse(Data(#"{"moire": {"status": 1, "confidence": 0}}"#.utf8))
        let outcome = try #require(payload.outcomes.first)
        #expect(outcome.summary.status == .failed)
        #expect(outcome.summary.unavailableReason == "payload status must be a string, got a number")
    }

    // MARK: Payload built in code (the library's callers)

    /// Completed payload results whose score no parser would produce.
    static let invalidScores: [Double?] = [.nan, .infinity, -.infinity, 1.5, -0.5, .greatestFiniteMagnitude, nil]

    static func payload(score: Double?, status: MethodStatus = .completed) -> DetectionPayload {
        let methods: [(MethodFamily, any DetectionMethod.Type)] = [
            (.moire, MoireAnalyzer.self), (.texture, TextureAnalyzer.self), (.artifacts, ArtifactAnalyzer.self),
        ]
        return DetectionPayload(
            outcomes: methods.map { family, method in
                MethodOutcome(
                    key: "payload.\(family.rawValue)", family: family, source: .payload,
                    summary: MethodResultSummary(
                        status: status, unavailableReason: nil, algorithmVersion: method.identifier,
                        analysisTimeMs: 0, score: score),
                    fields: [:], detectedBy: method)
            })
    }

    @Test(arguments: invalidScores.indices)
    func payloadOutcomeWithInvalidScoreDoesNotDisplaceLocalMethods(index: Int) throws {
        let score = Self.invalidScores[index]
        var input = Self.screen
        input.payload = Self.payload(score: score)
        let analysis = try Self.analyzer.analyze(input, concurrent: false)
        let baseline = Self.screenBaseline
        #expect(
            Self.improvement(analysis.aggregation, over: baseline.aggregation) == nil,
            "score \(String(describing: score))")
        #expect(analysis.aggregated == baseline.aggregated, "score \(String(describing: score))")
    }

    @Test func rowAnalysisRunsTheLocalMethodsAnInvalidPayloadDoesNotSupply() throws {
        var input = Self.screen
        input.payload = try DetectionPayload.parse(Data(Self.invalidPayloads[0].utf8))
        let rows = input.image.withRows {
            Self.analyzer.analyzeRows($0, depth: nil, payload: input.payload, concurrent: false)
        }
        let analysis = try Self.analyzer.analyze(input, concurrent: false, rows: rows)
        #expect(Self.improvement(analysis.aggregation, over: Self.screenBaseline.aggregation) == nil)
        #expect(analysis.aggregated == Self.screenBaseline.aggregated)
    }

    // MARK: Aggregation on recorded candidates (rescore)

    @Test func selectionSkipsPayloadCandidatesThatAreNoEvidence() throws {
        let aggregator = try PipelineAggregator(configuration: .standard)
        var candidates: [String: AggregationCandidate] = [
            "moire/2": AggregationCandidate(family: .moire, source: .computed, available: true, score: 0.1)
        ]
        for (available, score) in [(false, nil), (true, nil), (true, Double.nan), (true, 1.5), (false, 0.9)] {
            candidates["payload.moire"] = AggregationCandidate(
                family: .moire, source: .payload, available: available, score: score)
            #expect(
                aggregator.selection(candidates) == ["moire/2"],
                "available \(available), score \(String(describing: score))")
        }
        candidates["payload.moire"] = AggregationCandidate(
            family: .moire, source: .payload, available: true, score: 0.9)
        #expect(aggregator.selection(candidates) == ["payload.moire"])
    }
}
