import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// `rial-bench bench-rescore`: the time `rescore` takes on a large run.
///
/// A synthetic run folder is written first (not timed): `samples` records shaped as `run`
/// writes them — every registered method version, each with its common fields and
/// `fieldsPerMethod` further numbers (the default run's results have about 10 to 60),
/// `aggregation_inputs`, `attestation_evidence`, latencies and hashes — cycled from 1,000
/// seeded templates with a unique id each, and a `results.json` that verifies against
/// them. Then `RunRescore.rescore` is timed on it, with a configuration that changes
/// weights, a calibration and the decision threshold, exactly as the command runs it.
public enum RescoreBenchmark {
    public struct Report: Sendable, Codable {
        public var samples: Int
        public var bytes: Int
        public var jobs: Int
        public var bootstrapResamples: Int
        /// Read, verify, aggregate and write `samples.jsonl`, seconds.
        public var recordSeconds: Double
        /// Metrics (`RunResults.build`) and reports, seconds.
        public var reportSeconds: Double
        /// Of which the metrics, seconds.
        public var metricsSeconds: Double
        /// And writing `results.json` and the reports, seconds.
        public var writeSeconds: Double
        /// The whole rescore, seconds.
        public var totalSeconds: Double
    }

    /// Writes the synthetic run folder `folder` (which must not exist or be empty).
    ///
    /// - Throws: `RunError` when a file cannot be written.
    public static func writeRun(
        folder: String, samples: Int, fieldsPerMethod: Int, resamples: Int, seed: UInt64 = 7
    ) throws(RunError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw RunError("\(folder): cannot be created")
        }
        var random = SplitMix64(seed: seed)
        let templates = (0..<min(1000, max(1, samples))).map {
            template($0, fieldsPerMethod: fieldsPerMethod, random: &random)
        }
        let lines = templates.map { record -> (prefix: [UInt8], suffix: [UInt8]) in
            let text = record.jsonLine()
            let marker = "\"id\":\"\(record.id)\""
            let range = text.range(of: marker)!
            return (
                Array(text[..<range.lowerBound].utf8) + Array("\"id\":\"".utf8),
                Array("\"".utf8) + Array(text[range.upperBound...].utf8)
            )
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(RunOutput.samplesFile).path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RunError("\(path): cannot be created") }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8 << 20)
        do {
            for i in 0..<samples {
                let line = lines[i % lines.count]
                buffer += line.prefix
                buffer += Array("s\(i)".utf8)
                buffer += line.suffix
                buffer.append(UInt8(ascii: "\n"))
                if buffer.count >= 8 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: buffer)
            try handle.close()
        } catch { throw RunError("\(path): cannot be written (\(error.localizedDescription))") }

        let context = RunResults.Context(
            configuration: .standard,
            datasets: [
                RunDataset(
                    path: "synthetic", name: "bench-rescore", manifestSHA256: "", original: samples, selected: samples,
                    evaluated: samples, failed: 0, data: "simulated")
            ], limit: nil, seed: 42, resamples: resamples, build: "release", jobs: 1, runSeconds: 0,
            toolVersion: "bench")
        var results = RunResults.build(records: templates.map { $0.slimmed() }, context: context)
        let digest = try SamplesDigest(fileAt: path)
        results.samplesSHA256 = digest.sha256
        results.samplesLines = digest.lines
        do {
            try results.jsonData().write(
                to: URL(fileURLWithPath: folder).appendingPathComponent(RunOutput.resultsFile), options: .atomic)
        } catch { throw RunError("\(folder)/\(RunOutput.resultsFile): cannot be written") }
    }

    /// The configuration the benchmark rescores under: other `ios_pro` weights, a Platt
    /// calibration of moire/1, decision threshold 0.6.
    public static var configuration: PipelineConfiguration {
        var c = PipelineConfiguration.standard
        c.aggregation.profiles[AggregationProfile.iosProName]?.weights = [
            .lidar: 0.4, .moire: 0.3, .texture: 0.1, .supporting: 0.2,
        ]
        c.calibration = ["moire/1": .platt(a: -8, b: 4)]
        c.decision.threshold = 0.6
        return c
    }

    /// Times the rescore of the run folder `run` into `out` (a staging folder that is then discarded).
    public static func measure(run: String, out: String, jobs: Int) throws(RunError) -> Report {
        let staging = try RunFolderStaging(destination: out)
        defer { staging.discard() }
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try RunRescore.rescore(
            run: run, configuration: configuration, configurationFile: nil, into: staging.path, jobs: jobs,
            toolVersion: "bench")
        let total = (clock.now - start).milliseconds / 1_000
        let bytes =
            (try? FileManager.default.attributesOfItem(
                atPath: URL(fileURLWithPath: run).appendingPathComponent(RunOutput.samplesFile).path)[.size] as? Int)
            ?? 0
        return Report(
            samples: outcome.rescored + outcome.failed, bytes: bytes, jobs: jobs,
            bootstrapResamples: outcome.results.bootstrapResamples, recordSeconds: outcome.recordSeconds,
            reportSeconds: outcome.reportSeconds, metricsSeconds: outcome.metricsSeconds,
            writeSeconds: outcome.writeSeconds, totalSeconds: total)
    }

    /// One template record: label by position, method scores drawn from `random`.
    static func template(_ n: Int, fieldsPerMethod: Int, random: inout SplitMix64) -> SampleRecord {
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        let labels: [SampleLabel] = [.realScene, .lcdScreen, .oledScreen, .printedPaper]
        let label = labels[n % labels.count]
        let bonaFide = label == .realScene
        var methods = JSONObject()
        var inputs: [String: AggregationCandidate] = [:]
        var latency: [String: Double] = [:]
        for (index, method) in MethodRegistry.standard.identifiers.enumerated() {
            let family = MethodFamily(method) ?? .depth
            let completed = uniform() > 0.1
            let score = completed ? min(1, max(0, (bonaFide ? 0.35 : 0) + 0.65 * uniform())) : nil
            var fields: JSONObject = [
                "status": .string(completed ? "completed" : "unavailable"),
                "algorithm_version": .string(method.description),
                "analysis_time_ms": .number(1 + 100 * uniform()),
            ]
            fields["score"] = score.map(JSONValue.number) ?? .null
            if !completed { fields["unavailable_reason"] = "no input for this method" }
            if index == 0 { fields["margin"] = .number(uniform() - 0.5) }
            for k in 0..<fieldsPerMethod { fields["feature_\(k)"] = .number(uniform() * 1000) }
            methods[method.description] = .object(fields)
            let screen = completed && !bonaFide && label != .printedPaper && family == .moire && uniform() > 0.5
            let print = completed && label == .printedPaper && family == .artifacts && uniform() > 0.5
            inputs[method.description] = AggregationCandidate(
                family: family, source: .computed, available: completed, score: score, screenDetected: screen,
                printDetected: print)
            latency[method.description] = 1 + 100 * uniform()
        }
        latency["decode"] = 20 * uniform()
        latency["total"] = 300 * uniform()
        var record = SampleRecord(
            id: "template-\(n)", datasetIndex: 0, index: n, dataset: "bench-rescore", label: .known(label),
            bonaFide: bonaFide, group: "g\(n % 200)", tags: ["synthetic", label.rawValue], attestation: .none,
            split: .test, data: .simulated, status: .evaluated, failure: nil, methods: methods, aggregate: nil,
            decision: nil, aggregationInputs: inputs, attestationEvidence: .missing, latencyMs: latency,
            sha256: ["image": String(repeating: "ab", count: 32), "depth": String(repeating: "cd", count: 32)])
        if let rescorer = try? Rescorer(configuration: .standard) { record = rescorer.rescore(record) }
        return record
    }
}
