import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// Aggregates the samples of a finished run again under another configuration, without
/// decoding an image or running a method (`rial-bench rescore`).
///
/// A run records, for every evaluated sample, every method outcome as aggregation sees it
/// (`aggregation_inputs`: raw score, availability, detections) and the attestation
/// (`attestation_evidence`). `rescore(_:)` runs the pipeline's own aggregation step
/// (`PipelineAggregator`: selection by `aggregate_with`, calibration, the aggregator) on
/// them and rewrites `aggregate` and `decision` as `run` writes them, so the record equals
/// the one a fresh `run` with the new configuration writes, field for field (the timings
/// in `latency_ms` are the run's). Failed samples are returned unchanged.
///
/// What a rescore can change: `aggregation`, `calibration`, `decision`, `profile`,
/// `provenance`, `aggregate_with` (among the versions the run computed),
/// `attestation_scores`. What it cannot: `methods`, the method sections of the methods
/// that ran, and `metadata` (the records hold the checks' statuses, `metadata_checks`,
/// not their inputs) (`compatibility(of:with:)`).
public struct Rescorer: Sendable {
    /// The configuration the records are aggregated under (`profile` set to the profile used).
    public let configuration: PipelineConfiguration
    let aggregator: PipelineAggregator
    let profile: AggregationProfile

    /// - Parameter profile: the aggregation profile (default: the configuration's `profile`).
    /// - Throws: `ConfigurationError` when `configuration` is invalid or names no profile `profile`.
    public init(configuration: PipelineConfiguration, profile: String? = nil) throws(ConfigurationError) {
        var configuration = configuration
        if let profile { configuration.profile = profile }
        aggregator = try PipelineAggregator(configuration: configuration)
        self.profile = try aggregator.profile(named: configuration.profile)
        self.configuration = configuration
    }

    /// `record` aggregated again: `aggregate` and `decision` recomputed from its
    /// `aggregation_inputs` and `attestation_evidence`; everything else as it was. A failed
    /// record, or one without `aggregation_inputs` (`RunRescore` refuses such runs), is
    /// returned unchanged but for a video's deployed level, which is taken again under
    /// `aggregation.video_rule` from the inputs its `video` block keeps.
    public func rescore(_ record: SampleRecord) -> SampleRecord {
        var copy = record
        // A video's deployed level under this configuration's `aggregation.video_rule`,
        // from the inputs its record keeps (also for a failed still: the chain stands).
        if var video = copy.video {
            video.deployedLevel = video.level(under: configuration.aggregation.videoRule)
            copy.video = video
        }
        guard record.status == .evaluated, let candidates = record.aggregationInputs else { return copy }
        let outcome = aggregate(candidates, attestation: record.attestationEvidence, checks: record.metadataChecks)
        copy.aggregate = outcome.aggregate
        copy.decision = outcome.decision
        return copy
    }

    /// The aggregate and decision of one evaluated sample's aggregation inputs: what
    /// `rescore(_:)` and `aggregate(_:at:)` write.
    func aggregate(
        _ candidates: [String: AggregationCandidate], attestation: AttestationEvidence?,
        checks: [String: EvidenceCheckStatus]?
    ) -> (aggregate: SampleRecord.Aggregate, decision: SampleRecord.Decision) {
        let outcome = aggregator.aggregate(
            candidates, attestation: attestation ?? .missing, profile: profile, checks: checks ?? [:])
        return (
            .init(
                outcome.result, primaryMethod: outcome.primaryMethod,
                families: aggregator.familyEvidence(candidates, aggregated: outcome.aggregated)),
            DatasetRunner.decision(outcome.result.rankingScore, configuration: configuration)
        )
    }

    /// The aggregate and decision of sample `i` of `columns` (a run's aggregation sidecar)
    /// under this configuration: what `rescore(_:)` writes into that sample's record. Nil
    /// for a failed sample or one without `aggregation_inputs`.
    public func aggregate(_ columns: AggregationColumns, at i: Int) -> (
        aggregate: SampleRecord.Aggregate, decision: SampleRecord.Decision
    )? {
        guard columns.status[i] == 0 else { return nil }
        let inputs = columns.inputs(at: i)
        guard let candidates = inputs.candidates else { return nil }
        return aggregate(candidates, attestation: inputs.attestation, checks: inputs.checks)
    }

    /// `aggregate(_:at:)` of every sample of `columns`, on `jobs` workers (in sample order).
    public func aggregateAll(_ columns: AggregationColumns, jobs: Int) -> [(
        aggregate: SampleRecord.Aggregate, decision: SampleRecord.Decision
    )?] {
        let n = columns.count
        let parts = Swift.max(1, Swift.min(n, jobs * 8))
        let chunks = (0..<parts).concurrentMap(workers: jobs) { p in
            (p * n / parts..<(p + 1) * n / parts).map { aggregate(columns, at: $0) }
        }
        return chunks.flatMap { $0 }
    }

