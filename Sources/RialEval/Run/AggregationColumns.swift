import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// The aggregation sidecar of a run folder (`aggregation-inputs.bin`): per sample, in the
/// order of `samples.jsonl`, exactly what aggregation reads (`aggregation_inputs`,
/// `attestation_evidence`, `metadata_checks`) and what metrics group by (status, label,
/// bona fide, data kind, group), as contiguous little-endian columns. A `rescore` reads
/// this instead of parsing the method results of every record. Its SHA-256 is recorded in
/// `results.json` (`aggregation_sidecar_sha256`) and checked on every read.
///
/// The byte layout is documented in `docs/aggregation-sidecar.md`; `encoded()` and
/// `parse(_:path:)` follow it field for field.
public struct AggregationColumns: Sendable, Equatable {
    /// The file name in a run folder.
    public static let fileName = "aggregation-inputs.bin"
    /// The first eight bytes of the file.
    static let magic: [UInt8] = Array("RBAGGCOL".utf8)
    /// The layout version this build writes and reads.
    public static let version: UInt32 = 1
    /// Code of an absent group (`group` column).
    static let noGroup = UInt32.max

    /// Candidate flag bits (`flags` column of a key).
    enum Flag {
        static let present: UInt8 = 1 << 0
        static let available: UInt8 = 1 << 1
        static let scored: UInt8 = 1 << 2
        static let screen: UInt8 = 1 << 3
        static let print: UInt8 = 1 << 4
        static let payload: UInt8 = 1 << 5
    }

    /// Samples (lines of `samples.jsonl`).
    public var count: Int
    /// Breakdown keys of `aggregation_inputs`, in first-seen order.
    public var keys: [String] = []
    /// Keys of `metadata_checks`, in first-seen order.
    public var checkKeys: [String] = []
    /// The string tables the code columns index.
    public var labels: [String] = []
    public var groups: [String] = []
    public var families: [String] = []
    public var attestationMethods: [String] = []
    public var dataKinds: [String] = []

    /// 0 evaluated, 1 failed.
    public var status: [UInt8] = []
    /// 1 when the sample is bona fide.
    public var bonaFide: [UInt8] = []
    /// Index into `dataKinds`.
    public var data: [UInt8] = []
    /// Index into `labels`.
    public var label: [UInt16] = []
    /// Index into `groups`, or `noGroup`.
    public var group: [UInt32] = []
    /// 1 when the record has `aggregation_inputs`.
    public var hasInputs: [UInt8] = []
    /// 1 when the record has a `video` block (its deployed level needs the record).
    public var video: [UInt8] = []
    /// `attestation_evidence.status`: 0 absent, 1 pass, 2 fail, 3 unavailable.
    public var attestationStatus: [UInt8] = []
    /// `attestation_evidence.method`: index into `attestationMethods`.
    public var attestationMethod: [UInt8] = []
    /// 1 when the record has `metadata_checks`.
    public var hasChecks: [UInt8] = []
    /// Per key: `Flag` bits, family (index into `families`), raw score (0 when not scored).
    public var flags: [[UInt8]] = []
    public var family: [[UInt8]] = []
    public var score: [[Double]] = []
    /// Per check key: 0 absent, 1 pass, 2 fail, 3 unavailable.
    public var checks: [[UInt8]] = []

    static let statusCodes: [EvidenceCheckStatus] = [.pass, .fail, .unavailable]

