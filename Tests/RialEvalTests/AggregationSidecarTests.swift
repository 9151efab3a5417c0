import Foundation
import RialCodecs
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The aggregation sidecar (`aggregation-inputs.bin`, docs/aggregation-sidecar.md): its
/// bytes follow the format page, it carries every record's aggregation inputs, a rescore
/// from it gives the records' aggregate, and damaged files are refused naming the file.
@Suite struct AggregationSidecarTests {
    /// The example of docs/aggregation-sidecar.md ("Example"), byte for byte.
    static var documentedExample: [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        func table(_ entries: [String]) -> [UInt8] {
            u32(UInt32(entries.count)) + entries.flatMap { u32(UInt32($0.utf8.count)) + Array($0.utf8) }
        }
        var bytes = Array("RBAGGCOL".utf8) + u32(1) + u32(0) + [1, 0, 0, 0, 0, 0, 0, 0]
        bytes += table(["depth/2"]) + table([]) + table(["real_scene"]) + table(["g"]) + table(["depth"])
        bytes += table(["secure_enclave"]) + table(["real"])
        bytes += [0x00, 0x01, 0x00] + [0x00, 0x00] + [0x00, 0x00, 0x00, 0x00] + [0x01, 0x00, 0x01, 0x00, 0x00]
        bytes += [0x07, 0x00] + [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE0, 0x3F]
        return bytes
    }

    /// The example's sample as a record.
    static var documentedRecord: SampleRecord {
        SampleRecord(
            id: "x", datasetIndex: 0, index: 0, dataset: "d", label: .known(.realScene), bonaFide: true, group: "g",
            tags: [], attestation: .secureEnclave, split: .test, data: .real, status: .evaluated, failure: nil,
            methods: [:], aggregate: nil, decision: nil,
            aggregationInputs: ["depth/2": .init(family: .depth, source: .computed, available: true, score: 0.5)],
            attestationEvidence: .init(status: .pass, method: .secureEnclave), latencyMs: [:], sha256: [:])
    }

    /// docs/aggregation-sidecar.md "Example": 141 bytes, and they read back as the sample
    /// the page describes; writing that sample gives the same bytes.
    @Test func theDocumentedExampleReadsAndWritesByteForByte() throws {
        let bytes = Self.documentedExample
        #expect(bytes.count == 141) // docs/aggregation-sidecar.md: "is 141 bytes"
        let columns = try bytes.withUnsafeBytes { raw in
            Result { () throws(RunError) in try AggregationColumns.parse(raw, path: "example.bin") }
        }.get()
        #expect(columns.count == 1)
        let inputs = columns.inputs(at: 0)
        #expect(inputs.candidates == ["depth/2": .init(family: .depth, source: .computed, available: true, score: 0.5)])
        #expect(inputs.attestation == AttestationEvidence(status: .pass, method: .secureEnclave))
        #expect(inputs.checks == nil)
        #expect(columns.labels[Int(columns.label[0])] == "real_scene")
        #expect(columns.groups[Int(columns.group[0])] == "g")
        #expect(AggregationColumns(records: [Self.documentedRecord]).encoded() == bytes)
    }

    /// Records with every kind of input (failed, payload, no score, detections, metadata
    /// checks, no group, no attestation) come back unchanged.
    static var varied: [SampleRecord] {
        var random = SplitMix64(seed: 3)
        var records = (0..<24).map { RescoreBenchmark.template($0, fieldsPerMethod: 0, random: &random) }
        records[1].status = .failed
        records[1].aggregationInputs = nil
        records[1].attestationEvidence = nil
        records[2].metadataChecks = ["metadata.timestamp": .fail, "metadata.model": .pass]
        records[3].metadataChecks = [:]
        records[4].group = nil
        records[5].aggregationInputs?["moire/1"] = .init(
            family: .moire, source: .payload, available: true, score: nil, screenDetected: true, printDetected: true)
        records[6].attestationEvidence = .init(status: .fail, method: .tee)
        records[7].aggregationInputs?["depth/2"]?.score = -.infinity
        records[8].label = .unknown
        records[8].data = .unknown
        return records
    }

