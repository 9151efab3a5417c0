import Foundation
import RialDetection
import RialMedia
import RialSynth
import Testing

@testable import RialEval

/// A small synthetic dataset on disk, shared by the run tests (written once).
enum RunFixture {
    static let folder: URL = {
        let folder =
            (try? Fixtures.makeTemporaryFolder("rial-run-fixture")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let spec = SynthDatasetSpec(count: 8, seed: 99, width: 256, height: 192, secondView: true)
        _ = try? SynthDatasetWriter(spec: spec).write(to: folder.path, jobs: 2)
        return folder
    }()

    static var manifest: String { folder.appendingPathComponent("manifest.json").path }

    /// A copy of the fixture where sample 3's image is truncated and sample 5's depth is missing.
    static func damaged() throws -> String {
        let copy = try Fixtures.makeTemporaryFolder("rial-run-damaged")
        for item in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        let manifest = try JSONValue.parse(Data(contentsOf: copy.appendingPathComponent("manifest.json")))
        let samples = manifest["samples"]?.arrayValue ?? []
        let image = copy.appendingPathComponent(samples[3]["image"]?.stringValue ?? "")
        let bytes = try Data(contentsOf: image)
        try bytes.prefix(bytes.count / 3).write(to: image)
        try FileManager.default.removeItem(
            at: copy.appendingPathComponent(samples[5]["depth"]?["path"]?.stringValue ?? ""))
        // Drop the hashes so the truncation is found by the decoder, not the hash check.
        var object = manifest.objectValue!
        object["samples"] = .array(
            samples.map { sample in
                var s = sample.objectValue!
                s["sha256"] = nil
                return .object(s)
            })
        try JSONValue.object(object).serializedData().write(to: copy.appendingPathComponent("manifest.json"))
        return copy.appendingPathComponent("manifest.json").path
    }
}

@Suite(.serialized) struct DatasetRunnerTests {
    func run(_ manifest: String, jobs: Int = 2, limit: Int? = nil, shard: (Int, Int)? = nil) throws -> [SampleRecord] {
        let folder = try Fixtures.makeTemporaryFolder("rial-run")
        let path = folder.appendingPathComponent("samples.jsonl").path
        let plan = RunPlan(
            manifests: [manifest], jobs: jobs, limit: limit, resamples: 0, shard: shard.map { ($0.0, $0.1) },
            buildConfiguration: "debug")
        _ = try DatasetRunner(plan: plan).run(samplesPath: path)
        return try SampleRecord.readLines(path: path)
    }

    /// Without timings, records are the same whatever the number of workers.
    static func stripped(_ records: [SampleRecord]) -> [SampleRecord] {
        records.map { record in
            var r = record
            r.latencyMs = [:]
            var methods = JSONObject()
            for (key, value) in r.methods {
                var fields = value.objectValue ?? [:]
                fields["analysis_time_ms"] = nil
                methods[key] = .object(fields)
            }
            r.methods = methods
            return r
        }
    }

    @Test func recordsAreInManifestOrderWhateverTheJobs() throws {
        let one = try run(RunFixture.manifest, jobs: 1)
        let two = try run(RunFixture.manifest, jobs: 2)
        #expect(one.count == 8)
        #expect(one.map(\.index) == Array(0..<8))
        #expect(Self.stripped(one) == Self.stripped(two))
        #expect(one.allSatisfy { $0.status == .evaluated && $0.data == .simulated })
        #expect(
            one.allSatisfy { $0.methods["depth/2"] != nil && $0.aggregate != nil && $0.sha256["image"]?.count == 64 })
    }

    @Test func failedSamplesAreRecordedAndTheRunGoesOn() throws {
        let records = try run(RunFixture.damaged())
        #expect(records.count == 8)
        #expect(records[3].status == .failed)
        #expect(records[3].failure?.stage == .load)
        #expect(records[3].failure?.reason.contains("images/") == true)
        #expect(records[5].status == .failed)
        #expect(records[5].failure?.stage == .resolve)
        #expect(records.filter { $0.status == .evaluated }.count == 6)
    }

