import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// Runs the pipeline over the samples of one or more manifests and streams one
/// `SampleRecord` per sample to `samples.jsonl`, in manifest order whatever the number
/// of workers. Images are decoded by the worker that analyses them and dropped right
/// after, so memory does not grow with the dataset. A sample that cannot be resolved,
/// read or analysed is recorded as failed with its reason and the run goes on.
public struct DatasetRunner: Sendable {
    public let plan: RunPlan
    let analyzer: CaptureAnalyzer

    /// - Throws: `ConfigurationError` when the plan's configuration is invalid.
    public init(plan: RunPlan) throws(ConfigurationError) {
        self.plan = plan
        analyzer = try CaptureAnalyzer(configuration: plan.configuration)
    }

    /// What `run` produced.
    public struct Outcome: Sendable {
        public var datasets: [RunDataset]
        public var evaluated: Int
        public var failed: Int
        /// Wall time of the sample loop, seconds.
        public var seconds: Double
    }

    /// One selected sample: where it is, not its content (decoded when processed, so
    /// the selection stays small however large the manifest).
    struct WorkItem: Sendable {
        var datasetIndex: Int
        var index: Int
        /// Set when the manifest entry itself is invalid (including a duplicate id).
        var failure: SampleFailure?
    }

    /// Loads the manifests and selects the samples (split, shard, limit).
    ///
    /// - Throws: `RunError` for a manifest that cannot be read at all, one whose `format`
    ///   is missing or not `rial-bench-dataset/1` (as `dataset validate` reports it), one
    ///   with no samples, and the same manifest file given twice (its samples would count twice).
    func select() throws(RunError) -> (loaders: [DatasetLoader], datasets: [RunDataset], items: [WorkItem]) {
        var loaders: [DatasetLoader] = [], datasets: [RunDataset] = [], items: [WorkItem] = []
        var position = 0
        var seen: [String: String] = [:]
        for path in plan.manifests {
            let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            if let first = seen[resolved] {
                throw RunError("\(path): the same manifest is given twice (also as \(first)); give each dataset once")
            }
            seen[resolved] = path
        }
        for (datasetIndex, path) in plan.manifests.enumerated() {
            let loader: DatasetLoader
            do { loader = try DatasetLoader(contentsOf: path) } catch { throw RunError(error.description) }
            if let problem = loader.headerProblems.first(where: { $0.kind == .wrongFormat }) {
                throw RunError(problem.description)
            }
            guard loader.sampleCount > 0 else {
                throw RunError("\(path): samples: \(DatasetLoader.noSamplesMessage)".escapingControlCharacters())
            }
            let hash = (try? SHA256Digest.hash(fileAt: path)) ?? ""
            var selected = 0, kinds = Set<SampleRecord.DataKind>()
            for entry in loader.entries {
                if let split = plan.split, case .success(let sample) = entry.result, sample.split != split { continue }
                if !plan.tags.isEmpty, case .success(let sample) = entry.result,
                    !plan.tags.allSatisfy(sample.tags.contains)
                {
                    continue
                }
                defer { position += 1 }
                if let shard = plan.shard, position % shard.count != shard.index - 1 { continue }
                if let limit = plan.limit, items.count >= limit { continue }
                var failure: SampleFailure?
                switch entry.result {
                case .success(let sample): kinds.insert(Self.dataKind(sample))
                case .failure(let f): failure = f
                }
                items.append(WorkItem(datasetIndex: datasetIndex, index: entry.index, failure: failure))
                selected += 1
            }
            let name = loader.name ?? URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
            datasets.append(
                RunDataset(
                    path: path, name: name, manifestSHA256: hash, original: loader.sampleCount,
                    selected: selected, evaluated: 0, failed: 0,
                    data: kinds.count == 1 ? kinds.first!.rawValue : kinds.isEmpty ? "none" : "mixed"))
            loaders.append(loader)
        }
        return (loaders, datasets, items)
    }

    /// Runs every selected sample and writes `samplesPath`.
    ///
    /// - Parameter progress: called after each sample with (done, total, failed), from any thread.
    /// - Throws: `RunError` when a manifest or the output file cannot be used.
    public func run(
        samplesPath: String,
        progress: @escaping @Sendable (Int, Int, Int) -> Void = { _, _, _ in }
    ) throws(RunError) -> Outcome {
        let (loaders, datasetsSelected, items) = try select()
        var datasets = datasetsSelected
        guard FileManager.default.createFile(atPath: samplesPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: samplesPath)
        else {
            throw RunError("\(samplesPath): cannot be created")
        }
        let writer = Locked(OrderedLineWriter(handle: handle))
        let clock = ContinuousClock()
        let start = clock.now
        let total = items.count
        let names = datasets.map(\.name)
        // Workers take the next sample as they finish one, so a slow sample never leaves a
        // core idle; the writer puts the lines back in sample order.
        _ = (0..<total).concurrentMap(workers: plan.jobs) { position in
            let item = items[position]
            let record = self.record(
                for: item, loader: loaders[item.datasetIndex],
                datasetName: names[item.datasetIndex])
            let line = record.jsonLine()
            let (done, failed) = writer.withLock {
                $0.submit(position: position, line: line, failed: record.status == .failed, dataset: item.datasetIndex)
            }
            progress(done, total, failed)
        }
        let written = writer.withLock { $0.finish() }
        for index in datasets.indices {
            datasets[index].failed = written.countsByDataset[index]?.failed ?? 0
            datasets[index].evaluated = (written.countsByDataset[index]?.done ?? 0) - datasets[index].failed
        }
        let elapsed = clock.now - start
        let seconds = elapsed.milliseconds / 1_000
        return Outcome(
            datasets: datasets, evaluated: written.done - written.failed, failed: written.failed, seconds: seconds)
    }

