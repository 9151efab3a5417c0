import Foundation
import Testing

/// `methodology --from DIR` reads a run folder as `report`, `compare`, `gate` and `rescore`
/// do: a `samples.jsonl` that does not match the digest `results.json` records (or a
/// `results.json` that records none) is refused with exit 65 and one line naming the file,
/// and no report is written.
@Suite(.serialized) struct MethodologyFolderCLITests {
    static let dataset: String = {
        let folder =
            (try? Fixtures.makeTemporaryFolder("rial-cli-methodology")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        _ = try? CLIRunner.run([
            "synth", "--out", folder.path, "--count", "4", "--width", "256", "--height", "192", "--seed", "11",
        ])
        return folder.appendingPathComponent("manifest.json").path
    }()

    /// A fresh run of 4 samples in a new folder; returns the run folder.
    static func freshRun(_ label: String) throws -> URL {
        let out = try Fixtures.makeTemporaryFolder(label).appendingPathComponent("run")
        let outcome = try CLIRunner.run([
            "run", "--dataset", dataset, "--out", out.path, "--limit", "4", "--resamples", "10",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return out
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case lastLineDropped, lineAppended, byteChanged, samplesRemoved, samplesEmptied, digestRemoved
        var testDescription: String { rawValue }
    }

    /// The damage done to `folder`, and the part of the one-line message that names it.
    static func apply(_ damage: Damage, to folder: URL) throws -> String {
        let samples = folder.appendingPathComponent("samples.jsonl")
        let text = try String(contentsOf: samples, encoding: .utf8)
        let lines = text.split(separator: "\n")
        switch damage {
        case .lastLineDropped:
            try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: samples)
            return "\(samples.path): 3 lines but results.json was computed from 4"
        case .lineAppended:
            try Data((text + lines[0] + "\n").utf8).write(to: samples)
            return "\(samples.path): 5 lines but results.json was computed from 4"
        case .byteChanged:
            var data = Data(text.utf8)
            let index = data.firstIndex(of: UInt8(ascii: ":"))!
            data[index + 1] = data[index + 1] == UInt8(ascii: " ") ? UInt8(ascii: "\t") : UInt8(ascii: " ")
            try data.write(to: samples)
            return "does not match results.json's"
        case .samplesRemoved:
            try FileManager.default.removeItem(at: samples)
            return "\(samples.path): no such file"
        case .samplesEmptied:
            try Data().write(to: samples)
            return "\(samples.path): 0 lines but results.json was computed from 4"
        case .digestRemoved:
            let resultsURL = folder.appendingPathComponent("results.json")
            var object = try #require(
                JSONSerialization.jsonObject(with: Data(contentsOf: resultsURL)) as? [String: Any])
            object["samples_sha256"] = nil
            object["samples_lines"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: resultsURL)
            return "\(resultsURL.path): records no samples_sha256/samples_lines"
        }
    }

    @Test(arguments: Damage.allCases)
    func aFolderWhoseFilesDoNotMatchIsRefused(_ damage: Damage) throws {
        let out = try Self.freshRun("rial-methodology-\(damage.rawValue)")
        let expected = try Self.apply(damage, to: out)
        let report = out.deletingLastPathComponent().appendingPathComponent("reports/methodology.md")
        let outcome = try CLIRunner.run(["methodology", "--from", out.path, "--out", report.path])
        #expect(outcome.status == 65, "\(damage): \(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(expected), "\(damage): \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(damage): \(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: report.path), "\(damage)")
        #expect(!FileManager.default.fileExists(atPath: report.deletingPathExtension().path + ".html"), "\(damage)")
    }

    /// An intact run folder still gives its report (the check refuses only what does not match).
    @Test func anIntactFolderIsReported() throws {
        let out = try Self.freshRun("rial-methodology-intact")
        let report = out.deletingLastPathComponent().appendingPathComponent("methodology.md")
        let outcome = try CLIRunner.run(["methodology", "--from", out.path, "--out", report.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: report.path))
    }
}
