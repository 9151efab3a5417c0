import Foundation
import RialCodecs
import RialMedia
import Testing

@testable import RialEval

/// Run folders are atomic and self-checking: tampered or truncated files, folders that
/// are not run folders, and incomplete or duplicated shard sets are refused.
@Suite struct RunFolderFaultTests {
    /// Writes a complete run folder of `records` (optionally as shard `shard`) into `folder`
    /// through a staging folder, as `run` does.
    static func writeRun(_ records: [SampleRecord], to folder: String, shard: RunShard? = nil) throws {
        let staging = try RunFolderStaging(destination: folder)
        let lines = records.map { $0.jsonLine() + "\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: staging.path).appendingPathComponent("samples.jsonl"))
        var results = HTMLReportFixtures.results(records)
        results.shard = shard
        try RunOutput.writeResultsAndReports(results: results, records: records, folder: staging.path)
        try staging.commit()
    }

    static func refusal(_ body: () throws(RunError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch { return error.description }
    }

    static let records = Array(HTMLReportFixtures.records().prefix(12))

    @Test func resultsRecordTheDigestOfTheirSamples() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-folder").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: folder)
        let results = try RunOutput.verifiedResults(folder: folder)
        #expect(results.samplesLines == Self.records.count)
        let samples = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/samples.jsonl"))
        #expect(results.samplesSHA256 == SHA256Digest.hash(samples))
        let json = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(folder)/results.json")))
        #expect(json["samples_lines"] == .number(Double(Self.records.count)))
        #expect(json["samples_sha256"]?.stringValue?.count == 64)
    }

    /// Every single-byte change, truncation or appended line of samples.jsonl is refused.
    @Test func tamperedSamplesAreRefused() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-tamper").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: folder)
        let path = URL(fileURLWithPath: "\(folder)/samples.jsonl")
        let original = try Data(contentsOf: path)
        var variants = Mutations.corruptions(of: original, count: 150, maxFlips: 3, seed: 17).filter { $0 != original }
        variants += Mutations.truncations(of: original, count: 40)
        variants.append(original + Data("{\"id\":\"extra\"}\n".utf8))
        variants.append(original + original)
        var silent = 0
        for variant in variants {
            try variant.write(to: path)
            let message = Self.refusal { () throws(RunError) in _ = try RunOutput.verifiedResults(folder: folder) }
            if message == nil { silent += 1 }
            #expect(message?.contains("samples.jsonl") ?? false, "\(message ?? "accepted")")
        }
        try FileManager.default.removeItem(at: path)
        let missing = Self.refusal { () throws(RunError) in _ = try RunOutput.verifiedResults(folder: folder) }
        #expect(missing?.contains("samples.jsonl: no such file") ?? false)
        #expect(silent == 0, "\(variants.count) cases tried")
    }