    @Test func shardsPartitionTheSelection() throws {
        let all = try run(RunFixture.manifest)
        let first = try run(RunFixture.manifest, shard: (1, 3)), second = try run(RunFixture.manifest, shard: (2, 3)),
            third = try run(RunFixture.manifest, shard: (3, 3))
        let merged = (first + second + third).sorted { $0.index < $1.index }
        #expect(Self.stripped(merged) == Self.stripped(all))
        #expect(first.map(\.index) == [0, 3, 6])
    }

    /// A sample naming a phone payload file is re-aggregated with the phone's scores.
    @Test func payloadFilesInTheManifestAreUsed() throws {
        let copy = try Fixtures.makeTemporaryFolder("rial-run-payload")
        for item in try FileManager.default.contentsOfDirectory(atPath: RunFixture.folder.path) {
            try FileManager.default.copyItem(
                at: RunFixture.folder.appendingPathComponent(item), to: copy.appendingPathComponent(item))
        }
        try Data(#"{"moire": {"detected": true, "confidence": 0.9, "status": "completed"}}"#.utf8)
            .write(to: copy.appendingPathComponent("payload.json"))
        let manifestURL = copy.appendingPathComponent("manifest.json")
        var object = try JSONValue.parse(Data(contentsOf: manifestURL)).objectValue!
        var samples = object["samples"]!.arrayValue!
        var first = samples[0].objectValue!
        first["payload"] = "payload.json"
        samples[0] = .object(first)
        object["samples"] = .array(samples)
        try JSONValue.object(object).serializedData().write(to: manifestURL)
        let records = try run(manifestURL.path, limit: 2)
        let moire = try #require(records[0].methods["payload.moire"])
        #expect(abs((moire["score"]?.numberValue ?? 0) - 0.1) < 1e-12) // 1 - confidence
        // The local moire methods still run: the reference the phone's score is compared with.
        #expect(records[0].methods["moire/1"] != nil)
        #expect(records[0].aggregationInputs?["payload.moire"]?.source == .payload)
        #expect(records[0].aggregate?.flags.contains(.screenDetected) == true)
        #expect(records[1].methods["moire/1"] != nil && records[1].methods["payload.moire"] == nil)
    }

    @Test func limitSelectsTheFirstSamples() throws {
        let records = try run(RunFixture.manifest, limit: 3)
        #expect(records.map(\.index) == [0, 1, 2])
    }

    @Test func resultsCountAndSplitByData() throws {
        let records = try run(RunFixture.manifest)
        let context = RunResults.Context(
            configuration: .standard, datasets: [], limit: 3, seed: 1, resamples: 20,
            build: "debug", jobs: 2, runSeconds: 1, toolVersion: "test")
        let results = RunResults.build(records: records, context: context)
        #expect(results.testRun)
        #expect(results.counts.evaluated == 8)
        #expect(results.methods.last == "aggregate")
        #expect(results.metrics["depth/1"]?.bonaFideCount == 2)
        #expect(results.metrics["depth/1"]?.attackCount == 6)
        #expect(results.metricsByData.keys.sorted() == ["simulated"])
        #expect(results.latency["depth/1"]?.verdict == "n/a")
        // Round trip through JSON.
        let data = try results.jsonData()
        let path = try Fixtures.makeTemporaryFolder().appendingPathComponent("results.json")
        try data.write(to: path)
        #expect(try RunResults.read(path: path.path).counts == results.counts)
        let markdown = MarkdownReport.render(results)
        #expect(markdown.contains("TEST RUN"))
        #expect(markdown.contains("8 evaluated samples"))
    }

    @Test func rocCSVMatchesTheSklearnExample() {
        // sklearn's documented example as four records: y=[0,0,1,1], s=[.1,.4,.35,.8].
        let scores = [0.1, 0.4, 0.35, 0.8], truth = [false, false, true, true]
        let records = zip(scores, truth).enumerated().map { i, pair in
            SampleRecord(
                id: "s\(i)", datasetIndex: 0, index: i, dataset: "d", label: .known(pair.1 ? .realScene : .lcdScreen),
                bonaFide: pair.1, group: nil, tags: [], attestation: .none, split: .test, data: .real,
                status: .evaluated, failure: nil,
                methods: ["m/1": ["status": "completed", "score": .number(pair.0)]], aggregate: nil,
                decision: nil, latencyMs: [:], sha256: [:])
        }
        let context = RunResults.Context(
            configuration: .standard, datasets: [], limit: nil, seed: 1, resamples: 0,
            build: "release", jobs: 1, runSeconds: 0, toolVersion: "test")
        let results = RunResults.build(records: records, context: context)
        #expect(results.metrics["m/1"]?.auc == 0.75)
        let csv = CSVExport.roc(results: results, records: records)
        #expect(csv.contains("m/1,inf,0,0\nm/1,0.8,0,0.5\nm/1,0.4,0.5,0.5\nm/1,0.35,0.5,1\nm/1,0.1,1,1\n"))
    }
}

@Suite struct GateTests {
    static func results(auc: Double, eer: Double, p50: Double, decode: Double) -> RunResults {
        var metrics = MethodMetrics.compute(
            samples: [
                ScoredSample(id: "a", score: 0.9, bonaFide: true, species: "real_scene"),
                ScoredSample(id: "b", score: 0.1, bonaFide: false, species: "lcd_screen"),
            ], configuration: MetricsConfiguration(threshold: 0.5, bootstrap: BootstrapSettings(resamples: 0)))
        metrics.auc = auc
        metrics.eer = eer
        let context = RunResults.Context(
            configuration: .standard, datasets: [], limit: nil, seed: 1, resamples: 0,
            build: "release", jobs: 1, runSeconds: 0, toolVersion: "test")
        var r = RunResults.build(records: [], context: context)
        r.methods = ["aggregate"]
        r.metrics = ["aggregate": metrics]
        r.counts.evaluated = 100
        func entry(_ v: Double, _ target: Double?) -> RunResults.LatencyEntry {
            .init(statistics: LatencyStatistics(milliseconds: [v]), targetMs: target, verdict: "PASS")
        }
        r.latency = ["depth/2": entry(p50, 50), "decode": entry(decode, nil)]
        return r
    }

