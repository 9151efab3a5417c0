import Foundation
import RialDetection
import Testing

@testable import RialEval

/// The typed fields of `SampleRecord` keep the `samples.jsonl` strings of format
/// version 1, so lines written before and after read and re-encode alike.
@Suite struct SampleRecordTests {
    /// A manifest entry that could not be read, as `DatasetRunner` records it; the line is
    /// the one written when these fields were plain strings.
    @Test func failedRecordLineIsUnchanged() throws {
        let record = DatasetRunner.failedRecord(
            id: "samples[2]", item: .init(datasetIndex: 1, index: 2), dataset: "d",
            stage: .manifest, reason: "no image")
        let line =
            #"{"attestation":"none","bona_fide":false,"data":"unknown","dataset":"d","dataset_index":1,"#
            + #""failure":{"reason":"no image","stage":"manifest"},"id":"samples[2]","index":2,"label":"unknown","#
            + #""latency_ms":{},"methods":{},"sha256":{},"split":"test","status":"failed","tags":[]}"#
        #expect(record.jsonLine() == line)
        #expect(try JSONDecoder().decode(SampleRecord.self, from: Data(line.utf8)) == record)
    }

    /// Every raw value of the typed fields, read back from a line as written by a run.
    @Test func evaluatedRecordDecodesEveryTypedField() throws {
        let line =
            #"{"attestation":"secure_enclave","bona_fide":true,"data":"simulated","dataset":"d","#
            + #""dataset_index":0,"decision":"bona_fide","id":"a","index":0,"label":"real_scene","latency_ms":{},"#
            + #""methods":{},"sha256":{},"split":"val","status":"evaluated","tags":["synthetic"]}"#
        let record = try JSONDecoder().decode(SampleRecord.self, from: Data(line.utf8))
        #expect(record.label == .known(.realScene) && record.attestation == .secureEnclave)
        #expect(record.data == .simulated && record.split == .val && record.status == .evaluated)
        #expect(record.decision == .bonaFide)
        #expect(record.jsonLine() == line)
    }

    @Test func rawValuesAreTheFormatStrings() {
        #expect(
            SampleRecord.Label.allRawValues == [
                "real_scene", "lcd_screen", "oled_screen", "screen", "printed_paper",
                "unknown",
            ])
        #expect(SampleRecord.DataKind.allCases.map(\.rawValue) == ["real", "simulated", "unknown"])
        #expect(SampleRecord.Status.allCases.map(\.rawValue) == ["evaluated", "failed"])
        #expect(SampleRecord.Decision.allCases.map(\.rawValue) == ["bona_fide", "attack"])
        #expect(SampleRecord.Failure.Stage.allCases.map(\.rawValue) == ["manifest", "resolve", "load", "analyze"])
        #expect(SampleRecord.Label(rawValue: "tv") == nil)
    }

    /// A label that is not in the format is a decoding error naming the record, not a crash.
    @Test func unknownLabelStringIsRefused() throws {
        let path = try Fixtures.makeTemporaryFolder("sample-record").appendingPathComponent("samples.jsonl").path
        let line =
            #"{"attestation":"none","bona_fide":false,"data":"real","dataset":"d","dataset_index":0,"id":"a","#
            + #""index":0,"label":"tv","latency_ms":{},"methods":{},"sha256":{},"split":"test","status":"evaluated","#
            + #""tags":[]}"#
        try Data(line.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: RunError.self) { try SampleRecord.readLines(path: path) }
    }
}

extension SampleRecord.Label {
    /// Raw values of every label a record can carry, in `SampleLabel` order then `unknown`.
    static var allRawValues: [String] { SampleLabel.allCases.map { Self.known($0).rawValue } + [Self.unknown.rawValue] }
}
