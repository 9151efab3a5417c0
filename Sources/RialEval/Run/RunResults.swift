import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// `results.json` of a run (schema `rial-bench-results/1`): what was run on which data,
/// every metric with its interval, latency against the targets, and the environment.
/// Built from the `samples.jsonl` records alone, so `report --from` and `merge` can
/// rebuild it.
public struct RunResults: Sendable, Equatable, Codable {
    public static let schemaName = "rial-bench-results/1"

    public var schema: String = Self.schemaName
    /// True when `--limit` cut the run short: numbers are not representative.
    public var testRun: Bool
    public var limit: Int?
    public var created: String
    public var tool: Tool
    public var environment: RunEnvironment
    public var configuration: PipelineConfiguration
    /// SHA-256 of the configuration's canonical JSON (sorted keys).
    public var configurationSHA256: String
    public var profile: String
    public var datasets: [RunDataset]
    public var counts: Counts
    public var failures: [FailureEntry]
    public var seeds: [String: UInt64]
    public var bootstrapResamples: Int
    /// Breakdown keys evaluated, then `aggregate`.
    public var methods: [String]
    /// Metrics of every method and `aggregate` on all evaluated samples.
    public var metrics: [String: MethodMetrics]
    /// The same split by data kind (`real`, `simulated`), so no number mixes them unannounced.
    public var metricsByData: [String: [String: MethodMetrics]]
    /// Per method: latency statistics and the verdict against methods.md's target.
    public var latency: [String: LatencyEntry]
    /// `release` or `debug`: latency verdicts are `n/a` for debug builds.
    public var build: String
    public var jobs: Int
    public var runSeconds: Double
    /// Shards merged into this result (1 when unsharded).
    public var shards: Int
    /// The shard this run evaluated (`run --shard I/N`); nil for an unsharded or merged run.
    public var shard: RunShard?
    /// The shards `merge` combined, in shard order; nil unless merged.
    public var mergedShards: [RunShard]?
    /// SHA-256 of the `samples.jsonl` these results were computed from (nil in files
    /// written before it was recorded; see `RunOutput.verifiedResults(folder:)`).
    public var samplesSHA256: String?
    /// Lines of that `samples.jsonl`.
    public var samplesLines: Int?
    /// SHA-256 of the folder's aggregation sidecar (`AggregationColumns`,
    /// `aggregation-inputs.bin`), checked when it is read; nil in folders written before it existed.
    public var aggregationSidecarSHA256: String? = nil
    /// SHA-256 of the folder's metric columns (`MetricColumns`, `metric-columns.bin`),
    /// checked when it is read; nil in folders written before it existed.
    public var metricColumnsSHA256: String? = nil
    /// Set in a folder `rescore` wrote from the run's columns, which holds no
    /// `samples.jsonl` of its own: the folder whose `samples.jsonl` holds the records
    /// (`samples_sha256` and `samples_lines` are that file's). Its records are those
    /// records aggregated under `configuration` (`RunOutput.records(folder:results:)`).
    public var samplesFrom: String? = nil
    /// How `roc.csv` and `det.csv` write long curves (`CurveExport`); nil in files written
    /// before it was recorded (those wrote every point; a report rebuilt from them uses `.standard`).
    public var curveExport: CurveExport? = nil
    /// Set when these results are a `rescore` of another run: that run and the
    /// configuration file it was aggregated again under.
    public var rescoredFrom: RescoreOrigin?
    /// The aggregate's output levels as decisions (`OutputLevelRow`), under `all` and
    /// per data kind; nil in files written before it was recorded.
    public var aggregateLevels: [String: [OutputLevelRow]]? = nil
    /// The levels per label under the weighted and the MVP rule (`RuleLevels`); nil in
    /// files written before it was recorded.
    public var ruleLevels: RuleLevels? = nil
    /// The product documents' success metrics against their targets (`SuccessMetrics`);
    /// nil in files written before they were recorded.
    public var successMetrics: SuccessMetrics? = nil
    /// Phone payload scores and levels against the reference re-computation
    /// (`PayloadParity`); nil when no sample carries a payload.
    public var payloadParity: PayloadParity? = nil
    /// Privacy-mode payloads verified against their samples (`PrivacyModeSummary`); nil when
    /// no sample carries one.
    public var privacyMode: PrivacyModeSummary? = nil
    /// Tamper detection by tamper kind (`TamperDetection.byData`), keyed `all` and by data
    /// kind; nil when no video sample is labelled.
    public var tamperDetection: [String: TamperDetection]? = nil
    /// The video samples' deployed rule levels and chain checks (`VideoSummary`); nil
    /// without video samples.
    public var video: VideoSummary? = nil