    /// Checks that `configuration` computes the same method results as the run's `run`
    /// configuration: the same `methods`, and every method section of those methods equal,
    /// and the `metadata` and `privacy` sections (whose outcomes the run recorded) equal.
    ///
    /// - Throws: `RunError` naming the first key that differs (`depth/2.sample_stride`)
    ///   with both values, and saying that only a re-run can change it.
    public static func compatibility(of configuration: PipelineConfiguration, with run: PipelineConfiguration)
        throws(RunError)
    {
        let new = ConfigurationSchema.tree(of: configuration), old = ConfigurationSchema.tree(of: run)
        let methodsKey = "methods"
        guard configuration.methods == run.methods else {
            throw RunError(
                "key '\(methodsKey)': the run ran [\(run.methods.map(\.description).joined(separator: ", "))], "
                    + "the configuration lists [\(configuration.methods.map(\.description).joined(separator: ", "))]; "
                    + "a rescore cannot run or drop a method: re-run with this configuration")
        }
        let metadataKey = "metadata"
        if let difference = firstDifference(old[metadataKey] ?? .null, new[metadataKey] ?? .null, path: metadataKey) {
            throw RunError(
                "key '\(difference.path)': the run used \(difference.old), the configuration has \(difference.new); "
                    + "the run recorded the metadata checks' outcomes, not their inputs: re-run with this configuration"
            )
        }
        let privacyKey = "privacy"
        if let difference = firstDifference(old[privacyKey] ?? .null, new[privacyKey] ?? .null, path: privacyKey) {
            throw RunError(
                "key '\(difference.path)': the run used \(difference.old), the configuration has \(difference.new); "
                    + "the run recorded the privacy payloads' verification, not the payloads: re-run with this configuration"
            )
        }
        for method in run.methods {
            let key = method.description
            if let difference = firstDifference(old[key] ?? .null, new[key] ?? .null, path: key) {
                throw RunError(
                    "key '\(difference.path)': the run used \(difference.old), the configuration has \(difference.new); "
                        + "a rescore cannot change a method's constants (only aggregation, calibration, decision, "
                        + "profile, provenance, aggregate_with): re-run with this configuration")
            }
        }
    }

    /// The first path at which `a` and `b` differ, with both values as compact JSON.
    static func firstDifference(_ a: JSONValue, _ b: JSONValue, path: String) -> (
        path: String, old: String, new: String
    )? {
        if case .object(let x) = a, case .object(let y) = b {
            var keys = x.keys
            for key in y.keys where x[key] == nil { keys.append(key) }
            for key in keys.sorted() {
                if let found = firstDifference(x[key] ?? .null, y[key] ?? .null, path: "\(path).\(key)") {
                    return found
                }
            }
            return nil
        }
        guard a != b else { return nil }
        return (
            path, a == .null ? "no value" : a.serialized(pretty: false),
            b == .null ? "no value" : b.serialized(pretty: false)
        )
    }
}

/// The rescore of one run folder into another (`rial-bench rescore RUN --config FILE
/// --out DIR`): the run folder is verified as `report --from` verifies it, every record
/// is rescored (`Rescorer`), and a complete run folder is written — `samples.jsonl`,
/// `results.json` with every metric, and the reports `run` writes — into `staging`.
public enum RunRescore {
    /// What a rescore produced.
    public struct Outcome: Sendable {
        public var results: RunResults
        /// Samples rescored (evaluated) and carried over (failed).
        public var rescored: Int
        public var failed: Int
        /// Wall time of the record pass (read, aggregate, write `samples.jsonl`), seconds.
        public var recordSeconds: Double
        /// Wall time of the metrics and reports, seconds (`metricsSeconds + writeSeconds`).
        public var reportSeconds: Double
        /// Of which the metrics (`RunResults.build`), seconds.
        public var metricsSeconds: Double = 0
        /// And `results.json` and the reports, seconds.
        public var writeSeconds: Double = 0
        /// Whether `samples.jsonl` was written; when not (a rescore from the run's columns),
        /// the folder names the run that holds the records (`samples_from`).
        public var wroteSamples = true
        /// Why the records were written although they were not asked for (the run has no
        /// columns, or parts a rescore from columns does not rebuild); nil otherwise.
        public var recordsReason: String?
    }

