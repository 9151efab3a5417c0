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