    /// The record of one sample; never throws.
    func record(for item: WorkItem, loader: DatasetLoader, datasetName: String) -> SampleRecord {
        let sample: DatasetSample
        if let failure = item.failure {
            return Self.failedRecord(
                id: failure.sampleID ?? "samples[\(item.index)]", item: item, dataset: datasetName,
                stage: .manifest, reason: failure.reason)
        }
        switch loader.sample(at: item.index) {
        case .failure(let failure):
            return Self.failedRecord(
                id: failure.sampleID ?? "samples[\(item.index)]", item: item, dataset: datasetName,
                stage: .manifest, reason: failure.reason)
        case .success(let s): sample = s
        }
        var record = Self.baseRecord(sample, item: item, dataset: datasetName)
        let resolved: ResolvedSample
        switch loader.resolve(sample, index: item.index, checks: []) {
        case .failure(let failure):
            record.status = .failed
            record.failure = .init(stage: .resolve, reason: failure.reason)
            return record
        case .success(let r): resolved = r
        }
        if sample.kind == .video { return videoRecord(record, resolved: resolved, loader: loader) }
        var files = Self.files(resolved, loader: loader)
        files.acceptJPEGWarnings = plan.acceptJPEGWarnings
        let loaded: LoadedCapture
        do { loaded = try CaptureLoader.load(files) } catch {
            record.status = .failed
            record.failure = .init(stage: .load, reason: error.description)
            return record
        }
        record.sha256 = loaded.sha256
        if !loaded.jpegWarnings.isEmpty { record.decodeWarnings = loaded.jpegWarnings }
        if let expected = sample.sha256 {
            for (role, want, path) in [
                ("image", expected.image, resolved.imagePath), ("depth", expected.depth, resolved.depthPath),
                ("right", expected.right, resolved.rightPath),
            ] {
                guard let want, let got = loaded.sha256[role], want.lowercased() != got else { continue }
                record.status = .failed
                record.failure = .init(
                    stage: .load, reason: "\(path ?? role): SHA-256 \(got) does not match the manifest's \(want)")
                return record
            }
        }
        if let path = Self.privacyPayloadPath(sample, resolved: resolved, loader: loader) {
            let payload: PrivacyPayload
            do { payload = try PrivacyPayload.read(path) } catch {
                record.status = .failed
                record.failure = .init(stage: .load, reason: error.lines.joined(separator: "; "))
                return record
            }
            record.privacy = PrivacyVerification.verify(
                payload,
                evidence: .init(
                    mediaSHA256: loaded.sha256["image"], depth: loaded.input.depth,
                    attestation: loaded.input.attestation),
                configuration: plan.configuration)
        }
        let analysis: CaptureAnalysis
        do { analysis = try analyzer.analyze(loaded.input, concurrent: false) } catch {
            record.status = .failed
            record.failure = .init(stage: .analyze, reason: error.description)
            return record
        }
        fill(&record, analysis: analysis, input: loaded.input, latency: loaded.latencyMs)
        return record
    }

    /// Puts an analysis into `record`: the method results, the aggregation inputs and
    /// result, the decision, and the latencies (the analysis's, then `latency`'s).
    func fill(
        _ record: inout SampleRecord, analysis: CaptureAnalysis, input: CaptureInput, latency extra: [String: Double]
    ) {
        var methods = JSONObject()
        var candidates: [String: AggregationCandidate] = [:]
        for outcome in analysis.outcomes {
            methods[outcome.key] = .object(outcome.fields)
            candidates[outcome.key] = outcome.aggregationCandidate
        }
        record.methods = methods
        record.aggregationInputs = candidates
        record.attestationEvidence = input.attestation
        record.metadataChecks = analysis.evidence.metadata.statuses
        if let payload = input.payload, payload.aggregatedConfidence != nil {
            record.phoneAggregate = .init(level: payload.phoneLevel, score: payload.phoneScore)
        }
        record.aggregate = .init(
            analysis.aggregation, primaryMethod: analysis.evidence.sceneAnalysis.primaryMethod,
            families: analyzer.familyEvidence(candidates, aggregated: analysis.aggregated))
        record.decision = Self.decision(analysis.aggregation.rankingScore, configuration: plan.configuration)
        var latency = analysis.evidence.latencyMs
        for (key, value) in extra { latency[key] = value }
        record.latencyMs = latency
    }