    enum CodingKeys: String, CodingKey {
        case schema
        case testRun = "test_run"
        case limit, created, tool, environment, configuration
        case configurationSHA256 = "configuration_sha256"
        case profile, datasets, counts, failures, seeds
        case bootstrapResamples = "bootstrap_resamples"
        case methods, metrics
        case metricsByData = "metrics_by_data"
        case latency, build, jobs
        case runSeconds = "run_seconds"
        case shards, shard
        case mergedShards = "merged_shards"
        case samplesSHA256 = "samples_sha256"
        case samplesLines = "samples_lines"
        case aggregationSidecarSHA256 = "aggregation_sidecar_sha256"
        case metricColumnsSHA256 = "metric_columns_sha256"
        case samplesFrom = "samples_from"
        case rescoredFrom = "rescored_from"
        case curveExport = "curve_export"
        case aggregateLevels = "aggregate_levels"
        case ruleLevels = "rule_levels"
        case successMetrics = "success_metrics"
        case payloadParity = "payload_parity"
        case privacyMode = "privacy_mode"
        case tamperDetection = "tamper_detection"
        case video
    }

    public struct Tool: Sendable, Equatable, Codable {
        public var name: String
        public var version: String
        public var gitCommit: String?

        enum CodingKeys: String, CodingKey {
            case name, version
            case gitCommit = "git_commit"
        }

        /// This process: rial-bench of `version`, at the commit of the checkout it runs in
        /// (`RunEnvironment.gitCommit`).
        static func current(version: String) -> Tool {
            Tool(name: "rial-bench", version: version, gitCommit: RunEnvironment.gitCommit())
        }
    }

    public struct Counts: Sendable, Equatable, Codable {
        /// Samples in the manifests.
        public var original: Int
        /// Selected by split, shard and limit.
        public var selected: Int
        public var evaluated: Int
        public var failed: Int
        /// Evaluated samples by data kind and label.
        public var byData: [String: [String: Int]]

        enum CodingKeys: String, CodingKey {
            case original, selected, evaluated, failed
            case byData = "by_data"
        }
    }

    public struct FailureEntry: Sendable, Equatable, Codable {
        public var id: String
        public var dataset: String
        public var stage: String
        public var reason: String
    }

    public struct LatencyEntry: Sendable, Equatable, Codable {
        public var statistics: LatencyStatistics
        /// methods.md section 9 target, ms, when the key has one.
        public var targetMs: Double?
        /// `PASS` (p50 <= target), `FAIL`, or `n/a` (no target, a debug build, or no sample
        /// on which the method ran).
        public var verdict: String
        /// The same for p99 (p99 <= target); nil in files written before it was recorded.
        public var p99Verdict: String? = nil
        /// Evaluated samples on which the key did not run (a method unavailable or failed
        /// there), left out of `statistics`; nil in files written before it was recorded.
        public var notRun: Int? = nil

        enum CodingKeys: String, CodingKey {
            case statistics
            case targetMs = "target_ms"
            case verdict
            case p99Verdict = "p99_verdict"
            case notRun = "not_run"
        }

        init(statistics: LatencyStatistics, targetMs: Double?, verdict: String) {
            self.statistics = statistics
            self.targetMs = targetMs
            self.verdict = verdict
        }

        /// Whether latency key `key` of `record` is a time of something that ran: a method's
        /// key (one with a result in `methods`) only when its status is `completed`; other
        /// keys (`decode`, `aggregation`, `total`) whenever recorded.
        static func ran(_ key: String, in record: SampleRecord) -> Bool {
            guard record.latencyMs[key] != nil else { return false }
            guard case .object(let result)? = record.methods[key] else { return true }
            return result["status"]?.stringValue == MethodStatus.completed.rawValue
        }
    }

    /// What the records were produced with; the rest comes from the records.
    public struct Context: Sendable {
        public var configuration: PipelineConfiguration
        public var datasets: [RunDataset]
        public var limit: Int?
        public var seed: UInt64
        public var resamples: Int
        public var build: String
        public var jobs: Int
        public var runSeconds: Double
        public var shards: Int
        public var toolVersion: String
        public var shard: RunShard?
        public var mergedShards: [RunShard]?
        /// The run these results rescore (`rescore`), nil for a run.
        public var rescoredFrom: RescoreOrigin?
        /// How the curve CSVs are written (`CurveExport`).
        public var curveExport: CurveExport = .standard