    /// The columns of `records` (in order).
    public init(records: [SampleRecord]) {
        count = records.count
        var keyIndex: [String: Int] = [:], checkIndex: [String: Int] = [:]
        var labelIndex: [String: Int] = [:], groupIndex: [String: Int] = [:]
        var familyIndex: [String: Int] = [:], methodIndex: [String: Int] = [:], dataIndex: [String: Int] = [:]
        func code(_ value: String, _ index: inout [String: Int], _ table: inout [String]) -> Int {
            if let found = index[value] { return found }
            index[value] = table.count
            table.append(value)
            return table.count - 1
        }
        for record in records {
            for key in (record.aggregationInputs ?? [:]).keys.sorted() { _ = code(key, &keyIndex, &keys) }
            for key in (record.metadataChecks ?? [:]).keys.sorted() { _ = code(key, &checkIndex, &checkKeys) }
        }
        let n = records.count
        status = .init(repeating: 0, count: n)
        bonaFide = status
        data = status
        hasInputs = status
        video = status
        attestationStatus = status
        attestationMethod = status
        hasChecks = status
        label = .init(repeating: 0, count: n)
        group = .init(repeating: Self.noGroup, count: n)
        flags = .init(repeating: status, count: keys.count)
        family = flags
        score = .init(repeating: .init(repeating: 0, count: n), count: keys.count)
        checks = .init(repeating: status, count: checkKeys.count)
        for (i, record) in records.enumerated() {
            status[i] = record.status == .evaluated ? 0 : 1
            bonaFide[i] = record.bonaFide ? 1 : 0
            data[i] = UInt8(code(record.data.rawValue, &dataIndex, &dataKinds))
            label[i] = UInt16(code(record.label.rawValue, &labelIndex, &labels))
            if let g = record.group { group[i] = UInt32(code(g, &groupIndex, &groups)) }
            video[i] = record.video == nil ? 0 : 1
            if let evidence = record.attestationEvidence {
                attestationStatus[i] = Self.code(of: evidence.status)
                attestationMethod[i] = UInt8(code(evidence.method.rawValue, &methodIndex, &attestationMethods))
            }
            if let inputs = record.aggregationInputs {
                hasInputs[i] = 1
                // Key order, not the dictionary's: the tables (and so the bytes) must not
                // depend on hashing.
                for key in inputs.keys.sorted() {
                    let candidate = inputs[key]!, k = keyIndex[key]!
                    var bits = Flag.present
                    if candidate.available { bits |= Flag.available }
                    if let s = candidate.score {
                        bits |= Flag.scored
                        score[k][i] = s
                    }
                    if candidate.screenDetected { bits |= Flag.screen }
                    if candidate.printDetected { bits |= Flag.print }
                    if candidate.source == .payload { bits |= Flag.payload }
                    flags[k][i] = bits
                    family[k][i] = UInt8(code(candidate.family.rawValue, &familyIndex, &families))
                }
            }
            if let checked = record.metadataChecks {
                hasChecks[i] = 1
                for (key, value) in checked { checks[checkIndex[key]!][i] = Self.code(of: value) }
            }
        }
    }

    init(count: Int) { self.count = count }

    /// `template`'s samples repeated in order up to `n` samples (`bench-rescore`).
    mutating func tile(_ template: AggregationColumns, to n: Int) {
        func tiled<T>(_ column: [T]) -> [T] { (0..<n).map { column[$0 % column.count] } }
        self = template
        count = n
        guard template.count > 0 else { return }
        status = tiled(template.status)
        bonaFide = tiled(template.bonaFide)
        data = tiled(template.data)
        label = tiled(template.label)
        group = tiled(template.group)
        hasInputs = tiled(template.hasInputs)
        video = tiled(template.video)
        attestationStatus = tiled(template.attestationStatus)
        attestationMethod = tiled(template.attestationMethod)
        hasChecks = tiled(template.hasChecks)
        flags = template.flags.map(tiled)
        family = template.family.map(tiled)
        score = template.score.map(tiled)
        checks = template.checks.map(tiled)
    }

    static func code(of status: EvidenceCheckStatus) -> UInt8 {
        UInt8(statusCodes.firstIndex(of: status)! + 1)
    }