    /// Rescores the run folder `run` under `configuration` into the folder `staging`
    /// (a `RunFolderStaging` path; the caller commits it).
    ///
    /// - Parameters:
    ///   - configurationFile: the file `configuration` was read from, recorded with its SHA-256.
    ///   - jobs: worker threads for the record pass.
    ///   - curveExport: how the new folder's curve CSVs are written; nil: as `run`'s.
    /// - Throws: `RunError` when `run` is not a verified run folder, its records lack
    ///   `aggregation_inputs` (written by an older rial-bench), the configuration changes
    ///   what the run computed (`Rescorer.compatibility`), or a file cannot be read or written.
    public static func rescore(
        run: String, configuration: PipelineConfiguration, configurationFile: String?, into staging: String,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, toolVersion: String, writeSamples: Bool = false,
        curveExport: CurveExport? = nil
    ) throws(RunError) -> Outcome {
        // The digest of samples.jsonl is checked as verifiedResults checks it, from the
        // hash the record pass computes while it reads the file.
        var loaded = try RunOutput.unverifiedResults(folder: run)
        // The new folder's curve CSVs: as asked, else as the run wrote them.
        if let curveExport { loaded.curveExport = curveExport }
        let runResults = loaded
        try Rescorer.compatibility(of: configuration, with: runResults.configuration)
        let rescorer: Rescorer
        do { rescorer = try Rescorer(configuration: configuration) } catch {
            throw RunError("\(configurationFile ?? "configuration"): key '\(error.key)': \(error.reason)")
        }
        var reason: String?
        if !writeSamples {
            let clock = ContinuousClock()
            let start = clock.now
            // Both files read, hashed and parsed at once.
            let folder = URL(fileURLWithPath: run)
            let read = (0..<2).concurrentMap {
                part -> (sidecar: Result<AggregationColumns?, RunError>?, metrics: Result<MetricColumns?, RunError>?) in
                if part == 0 {
                    return (
                        Result { () throws(RunError) in
                            try runResults.aggregationSidecarSHA256.map { sha256 throws(RunError) in
                                try AggregationColumns.read(
                                    path: folder.appendingPathComponent(AggregationColumns.fileName).path,
                                    sha256: sha256)
                            }
                        }, nil
                    )
                }
                return (
                    nil,
                    Result { () throws(RunError) in
                        try runResults.metricColumnsSHA256.map { sha256 throws(RunError) in
                            try MetricColumns.read(
                                path: folder.appendingPathComponent(MetricColumns.fileName).path, sha256: sha256)
                        }
                    }
                )
            }
            let sidecar = try read[0].sidecar!.get()
            let metricColumns = try read[1].metrics!.get()
            reason = RunResults.columnRescoreObstacle(runResults, sidecar: sidecar, metrics: metricColumns)
            if reason == nil, let sidecar, let metricColumns {
                return try fromColumns(
                    run: run, runResults: runResults, sidecar: sidecar, metricColumns: metricColumns,
                    rescorer: rescorer, configurationFile: configurationFile, into: staging, jobs: jobs,
                    toolVersion: toolVersion, start: start)
            }
        }
        let source = RunOutput.samplesPath(folder: run, results: runResults)
        let target = URL(fileURLWithPath: staging).appendingPathComponent(RunOutput.samplesFile).path
        let clock = ContinuousClock()
        let start = clock.now
        let pass = try SamplesRescorePass.run(source: source, target: target, rescorer: rescorer, jobs: jobs)
        try RunOutput.check(pass.inputDigest, against: runResults, samplesPath: source)
        if let problem = pass.problem { throw RunError(problem) }
        let recordSeconds = (clock.now - start).milliseconds / 1_000

        var context = runResults.context
        context.configuration = rescorer.configuration
        context.toolVersion = toolVersion
        context.rescoredFrom = origin(run: run, runResults: runResults, configurationFile: configurationFile)
        let (results, columns) = RunResults.buildWithColumns(records: pass.records, context: context)
        let metricsSeconds = (clock.now - start).milliseconds / 1_000 - recordSeconds
        try RunOutput.writeResultsAndReports(
            results: results, records: pass.records, folder: staging, samplesDigest: pass.outputDigest,
            columns: columns)
        let reportSeconds = (clock.now - start).milliseconds / 1_000 - recordSeconds
        var outcome = Outcome(
            results: results, rescored: pass.rescored, failed: pass.failed, recordSeconds: recordSeconds,
            reportSeconds: reportSeconds, metricsSeconds: metricsSeconds, writeSeconds: reportSeconds - metricsSeconds)
        outcome.recordsReason = reason
        return outcome
    }