        public init(
            configuration: PipelineConfiguration, datasets: [RunDataset], limit: Int?, seed: UInt64,
            resamples: Int, build: String, jobs: Int, runSeconds: Double, shards: Int = 1, toolVersion: String,
            shard: RunShard? = nil, mergedShards: [RunShard]? = nil, rescoredFrom: RescoreOrigin? = nil
        ) {
            self.rescoredFrom = rescoredFrom
            self.shard = shard
            self.mergedShards = mergedShards
            self.configuration = configuration
            self.datasets = datasets
            self.limit = limit
            self.seed = seed
            self.resamples = resamples
            self.build = build
            self.jobs = jobs
            self.runSeconds = runSeconds
            self.shards = shards
            self.toolVersion = toolVersion
        }
    }

    /// Methods whose score is nearly binary, with the continuous field that gives their
    /// ROC curve a meaning (`MethodSummary.continuousField`): depth/1's score takes three
    /// values (1.0, 0.2, 0.1), so its `margin` is evaluated too, as `depth/1:margin`
    /// (methods.md section 1).
    public static let continuousCompanions: [(method: String, field: String)] =
        MethodRegistry.standard.methods.compactMap { method in
            method.summary.continuousField.map { (method.identifier.description, $0) }
        }

    /// Largest number of groups for which `breakdowns.per_group` is computed.
    public static let maxGroupBreakdowns = 50

    /// Computes every metric from `records`.
    public static func build(records: [SampleRecord], context: Context) -> RunResults {
        buildWithColumns(records: records, context: context).results
    }

