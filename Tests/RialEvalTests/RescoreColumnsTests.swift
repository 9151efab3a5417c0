import Foundation
import RialCodecs
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// `rescore` from a run's columns (no record read or written) against the rescore that
/// reads and writes every record: the same results, field for field, the same columns and
/// curve reports byte for byte, and the records the folder names, aggregated under its
/// configuration, equal to the records the other rescore writes.
@Suite struct RescoreColumnsTests {
    /// The runner's own records and varied ones (groups, tags, attestations, failures,
    /// payload-free), as one run folder.
    static var records: [SampleRecord] {
        var records = RescorerTests.records + AggregationSidecarTests.varied
        for i in records.indices {
            records[i].id = "s\(i)"
            records[i].index = i
            if i % 3 == 0 { records[i].tags = ["tag\(i % 2)", "shared"] }
            if i % 5 == 0 { records[i].data = .real }
        }
        return records
    }

    static func writeRun(_ records: [SampleRecord], to folder: String) throws {
        let staging = try RunFolderStaging(destination: folder)
        let lines = records.map { $0.jsonLine() + "\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: staging.path).appendingPathComponent("samples.jsonl"))
        let results = HTMLReportFixtures.results(records)
        try RunOutput.writeResultsAndReports(results: results, records: records, folder: staging.path)
        try staging.commit()
    }

    /// Both rescores of `run` under `configuration`, committed into new folders.
    static func rescoreBoth(_ run: String, _ configuration: PipelineConfiguration) throws -> (
        columns: (folder: String, outcome: RunRescore.Outcome), records: (folder: String, outcome: RunRescore.Outcome)
    ) {
        func rescore(_ writeSamples: Bool) throws -> (String, RunRescore.Outcome) {
            let folder = try Fixtures.makeTemporaryFolder("rial-rescore-columns").appendingPathComponent("out").path
            let staging = try RunFolderStaging(destination: folder)
            let outcome = try RunRescore.rescore(
                run: run, configuration: configuration, configurationFile: nil, into: staging.path, jobs: 2,
                toolVersion: "0.0-test", writeSamples: writeSamples)
            try staging.commit()
            return (folder, outcome)
        }
        return (try rescore(false), try rescore(true))
    }

    /// `value` as results.json writes it (NaN as "nan", so equal NaNs compare equal).
    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable"
    }

    static func expectEqual(_ a: RunResults, _ b: RunResults) {
        #expect(json(a.metrics) == json(b.metrics))
        #expect(json(a.metricsByData) == json(b.metricsByData))
        #expect(a.methods == b.methods)
        #expect(a.counts == b.counts)
        #expect(a.failures == b.failures)
        #expect(json(a.latency) == json(b.latency))
        #expect(a.seeds == b.seeds)
        #expect(json(a.aggregateLevels) == json(b.aggregateLevels))
        #expect(a.ruleLevels == b.ruleLevels)
        #expect(json(a.successMetrics) == json(b.successMetrics))
        #expect(a.configuration == b.configuration)
        #expect(a.configurationSHA256 == b.configurationSHA256)
        #expect(a.rescoredFrom == b.rescoredFrom)
        #expect(a.samplesSHA256 != nil)
        #expect(a.aggregationSidecarSHA256 == b.aggregationSidecarSHA256)
        #expect(a.metricColumnsSHA256 == b.metricColumnsSHA256)
        #expect(a.payloadParity == nil && b.payloadParity == nil && a.privacyMode == nil && b.privacyMode == nil)
    }

