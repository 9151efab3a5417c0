import Foundation
import Testing

@Suite struct TrainCommandTests {
    /// Trains on a tiny generated set whose splits are rewritten here (samples 0 and 1
    /// validate, the rest train), plus a `screen` sample and a corrupt image, and checks
    /// the provenance the model file records.
    @Test func trainsOnAGeneratedSetAndRecordsProvenance() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-train")
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = dir.appendingPathComponent("set")
        // Six captures (one per class round-robin, then real and LCD again), 160x128: above
        // the 128 px minimum and cheap to render in a debug build.
        let synth = try CLIRunner.run([
            "synth", "--out", set.path, "--count", "6", "--width", "160", "--height", "128",
            "--seed", "3", "--procedural-only",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")

        let manifestURL = set.appendingPathComponent("manifest.json")
        var manifest = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var samples = try #require(manifest["samples"] as? [[String: Any]])
        var train: [String: Int] = [:], validation: [String: Int] = [:]
        for i in samples.indices {
            let label = try #require(samples[i]["label"] as? String)
            samples[i]["split"] = i < 2 ? "val" : "train"
            if i < 2 { validation[label, default: 0] += 1 } else { train[label, default: 0] += 1 }
        }
        var screen = samples[2]
        screen["id"] = "extra/screen"
        screen["label"] = "screen"
        samples.append(screen)
        try Data("garbage, not a JPEG".utf8).write(to: set.appendingPathComponent("images/corrupt.jpg"))
        samples.append(["id": "extra/corrupt", "image": "images/corrupt.jpg", "label": "lcd_screen", "split": "train"])
        manifest["samples"] = samples
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)

        let modelPath = dir.appendingPathComponent("out/model.json").path
        let swiftPath = dir.appendingPathComponent("out/Default.swift").path
        let run = try CLIRunner.run([
            "train", "texture", "--dataset", manifestURL.path, "--out", modelPath,
            "--seed", "5", "--jobs", "2", "--swift-out", swiftPath,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("validation accuracy"))
        #expect(run.stderr.contains("extra/corrupt"))

        let model = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: modelPath)))
                as? [String: Any])
        #expect(model["format"] as? String == "rial-texture-model/1")
        let provenance = try #require(model["provenance"] as? [String: Any])
        #expect(provenance["seed"] as? Int == 5)
        #expect(provenance["train_splits"] as? [String] == ["train"])
        #expect(provenance["val_splits"] as? [String] == ["val"])
        #expect(provenance["skipped_labels"] as? [String: Int] == ["screen": 1])
        let failed = try #require(provenance["failed_samples"] as? [[String: Any]])
        #expect(failed.map { $0["sample"] as? String } == ["extra/corrupt"])
        let trainCounts = try #require(provenance["train_class_counts"] as? [String: Int])
        for (label, count) in train { #expect(trainCounts[label] == count, "\(label)") }
        let valCounts = try #require(provenance["val_class_counts"] as? [String: Int])
        for (label, count) in validation { #expect(valCounts[label] == count, "\(label)") }
        let datasets = try #require(provenance["datasets"] as? [[String: Any]])
        #expect(datasets.count == 1)
        let digest = try #require(datasets.first?["sha256"] as? String)
        #expect(digest.count == 64 && digest.allSatisfy { "0123456789abcdef".contains($0) })
        let generatedBy = try #require(datasets.first?["generated_by"] as? String)
        #expect(generatedBy.contains("--count 6 --seed 3 --width 160 --height 128"))
        #expect(generatedBy.hasSuffix("--procedural-only"))
        let validationReport = try #require(provenance["validation"] as? [String: Any])
        #expect(validationReport["sample_count"] as? Int == 2)
        let matrix = try #require(validationReport["confusion_matrix"] as? [[Int]])
        let classes = try #require(model["classes"] as? [String])
        #expect(matrix.count == classes.count && matrix.allSatisfy { $0.count == classes.count })
        #expect(matrix.flatMap { $0 }.reduce(0, +) == 2)
        #expect(try String(contentsOfFile: swiftPath, encoding: .utf8).contains("static let defaultModelJSON"))
    }

    @Test func corruptManifestIsBadInput() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-train")
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = dir.appendingPathComponent("manifest.json").path
        try Data("{ \"format\": \"rial-bench-dataset/1\", \"samples\": [".utf8).write(
            to: URL(fileURLWithPath: manifest))
        let run = try CLIRunner.run([
            "train", "texture", "--dataset", manifest, "--out", dir.appendingPathComponent("m.json").path,
        ])
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("rial-bench: error: \(manifest):") == true, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m.json").path))
    }

    @Test func missingArgumentsAreUsageErrors() throws {
        #expect(try CLIRunner.run(["train", "texture", "--out", "/tmp/x.json"]).status == 64)
        #expect(try CLIRunner.run(["train", "texture", "--dataset", "m.json"]).status == 64)
        #expect(
            try CLIRunner.run(["train", "texture", "--dataset", "m.json", "--out", "x", "--jobs", "0"]).status == 64)
        #expect(
            try CLIRunner.run([
                "train", "texture", "--dataset", "m.json", "--out", "x",
                "--train-split", "val",
            ]).status == 64)
    }
}