    @Test func toleranceAndPolarity() throws {
        let base = Self.results(auc: 0.90, eer: 0.10, p50: 2, decode: 10)
        // AUC 0.881 is within 0.02; EER 0.115 within 0.02; latency ratio 0.3 vs 0.2 within 2x.
        let ok = try GateReport.evaluate(
            baseline: base, current: Self.results(auc: 0.881, eer: 0.115, p50: 6, decode: 20),
            policy: .standard, baselinePath: "b", currentPath: "c")
        #expect(ok.passed, "\(ok.failures)")
        let worse = try GateReport.evaluate(
            baseline: base, current: Self.results(auc: 0.87, eer: 0.125, p50: 9, decode: 20),
            policy: .standard, baselinePath: "b", currentPath: "c")
        #expect(Set(worse.failures.map(\.name)) == ["aggregate.auc", "aggregate.eer", "depth/2.p50/decode"])
        // Better is never a regression.
        let better = try GateReport.evaluate(
            baseline: base, current: Self.results(auc: 0.99, eer: 0.01, p50: 0.1, decode: 10),
            policy: .standard, baselinePath: "b", currentPath: "c")
        #expect(better.passed)
        #expect(worse.junitXML().contains(#"failures="3""#))
        #expect(worse.markdown().contains("FAIL (3 of"))
    }

    @Test func missingCoverageFails() throws {
        let base = Self.results(auc: 0.9, eer: 0.1, p50: 1, decode: 10)
        var current = base
        current.counts.evaluated = 50
        let report = try GateReport.evaluate(
            baseline: base, current: current, policy: .standard, baselinePath: "b", currentPath: "c")
        #expect(report.failures.map(\.name) == ["counts.evaluated"])
    }
}
