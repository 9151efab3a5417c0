import Foundation
import RialDetection
import RialMedia

/// One line of `samples.jsonl`: everything a report needs about one sample, so reports
/// can be re-rendered and metrics recomputed (or checked with scikit-learn) without
/// re-running the pipeline.
public struct SampleRecord: Sendable, Equatable, Codable {
    /// Manifest sample id.
    public var id: String
    /// Position of the dataset in the run's list and of the sample in its manifest:
    /// the order of `samples.jsonl`, whatever the number of jobs or shards.
    public var datasetIndex: Int
    public var index: Int
    /// Dataset name (manifest `name`, else its folder).
    public var dataset: String
    /// Manifest label (`real_scene`, `lcd_screen`, ...); the attack species.
    public var label: Label
    /// `label == real_scene`.
    public var bonaFide: Bool
    public var group: String?
    public var tags: [String]
    public var attestation: AttestationMethod
    public var split: DatasetSplit
    public var data: DataKind
    public var status: Status
    /// Why the sample failed (the stage and the message).
    public var failure: Failure?
    /// Breakdown key -> the method's full result (with `score`, `status`, ...).
    public var methods: JSONObject
    public var aggregate: Aggregate?
    /// Set when the sample was analysed.
    public var decision: Decision?
    /// Breakdown key -> what aggregation needs of that outcome (raw score, detections),
    /// for every outcome, aggregated or not: with `attestation_evidence`, all that
    /// `rescore` needs to aggregate the sample again. Set for every evaluated sample; nil
    /// in runs written before it existed.
    public var aggregationInputs: [String: AggregationCandidate]? = nil
    /// The attestation the sample was aggregated with. Set with `aggregation_inputs`.
    public var attestationEvidence: AttestationEvidence? = nil
    /// The evidence checks the sample was aggregated with (`metadata.timestamp`, ...:
    /// `MetadataChecks.statuses`), so `rescore` applies a failed check as `run` did. Nil
    /// in runs written before it existed (then no check failed).
    public var metadataChecks: [String: EvidenceCheckStatus]? = nil
    /// Milliseconds: `decode`, `sha256`, each method, `aggregation`, `total`.
    public var latencyMs: [String: Double]
    /// SHA-256 of the files read, by role.
    public var sha256: [String: String]
    /// The libjpeg warnings of an image evaluated despite them (`run
    /// --accept-jpeg-warnings`): the sample is flagged as decoded from damaged data.
    /// Absent (nil) for a clean decode.
    public var decodeWarnings: [String]? = nil
    /// The phone's own fused result (`aggregated` of its detection payload, story 9-6
    /// AC 3), for samples that carry a payload; nil otherwise.
    public var phoneAggregate: PhoneAggregate? = nil
    /// The verification of the sample's privacy-mode (hash-only) payload against its own
    /// image and depth (`PrivacyVerification`), for samples whose manifest entry names one
    /// (`privacy_payload`); nil otherwise.
    public var privacy: PrivacyVerification? = nil
    /// A video sample's recording, hash chain check, tamper label and deployed video
    /// level (`SampleRecord.Video`); nil (absent) for photos.
    public var video: Video? = nil

    /// `aggregated.confidence_level` and `aggregated.overall_confidence` of a payload.
    public struct PhoneAggregate: Sendable, Equatable, Codable {
        public var level: ConfidenceLevel?
        public var score: Double?

        public init(level: ConfidenceLevel?, score: Double?) {
            self.level = level
            self.score = score
        }
    }

    /// A record's label: the manifest's, or `unknown` when the manifest entry itself
    /// could not be read (JSON: the label's raw value, or `"unknown"`).
    public enum Label: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
        case known(SampleLabel)
        case unknown

        public init?(rawValue: String) {
            if rawValue == "unknown" {
                self = .unknown
            } else if let label = SampleLabel(rawValue: rawValue) {
                self = .known(label)
            } else {
                return nil
            }
        }

        public var rawValue: String {
            switch self {
            case .known(let label): label.rawValue
            case .unknown: "unknown"
            }
        }