    /// Where the new results record the rescore's origin.
    static func origin(run: String, runResults: RunResults, configurationFile: String?) -> RescoreOrigin {
        var fileHash: String?
        if let configurationFile { fileHash = try? SHA256Digest.hash(fileAt: configurationFile) }
        return RescoreOrigin(
            run: run, samplesSHA256: runResults.samplesSHA256 ?? "",
            configurationSHA256: runResults.configurationSHA256, configurationFile: configurationFile,
            configurationFileSHA256: fileHash)
    }

    /// The rescore from the run's columns (`RunResults.rescored`): no record is read or
    /// written; the new folder names the folder that holds the records (`samples_from`).
    static func fromColumns(
        run: String, runResults: RunResults, sidecar: AggregationColumns, metricColumns: MetricColumns,
        rescorer: Rescorer, configurationFile: String?, into staging: String, jobs: Int, toolVersion: String,
        start: ContinuousClock.Instant
    ) throws(RunError) -> Outcome {
        let clock = ContinuousClock()
        let plan: AggregationPlan
        do { plan = try AggregationPlan(configuration: rescorer.configuration, columns: sidecar) } catch {
            throw RunError("\(configurationFile ?? "configuration"): key '\(error.key)': \(error.reason)")
        }
        let outputs = plan.run(sidecar, jobs: jobs)
        let recordSeconds = (clock.now - start).milliseconds / 1_000
        var context = runResults.context
        context.configuration = rescorer.configuration
        context.toolVersion = toolVersion
        context.rescoredFrom = origin(run: run, runResults: runResults, configurationFile: configurationFile)
        let methods = runResults.methods, export = context.curveExport
        let columns = RunResults.rescoredColumns(
            keys: methods, sidecar: sidecar, metricColumns: metricColumns, outputs: outputs)
        var newColumns = metricColumns
        if let k = newColumns.keys.firstIndex(of: "aggregate") {
            for i in 0..<newColumns.count {
                let score = outputs.metricScore(i)
                newColumns.present[k][i] = score == nil ? 0 : 1
                newColumns.score[k][i] = score ?? 0
            }
        }
        // What reads no metric (the metric columns, scores.csv and the curve CSVs) is
        // written while the metrics are computed.
        let written = newColumns
        let early = RunOutput.BackgroundWork { () throws(RunError) -> String in
            let digest = try written.write(folder: staging)
            try ReportWriter.write(
                parts: ReportWriter.sampleParts(methods: methods, export: export, columns: columns), folder: staging)
            return digest
        }
        var results = RunResults.rescored(
            from: runResults, sidecar: sidecar, metricColumns: metricColumns, outputs: outputs, context: context,
            columns: columns)
        let metricsSeconds = (clock.now - start).milliseconds / 1_000 - recordSeconds
        results.samplesSHA256 = runResults.samplesSHA256
        results.samplesLines = runResults.samplesLines
        results.samplesFrom = runResults.samplesFrom ?? URL(fileURLWithPath: run).standardizedFileURL.path
        results.aggregationSidecarSHA256 = runResults.aggregationSidecarSHA256
        try RunOutput.writeColumnsRun(
            results: results, sampleCount: metricColumns.count, early: early, sidecarFrom: run, folder: staging,
            columns: columns)
        let reportSeconds = (clock.now - start).milliseconds / 1_000 - recordSeconds
        let failed = sidecar.status.count { $0 != 0 }
        var outcome = Outcome(
            results: results, rescored: sidecar.count - failed, failed: failed, recordSeconds: recordSeconds,
            reportSeconds: reportSeconds, metricsSeconds: metricsSeconds, writeSeconds: reportSeconds - metricsSeconds)
        outcome.wroteSamples = false
        return outcome
    }
}

/// Where a rescored run came from (`results.json` `rescored_from`).
public struct RescoreOrigin: Sendable, Equatable, Codable {
    /// The run folder, as given.
    public var run: String
    /// SHA-256 of that run's `samples.jsonl`.
    public var samplesSHA256: String
    /// SHA-256 of that run's configuration (its `configuration_sha256`).
    public var configurationSHA256: String
    /// The configuration file of the rescore, as given.
    public var configurationFile: String?
    /// SHA-256 of that file's bytes.
    public var configurationFileSHA256: String?

    public init(
        run: String, samplesSHA256: String, configurationSHA256: String, configurationFile: String?,
        configurationFileSHA256: String?
    ) {
        self.run = run
        self.samplesSHA256 = samplesSHA256
        self.configurationSHA256 = configurationSHA256
        self.configurationFile = configurationFile
        self.configurationFileSHA256 = configurationFileSHA256
    }

    enum CodingKeys: String, CodingKey {
        case run
        case samplesSHA256 = "samples_sha256"
        case configurationSHA256 = "configuration_sha256"
        case configurationFile = "configuration_file"
        case configurationFileSHA256 = "configuration_file_sha256"
    }
}