    /// What aggregation reads of sample `i`: its candidates (nil without `aggregation_inputs`),
    /// attestation (nil when not recorded) and metadata checks (nil when not recorded).
    public func inputs(at i: Int) -> (
        candidates: [String: AggregationCandidate]?, attestation: AttestationEvidence?,
        checks: [String: EvidenceCheckStatus]?
    ) {
        var candidates: [String: AggregationCandidate]?
        if hasInputs[i] == 1 {
            var found: [String: AggregationCandidate] = [:]
            found.reserveCapacity(keys.count)
            for k in keys.indices where flags[k][i] & Flag.present != 0 {
                let bits = flags[k][i]
                found[keys[k]] = AggregationCandidate(
                    family: MethodFamily(rawValue: families[Int(family[k][i])])!,
                    source: bits & Flag.payload != 0 ? .payload : .computed, available: bits & Flag.available != 0,
                    score: bits & Flag.scored != 0 ? score[k][i] : nil, screenDetected: bits & Flag.screen != 0,
                    printDetected: bits & Flag.print != 0)
            }
            candidates = found
        }
        var attestation: AttestationEvidence?
        if attestationStatus[i] != 0 {
            attestation = AttestationEvidence(
                status: Self.statusCodes[Int(attestationStatus[i]) - 1],
                method: AttestationMethod(rawValue: attestationMethods[Int(attestationMethod[i])])!)
        }
        var checked: [String: EvidenceCheckStatus]?
        if hasChecks[i] == 1 {
            var found: [String: EvidenceCheckStatus] = [:]
            for c in checkKeys.indices where checks[c][i] != 0 {
                found[checkKeys[c]] = Self.statusCodes[Int(checks[c][i]) - 1]
            }
            checked = found
        }
        return (candidates, attestation, checked)
    }

    // MARK: - Bytes

