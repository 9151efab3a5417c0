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
    public var label: String
    /// `label == real_scene`.
    public var bonaFide: Bool
    public var group: String?
    public var tags: [String]
    public var attestation: String
    public var split: String
    /// `real` (a photo of the world) or `simulated` (RialSynth render: a `synth` block or tag `synthetic`).
    public var data: String
    /// `evaluated` or `failed`.
    public var status: String
    /// Why the sample failed (stage `resolve`, `load` or `analyze`, and the message).
    public var failure: Failure?
    /// Breakdown key -> the method's full result (with `score`, `status`, ...).
    public var methods: JSONObject
    public var aggregate: Aggregate?
    /// `bona_fide` when the aggregate score >= the decision threshold, else `attack`.
    public var decision: String?
    /// Milliseconds: `decode`, `sha256`, each method, `aggregation`, `total`.
    public var latencyMs: [String: Double]
    /// SHA-256 of the files read, by role.
    public var sha256: [String: String]

    public struct Failure: Sendable, Equatable, Codable {
        public var stage: String
        public var reason: String
    }

    public struct Aggregate: Sendable, Equatable, Codable {
        public var score: Double
        public var level: ConfidenceLevel
        public var flags: [AggregationFlag]
        public var uncappedScore: Double
        public var weights: [AggregationMethod: Double]
        /// Breakdown key of the method filling the primary role.
        public var primaryMethod: String?

        enum CodingKeys: String, CodingKey {
            case score, level, flags
            case uncappedScore = "uncapped_score"
            case weights
            case primaryMethod = "primary_method"
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
    }

    /// The score of breakdown key `key` (`aggregate` for the aggregate), when it scored.
    /// The aggregate counts as scored only when at least one method fed it.
    public func score(_ key: String) -> Double? {
        if key == "aggregate" {
            guard let aggregate, !aggregate.weights.isEmpty else { return nil }
            return aggregate.score
        }
        // `NAME/VERSION:field` reads another continuous field of the result (depth/1's margin).
        let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
        let method = parts[0], field = parts.count == 2 ? parts[1] : "score"
        guard methods[method]?["status"]?.stringValue == "completed" else { return nil }
        return methods[method]?[field]?.numberValue
    }

    /// The record as one compact JSON line (keys sorted; no NaN: non-finite numbers are null).
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self) else { return #"{"id":"\#(id)","status":"failed"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// The record as a metrics sample for breakdown key `key` (NaN when it did not
    /// score, so metrics count it as excluded), under `id` (default: the sample id).
    public func scoredSample(_ key: String, id: String? = nil) -> ScoredSample {
        ScoredSample(id: id ?? self.id, score: score(key) ?? .nan, bonaFide: bonaFide, species: label, group: group,
                     tags: tags, attestation: attestation)
    }

    /// The record with each method's result cut to what metrics and reports read
    /// (`status`, `score`, and the continuous companions such as depth/1's `margin`):
    /// a run holds one of these per sample in memory, not the full results.
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
            throw RunError("\(path): cannot be read (\(FileManager.default.fileExists(atPath: path) ? "unreadable" : "no such file"))")
        }
        defer { try? handle.close() }
        var records: [SampleRecord] = []
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
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