    /// Under the benchmark's configuration (weights, a calibration, the decision threshold,
    /// which every method without its own threshold shares) and under one that changes only
    /// one method's threshold (the others keep the run's metrics).
    @Test(arguments: [0, 1])
    func equalsTheRescoreThatWritesRecords(variant: Int) throws {
        let records = Self.records
        #expect(records.count == 32)
        let run = try Fixtures.makeTemporaryFolder("rial-rescore-columns-run").appendingPathComponent("run").path
        try Self.writeRun(records, to: run)
        var configuration = RescoreBenchmark.configuration
        if variant == 1 {
            configuration = PipelineConfiguration()
            configuration.decision.methodThresholds = ["moire/1": 0.3]
        }
        let (columns, written) = try Self.rescoreBoth(run, configuration)
        #expect(!columns.outcome.wroteSamples && columns.outcome.recordsReason == nil)
        #expect(written.outcome.wroteSamples)
        #expect(columns.outcome.rescored == written.outcome.rescored)
        #expect(columns.outcome.failed == written.outcome.failed && written.outcome.failed == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(columns.folder)/samples.jsonl"))

        let a = try RunOutput.verifiedResults(folder: columns.folder)
        let b = try RunOutput.verifiedResults(folder: written.folder)
        Self.expectEqual(a, b)
        #expect(a.samplesFrom == URL(fileURLWithPath: run).standardizedFileURL.path)
        #expect(b.samplesFrom == nil)
        // The rescore changed the aggregate, so the comparison is not of the run with itself.
        let source = try RunOutput.verifiedResults(folder: run)
        #expect(Self.json(a.metrics["aggregate"]) != Self.json(source.metrics["aggregate"]) || variant == 1)
        if variant == 1 {
            #expect(Self.json(a.metrics["moire/1"]) != Self.json(source.metrics["moire/1"]))
            #expect(Self.json(a.metrics["depth/2"]) == Self.json(source.metrics["depth/2"]))
        }

        for file in [
            MetricColumns.fileName, AggregationColumns.fileName, "roc.csv", "det.csv", "scores.csv", "metrics.csv",
            "roc.svg", "latency.svg",
        ] {
            let x = try? Data(contentsOf: URL(fileURLWithPath: "\(columns.folder)/\(file)"))
            let y = try? Data(contentsOf: URL(fileURLWithPath: "\(written.folder)/\(file)"))
            #expect(x != nil && x == y, "\(file)")
        }
        // The folder's records: the run's, aggregated under the configuration.
        let named = try RunOutput.records(folder: columns.folder, results: a)
        let wrote = try SampleRecord.readLines(path: "\(written.folder)/samples.jsonl")
        #expect(named == wrote)
        #expect(named.map(\.aggregate) != records.map(\.aggregate))

        // A rescore of the rescored folder reads the same records (from the first run).
        let again = try Self.rescoreBoth(columns.folder, RescoreBenchmark.configuration)
        Self.expectEqual(
            try RunOutput.verifiedResults(folder: again.columns.folder),
            try RunOutput.verifiedResults(folder: again.records.folder))
        #expect(try RunOutput.verifiedResults(folder: again.columns.folder).samplesFrom == a.samplesFrom)
    }

    /// What this path does not rebuild sends the rescore through the records, saying why;
    /// a run folder whose records changed is refused when the named folder is read.
    @Test func otherRunsTakeTheRecordsAndChangedRecordsAreRefused() throws {
        let run = try Fixtures.makeTemporaryFolder("rial-rescore-columns-old").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: run)
        let (columns, _) = try Self.rescoreBoth(run, RescoreBenchmark.configuration)
        var lines = try String(contentsOfFile: "\(run)/samples.jsonl", encoding: .utf8)
        lines = lines.replacingOccurrences(of: "\"s3\"", with: "\"s3x\"")
        try lines.write(toFile: "\(run)/samples.jsonl", atomically: true, encoding: .utf8)
        let message = RunFolderFaultTests.refusal { () throws(RunError) in
            _ = try RunOutput.verifiedResults(folder: columns.folder)
        }
        #expect(message?.hasPrefix("\(run)/samples.jsonl: SHA-256 ") == true, "\(message ?? "accepted")")

        // A run without metric columns (an older rial-bench) is rescored through its records.
        let old = try Fixtures.makeTemporaryFolder("rial-rescore-columns-older").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: old)
        var results = try RunOutput.verifiedResults(folder: old)
        results.metricColumnsSHA256 = nil
        try results.jsonData().write(to: URL(fileURLWithPath: "\(old)/results.json"))
        let (fallback, _) = try Self.rescoreBoth(old, RescoreBenchmark.configuration)
        #expect(fallback.outcome.wroteSamples)
        #expect(fallback.outcome.recordsReason?.contains("no metric columns") == true)
    }
}
