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
/// seeded templates with a unique id each (with `distinctScores`, every line's method
/// scores moved by its own small seeded offset, in `methods` and `aggregation_inputs`
/// alike, so the scores are not 1,000 repeated values and the bootstrap sorts as many
/// distinct scores as a real run of that size), the run's aggregation sidecar, and a
/// `results.json` that verifies against them. Then the sidecar's part of a rescore is
/// timed (read and verify `aggregation-inputs.bin`, aggregate every sample from its
/// columns on all cores, with `Rescorer` and with the compiled `AggregationPlan`; the
/// aggregate's metrics on the plan's scores), and `RunRescore.rescore` is timed on the folder, with a
/// configuration that changes weights, a calibration and the decision threshold, exactly
/// as the command runs it.
public enum RescoreBenchmark {
    public struct Report: Sendable, Codable {
        public var samples: Int
        public var bytes: Int
        public var jobs: Int
        public var bootstrapResamples: Int
        /// Read, verify, aggregate and write `samples.jsonl` (with `wroteSamples`), or read
        /// the run's columns and aggregate them, seconds.
        public var recordSeconds: Double
        /// Metrics (`RunResults.build`) and reports, seconds.
        public var reportSeconds: Double
        /// Of which the metrics, seconds.
        public var metricsSeconds: Double
        /// And writing `results.json` and the reports, seconds.
        public var writeSeconds: Double
        /// The whole rescore, seconds.
        public var totalSeconds: Double
        /// Every line's scores distinct (not cycled from the templates).
        public var distinctScores: Bool = false
        /// Whether the rescore wrote `samples.jsonl` (`--write-samples`), else it read the run's columns.
        public var wroteSamples: Bool = true
        /// Read `aggregation-inputs.bin` in one read and check its SHA-256, seconds.
        public var sidecarReadSeconds: Double = 0
        /// Parse it into columns, seconds.
        public var sidecarParseSeconds: Double = 0
        /// Aggregate every sample from the columns on all cores, seconds.
        public var sidecarAggregateSeconds: Double = 0
        /// Aggregate every sample from the columns with the compiled plan (`AggregationPlan`,
        /// the numbers metrics read, no strings) on all cores, seconds.
        public var planAggregateSeconds: Double = 0
        /// Bytes of `aggregation-inputs.bin`.
        public var sidecarBytes: Int = 0
        /// The aggregate's metrics (`MethodMetrics.compute`, breakdowns by label and group)
        /// on the scores aggregated from the sidecar, seconds.
        public var aggregateMetricsSeconds: Double = 0
        /// Those metrics again, part by part (`metricsParts`), seconds.
        public var aggregateMetricsParts: [String: Double] = [:]
        /// CPU seconds (every thread) of the sidecar's phases and of the metrics' parts
        /// (`aggregate_metrics.PART`).
        public var cpuSeconds: [String: Double] = [:]
    }