    /// `build(records:context:)`, and the evaluated records' score columns of every key of
    /// `methods` it read them into, for the reports (`ReportWriter`) to reuse.
    static func buildWithColumns(records: [SampleRecord], context: Context) -> (
        results: RunResults, columns: ScoreColumns
    ) {
        // Without failures the records themselves (no copy of every record).
        let evaluated =
            records.allSatisfy { $0.status == .evaluated } ? records : records.filter { $0.status == .evaluated }
        var methodKeys: [String] = []
        for record in evaluated {
            for key in record.methods.keys where !methodKeys.contains(key) { methodKeys.append(key) }
        }
        // Pipeline order (the registry's), then anything else (payload keys) by name.
        let order = context.configuration.registry.identifiers.map(\.description)
        methodKeys.sort {
            (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
        }
        // Continuous companions of nearly binary scores, evaluated as extra rows.
        for (method, field) in continuousCompanions
        where methodKeys.contains(method)
            && evaluated.contains(where: { $0.methods[method]?[field]?.numberValue != nil })
        {
            methodKeys.insert("\(method):\(field)", at: methodKeys.firstIndex(of: method)! + 1)
        }
        let allKeys = methodKeys + ["aggregate"]
        let decision = context.configuration.decision
        let bootstrap = BootstrapSettings(resamples: context.resamples, seed: context.seed)
        // Each key's score of each evaluated record, read once.
        let columns = ScoreColumns(records: records, keys: allKeys)
        /// The metrics of the evaluated records `rows` (indices into `evaluated`).
        func metrics(_ rows: [Int]) -> [String: MethodMetrics] {
            keyMetrics(
                keys: allKeys, scores: columns.scores, rows: rows,
                groupCount: Set(rows.compactMap { evaluated[$0].group }).count, decision: decision,
                bootstrap: bootstrap
            ) { row, score in evaluated[row].scoredSample(score: score) }
        }

        var byData: [String: [String: MethodMetrics]] = [:]
        var countsByData: [String: [String: Int]] = [:]
        let kinds = Set(evaluated.map(\.data)).sorted(by: { $0.rawValue < $1.rawValue })
        let all = metrics(columns.all)
        for kind in kinds {
            let rows = columns.rows(of: kind)
            // One kind only: its rows are all of `evaluated` (same records, same order), so
            // its metrics are those of all samples.
            byData[kind.rawValue] = kinds.count == 1 ? all : metrics(rows)
            for i in rows { countsByData[kind.rawValue, default: [:]][evaluated[i].label.rawValue, default: 0] += 1 }
        }

        var latency: [String: LatencyEntry] = [:]
        var latencyKeys = Set<String>()
        for record in evaluated { latencyKeys.formUnion(record.latencyMs.keys) }
        for key in latencyKeys.sorted() {
            // A method's time counts only where it ran to completion: one skipped for lack
            // of input reports ~0 ms and would pass a target it never met.
            // Indices, not a filtered copy of the records (one copy per key was most of this loop).
            var values: [Double] = []
            var ranCount = 0
            for i in evaluated.indices where LatencyEntry.ran(key, in: evaluated[i]) {
                ranCount += 1
                if let value = evaluated[i].latencyMs[key] { values.append(value) }
            }
            let stats = LatencyStatistics(milliseconds: values)
            let target = LatencyTargets.target(for: key, registry: context.configuration.registry)?.milliseconds
            func verdict(_ value: Double) -> String {
                guard context.build == "release", let target, stats.n > 0 else { return "n/a" }
                return value <= target ? "PASS" : "FAIL"
            }
            var entry = LatencyEntry(statistics: stats, targetMs: target, verdict: verdict(stats.p50))
            entry.p99Verdict = verdict(stats.p99)
            entry.notRun = evaluated.count - ranCount
            latency[key] = entry
        }

        let failures = records.filter { $0.status == .failed }.map {
            FailureEntry(
                id: $0.id, dataset: $0.dataset, stage: $0.failure?.stage.rawValue ?? "?",
                reason: $0.failure?.reason ?? "?")
        }
        /// The output levels of the evaluated records of data kind `kind` (all when nil).
        func levels(_ kind: SampleRecord.DataKind?) -> [OutputLevelRow] {
            OutputLevelRow.rows(
                samples: evaluated.indices.compactMap { i in
                    let r = evaluated[i]
                    guard kind == nil || r.data == kind, r.score("aggregate") != nil else { return nil }
                    return r.aggregate.map { ($0.level, r.bonaFide, r.label.rawValue) }
                })
        }
        var aggregateLevels = ["all": levels(nil)]
        for kind in Set(evaluated.map(\.data)) { aggregateLevels[kind.rawValue] = levels(kind) }
        var results = assemble(
            context: context,
            counts: Counts(
                original: context.datasets.reduce(0) { $0 + $1.original }, selected: records.count,
                evaluated: evaluated.count, failed: failures.count, byData: countsByData),
            failures: failures, methods: allKeys, metrics: all, metricsByData: byData, latency: latency)
        results.aggregateLevels = aggregateLevels
        results.ruleLevels = RuleLevels(evaluated, rule: context.configuration.aggregation.rule)
        results.successMetrics = SuccessMetrics(
            metrics: all, metricsByData: byData, evaluated: evaluated, configuration: context.configuration)
        results.payloadParity = PayloadParity(evaluated, configuration: context.configuration)
        results.privacyMode = PrivacyModeSummary(evaluated)
        // Failed video samples count too: their chain was checked before the still failed.
        results.tamperDetection = TamperDetection.byData(records)
        results.video = VideoSummary(records)
        return (results, columns)
    }

    /// The metrics of every key of `keys` on the evaluated rows `rows`: `scores[k][row]` is
    /// key `k`'s score, `sample` makes a row's `ScoredSample` with a score, `groupCount` the
    /// named groups among `rows`. `known` gives a key's metrics already computed on the same
    /// samples with the same threshold, bootstrap and breakdowns (a rescore's unchanged
    /// methods), or nil to compute them.
    static func keyMetrics(
        keys: [String], scores: [[Double?]], rows: [Int], groupCount: Int,
        decision: PipelineConfiguration.DecisionConfiguration, bootstrap: BootstrapSettings,
        known: @Sendable (String) -> MethodMetrics? = { _ in nil },
        sample: @Sendable (Int, Double?) -> ScoredSample
    ) -> [String: MethodMetrics] {
        // Per-group tables only while groups are few enough to read; with one group per
        // sample they would repeat samples.jsonl inside results.json and grow with the run.
        let dimensions = BreakdownDimension.allCases.filter { $0 != .group || groupCount <= maxGroupBreakdowns }
        @Sendable func compute(_ index: Int) -> MethodMetrics {
            let key = keys[index]
            let column = scores[index]
            let samples = rows.map { sample($0, column[$0]) }
            let configuration = MetricsConfiguration(
                threshold: decision.threshold(for: metricMethod(key)), bootstrap: bootstrap, breakdowns: dimensions)
            return MethodMetrics.compute(samples: samples, configuration: configuration)
        }
        let reused = keys.map(known)
        let missing = keys.indices.filter { reused[$0] == nil }
        // One key per worker (each key's metrics are a pure function of its samples). A
        // single key is computed on this thread: its bootstrap then spreads over the cores,
        // which it cannot inside another concurrentMap (nested, libdispatch runs it serially).
        let fresh = missing.count == 1 ? [compute(missing[0])] : missing.indices.concurrentMap { compute(missing[$0]) }
        var computed = reused
        for (index, metrics) in zip(missing, fresh) { computed[index] = metrics }
        return Dictionary(uniqueKeysWithValues: zip(keys, computed.map { $0! }))
    }

    /// The method a metric key evaluates (`depth/1:margin` -> depth/1), nil for `aggregate`.
    static func metricMethod(_ key: String) -> MethodIdentifier? {
        key == "aggregate" ? nil : try? MethodIdentifier(parsing: String(key.split(separator: ":")[0]))
    }

    /// Results of `context` with these parts; the rest (created, tool, environment, seeds,
    /// configuration hash) as every build records them.
    static func assemble(
        context: Context, counts: Counts, failures: [FailureEntry], methods: [String],
        metrics: [String: MethodMetrics], metricsByData: [String: [String: MethodMetrics]],
        latency: [String: LatencyEntry]
    ) -> RunResults {
        let seeds: [String: UInt64] = [
            "bootstrap": context.seed, "depth/2.ransac": context.configuration[DepthAnalyzerV2.self].seed,
        ]
        return RunResults(
            testRun: context.limit != nil, limit: context.limit, created: ISO8601DateFormatter().string(from: Date()),
            tool: .current(version: context.toolVersion),
            environment: .current(), configuration: context.configuration,
            configurationSHA256: configurationHash(context.configuration), profile: context.configuration.profile,
            datasets: context.datasets, counts: counts, failures: failures, seeds: seeds,
            bootstrapResamples: context.resamples, methods: methods, metrics: metrics, metricsByData: metricsByData,
            latency: latency, build: context.build, jobs: context.jobs, runSeconds: context.runSeconds,
            shards: context.shards, shard: context.shard, mergedShards: context.mergedShards,
            curveExport: context.curveExport, rescoredFrom: context.rescoredFrom)
    }

    /// SHA-256 of the configuration as canonical JSON (sorted keys, no spaces).
    public static func configurationHash(_ configuration: PipelineConfiguration) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return SHA256Digest.hash((try? encoder.encode(configuration)) ?? Data())
    }

