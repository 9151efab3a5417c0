import Foundation
import RialCodecs
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The metric columns (`metric-columns.bin`, docs/aggregation-sidecar.md "The metric
/// columns"): its bytes follow the format page, it carries what metrics and reports read of
/// every record, and damaged files are refused naming the file.
@Suite struct MetricColumnsTests {
    /// The example of docs/aggregation-sidecar.md ("The metric columns", "Example"), byte for byte.
    static var documentedExample: [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        func table(_ entries: [String]) -> [UInt8] {
            u32(UInt32(entries.count)) + entries.flatMap { u32(UInt32($0.utf8.count)) + Array($0.utf8) }
        }
        var bytes = Array("RBMETCOL".utf8) + u32(1) + u32(0) + [1, 0, 0, 0, 0, 0, 0, 0]
        bytes += table(["aggregate"]) + table(["d"]) + table(["t"]) + table(["secure_enclave"]) + table(["x"])
        bytes += [0x00, 0x00] + [0x00] + [0, 0, 0, 0, 1, 0, 0, 0] + [0x00, 0x00]
        bytes += [0x01] + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE0, 0x3F]
        return bytes
    }

    /// The example's sample as a record: aggregate ranking score 0.5.
    static var documentedRecord: SampleRecord {
        var record = AggregationSidecarTests.documentedRecord
        record.tags = ["t"]
        record.aggregate = .init(
            score: 0.5, level: .medium, flags: [], uncappedScore: 0.5, rankingScore: 0.5, weights: [.lidar: 1],
            primaryMethod: "depth/2")
        return record
    }

    static func parse(_ bytes: [UInt8], path: String = "run/metric-columns.bin") throws(RunError) -> MetricColumns {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(RunError) in try MetricColumns.parse(raw, path: path) }
        }.get()
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        do { _ = try parse(bytes) } catch { return error.description }
        return nil
    }

    /// docs/aggregation-sidecar.md, metric columns "Example": 112 bytes, read back as the
    /// sample the page describes; writing that sample gives the same bytes.
    @Test func theDocumentedExampleReadsAndWritesByteForByte() throws {
        let bytes = Self.documentedExample
        #expect(bytes.count == 112) // docs/aggregation-sidecar.md: "is 112 bytes"
        let columns = try Self.parse(bytes)
        #expect(columns.count == 1)
        #expect(columns.ids == ["x"])
        #expect(columns.datasets[Int(columns.dataset[0])] == "d")
        #expect(columns.attestations[Int(columns.attestation[0])] == "secure_enclave")
        #expect(columns.tags(at: 0) == ["t"])
        #expect(columns.score(0, at: 0) == 0.5)
        #expect(MetricColumns(records: [Self.documentedRecord], keys: ["aggregate"]).encoded() == bytes)
    }

    /// Records with and without tags, scores, companions and failures come back with every
    /// key's score as `SampleRecord.score(_:)` reads it.
    @Test func recordsRoundTrip() throws {
        var records = AggregationSidecarTests.varied
        records[0].tags = ["a", "b"]
        records[2].tags = ["b"]
        records[3].attestation = .tee
        records[4].methods["depth/1"] = .object(["status": .string("completed"), "score": 1, "margin": 0.25])
        let keys = ["depth/1", "depth/1:margin", "moire/1", "texture/1", "aggregate", "absent/1"]
        let columns = MetricColumns(records: records, keys: keys)
        let parsed = try Self.parse(columns.encoded())
        #expect(parsed == columns)
        var scored = 0
        for (i, record) in records.enumerated() {
            #expect(parsed.ids[i] == record.id)
            #expect(parsed.datasets[Int(parsed.dataset[i])] == record.dataset)
            #expect(parsed.attestations[Int(parsed.attestation[i])] == record.attestation.rawValue)
            #expect(parsed.tags(at: i) == record.tags)
            for (k, key) in keys.enumerated() {
                #expect(parsed.score(k, at: i) == record.score(key), "\(i) \(key)")
                if record.score(key) != nil { scored += 1 }
            }
        }
        #expect(parsed.score(1, at: 4) == 0.25)
        #expect(scored > records.count) // the test is not vacuous
    }

    /// Every truncation is refused with one line naming the file, and so are trailing bytes.
    @Test func truncatedFilesAreRefused() {
        ColumnFileFuzz.truncationsAreRefused(Self.fuzzed, path: "run/metric-columns.bin") { Self.refusal($0) }
    }

    /// Random bytes and random changes of a valid file never crash: each is refused naming
    /// the file in one line, or reads as a file of the same layout.
    @Test func randomBytesAndCorruptionsAreRefusedOrRead() {
        let refused = ColumnFileFuzz.randomBytesAreRefusedOrRead(
            valid: Self.fuzzed, magic: "RBMETCOL", path: "run/metric-columns.bin", seed: 5
        ) { Self.refusal($0) }
        #expect(refused > 200)
    }

    /// The valid file the fuzz tests start from: varied records, one with tags.
    static var fuzzed: [UInt8] {
        var records = AggregationSidecarTests.varied
        records[0].tags = ["a", "b"]
        return MetricColumns(records: records, keys: ["moire/1", "aggregate"]).encoded()
    }

    @Test func anotherVersionOrHeaderIsRefusedNamingIt() {
        var bytes = Self.documentedExample
        bytes[8] = 2
        #expect(
            Self.refusal(bytes)?.hasPrefix(
                "run/metric-columns.bin: metric columns file version 2, this rial-bench reads version 1") == true)
        var header = Self.documentedExample
        header[0] = UInt8(ascii: "X")
        #expect(Self.refusal(header)?.contains("not a rial-bench metric columns file") == true)
        var ids = Self.documentedExample
        ids[16] = 2 // two samples, one id
        #expect(Self.refusal(ids) != nil)
    }

    /// A run folder records the file's SHA-256 and its columns equal its records'; a
    /// changed or missing file is refused by the folder check, naming the file.
    @Test func aRunFolderVerifiesItsMetricColumns() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-metric-columns").appendingPathComponent("run").path
        let records = RunFolderFaultTests.records
        try RunFolderFaultTests.writeRun(records, to: folder)
        let results = try RunOutput.verifiedResults(folder: folder)
        let path = "\(folder)/\(MetricColumns.fileName)"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(results.metricColumnsSHA256 == SHA256Digest.hash(bytes))
        let read = try MetricColumns.read(path: path, sha256: results.metricColumnsSHA256 ?? "")
        #expect(read == MetricColumns(records: records, keys: results.methods))
        #expect(read.keys.last == "aggregate")

        var changed = bytes
        changed[changed.count - 1] ^= 0x01
        try changed.write(to: URL(fileURLWithPath: path))
        let message = RunFolderFaultTests.refusal { () throws(RunError) in
            _ = try RunOutput.verifiedResults(folder: folder)
        }
        #expect(message?.hasPrefix("\(path): SHA-256 ") == true, "\(message ?? "accepted")")
        try FileManager.default.removeItem(atPath: path)
        let missing = RunFolderFaultTests.refusal { () throws(RunError) in
            _ = try RunOutput.verifiedResults(folder: folder)
        }
        #expect(missing == "\(path): no such file")
    }
}
