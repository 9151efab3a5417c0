import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// Tuning on records: the extraction refuses old runs, and the fast evaluation equals
/// the pipeline's aggregation on the same records, for every sample.
@Suite struct TuningRecordsTests {
    /// Every sample's ranking score from the fast path equals the one `PipelineAggregator`
    /// (what `run` and `analyze` aggregate with) gives on the record's candidates, under
    /// the tuned configuration and under the base one.
    @Test func fastEvaluationEqualsThePipelineAggregator() throws {
        let records = TuningBenchmark.syntheticRecords(count: 900, seed: 21)
        let base = PipelineConfiguration.standard
        let problem = try TuningProblem.from(records: records, base: base, profileName: base.profile) { _ in "x" }
        var options = TuningOptions()
        options.objective = .pauc
        let tuner = try Tuner(problem: problem, options: options)
        let rows = Array(0..<problem.count)
        let fit = tuner.fit(rows: rows)
        #expect(!fit.calibration.isEmpty)
        let tuned = fit.applied(to: base, profile: base.profile)
        for (configuration, fast) in [(tuned, tuner.rankingScores(fit, rows: rows)), (base, tuner.baseRankingScores())]
        {
            let aggregator = try PipelineAggregator(configuration: configuration)
            let profile = try aggregator.profile(named: configuration.profile)
            for (i, record) in records.enumerated() {
                let outcome = aggregator.aggregate(
                    record.aggregationInputs!, attestation: record.attestationEvidence!, profile: profile)
                let expected = outcome.result.weightsUsed.isEmpty ? 0 : outcome.result.rankingScore
                #expect(fast[i] == expected, "sample \(record.id): fast \(fast[i]), aggregator \(expected)")
            }
        }
    }

    /// The same through `Rescorer` (what `rial-bench rescore` writes): the record's
    /// aggregate score under the tuned configuration, and its decision at the tuned
    /// threshold, equal the fast path's.
    @Test func fastEvaluationEqualsRescorer() throws {
        let records = TuningBenchmark.syntheticRecords(count: 600, seed: 22)
        let base = PipelineConfiguration.standard
        let problem = try TuningProblem.from(records: records, base: base, profileName: base.profile) { _ in "x" }
        var options = TuningOptions()
        options.objective = .apcerAtBPCER
        let tuner = try Tuner(problem: problem, options: options)
        let rows = Array(0..<problem.count)
        let fit = tuner.fit(rows: rows)
        let rescorer = try Rescorer(configuration: fit.applied(to: base, profile: base.profile))
        let fast = tuner.rankingScores(fit, rows: rows)
        for (i, record) in records.enumerated() {
            let rescored = rescorer.rescore(record)
            #expect(fast[i] == rescored.score("aggregate") ?? 0, "sample \(record.id)")
            #expect((fast[i] >= fit.threshold) == (rescored.decision == .bonaFide), "sample \(record.id)")
        }
    }

    @Test func recordsWithoutAggregationInputsAreRefused() {
        var records = TuningBenchmark.syntheticRecords(count: 5, seed: 1)
        records[3].aggregationInputs = nil
        #expect {
            _ = try TuningProblem.from(records: records, base: .standard, profileName: "ios_pro") { _ in
                "run/samples.jsonl"
            }
        } throws: { error in
            "\(error)".contains("run/samples.jsonl: sample 's3' has no aggregation_inputs")
        }
    }

    @Test func sourcesAndGroupsComeFromTheRecords() throws {
        let records = TuningBenchmark.syntheticRecords(count: 40, seed: 2)
        let problem = try TuningProblem.from(records: records, base: .standard, profileName: "ios_pro") { _ in "x" }
        #expect(problem.sources[0] == "owner/repo0" && problem.sources[39] == "owner/repo9")
        #expect(problem.groups[5] == "g1")
        #expect(
            problem.matrix.columns.map(\.key) == [
                "depth/2", "parallax/2", "moire/2", "texture/4", "artifacts/2", "attestation",
            ])
    }
}
