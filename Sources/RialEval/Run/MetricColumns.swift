import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// The metric columns of a run folder (`metric-columns.bin`): per sample, in the order of
/// `samples.jsonl`, what metrics and reports read of a record besides what the
/// aggregation sidecar (`AggregationColumns`) holds: its id, dataset, tags, attestation
/// level and the score of every metric key of `results.json`'s `methods` (method
/// versions, continuous companions such as `depth/1:margin`, and `aggregate`, the
/// ranking score). With the sidecar it gives every `ScoredSample` and every report column
/// without parsing a record. Its SHA-256 is recorded in `results.json`
/// (`metric_columns_sha256`) and checked on every read.
///
/// The byte layout is documented in `docs/aggregation-sidecar.md` ("The metric columns");
/// `encoded()` and `parse(_:path:)` follow it field for field.
public struct MetricColumns: Sendable, Equatable {
    /// The file name in a run folder.
    public static let fileName = "metric-columns.bin"
    static let magic: [UInt8] = Array("RBMETCOL".utf8)
    public static let version: UInt32 = 1
    static let what = "metric columns file"

    /// Samples (lines of `samples.jsonl`).
    public var count: Int
    /// Metric keys, in `results.json`'s `methods` order.
    public var keys: [String] = []
    /// String tables the code columns index.
    public var datasets: [String] = []
    public var tagNames: [String] = []
    public var attestations: [String] = []

    /// Per sample: its id.
    public var ids: [String] = []
    /// Index into `datasets`.
    public var dataset: [UInt16] = []
    /// Index into `attestations`.
    public var attestation: [UInt8] = []
    /// Sample `i`'s tags are `tagCodes[tagStart[i]..<tagStart[i + 1]]` (indices into
    /// `tagNames`, in the record's order); `tagStart` has `count + 1` entries.
    public var tagStart: [UInt32] = [0]
    public var tagCodes: [UInt16] = []
    /// Per key: 1 when the sample has a score for it (`SampleRecord.score(_:)` not nil),
    /// and that score (0 when absent).
    public var present: [[UInt8]] = []
    public var score: [[Double]] = []

    init(count: Int) { self.count = count }

    /// The columns of `records` (in order) for the metric keys `keys`.
    public init(records: [SampleRecord], keys: [String]) {
        count = records.count
        self.keys = keys
        var datasetIndex: [String: Int] = [:], tagIndex: [String: Int] = [:], attestationIndex: [String: Int] = [:]
        func code(_ value: String, _ index: inout [String: Int], _ table: inout [String]) -> Int {
            if let found = index[value] { return found }
            index[value] = table.count
            table.append(value)
            return table.count - 1
        }
        ids.reserveCapacity(count)
        dataset.reserveCapacity(count)
        attestation.reserveCapacity(count)
        tagStart.reserveCapacity(count + 1)
        for record in records {
            ids.append(record.id)
            dataset.append(UInt16(code(record.dataset, &datasetIndex, &datasets)))
            attestation.append(UInt8(code(record.attestation.rawValue, &attestationIndex, &attestations)))
            for tag in record.tags { tagCodes.append(UInt16(code(tag, &tagIndex, &tagNames))) }
            tagStart.append(UInt32(tagCodes.count))
        }
        // One key per worker, as `ScoreColumns` reads them.
        let columns = keys.indices.concurrentMap { k -> ([UInt8], [Double]) in
            var present = [UInt8](repeating: 0, count: records.count)
            var score = [Double](repeating: 0, count: records.count)
            for i in records.indices {
                if let s = records[i].score(keys[k]) {
                    present[i] = 1
                    score[i] = s
                }
            }
            return (present, score)
        }
        present = columns.map(\.0)
        score = columns.map(\.1)
    }

    /// `template`'s samples repeated in order up to `n` samples, sample `i` with id `id(i)`
    /// (`bench-rescore`).
    mutating func tile(_ template: MetricColumns, to n: Int, id: (Int) -> String) {
        self = MetricColumns(count: n)
        keys = template.keys
        datasets = template.datasets
        tagNames = template.tagNames
        attestations = template.attestations
        guard template.count > 0 else { return }
        let m = template.count
        ids = (0..<n).map(id)
        dataset = (0..<n).map { template.dataset[$0 % m] }
        attestation = (0..<n).map { template.attestation[$0 % m] }
        tagStart = [0]
        tagStart.reserveCapacity(n + 1)
        for i in 0..<n {
            let t = i % m
            tagCodes += template.tagCodes[Int(template.tagStart[t])..<Int(template.tagStart[t + 1])]
            tagStart.append(UInt32(tagCodes.count))
        }
        present = template.present.map { column in (0..<n).map { column[$0 % m] } }
        score = template.score.map { column in (0..<n).map { column[$0 % m] } }
    }

    /// Sample `i`'s tags.
    public func tags(at i: Int) -> [String] {
        (Int(tagStart[i])..<Int(tagStart[i + 1])).map { tagNames[Int(tagCodes[$0])] }
    }

