import Foundation
import Testing

/// `train texture --features-out` writes sample ids and manifest paths with the same CSV
/// escaping as the run's CSV files (`CSVExport.text`): a cell that starts with `=`, `+`,
/// `-` or `@` gets a leading `'`, and a carriage return is quoted (issue 17, item 7).
@Suite struct FeaturesCSVEscapingCLITests {
    @Test func featureTableCellsStartNoFormula() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-features-csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = dir.appendingPathComponent("set")
        let synth = try CLIRunner.run([
            "synth", "--out", set.path, "--count", "6", "--width", "160", "--height", "128", "--seed", "3",
            "--procedural-only",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        let manifestURL = set.appendingPathComponent("manifest.json")
        var manifest = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var samples = try #require(manifest["samples"] as? [[String: Any]])
        let hostile = ["=cmd|' /C calc'!A0", "+1\rnext", "-2", "@SUM(A1)"]
        for i in samples.indices {
            samples[i]["split"] = i < 2 ? "val" : "train"
            if i < hostile.count { samples[i]["id"] = hostile[i] }
        }
        manifest["samples"] = samples
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)

        let features = dir.appendingPathComponent("out/features.csv").path
        let run = try CLIRunner.run([
            "train", "texture", "--dataset", manifestURL.path, "--out", dir.appendingPathComponent("model.json").path,
            "--seed", "5", "--jobs", "2", "--features-out", features,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let csv = try String(contentsOfFile: features, encoding: .utf8)
        // A bare carriage return would end the record for RFC 4180 readers.
        let records = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(records.count == samples.count + 1, "\(csv.debugDescription)")
        for record in records.dropFirst() {
            let cells = record.prefix(2)
            for cell in cells {
                let text = cell.hasPrefix("\"") ? cell.dropFirst() : cell
                #expect(!(text.first.map { "=+-@".contains($0) } ?? false), "\(record)")
            }
        }
        #expect(csv.contains(",'=cmd|' /C calc'!A0,"), "\(csv)")
        #expect(csv.contains(",\"'+1\rnext\","), "\(csv.debugDescription)")
    }
}