    /// Writes the synthetic run folder `folder` (which must not exist or be empty); with
    /// `samplesFile` false its `samples.jsonl` is left empty (only the sidecar's part of a
    /// rescore can then be timed).
    ///
    /// - Throws: `RunError` when a file cannot be written.
    public static func writeRun(
        folder: String, samples: Int, fieldsPerMethod: Int, resamples: Int, seed: UInt64 = 7,
        distinctScores: Bool = false, samplesFile: Bool = true, groups: Int? = nil
    ) throws(RunError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw RunError("\(folder): cannot be created")
        }
        var random = SplitMix64(seed: seed)
        let templates = (0..<min(1000, max(1, samples))).map {
            template($0, fieldsPerMethod: fieldsPerMethod, random: &random)
        }
        // Each template line cut at its id and at every method score (in `methods` and in
        // `aggregation_inputs`, both written `"score":VALUE`): the pieces between, and which
        // method's score follows each piece (nil: the id).
        let methodKeys = MethodRegistry.standard.identifiers.map(\.description)
        let pieces = templates.map { record -> [(text: [UInt8], next: Int?)] in
            let text = Array(record.jsonLine().utf8)
            var cuts: [(range: Range<Int>, next: Int?)] = []
            let idMarker = Array("\"id\":\"\(record.id)\"".utf8)
            if let at = find(idMarker, in: text) { cuts.append(((at + 6)..<(at + idMarker.count - 1), nil)) }
            // With `groups`, the group's name too (next -2: the line's own group).
            if groups != nil, let group = record.group {
                let groupMarker = Array("\"group\":\"\(group)\"".utf8)
                if let at = find(groupMarker, in: text) {
                    cuts.append(((at + 9)..<(at + groupMarker.count - 1), -2))
                }
            }
            if distinctScores {
                for (k, key) in methodKeys.enumerated() {
                    guard let score = record.aggregationInputs?[key]?.score else { continue }
                    let marker = Array("\"score\":\(SampleRecordLine.number(score))".utf8)
                    var from = 0
                    while let at = find(marker, in: text, from: from) {
                        let end = at + marker.count
                        from = end
                        guard end < text.count, text[end] == UInt8(ascii: ",") || text[end] == UInt8(ascii: "}")
                        else { continue }
                        cuts.append(((at + 8)..<end, k))
                    }
                }
            }
            cuts.sort { $0.range.lowerBound < $1.range.lowerBound }
            var out: [(text: [UInt8], next: Int?)] = []
            var position = 0
            for cut in cuts {
                out.append((Array(text[position..<cut.range.lowerBound]), cut.next))
                position = cut.range.upperBound
            }
            out.append((Array(text[position...]), -1))
            return out
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(RunOutput.samplesFile).path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RunError("\(path): cannot be created") }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8 << 20)
        // The sidecar of the same lines: the templates' columns, tiled, with each line's scores.
        let templateColumns = AggregationColumns(records: templates)
        var columns = AggregationColumns(records: [])
        columns.tile(templateColumns, to: samples)
        if let groups {
            // Line i in group g(i mod groups), as its line says.
            columns.groups = (0..<groups).map { "g\($0)" }
            columns.group = (0..<samples).map { UInt32($0 % groups) }
        }
        let keyColumn = methodKeys.map { templateColumns.keys.firstIndex(of: $0) }
        do {
            for i in 0..<samples {
                let t = i % pieces.count
                for piece in pieces[t] {
                    if samplesFile { buffer += piece.text }
                    guard let next = piece.next else {
                        if samplesFile { buffer += Array("s\(i)".utf8) }
                        continue
                    }
                    if next == -2, let groups {
                        if samplesFile { buffer += Array("g\(i % groups)".utf8) }
                        continue
                    }
                    guard next >= 0, let k = keyColumn[next] else { continue }
                    let score = distinctScore(templateColumns.score[k][t], line: i, method: next, seed: seed)
                    columns.score[k][i] = score
                    if samplesFile { buffer += Array(SampleRecordLine.number(score).utf8) }
                }
                if samplesFile { buffer.append(UInt8(ascii: "\n")) }
                if buffer.count >= 8 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: buffer)
            try handle.close()
        } catch { throw RunError("\(path): cannot be written (\(error.localizedDescription))") }
        let sidecarSHA256 = try columns.write(folder: folder)

        let context = RunResults.Context(
            configuration: .standard,
            datasets: [
                RunDataset(
                    path: "synthetic", name: "bench-rescore", manifestSHA256: "", original: samples, selected: samples,
                    evaluated: samples, failed: 0, data: "simulated")
            ], limit: nil, seed: 42, resamples: resamples, build: "release", jobs: 1, runSeconds: 0,
            toolVersion: "bench")
        // The metrics are the templates' (computing a million samples' would take minutes
        // and is not what is timed), with the counts of the whole run.
        var results = RunResults.build(records: templates.map { $0.slimmed() }, context: context)
        let digest = try SamplesDigest(fileAt: path)
        results.samplesSHA256 = digest.sha256
        results.samplesLines = digest.lines
        results.aggregationSidecarSHA256 = sidecarSHA256
        let failed = columns.status.count { $0 != 0 }
        results.counts.selected = samples
        results.counts.evaluated = samples - failed
        results.counts.failed = failed
        // The metric columns of the same lines: the templates', tiled, with each line's id
        // and method scores (a method's score is its aggregation input's, as in the lines).
        let templateMetrics = MetricColumns(records: templates, keys: results.methods)
        var metricColumns = MetricColumns(count: 0)
        metricColumns.tile(templateMetrics, to: samples) { "s\($0)" }
        for (m, key) in metricColumns.keys.enumerated() {
            guard let k = columns.keys.firstIndex(of: key) else { continue }
            for i in 0..<samples where metricColumns.present[m][i] == 1 {
                metricColumns.score[m][i] = columns.score[k][i]
            }
        }
        results.metricColumnsSHA256 = try metricColumns.write(folder: folder)
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
    /// With `full` false only the sidecar's part is timed (for a run written without
    /// `samples.jsonl`: `writeRun(samplesFile: false)`).
    /// With `writeSamples` the rescore reads and writes every record (`rescore --write-samples`).
    public static func measure(run: String, out: String, jobs: Int, full: Bool = true, writeSamples: Bool = false)
        throws(RunError) -> Report
    {
        let clock = ContinuousClock()
        // The sidecar's part: one read with its digest, the columns, every sample aggregated.
        let results = try RunOutput.unverifiedResults(folder: run)
        var cpu: [String: Double] = [:]
        var cpuMark = ProcessCPUClock.seconds()
        func cpuPhase(_ name: String) {
            let now = ProcessCPUClock.seconds()
            cpu[name] = now - cpuMark
            cpuMark = now
        }
        let sidecarPath = URL(fileURLWithPath: run).appendingPathComponent(AggregationColumns.fileName).path
        var phase = clock.now
        let data = try RunResults.contents(of: sidecarPath)
        guard SHA256Digest.hash(data) == results.aggregationSidecarSHA256 else {
            throw RunError("\(sidecarPath): SHA-256 does not match results.json's aggregation_sidecar_sha256")
        }
        let readSeconds = (clock.now - phase).milliseconds / 1_000
        cpuPhase("sidecar_read")
        phase = clock.now
        let parsed = data.withUnsafeBytes { raw in
            Result { () throws(RunError) in try AggregationColumns.parse(raw, path: sidecarPath) }
        }
        let columns = try parsed.get()
        let parseSeconds = (clock.now - phase).milliseconds / 1_000
        cpuPhase("sidecar_parse")
        phase = clock.now
        let rescorer: Rescorer
        do { rescorer = try Rescorer(configuration: configuration) } catch {
            throw RunError("bench configuration: key '\(error.key)': \(error.reason)")
        }
        let aggregated = rescorer.aggregateAll(columns, jobs: jobs)
        let aggregateSeconds = (clock.now - phase).milliseconds / 1_000
        cpuPhase("aggregate_rescorer")
        guard aggregated.count == columns.count else { throw RunError("\(sidecarPath): aggregation lost samples") }
        phase = clock.now
        let plan: AggregationPlan
        do { plan = try AggregationPlan(configuration: configuration, columns: columns) } catch {
            throw RunError("bench configuration: key '\(error.key)': \(error.reason)")
        }
        let outputs = plan.run(columns, jobs: jobs)
        let planSeconds = (clock.now - phase).milliseconds / 1_000
        cpuPhase("aggregate_plan")
        // The aggregate's own metrics on the new scores (what a rescore must recompute;
        // breakdowns by label and group, the dimensions the sidecar holds).
        phase = clock.now
        var scored: [ScoredSample] = []
        scored.reserveCapacity(columns.count)
        for i in 0..<columns.count where columns.status[i] == 0 {
            let group = columns.group[i] == AggregationColumns.noGroup ? nil : columns.groups[Int(columns.group[i])]
            scored.append(
                ScoredSample(
                    id: String(i), score: outputs.present[i] == 2 ? outputs.rankingScore[i] : .nan,
                    bonaFide: columns.bonaFide[i] == 1, species: columns.labels[Int(columns.label[i])], group: group))
        }
        let metrics = MethodMetrics.compute(
            samples: scored,
            configuration: MetricsConfiguration(
                threshold: configuration.decision.threshold(for: nil),
                bootstrap: BootstrapSettings(
                    resamples: results.bootstrapResamples, seed: results.seeds["bootstrap"] ?? 42),
                breakdowns: [.label, .group]))
        let aggregateMetricsSeconds = (clock.now - phase).milliseconds / 1_000
        cpuPhase("aggregate_metrics")
        _ = metrics
        let (parts, partsCPU) = metricsParts(samples: scored, configuration: configuration, results: results)
        for (name, seconds) in partsCPU { cpu["aggregate_metrics." + name] = seconds }
        guard full else {
            return Report(
                samples: columns.count, bytes: 0, jobs: jobs, bootstrapResamples: results.bootstrapResamples,
                recordSeconds: 0, reportSeconds: 0, metricsSeconds: 0, writeSeconds: 0, totalSeconds: 0,
                sidecarReadSeconds: readSeconds, sidecarParseSeconds: parseSeconds,
                sidecarAggregateSeconds: aggregateSeconds, planAggregateSeconds: planSeconds, sidecarBytes: data.count,
                aggregateMetricsSeconds: aggregateMetricsSeconds, aggregateMetricsParts: parts, cpuSeconds: cpu)
        }

        let staging = try RunFolderStaging(destination: out)
        defer { staging.discard() }
        let start = clock.now
        let outcome = try RunRescore.rescore(
            run: run, configuration: configuration, configurationFile: nil, into: staging.path, jobs: jobs,
            toolVersion: "bench", writeSamples: writeSamples)
        let total = (clock.now - start).milliseconds / 1_000
        let bytes =
            (try? FileManager.default.attributesOfItem(
                atPath: URL(fileURLWithPath: run).appendingPathComponent(RunOutput.samplesFile).path)[.size] as? Int)
            ?? 0
        var report = Report(
            samples: outcome.rescored + outcome.failed, bytes: bytes, jobs: jobs,
            bootstrapResamples: outcome.results.bootstrapResamples, recordSeconds: outcome.recordSeconds,
            reportSeconds: outcome.reportSeconds, metricsSeconds: outcome.metricsSeconds,
            writeSeconds: outcome.writeSeconds, totalSeconds: total, sidecarReadSeconds: readSeconds,
            sidecarParseSeconds: parseSeconds, sidecarAggregateSeconds: aggregateSeconds,
            planAggregateSeconds: planSeconds, sidecarBytes: data.count,
            aggregateMetricsSeconds: aggregateMetricsSeconds, aggregateMetricsParts: parts, cpuSeconds: cpu)
        report.wroteSamples = outcome.wroteSamples
        return report
    }

    /// The parts of `MethodMetrics.compute` on `samples`, each timed alone (seconds): the
    /// ranking (sort, species, clusters), the point metrics (ROC, PR, EER, rates at the
    /// threshold, BPCER at APCER targets, confusion), each bootstrap (`ClusterBootstrap`,
    /// `APCERAtBPCER` with intervals, the threshold table), the breakdowns (label, group).
    /// Wall and CPU seconds by part.
    static func metricsParts(samples: [ScoredSample], configuration: PipelineConfiguration, results: RunResults)
        -> (wall: [String: Double], cpu: [String: Double])
    {
        let clock = ContinuousClock()
        var parts: [String: Double] = [:], cpu: [String: Double] = [:]
        func time<T>(_ name: String, _ body: () -> T) -> T {
            let start = clock.now, startCPU = ProcessCPUClock.seconds()
            let value = body()
            parts[name] = (clock.now - start).milliseconds / 1_000
            cpu[name] = ProcessCPUClock.seconds() - startCPU
            return value
        }
        let threshold = configuration.decision.threshold(for: nil)
        let settings = BootstrapSettings(resamples: results.bootstrapResamples, seed: results.seeds["bootstrap"] ?? 42)
        let prepared = time("rank") { RankedSamples(samples: samples) }
        let curve = time("points") { () -> ROCCurve in
            let curve = ROCCurve(ranked: prepared.ranked, excluded: prepared.excluded, inputWarnings: [])
            _ = PrecisionRecallCurve(ranked: prepared.ranked, excluded: prepared.excluded, inputWarnings: [])
            _ = EqualErrorRate(curve: curve)
            _ = PresentationAttackMetrics(prepared: prepared, threshold: threshold)
            _ = PresentationAttackMetrics(prepared: prepared, threshold: threshold, minimumAttacks: 1)
            for target in [0.05, 0.01] {
                for kind in [BPCERAtAPCER.APCERKind.maxOverSpecies, .pooled] {
                    _ = BPCERAtAPCER(ranked: prepared, target: target, kind: kind)
                }
            }
            _ = ScoreTies(ranked: prepared.ranked)
            _ = BinaryConfusionMatrix(samples: prepared.samples, threshold: threshold)
            return curve
        }
        _ = curve
        _ = time("bootstrap_auc_eer_rates") {
            ClusterBootstrap(prepared: prepared, threshold: threshold).intervals(settings)
        }
        let atBPCER = time("bootstrap_apcer_at_bpcer") {
            APCERAtBPCER.compute(
                prepared: prepared, targets: APCERAtBPCER.standardTargets, minimumAttacks: 1, bootstrap: settings)
        }
        _ = time("bootstrap_threshold_table") {
            ThresholdRow.rows(
                prepared: prepared,
                thresholds: atBPCER.map { ("bpcer", $0.threshold) }.filter { !$0.1.isNaN } + [("decision", threshold)],
                minimumAttacks: 1, settings: settings)
        }
        _ = time("breakdowns") {
            MetricsBreakdown(prepared: prepared, threshold: threshold, dimensions: [.label, .group], level: 0.95)
        }
        return (parts, cpu)
    }

    /// Line `line`'s score of method `method`: the template's `score` moved by a seeded
    /// offset in [-0.02, 0.02), kept in [0, 1].
    static func distinctScore(_ score: Double, line: Int, method: Int, seed: UInt64) -> Double {
        var random = SplitMix64(seed: seed &+ UInt64(line) &* 0x9E37_79B9 &+ UInt64(method) &* 0x85EB_CA6B)
        let offset = (Double(random.next() >> 11) / Double(1 << 53) - 0.5) * 0.04
        return min(1, max(0, score + offset))
    }

    /// The first position of `marker` in `text` at or after `from`.
    static func find(_ marker: [UInt8], in text: [UInt8], from: Int = 0) -> Int? {
        guard marker.count <= text.count else { return nil }
        var i = from
        while i + marker.count <= text.count {
            if text[i] == marker[0] && text[i..<(i + marker.count)].elementsEqual(marker) { return i }
            i += 1
        }
        return nil
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