        public var description: String { rawValue }
    }

    /// Where the sample's data comes from.
    public enum DataKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// A photo of the world.
        case real
        /// A RialSynth render (a `synth` block or tag `synthetic` in the manifest).
        case simulated
        /// Not known: the manifest entry could not be read.
        case unknown

        public var description: String { rawValue }
    }

    /// Whether the pipeline produced a result for the sample.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        case evaluated
        /// See `failure`.
        case failed

        public var description: String { rawValue }
    }

    /// The aggregate decision at the configured threshold: `aggregate.ranking_score >=
    /// decision.threshold` (`AggregationResult.rankingScore`).
    public enum Decision: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// Aggregate ranking score >= the decision threshold.
        case bonaFide = "bona_fide"
        /// Aggregate ranking score below it.
        case attack

        public var description: String { rawValue }
    }

    public struct Failure: Sendable, Equatable, Codable {
        /// The step of `DatasetRunner` that failed.
        public enum Stage: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
            /// The manifest entry could not be decoded.
            case manifest
            /// A file of the sample could not be found.
            case resolve
            /// A file could not be read or decoded, or its SHA-256 differs from the manifest's.
            case load
            /// The pipeline threw.
            case analyze

            public var description: String { rawValue }
        }

        public var stage: Stage
        public var reason: String
    }

    public struct Aggregate: Sendable, Equatable, Codable {
        /// `confidence_score`: the level's score, flattened by a cap.
        public var score: Double
        public var level: ConfidenceLevel
        public var flags: [AggregationFlag]
        public var uncappedScore: Double
        /// `AggregationResult.rankingScore`: what metrics and the decision use. Nil in
        /// runs written before it existed (then `score` stands in).
        public var rankingScore: Double?
        public var weights: [AggregationMethod: Double]
        /// Breakdown key of the method filling the primary role.
        public var primaryMethod: String?
        /// The weighted aggregator's level and the MVP rule's level
        /// (`AggregationResult.weighted_level`, `.mvp.level`), whichever rule gave `level`.
        /// Nil in runs written before they existed.
        public var weightedLevel: ConfidenceLevel? = nil
        public var mvpLevel: ConfidenceLevel? = nil
        /// Each family's evidence check under the product documents' keys (`lidar`,
        /// `parallax`, `moire`, `texture`, `artifacts`): pass / fail / unavailable
        /// (`FamilyEvidence`, PRD "Evidence Status Values"). Nil in runs written before it existed.
        public var evidenceStatus: [String: EvidenceCheckStatus]? = nil
        /// Cross-validation: every aggregated method agreed (`AggregationResult.methods_agree`),
        /// and the boost that agreement added (0 when none). Nil in runs written before
        /// they were recorded.
        public var methodsAgree: Bool? = nil
        public var agreementBoost: Double? = nil
        /// What cross-validation found (`AggregationResult.cross_validation`, summarised).
        /// Nil in runs written before it existed.
        public var crossValidation: CrossValidationSummary? = nil

        enum CodingKeys: String, CodingKey {
            case score, level, flags
            case uncappedScore = "uncapped_score"
            case rankingScore = "ranking_score"
            case weights
            case primaryMethod = "primary_method"
            case weightedLevel = "weighted_level"
            case mvpLevel = "mvp_level"
            case evidenceStatus = "evidence_status"
            case methodsAgree = "methods_agree"
            case agreementBoost = "agreement_boost"
            case crossValidation = "cross_validation"
        }

        public init(
            score: Double, level: ConfidenceLevel, flags: [AggregationFlag], uncappedScore: Double,
            rankingScore: Double? = nil, weights: [AggregationMethod: Double], primaryMethod: String?
        ) {
            self.score = score
            self.level = level
            self.flags = flags
            self.uncappedScore = uncappedScore
            self.rankingScore = rankingScore
            self.weights = weights
            self.primaryMethod = primaryMethod
        }

        /// The record of `result`, whose primary role `primaryMethod` filled, with the
        /// families' evidence checks when given.
        public init(_ result: AggregationResult, primaryMethod: String?, families: [FamilyEvidence]? = nil) {
            self.init(
                score: result.confidenceScore, level: result.confidenceLevel, flags: result.flags,
                uncappedScore: result.uncappedScore, rankingScore: result.rankingScore,
                weights: result.weightsUsed, primaryMethod: primaryMethod)
            weightedLevel = result.weightedLevel
            mvpLevel = result.mvp?.level
            methodsAgree = result.methodsAgree
            agreementBoost = result.agreementBoost
            evidenceStatus = families.map {
                Dictionary(uniqueKeysWithValues: $0.map { (FamilyEvidence.key($0.family), $0.status) })
            }
            crossValidation = result.crossValidation.map(CrossValidationSummary.init)
        }
    }

    /// A sample's cross-validation in its record: FR77's status, the aggregated interval,
    /// `high_uncertainty`, the anomalies by severity and their impact (JSON snake_case).
    public struct CrossValidationSummary: Sendable, Equatable, Codable {
        public var mode: AggregationConfiguration.CrossValidation.Mode
        public var validationStatus: CrossValidationResult.Status
        public var interval: CrossValidationResult.Interval?
        public var highUncertainty: Bool
        /// Severity -> anomalies of that severity (severities without any are absent).
        public var anomalies: [String: Int]
        public var confidenceImpact: Double

        enum CodingKeys: String, CodingKey {
            case mode
            case validationStatus = "validation_status"
            case interval
            case highUncertainty = "high_uncertainty"
            case anomalies
            case confidenceImpact = "confidence_impact"
        }

        public init(_ r: CrossValidationResult) {
            mode = r.mode
            validationStatus = r.validationStatus
            interval = r.aggregatedInterval
            highUncertainty = r.highUncertainty
            anomalies = r.anomalies.reduce(into: [:]) { $0[$1.severity.rawValue, default: 0] += 1 }
            confidenceImpact = r.confidenceImpact
        }
    }

    enum CodingKeys: String, CodingKey {
        case id
        case datasetIndex = "dataset_index"
        case index, dataset, label
        case bonaFide = "bona_fide"
        case group, tags, attestation, split, data, status, failure, methods, aggregate, decision
        case latencyMs = "latency_ms"
        case sha256
        case decodeWarnings = "decode_warnings"
        case aggregationInputs = "aggregation_inputs"
        case attestationEvidence = "attestation_evidence"
        case metadataChecks = "metadata_checks"
        case phoneAggregate = "phone_aggregate"
        case privacy
        case video
    }

    /// The score of breakdown key `key` (`aggregate` for the aggregate), when it scored.
    /// The aggregate's is its ranking score (`aggregate.ranking_score`, or `score` in runs
    /// written before it existed), and it counts as scored only when at least one method
    /// fed it.
    public func score(_ key: String) -> Double? {
        if key == "aggregate" {
            guard let aggregate, !aggregate.weights.isEmpty else { return nil }
            return aggregate.rankingScore ?? aggregate.score
        }
        // `NAME/VERSION:field` reads another continuous field of the result (depth/1's margin).
        // Called for every sample and key by metrics and reports: one lookup, no split.
        var method = key, field = "score"
        if let colon = key.firstIndex(of: ":") {
            method = String(key[..<colon])
            field = String(key[key.index(after: colon)...])
        }
        guard case .object(let result)? = methods[method], result["status"]?.stringValue == "completed" else {
            return nil
        }
        return result[field]?.numberValue
    }

    /// The record as one compact JSON line (keys sorted; no NaN: non-finite numbers are null).
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self) else { return #"{"id":"\#(id)","status":"failed"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// The record as a metrics sample for breakdown key `key` (NaN when it did not
    /// score, so metrics count it as excluded), under `id` (default: the sample id).
    /// The record as a metrics sample with `score` (a key's score already read; nil = NaN).
    func scoredSample(score: Double?) -> ScoredSample {
        ScoredSample(
            id: id, score: score ?? .nan, bonaFide: bonaFide, species: label.rawValue, group: group, tags: tags,
            attestation: attestation.rawValue)
    }

    public func scoredSample(_ key: String, id: String? = nil) -> ScoredSample {
        ScoredSample(
            id: id ?? self.id, score: score(key) ?? .nan, bonaFide: bonaFide, species: label.rawValue,
            group: group, tags: tags, attestation: attestation.rawValue)
    }

    /// The record with each method's result cut to what metrics and reports read
    /// (`status`, `score`, and the continuous companions such as depth/1's `margin`):
    /// a run holds one of these per sample in memory, not the full results. Every other
    /// field is kept (`aggregation_inputs` and `attestation_evidence` too).
    public func slimmed() -> SampleRecord {
        var copy = self
        var slim = JSONObject()
        let kept = ["status", "score"] + RunResults.continuousCompanions.map(\.field)
        for (key, value) in methods {
            var fields = JSONObject()
            for name in kept { if let v = value[name] { fields[name] = v } }
            slim[key] = .object(fields)
        }
        copy.methods = slim
        return copy
    }

    /// Reads `samples.jsonl` one line at a time; with `slim`, keeps `slimmed()` records
    /// (what metrics and reports need) so memory stays small for large runs.
    ///
    /// - Throws: `RunError` naming the file and line of a record that does not decode.
    public static func readLines(path: String, slim: Bool = false) throws(RunError) -> [SampleRecord] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RunError(
                "\(path): cannot be read (\(FileManager.default.fileExists(atPath: path) ? "unreadable" : "no such file"))"
            )
        }
        defer { try? handle.close() }
        var records: [SampleRecord] = []
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var pending = Data(), number = 0
        func consume(_ line: Data) throws(RunError) {
            number += 1
            guard !line.isEmpty else { return }
            do {
                let record = try decoder.decode(SampleRecord.self, from: line)
                records.append(slim ? record.slimmed() : record)
            } catch {
                throw RunError("\(path): line \(number) is not a sample record (\(error))")
            }
        }
        // Streams 1 MiB chunks: the file is never held whole.
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw RunError("\(path): read failed (\(error.localizedDescription))")
            }
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                try consume(Data(pending[pending.startIndex..<newline]))
                pending = Data(pending[(newline + 1)...])
            }
        }
        try consume(pending)
        return records
    }
}

/// A run that cannot start or finish: one message naming the file and the problem.
public struct RunError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
