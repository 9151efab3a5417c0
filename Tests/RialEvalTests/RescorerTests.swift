import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// `Rescorer` on records the runner wrote (the shared synthetic fixture).
@Suite(.serialized) struct RescorerTests {
    static let records: [SampleRecord] = {
        guard let folder = try? Fixtures.makeTemporaryFolder("rial-rescorer") else { return [] }
        let path = folder.appendingPathComponent("samples.jsonl").path
        let plan = RunPlan(manifests: [RunFixture.manifest], jobs: 2, resamples: 0, buildConfiguration: "debug")
        _ = try? DatasetRunner(plan: plan).run(samplesPath: path)
        return (try? SampleRecord.readLines(path: path)) ?? []
    }()

    /// Under the run's own configuration a rescore changes nothing.
    @Test func rescoreUnderTheSameConfigurationIsTheIdentity() throws {
        #expect(Self.records.count == 8)
        let rescorer = try Rescorer(configuration: .standard)
        for record in Self.records { #expect(rescorer.rescore(record) == record) }
    }

    /// A decision threshold of 1 makes every decision `attack` (no ranking score reaches 1
    /// under the default caps: without attestation the level is at most MEDIUM), and a
    /// threshold of 0 makes every one `bona_fide`; the aggregate itself is unchanged.
    @Test func theDecisionFollowsTheNewThreshold() throws {
        for (threshold, expected) in [(1.0, SampleRecord.Decision.attack), (0.0, .bonaFide)] {
            var configuration = PipelineConfiguration.standard
            configuration.decision.threshold = threshold
            let rescorer = try Rescorer(configuration: configuration)
            for record in Self.records where record.status == .evaluated {
                let rescored = rescorer.rescore(record)
                #expect(rescored.decision == expected)
                #expect(rescored.aggregate == record.aggregate)
            }
        }
    }

    @Test func failedRecordsAreCarriedOver() throws {
        var failed = try #require(Self.records.first)
        failed.status = .failed
        failed.failure = .init(stage: .load, reason: "x")
        failed.aggregate = nil
        failed.decision = nil
        failed.aggregationInputs = nil
        var configuration = PipelineConfiguration.standard
        configuration.decision.threshold = 0.9
        #expect(try Rescorer(configuration: configuration).rescore(failed) == failed)
    }

    @Test func compatibilityNamesTheChangedKey() throws {
        var changed = PipelineConfiguration.standard
        changed[DepthAnalyzerV2.self].minValidPixels = 100
        #expect(throws: RunError.self) { try Rescorer.compatibility(of: changed, with: .standard) }
        do { try Rescorer.compatibility(of: changed, with: .standard) } catch {
            #expect(
                error.message.hasPrefix("key 'depth/2.min_valid_pixels': the run used 64, the configuration has 100"))
        }
        var allowed = PipelineConfiguration.standard
        allowed.decision.threshold = 0.7
        allowed.calibration = ["moire/1": .platt(a: -5, b: 2)]
        allowed.aggregation.agreementBoost = 0
        allowed.provenance = ["seed": "1"]
        allowed.aggregateWith[.depth] = MethodIdentifier(literal: "depth", version: 1)
        allowed.profile = "android"
        try Rescorer.compatibility(of: allowed, with: .standard)
    }
}

/// The scanner path of the record pass (`SampleRecordLine`) against the `JSONDecoder` path.
@Suite(.serialized) struct SampleRecordLineTests {
    static func configurationB() -> PipelineConfiguration {
        var b = PipelineConfiguration.standard
        b.aggregation.profiles["ios_pro"]?.weights = [.lidar: 0.4, .moire: 0.3, .texture: 0.1, .supporting: 0.2]
        b.calibration = ["moire/1": .platt(a: -8, b: 4)]
        b.decision.threshold = 0.6
        return b
    }

    /// Every line the runner wrote takes the scanner path, and gives the line and slim
    /// record that decoding, `Rescorer.rescore` and encoding give.
    @Test func scannerEqualsTheDecoderPath() throws {
        let rescorer = try Rescorer(configuration: Self.configurationB())
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(RescorerTests.records.count == 8)
        for original in RescorerTests.records {
            let line = Array(original.jsonLine().utf8)
            let fast = try #require(line.withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: rescorer) })
            let slow = rescorer.rescore(try decoder.decode(SampleRecord.self, from: Data(line)))
            #expect(fast.record == slow.slimmed())
            #expect(String(decoding: fast.line, as: UTF8.self) == slow.jsonLine())
        }
    }

    /// Lines the scanner does not know fall back (nil): an unknown key, a truncated line,
    /// a record without `aggregation_inputs`, garbage.
    @Test func unknownShapesFallBack() throws {
        let rescorer = try Rescorer(configuration: .standard)
        let record = try #require(RescorerTests.records.first { $0.status == .evaluated })
        var old = record
        old.aggregationInputs = nil
        old.attestationEvidence = nil
        let line = record.jsonLine()
        let cases = [
            line.replacingOccurrences(of: "{\"aggregate\"", with: "{\"added_later\":1,\"aggregate\""),
            String(line.dropLast(10)), old.jsonLine(), "", "{", "[]", "{\"id\":\"a\"}", "not json",
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            #expect(
                bytes.withUnsafeBufferPointer { SampleRecordLine.rescore($0, rescorer: rescorer) } == nil,
                "\(text.prefix(60))")
        }
    }

    /// The aggregate fragment is written as `JSONEncoder` writes it (sorted keys, numbers).
    @Test(arguments: [0.74, 1.0, 0.0, 0.1, 1e-5, 0.33333333333333337, 2.5e-10, 0.9999999999999999])
    func aggregateTextMatchesJSONEncoder(value: Double) throws {
        let aggregate = SampleRecord.Aggregate(
            score: value, level: .medium, flags: [.partialAnalysis, .methodsDisagree], uncappedScore: value,
            rankingScore: value, weights: [.moire: value, .lidar: 1 - value], primaryMethod: "depth/2")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(SampleRecordLine.encode(aggregate) == String(decoding: try encoder.encode(aggregate), as: UTF8.self))
    }
}