    /// The evaluation decision: bona fide when the aggregate's ranking score reaches
    /// `decision.threshold` (`rescore` decides the same way).
    public static func decision(_ rankingScore: Double, configuration: PipelineConfiguration)
        -> SampleRecord.Decision
    {
        rankingScore >= configuration.decision.threshold(for: nil) ? .bonaFide : .attack
    }

    static func baseRecord(_ sample: DatasetSample, item: WorkItem, dataset: String) -> SampleRecord {
        SampleRecord(
            id: sample.id, datasetIndex: item.datasetIndex, index: item.index, dataset: dataset,
            label: .known(sample.label), bonaFide: sample.label.isBonaFide, group: sample.group,
            tags: sample.tags, attestation: sample.attestation, split: sample.split,
            data: dataKind(sample), status: .evaluated, failure: nil, methods: [:], aggregate: nil,
            decision: nil, latencyMs: [:], sha256: [:])
    }

    static func failedRecord(
        id: String, item: WorkItem, dataset: String, stage: SampleRecord.Failure.Stage,
        reason: String
    ) -> SampleRecord {
        SampleRecord(
            id: id, datasetIndex: item.datasetIndex, index: item.index, dataset: dataset, label: .unknown,
            bonaFide: false, group: nil, tags: [], attestation: .none, split: .test, data: .unknown,
            status: .failed, failure: .init(stage: stage, reason: reason), methods: [:], aggregate: nil,
            decision: nil, latencyMs: [:], sha256: [:])
    }

    /// `simulated` for RialSynth renders (a `synth` block or tag `synthetic`), else `real`.
    static func dataKind(_ sample: DatasetSample) -> SampleRecord.DataKind {
        sample.extensions["synth"] != nil || sample.tags.contains("synthetic") ? .simulated : .real
    }

    /// The manifest key naming a sample's privacy-mode (hash-only) payload:
    /// `"privacy_payload": "FILE"` (relative to the manifest), or an object with `path`.
    public static let privacyPayloadKey = "privacy_payload"

    /// The absolute path of `sample`'s privacy payload, when it names one. The payload is
    /// verified against the sample's own image (its media) and depth map.
    static func privacyPayloadPath(_ sample: DatasetSample, resolved: ResolvedSample, loader: DatasetLoader) -> String?
    {
        if let path = resolved.extensionFiles[privacyPayloadKey] { return path }
        return sample.extensions[privacyPayloadKey]?.stringValue.map(loader.absolutePath)
    }

    static func files(_ resolved: ResolvedSample, loader: DatasetLoader) -> CaptureFiles {
        let s = resolved.sample
        let attestation =
            s.attestation == .none
            ? AttestationEvidence.missing
            : AttestationEvidence(status: .pass, method: s.attestation)
        var payload = resolved.extensionFiles["payload"]
        if payload == nil, let relative = s.extensions["payload"]?.stringValue {
            payload = loader.absolutePath(relative)
        }
        return CaptureFiles(
            image: resolved.imagePath, depth: resolved.depthPath, depthFormat: s.depth?.format,
            depthWidth: s.depth?.width, depthHeight: s.depth?.height, depthScale: s.depth?.scale,
            right: resolved.rightPath, focalPx: s.stereo?.focalPx, baselineMm: s.stereo?.baselineMm,
            attestation: attestation, platform: s.platform, deviceModel: s.deviceModel,
            referenceTime: s.capturedAt.flatMap { parseDate($0) }, payload: payload)
    }

    /// ISO 8601 date-time (`2025-12-01T10:00:00Z`, fractional seconds allowed) or, with
    /// `allowDate` (manifest `captured_at`), a date (`2025-12-01`, midnight UTC).
    public static func parseDate(_ text: String, allowDate: Bool = true) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        guard allowDate else { return nil }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)
    }
}

/// Writes lines in position order as they complete: finished lines wait in a small
/// buffer until every earlier position is written. Shared by the workers inside a
/// `Locked`.
struct OrderedLineWriter {
    private let handle: FileHandle
    private var pending: [Int: String] = [:]
    private var nextPosition = 0
    private(set) var done = 0
    private(set) var failed = 0
    private(set) var countsByDataset: [Int: (done: Int, failed: Int)] = [:]

    init(handle: FileHandle) { self.handle = handle }

    /// Queues `line` for `position`, writes every line that is now in order, and
    /// returns the totals so far.
    mutating func submit(position: Int, line: String, failed isFailed: Bool, dataset: Int) -> (done: Int, failed: Int) {
        pending[position] = line
        done += 1
        if isFailed { failed += 1 }
        var counts = countsByDataset[dataset] ?? (0, 0)
        counts.done += 1
        if isFailed { counts.failed += 1 }
        countsByDataset[dataset] = counts
        var chunk = ""
        while let next = pending.removeValue(forKey: nextPosition) {
            chunk += next + "\n"
            nextPosition += 1
        }
        if !chunk.isEmpty { handle.write(Data(chunk.utf8)) }
        return (done, failed)
    }

    /// Flushes and closes the file; returns the final counts.
    func finish() -> Self {
        try? handle.synchronize()
        try? handle.close()
        return self
    }
}