    /// Pretty JSON with sorted keys.
    public func jsonData() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// The encoder of `results.json` and the reports written like it (`tune.json`, `bench
    /// --json`): sorted keys, pretty, slashes unescaped, non-finite numbers as the strings
    /// `decoder` reads back ("inf", "-inf", "nan"; a plain encoder refuses them).
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// Reads a `results.json`.
    public static func read(path: String) throws(RunError) -> RunResults {
        let data = try contents(of: path)
        do { return try decoder.decode(RunResults.self, from: data) } catch {
            throw RunError("\(path): not a rial-bench results file (\(error))")
        }
    }

    /// The bytes of the file at `path`, or a `RunError` saying whether it is missing or unreadable.
    static func contents(of path: String) throws(RunError) -> Data {
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw RunError(
                "\(path): \(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")")
        }
    }

    /// A report file's `data` (read from `path`) decoded as `T`, or `RunError` naming the
    /// file: "PATH: not a WHAT: " and where decoding stopped, in one line.
    static func decodeReport<T: Decodable>(_ type: T.Type, from data: Data, path: String, what: String)
        throws(RunError) -> T
    {
        do { return try decoder.decode(type, from: data) } catch let error as DecodingError {
            throw RunError("\(path): not a \(what): \(ConfigurationFile.describe(error))")
        } catch { throw RunError("\(path): not a \(what)") }
    }

    /// A decoder for `results.json`: non-finite numbers as `jsonData()` writes them.
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// Shard `index` (1-based) of `count` of a sharded run; in a merged run's
/// `merged_shards`, also the digest of that shard's `samples.jsonl`.
public struct RunShard: Sendable, Equatable, Codable {
    public var index: Int
    public var count: Int
    public var samplesSHA256: String?

    public init(index: Int, count: Int, samplesSHA256: String? = nil) {
        self.index = index
        self.count = count
        self.samplesSHA256 = samplesSHA256
    }

    /// `I/N`.
    public var label: String { "\(index)/\(count)" }

    enum CodingKeys: String, CodingKey {
        case index, count
        case samplesSHA256 = "samples_sha256"
    }
}