    /// The file's bytes (`docs/aggregation-sidecar.md`).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        let n = count
        out.reserveCapacity(64 + n * (12 + keys.count * 10 + checkKeys.count))
        out += Self.magic
        Self.append(Self.version, to: &out)
        Self.append(UInt32(0), to: &out)
        Self.append(UInt64(n), to: &out)
        for table in [keys, checkKeys, labels, groups, families, attestationMethods, dataKinds] {
            Self.appendTable(table, to: &out)
        }
        out += status
        out += bonaFide
        out += data
        Self.appendAll(label, to: &out)
        Self.appendAll(group, to: &out)
        out += hasInputs
        out += video
        out += attestationStatus
        out += attestationMethod
        out += hasChecks
        for k in keys.indices {
            out += flags[k]
            out += family[k]
            Self.appendAll(score[k], to: &out)
        }
        for c in checkKeys.indices { out += checks[c] }
        return out
    }

    /// Appends `value` little-endian.
    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// Appends a string table: its entry count, then each entry's UTF-8 length and bytes.
    static func appendTable(_ table: [String], to out: inout [UInt8]) {
        append(UInt32(table.count), to: &out)
        for entry in table {
            append(UInt32(entry.utf8.count), to: &out)
            out.append(contentsOf: entry.utf8)
        }
    }

    /// Appends `values` little-endian, in one copy on a little-endian machine.
    static func appendAll<T: FixedWidthInteger>(_ values: [T], to out: inout [UInt8]) {
        if 1.littleEndian == 1 {
            values.withUnsafeBytes { out.append(contentsOf: $0) }
        } else {
            for v in values { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        }
    }

    /// Appends the IEEE 754 bits of `values` little-endian, in one copy on a little-endian machine.
    static func appendAll(_ values: [Double], to out: inout [UInt8]) {
        if 1.littleEndian == 1 {
            values.withUnsafeBytes { out.append(contentsOf: $0) }
        } else {
            for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        }
    }

    /// Parses the bytes of the file at `path` (named in errors).
    ///
    /// - Throws: `RunError` naming `path` for a wrong magic, an unknown version, a
    ///   truncated or overlong file, a table entry that is not UTF-8, or a code outside its table.
    public static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(RunError) -> AggregationColumns {
        var reader = Reader(bytes: bytes, path: path)
        guard bytes.count >= 8, Array(bytes[0..<8]) == magic else {
            throw RunError("\(path): not a rial-bench aggregation sidecar (no RBAGGCOL header)")
        }
        reader.offset = 8
        let version: UInt32 = try reader.integer()
        guard version == Self.version else {
            throw RunError(
                "\(path): aggregation sidecar version \(version), this rial-bench reads version \(Self.version); re-run or rescore with the old path"
            )
        }
        _ = try reader.integer() as UInt32
        let n64: UInt64 = try reader.integer()
        // Every sample takes at least 12 bytes: a count beyond the file is a damaged header.
        guard n64 <= UInt64(bytes.count) / 12 else {
            throw RunError("\(path): aggregation sidecar truncated or damaged (\(n64) samples in \(bytes.count) bytes)")
        }
        let n = Int(n64)
        var columns = AggregationColumns(count: n)
        var tables: [[String]] = []
        for _ in 0..<7 { tables.append(try reader.table()) }
        columns.keys = tables[0]
        columns.checkKeys = tables[1]
        columns.labels = tables[2]
        columns.groups = tables[3]
        columns.families = tables[4]
        columns.attestationMethods = tables[5]
        columns.dataKinds = tables[6]
        guard columns.families.allSatisfy({ MethodFamily(rawValue: $0) != nil }),
            columns.attestationMethods.allSatisfy({ AttestationMethod(rawValue: $0) != nil }),
            columns.dataKinds.allSatisfy({ SampleRecord.DataKind(rawValue: $0) != nil }),
            columns.labels.allSatisfy({ SampleRecord.Label(rawValue: $0) != nil }),
            Set(columns.keys).count == columns.keys.count, Set(columns.checkKeys).count == columns.checkKeys.count
        else { throw RunError("\(path): aggregation sidecar has an unknown or repeated name in its tables") }
        columns.status = try reader.bytes(n, below: 2, "status")
        columns.bonaFide = try reader.bytes(n, below: 2, "bona fide")
        columns.data = try reader.bytes(n, below: columns.dataKinds.count, "data kind")
        columns.label = try reader.integers(n)
        guard columns.label.allSatisfy({ Int($0) < columns.labels.count }) else {
            throw RunError("\(path): aggregation sidecar has a label code outside its table")
        }
        columns.group = try reader.integers(n)
        guard columns.group.allSatisfy({ $0 == noGroup || Int($0) < columns.groups.count }) else {
            throw RunError("\(path): aggregation sidecar has a group code outside its table")
        }
        columns.hasInputs = try reader.bytes(n, below: 2, "inputs")
        columns.video = try reader.bytes(n, below: 2, "video")
        columns.attestationStatus = try reader.bytes(n, below: 4, "attestation status")
        columns.attestationMethod = try reader.bytes(n, below: max(1, columns.attestationMethods.count), "attestation")
        for i in 0..<n where columns.attestationStatus[i] != 0 && columns.attestationMethods.isEmpty {
            throw RunError("\(path): aggregation sidecar sample \(i) has an attestation but no method table")
        }
        columns.hasChecks = try reader.bytes(n, below: 2, "checks")
        for _ in columns.keys {
            columns.flags.append(try reader.bytes(n, below: 64, "candidate flags"))
            columns.family.append(try reader.bytes(n, below: max(1, columns.families.count), "family"))
            let bits: [UInt64] = try reader.integers(n)
            columns.score.append(bits.map(Double.init(bitPattern:)))
        }
        if !columns.keys.isEmpty && columns.families.isEmpty
            && columns.flags.contains(where: { $0.contains { $0 & Flag.present != 0 } })
        {
            throw RunError("\(path): aggregation sidecar has a candidate but no family table")
        }
        for _ in columns.checkKeys { columns.checks.append(try reader.bytes(n, below: 4, "metadata check")) }
        guard reader.offset == bytes.count else {
            throw RunError(
                "\(path): aggregation sidecar has \(bytes.count - reader.offset) bytes after its last column")
        }
        return columns
    }

    /// Reads the sidecar at `path` in one read and checks its SHA-256 against `sha256`.
    ///
    /// - Throws: `RunError` naming `path` when it is missing or unreadable, its SHA-256
    ///   differs from `sha256` (changed after it was written), or it does not parse.
    public static func read(path: String, sha256: String) throws(RunError) -> AggregationColumns {
        try readFile(path: path, sha256: sha256, field: "aggregation_sidecar_sha256", parse: parse)
    }

    /// Writes the sidecar into `folder`; returns its SHA-256.
    ///
    /// - Throws: `RunError` naming the file when it cannot be written.
    @discardableResult
    public func write(folder: String) throws(RunError) -> String {
        try Self.writeFile(encoded(), folder: folder, name: Self.fileName)
    }

    /// The file at `path` read in one read, its SHA-256 checked against `sha256` (the
    /// `results.json` field `field`), then parsed (the sidecar and the metric columns).
    static func readFile<T>(
        path: String, sha256: String, field: String,
        parse: (UnsafeRawBufferPointer, String) throws(RunError) -> T
    ) throws(RunError) -> T {
        let data = try RunResults.contents(of: path)
        let digest = SHA256Digest.hash(data)
        guard digest == sha256 else { throw digestMismatch(path: path, digest: digest, sha256: sha256, field: field) }
        let parsed = data.withUnsafeBytes { raw in Result { () throws(RunError) in try parse(raw, path) } }
        return try parsed.get()
    }

    /// The refusal of a column file at `path` whose SHA-256 `digest` is not `sha256`, the
    /// value of `results.json`'s `field`.
    static func digestMismatch(path: String, digest: String, sha256: String, field: String) -> RunError {
        RunError(
            "\(path): SHA-256 \(digest.prefix(12))… does not match results.json's \(field) \(sha256.prefix(12))… (changed after the run); re-run it"
        )
    }

    /// Writes `encoded` as the file `name` of `folder` (atomically, without copying the
    /// bytes: a large run's file is hundreds of MB); returns its SHA-256.
    static func writeFile(_ encoded: [UInt8], folder: String, name: String) throws(RunError) -> String {
        var encoded = encoded
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name)
        let written = encoded.withUnsafeMutableBytes { raw -> Result<String, RunError> in
            let bytes = Data(
                bytesNoCopy: raw.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!, count: raw.count,
                deallocator: .none)
            do { try bytes.write(to: path, options: .atomic) } catch {
                return .failure(RunError("\(path.path): cannot be written (\(error.localizedDescription))"))
            }
            return .success(SHA256Digest.hash(bytes))
        }
        return try written.get()
    }

    /// Bounds-checked little-endian reads.
    struct Reader {
        let bytes: UnsafeRawBufferPointer
        let path: String
        /// What the file is, in messages.
        let what: String
        var offset = 0

        init(bytes: UnsafeRawBufferPointer, path: String, what: String = "aggregation sidecar") {
            self.bytes = bytes
            self.path = path
            self.what = what
        }

        func truncated() -> RunError {
            RunError("\(path): \(what) truncated at byte \(offset) of \(bytes.count)")
        }

        mutating func integer<T: FixedWidthInteger>() throws(RunError) -> T {
            let size = MemoryLayout<T>.size
            guard bytes.count - offset >= size else { throw truncated() }
            let value = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
            offset += size
            return T(littleEndian: value)
        }

        mutating func integers<T: FixedWidthInteger>(_ n: Int) throws(RunError) -> [T] {
            let size = MemoryLayout<T>.size
            guard (bytes.count - offset) / size >= n else { throw truncated() }
            let base = bytes.baseAddress! + offset
            let values = [T](unsafeUninitializedCapacity: n) { buffer, initialized in
                if n > 0 { memcpy(buffer.baseAddress!, base, n * size) }
                initialized = n
            }
            offset += n * size
            return values.map { T(littleEndian: $0) }
        }

        mutating func bytes(_ n: Int, below limit: Int, _ what: String) throws(RunError) -> [UInt8] {
            let values: [UInt8] = try integers(n)
            if let bad = values.firstIndex(where: { Int($0) >= limit }) {
                throw RunError("\(path): \(self.what) has \(what) code \(values[bad]) at sample \(bad)")
            }
            return values
        }

        mutating func table() throws(RunError) -> [String] {
            let entries: UInt32 = try integer()
            guard Int(entries) <= (bytes.count - offset) / 4 else { throw truncated() }
            var table: [String] = []
            for _ in 0..<entries {
                let length: UInt32 = try integer()
                guard Int(length) <= bytes.count - offset else { throw truncated() }
                let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
                guard let text = String(validating: slice.bindMemory(to: UInt8.self), as: UTF8.self) else {
                    throw RunError("\(path): \(what) has a name that is not UTF-8 at byte \(offset)")
                }
                table.append(text)
                offset += Int(length)
            }
            return table
        }
    }
}