    @Test func truncatedResultsAreRefused() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-truncated").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: folder)
        let path = URL(fileURLWithPath: "\(folder)/results.json")
        let original = try Data(contentsOf: path)
        for variant in Mutations.truncations(of: original, count: 60) {
            try variant.write(to: path)
            let message = Self.refusal { () throws(RunError) in _ = try RunOutput.verifiedResults(folder: folder) }
            #expect(message?.contains("results.json") ?? false, "\(variant.count) bytes: \(message ?? "accepted")")
        }
    }

    /// A results.json of an older rial-bench (no digest) is refused in a folder with a
    /// message that says to re-run; the committed baseline still reads as a baseline.
    @Test func foldersWithoutDigestAreRefusedButBaselinesRead() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-old").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: folder)
        let path = URL(fileURLWithPath: "\(folder)/results.json")
        var object = try JSONValue.parse(Data(contentsOf: path)).objectValue!
        object["samples_sha256"] = nil
        object["samples_lines"] = nil
        try JSONValue.object(object).serializedData().write(to: path)
        let message = Self.refusal { () throws(RunError) in _ = try RunOutput.verifiedResults(folder: folder) }
        #expect(message?.contains("older rial-bench") ?? false)
        #expect(message?.contains("re-run") ?? false)

        // The same results.json without a digest still reads as a baseline (a gate's
        // --baseline is a results.json, not a run folder), as does the committed one.
        let old = try RunResults.read(path: path.path)
        #expect(old.samplesSHA256 == nil)
        #expect(old.metrics["aggregate"] != nil)
        let baseline = Fixtures.packageRoot.appendingPathComponent("reports/baseline.json").path
        #expect(try RunResults.read(path: baseline).metrics["aggregate"] != nil)
    }

    @Test func foldersThatAreNotRunFoldersAreNotOverwritten() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-not-run")
        let notes = parent.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: false)
        try Data("keep me".utf8).write(to: notes.appendingPathComponent("todo.txt"))
        let file = parent.appendingPathComponent("file").path
        try Data("plain".utf8).write(to: URL(fileURLWithPath: file))
        let foreign = parent.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
        try Data(#"{"schema": "something-else/1"}"#.utf8).write(to: foreign.appendingPathComponent("results.json"))
        for target in [notes.path, file, foreign.path] {
            let message = Self.refusal { () throws(RunError) in _ = try RunFolderStaging(destination: target) }
            #expect(message?.hasPrefix(target) ?? false, "\(message ?? "accepted")")
        }
        #expect(try String(contentsOf: notes.appendingPathComponent("todo.txt"), encoding: .utf8) == "keep me")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "plain")
        // No staging folder is left behind by a refusal.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == ["file", "foreign", "notes"])
    }

    /// A run over an earlier run replaces the whole folder: nothing of the earlier run survives.
    @Test func aNewRunReplacesTheWholeFolder() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-replace")
        let folder = parent.appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: folder)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: "\(folder)/stale-method.svg"))
        let fewer = Array(Self.records.prefix(5))
        try Self.writeRun(fewer, to: folder)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/stale-method.svg"))
        #expect(try RunOutput.verifiedResults(folder: folder).samplesLines == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["run"])
    }

    /// A staging folder that is never committed (a killed run) leaves the earlier run as it
    /// was, and the next run to the same folder removes it once its process is gone.
    @Test func anUncommittedRunLeavesTheEarlierRun() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-uncommitted")
        let folder = parent.appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/results.json"))
        let staging = try RunFolderStaging(destination: folder)
        try Data("{\"partial\n".utf8).write(
            to: URL(fileURLWithPath: staging.path).appendingPathComponent("samples.jsonl"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/results.json")) == before)
        #expect(try RunOutput.verifiedResults(folder: folder).samplesLines == Self.records.count)
        // Abandoned by a process that no longer exists (pid 2^22 + 1 is above Linux's pid_max).
        let abandoned = parent.appendingPathComponent(".run.partial-4194305-1")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: false)
        staging.discard()
        try Self.writeRun(Self.records, to: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["run"])
    }

    static func shards(_ count: Int) throws -> [Int: String] {
        let parent = try Fixtures.makeTemporaryFolder("rial-shards")
        var folders: [Int: String] = [:]
        for index in 1...count {
            let folder = parent.appendingPathComponent("shard\(index)").path
            let part = Self.records.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
            try writeRun(part, to: folder, shard: RunShard(index: index, count: count))
            folders[index] = folder
        }
        return folders
    }

    @Test func mergeRecordsEachShardAndRefusesIncompleteSets() throws {
        let folders = try Self.shards(3)
        let merged = try RunMerger.merge(folders: [folders[2]!, folders[1]!, folders[3]!], toolVersion: "test")
        #expect(merged.records.map(\.index) == Self.records.map(\.index))
        #expect(merged.results.mergedShards?.map(\.label) == ["1/3", "2/3", "3/3"])
        #expect(merged.results.mergedShards?.allSatisfy { $0.samplesSHA256?.count == 64 } ?? false)
        #expect(merged.results.shard == nil)

        func refusal(_ list: [String]) -> String? {
            Self.refusal { () throws(RunError) in _ = try RunMerger.merge(folders: list, toolVersion: "test") }
        }
        #expect(refusal([folders[1]!, folders[3]!])?.contains("2/3 missing") ?? false)
        #expect(refusal([folders[1]!])?.contains("2/3, 3/3 missing") ?? false)
        #expect(refusal([folders[1]!, folders[2]!, folders[2]!, folders[3]!])?.contains("2/3 is given twice") ?? false)
        let other = try Self.shards(2)
        #expect(refusal([folders[1]!, other[2]!, folders[3]!])?.contains("different split") ?? false)

        let whole = try Fixtures.makeTemporaryFolder("rial-whole").appendingPathComponent("run").path
        try Self.writeRun(Self.records, to: whole)
        #expect(refusal([whole])?.contains("not a shard run folder") ?? false)

        // A shard whose samples changed after its run is refused before anything is merged.
        let samples = URL(fileURLWithPath: "\(folders[2]!)/samples.jsonl")
        try (try Data(contentsOf: samples)).dropLast(5).write(to: samples)
        #expect(refusal([folders[1]!, folders[2]!, folders[3]!])?.contains("samples.jsonl") ?? false)
    }
}