    /// Key `k`'s score of sample `i`, nil when absent.
    public func score(_ k: Int, at i: Int) -> Double? { present[k][i] == 1 ? score[k][i] : nil }

    // MARK: - Bytes

    /// The file's bytes (`docs/aggregation-sidecar.md`, "The metric columns").
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + count * (16 + keys.count * 9) + tagCodes.count * 2)
        out += Self.magic
        AggregationColumns.append(Self.version, to: &out)
        AggregationColumns.append(UInt32(0), to: &out)
        AggregationColumns.append(UInt64(count), to: &out)
        for table in [keys, datasets, tagNames, attestations, ids] { AggregationColumns.appendTable(table, to: &out) }
        AggregationColumns.appendAll(dataset, to: &out)
        out += attestation
        AggregationColumns.appendAll(tagStart, to: &out)
        AggregationColumns.appendAll(tagCodes, to: &out)
        for k in keys.indices {
            out += present[k]
            AggregationColumns.appendAll(score[k], to: &out)
        }
        return out
    }

    /// Parses the bytes of the file at `path` (named in errors).
    ///
    /// - Throws: `RunError` naming `path` for a wrong magic, an unknown version, a
    ///   truncated or overlong file, a name that is not UTF-8, an id table that is not one
    ///   id per sample, tag offsets that are not non-decreasing from 0, a presence flag other
    ///   than 0 or 1, or a code outside its table.
    public static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(RunError) -> MetricColumns {
        var reader = AggregationColumns.Reader(bytes: bytes, path: path, what: what)
        guard bytes.count >= 8, Array(bytes[0..<8]) == magic else {
            throw RunError("\(path): not a rial-bench metric columns file (no RBMETCOL header)")
        }
        reader.offset = 8
        let version: UInt32 = try reader.integer()
        guard version == Self.version else {
            throw RunError("\(path): \(what) version \(version), this rial-bench reads version \(Self.version)")
        }
        _ = try reader.integer() as UInt32
        let n64: UInt64 = try reader.integer()
        // Every sample takes at least 11 bytes (id length, dataset, attestation, tag offset).
        guard n64 <= UInt64(bytes.count) / 11 else {
            throw RunError("\(path): \(what) truncated or damaged (\(n64) samples in \(bytes.count) bytes)")
        }
        let n = Int(n64)
        var columns = MetricColumns(count: n)
        columns.keys = try reader.table()
        columns.datasets = try reader.table()
        columns.tagNames = try reader.table()
        columns.attestations = try reader.table()
        columns.ids = try reader.table()
        guard columns.ids.count == n else {
            throw RunError("\(path): \(what) has \(columns.ids.count) ids for \(n) samples")
        }
        guard Set(columns.keys).count == columns.keys.count,
            columns.attestations.allSatisfy({ AttestationMethod(rawValue: $0) != nil })
        else { throw RunError("\(path): \(what) has an unknown or repeated name in its tables") }
        columns.dataset = try reader.integers(n)
        guard columns.dataset.allSatisfy({ Int($0) < columns.datasets.count }) else {
            throw RunError("\(path): \(what) has a dataset code outside its table")
        }
        columns.attestation = try reader.bytes(n, below: columns.attestations.count, "attestation")
        columns.tagStart = try reader.integers(n + 1)
        guard columns.tagStart[0] == 0, zip(columns.tagStart, columns.tagStart.dropFirst()).allSatisfy({ $0 <= $1 })
        else { throw RunError("\(path): \(what) has tag offsets that do not rise from 0") }
        columns.tagCodes = try reader.integers(Int(columns.tagStart[n]))
        guard columns.tagCodes.allSatisfy({ Int($0) < columns.tagNames.count }) else {
            throw RunError("\(path): \(what) has a tag code outside its table")
        }
        for _ in columns.keys {
            columns.present.append(try reader.bytes(n, below: 2, "presence"))
            let bits: [UInt64] = try reader.integers(n)
            columns.score.append(bits.map(Double.init(bitPattern:)))
        }
        guard reader.offset == bytes.count else {
            throw RunError("\(path): \(what) has \(bytes.count - reader.offset) bytes after its last column")
        }
        return columns
    }

    /// Reads the file at `path` in one read and checks its SHA-256 against `sha256`.
    ///
    /// - Throws: `RunError` naming `path` when it is missing or unreadable, its SHA-256
    ///   differs from `sha256` (changed after it was written), or it does not parse.
    public static func read(path: String, sha256: String) throws(RunError) -> MetricColumns {
        try AggregationColumns.readFile(path: path, sha256: sha256, field: "metric_columns_sha256", parse: parse)
    }

    /// Writes the file into `folder`; returns its SHA-256.
    ///
    /// - Throws: `RunError` naming the file when it cannot be written.
    @discardableResult
    public func write(folder: String) throws(RunError) -> String {
        try AggregationColumns.writeFile(encoded(), folder: folder, name: Self.fileName)
    }
}
