import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// Tuning aggregates records as `run` does, including the metadata checks they recorded:
/// a failed check caps the level at `level_caps.metadata_fail` (PRD "Evidence Status
/// Values": FAIL is a "Red flag—possible manipulation").
@Suite struct TuningMetadataChecksTests {
    @Test func fastEvaluationAppliesRecordedFailedChecks() throws {
        var records = TuningBenchmark.syntheticRecords(count: 300, seed: 5)
        for i in records.indices where i % 7 == 0 {
            records[i].metadataChecks = ["metadata.device_has_lidar": .fail, "metadata.timestamp": .unavailable]
        }
        let base = PipelineConfiguration.standard
        let problem = try TuningProblem.from(records: records, base: base, profileName: base.profile) { _ in "x" }
        let tuner = try Tuner(problem: problem, options: TuningOptions())
        let fast = tuner.baseRankingScores()
        let aggregator = try PipelineAggregator(configuration: base)
        let profile = try aggregator.profile(named: base.profile)
        var capped = 0
        for (i, record) in records.enumerated() {
            let outcome = aggregator.aggregate(
                record.aggregationInputs!, attestation: record.attestationEvidence!, profile: profile,
                checks: record.metadataChecks ?? [:])
            let expected = outcome.result.weightsUsed.isEmpty ? 0 : outcome.result.rankingScore
            #expect(fast[i] == expected, "sample \(record.id): fast \(fast[i]), aggregator \(expected)")
            if record.metadataChecks != nil && !outcome.result.weightsUsed.isEmpty {
                #expect(outcome.result.confidenceLevel == .suspicious)
                capped += 1
            }
        }
        #expect(capped > 0)
    }
}
