import Foundation
import Testing

/// `train texture --hold-out source` and `--config` naming a model file, through the binary.
@Suite struct LearnedModelCLITests {
    /// Eight tiny captures, tagged with two sources (four each, two groups of two per
    /// source; the generic `screen` label on the first LCD): leave-one-source-out prints
    /// one row per source and records two folds; the model then scores through
    /// `analyze --config`, which names it.
    @Test func leaveOneSourceOutThenAnalyzeWithTheModel() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-learned")
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = dir.appendingPathComponent("set")
        let synth = try CLIRunner.run([
            "synth", "--out", set.path, "--count", "8", "--width", "160", "--height", "128",
            "--seed", "4", "--procedural-only",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        let manifestURL = set.appendingPathComponent("manifest.json")
        var manifest = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var samples = try #require(manifest["samples"] as? [[String: Any]])
        for i in samples.indices {
            // Classes go round-robin (real, LCD, OLED, print): each source has all four.
            let source = i < 4 ? "alpha/one" : "beta/two"
            samples[i]["tags"] = ["source:\(source)"]
            samples[i]["group"] = "\(source)/g\(i / 2)"
            samples[i]["split"] = i == 7 ? "val" : "train"
        }
        if let k = samples.indices.first(where: { samples[$0]["label"] as? String == "lcd_screen" }) {
            samples[k]["label"] = "screen"
        }
        manifest["samples"] = samples
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)

        let modelPath = dir.appendingPathComponent("models/m.json").path
        let train = try CLIRunner.run([
            "train", "texture", "--dataset", manifestURL.path, "--out", modelPath, "--hold-out", "source",
            "--screen-class", "lcd_screen", "--model-id", "texture-loso", "--jobs", "2",
        ])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("leave one source out"))
        let rows = train.stdout.split(separator: "\n").filter { $0.hasPrefix("alpha/one") || $0.hasPrefix("beta/two") }
        // One row per source in the accuracy table and in the AUC / APCER table.
        #expect(rows.count == 4, "\(train.stdout)")
        #expect(train.stdout.contains("held-out AUC and APCER at BPCER 5%"))
        let model = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: modelPath))) as? [String: Any])
        let provenance = try #require(model["provenance"] as? [String: Any])
        let cv = try #require(provenance["cross_validation"] as? [String: Any])
        #expect(cv["by"] as? String == "source")
        let folds = try #require(cv["folds"] as? [[String: Any]])
        #expect(folds.map { $0["held_out"] as? String } == ["alpha/one", "beta/two"])
        #expect(folds.map { $0["held_out_count"] as? Int } == [4, 4])
        #expect(provenance["train_splits"] as? [String] == ["train", "val"])
        #expect(provenance["label_map"] as? [String: String] == ["screen": "lcd_screen"])
        // Every sample is held out once: the held-out class counts cover all eight.
        #expect((provenance["val_class_counts"] as? [String: Int])?.values.reduce(0, +) == 8)

        let config = dir.appendingPathComponent("c.yaml")
        try Data("texture/1:\n  model: models/m.json\n".utf8).write(to: config)
        let image =
            set.appendingPathComponent("images").path + "/"
            + (try FileManager.default.contentsOfDirectory(atPath: set.appendingPathComponent("images").path).sorted()
                .first { $0.hasSuffix(".jpg") } ?? "")
        let analyze = try CLIRunner.run([
            "analyze", image, "--config", config.path, "--method", "texture/1", "--json",
        ])
        #expect(analyze.status == 0, "\(analyze.stderr)")
        #expect(analyze.stdout.contains("\"model_id\" : \"texture-loso\""), "\(analyze.stdout)")

        try FileManager.default.removeItem(atPath: modelPath)
        let missing = try CLIRunner.run(["analyze", image, "--config", config.path])
        #expect(missing.status == 65)
        #expect(
            missing.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                == "rial-bench: error: \(config.path): key 'texture/1.model': \(modelPath): no such model file")
    }
}