    @Test func recordsRoundTrip() throws {
        let records = Self.varied
        let columns = AggregationColumns(records: records)
        let parsed = try columns.encoded().withUnsafeBytes { raw in
            Result { () throws(RunError) in try AggregationColumns.parse(raw, path: "x.bin") }
        }.get()
        #expect(parsed == columns)
        // The bytes do not depend on dictionary order: the records read back from their
        // JSON lines (new dictionaries) give the same file.
        let decoder = SampleRecordLine.videoDecoder
        let reread = try records.map { try decoder.decode(SampleRecord.self, from: Data($0.jsonLine().utf8)) }
        #expect(AggregationColumns(records: reread).encoded() == columns.encoded())
        for (i, record) in records.enumerated() {
            let inputs = parsed.inputs(at: i)
            #expect(inputs.candidates == record.aggregationInputs, "\(i)")
            #expect(inputs.attestation == record.attestationEvidence, "\(i)")
            #expect(inputs.checks == record.metadataChecks, "\(i)")
            #expect(parsed.status[i] == (record.status == .evaluated ? 0 : 1))
            #expect(parsed.bonaFide[i] == (record.bonaFide ? 1 : 0))
            #expect(parsed.labels[Int(parsed.label[i])] == record.label.rawValue)
            #expect(parsed.dataKinds[Int(parsed.data[i])] == record.data.rawValue)
            #expect(
                (parsed.group[i] == AggregationColumns.noGroup ? nil : parsed.groups[Int(parsed.group[i])])
                    == record.group)
        }
    }

    /// Aggregating a sidecar's columns gives what `Rescorer.rescore` writes into the records
    /// (the runner's own records and the varied ones), under another configuration.
    @Test func aggregatingTheColumnsEqualsRescoringTheRecords() throws {
        let records = RescorerTests.records + Self.varied
        #expect(RescorerTests.records.count == 8)
        let rescorer = try Rescorer(configuration: RescoreBenchmark.configuration)
        let columns = AggregationColumns(records: records)
        let all = rescorer.aggregateAll(columns, jobs: 2)
        for (i, record) in records.enumerated() {
            let rescored = rescorer.rescore(record)
            #expect(all[i]?.aggregate == (record.status == .evaluated ? rescored.aggregate : nil), "\(i)")
            #expect(all[i]?.decision == (record.status == .evaluated ? rescored.decision : nil), "\(i)")
        }
    }

    /// bench-rescore's run folder: its sidecar equals the columns of its samples.jsonl
    /// records, and with distinct scores every line's method scores are its own (the same
    /// in `methods` and `aggregation_inputs`), where the templates repeat after 1,000 lines.
    /// With `groups` (bench-rescore --groups), line i is in group `g(i mod groups)`, in its
    /// record and in the sidecar alike.
    @Test func theBenchmarkRunsSidecarMatchesItsRecords() throws {
        for (distinct, groups) in [(false, nil), (true, nil), (true, 7)] as [(Bool, Int?)] {
            let folder = try Fixtures.makeTemporaryFolder("rial-bench-sidecar").appendingPathComponent("run").path
            try RescoreBenchmark.writeRun(
                folder: folder, samples: 1_200, fieldsPerMethod: 0, resamples: 0, distinctScores: distinct,
                groups: groups)
            let results = try RunOutput.verifiedResults(folder: folder)
            let records = try SampleRecord.readLines(path: "\(folder)/samples.jsonl")
            let columns = try AggregationColumns.read(
                path: "\(folder)/\(AggregationColumns.fileName)", sha256: results.aggregationSidecarSHA256 ?? "")
            #expect(columns == AggregationColumns(records: records))
            if let groups {
                #expect(records.enumerated().allSatisfy { $0.element.group == "g\($0.offset % groups)" })
                #expect(Set(columns.groups) == Set((0..<groups).map { "g\($0)" }))
            }
            let metricColumns = try MetricColumns.read(
                path: "\(folder)/\(MetricColumns.fileName)", sha256: results.metricColumnsSHA256 ?? "")
            #expect(metricColumns == MetricColumns(records: records, keys: results.methods))
            var scores = Set<Double>()
            for record in records {
                for (key, candidate) in record.aggregationInputs ?? [:] {
                    #expect(record.score(key) == (candidate.available ? candidate.score : nil))
                    if let score = candidate.score, key == "moire/1" { scores.insert(score) }
                }
            }
            // moire/1 completes on about 90% of lines (RescoreBenchmark.template): with
            // templates at most 1,000 values, distinct about 1,080.
            #expect(distinct ? scores.count > 1_000 : scores.count <= 1_000)
        }
    }

    static func refusal(_ bytes: [UInt8], path: String = "run/aggregation-inputs.bin") -> String? {
        let parsed = bytes.withUnsafeBytes { raw in
            Result { () throws(RunError) in try AggregationColumns.parse(raw, path: path) }
        }
        if case .failure(let error) = parsed { return error.description }
        return nil
    }

    /// Every truncation is refused with one line naming the file.
    @Test func truncatedFilesAreRefused() {
        ColumnFileFuzz.truncationsAreRefused(
            AggregationColumns(records: Self.varied).encoded(), path: "run/aggregation-inputs.bin"
        ) { Self.refusal($0) }
    }

    /// Random bytes, and random changes of a valid file, never crash: each is refused
    /// naming the file or reads as a file of the same layout.
    @Test func randomBytesAndCorruptionsAreRefusedOrRead() {
        let refused = ColumnFileFuzz.randomBytesAreRefusedOrRead(
            valid: AggregationColumns(records: Self.varied).encoded(), magic: "RBAGGCOL",
            path: "run/aggregation-inputs.bin", seed: 11
        ) { Self.refusal($0) }
        #expect(refused >= 200) // not vacuous: at least the random files
    }

    @Test func anotherVersionIsRefusedNamingIt() {
        var bytes = Self.documentedExample
        bytes[8] = 2
        #expect(
            Self.refusal(bytes)?.hasPrefix(
                "run/aggregation-inputs.bin: aggregation sidecar version 2, this rial-bench reads version 1") == true)
        var header = Self.documentedExample
        header[0] = UInt8(ascii: "X")
        #expect(Self.refusal(header)?.contains("not a rial-bench aggregation sidecar") == true)
    }

    /// A run folder records the sidecar's SHA-256; a changed or missing sidecar is refused
    /// by the folder check and by the reader, naming the file.
    @Test func aRunFolderVerifiesItsSidecar() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-sidecar").appendingPathComponent("run").path
        let records = RunFolderFaultTests.records
        try RunFolderFaultTests.writeRun(records, to: folder)
        let results = try RunOutput.verifiedResults(folder: folder)
        let path = "\(folder)/\(AggregationColumns.fileName)"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(results.aggregationSidecarSHA256 == SHA256Digest.hash(bytes))
        let read = try AggregationColumns.read(path: path, sha256: results.aggregationSidecarSHA256 ?? "")
        #expect(read == AggregationColumns(records: records))

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
