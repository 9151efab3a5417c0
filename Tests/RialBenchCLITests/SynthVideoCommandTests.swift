import Foundation
import Testing

@Suite struct SynthVideoCommandTests {
    static let small = [
        "--video", "--count", "4", "--frames", "8", "--width", "64", "--height", "48", "--depth-width", "32",
        "--depth-height", "24", "--tamper-recordings", "1", "--tamper-frames", "10", "--procedural-only",
        "--seed", "3",
    ]

    /// Every regular file under `root` by relative path.
    static func files(_ root: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            found[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))] =
                try Data(contentsOf: url)
        }
        return found
    }

    /// Same seed and options: byte-identical manifest and files, whatever --jobs; the set
    /// validates with every SHA-256 checked.
    @Test func deterministicAndValid() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-synth-video")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        let first = try CLIRunner.run(["synth", "--out", a.path, "--jobs", "1"] + Self.small)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("synth --video: 12 samples"), "\(first.stdout)")
        let second = try CLIRunner.run(["synth", "--out", b.path, "--jobs", "2"] + Self.small)
        #expect(second.status == 0, "\(second.stderr)")
        let filesA = try Self.files(a), filesB = try Self.files(b)
        #expect(filesA.count == 1 + 12 * 3)
        #expect(filesA.keys.sorted() == filesB.keys.sorted())
        for (path, data) in filesA { #expect(filesB[path] == data, "\(path) differs between runs") }
        let validate = try CLIRunner.run(["dataset", "validate", a.path + "/manifest.json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.contains("valid: 12 samples"))
    }

    /// What the manifest holds: classes round-robin, depth on every 3rd frame, the tamper
    /// suite labelled.
    @Test func composition() throws {
        let dir = try Fixtures.makeTemporaryFolder("rial-bench-synth-video")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLIRunner.run(["synth", "--out", dir.path] + Self.small)
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: dir.appendingPathComponent("manifest.json")))
        let samples = try #require((manifest as? [String: Any])?["samples"] as? [[String: Any]])
        #expect(samples.count == 12)
        let plain = samples.filter { $0["tamper"] == nil }
        // Classes round-robin over the four (issue 15 item 4: real 3D scenes, screens, prints).
        #expect(plain.map { $0["label"] as? String } == ["real_scene", "lcd_screen", "oled_screen", "printed_paper"])
        for sample in plain {
            #expect(sample["kind"] as? String == "video")
            // methods.md section 6: 30 fps frames, depth keyframes at 10 fps (every 3rd frame).
            #expect(sample["fps"] as? Double == 30)
            let keyframes = sample["depth_keyframes"] as? [String: Any]
            #expect(keyframes?["frames"] as? [Int] == [0, 3, 6])
        }
        let suite = samples.filter { $0["tamper"] != nil }
        let kinds = suite.compactMap { ($0["tamper"] as? [String: Any])?["kind"] as? String }
        // Issue 15 item 3: modified, dropped, inserted, reordered frames and a truncated
        // recording must be caught; 10 frames reach no checkpoint (every 150 frames).
        for kind in ["intact", "modified", "dropped", "inserted", "reordered", "truncated"] {
            #expect(kinds.contains(kind), "no \(kind) sample")
        }
        #expect(!kinds.contains("checkpoint_mismatch"))
        // A tamper copy stays in its source recording's group (one resampling unit).
        #expect(Set(suite.compactMap { $0["group"] as? String }) == ["video-00004"])
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let base = ["synth", "--out", "/tmp/rial-bench-never-written", "--video"]
        let frames0 = try CLIRunner.run(base + ["--count", "1", "--frames", "0"])
        #expect(frames0.status == 64)
        #expect(frames0.stderr.contains("--frames must be in 1...450, got 0"))
        #expect(!frames0.stderr.contains("seconds 0"))
        let both = try CLIRunner.run(base + ["--count", "1", "--frames", "10", "--seconds", "1"])
        #expect(both.stderr.contains("give --seconds or --frames, not both"))
        // 15 s at 30 fps is the longest recording (PRD 1.1 FR47): 16 s is refused.
        #expect(try CLIRunner.run(base + ["--count", "1", "--seconds", "16"]).status == 64)
        #expect(try CLIRunner.run(base + ["--count", "1", "--width", "63"]).status == 64)
        #expect(try CLIRunner.run(base + ["--count", "1", "--second-view"]).status == 64)
        let suiteOnly = try CLIRunner.run(base + ["--count", "1", "--tamper-frames", "3"])
        #expect(suiteOnly.stderr.contains("need --tamper-recordings"))
        let short = try CLIRunner.run(base + ["--count", "1", "--tamper-recordings", "1", "--tamper-frames", "3"])
        #expect(short.stderr.contains("at least 4 frames"))
        let photo = try CLIRunner.run([
            "synth", "--out", "/tmp/rial-bench-never-written", "--count", "2", "--frames", "3",
        ])
        #expect(photo.status == 64)
        #expect(photo.stderr.contains("--frames needs --video"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/rial-bench-never-written"))
    }
}

@Suite struct DefaultSetOptionTests {
    /// `--default-set` picks the default data; it makes no sense beside --dataset, and
    /// only photo, video and all exist.
    @Test func defaultSetIsValidated() throws {
        let both = try CLIRunner.run([
            "run", "--dataset", "/tmp/rial-bench-no-such/manifest.json", "--default-set", "video",
        ])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--default-set chooses the data when no --dataset is given"))
        #expect(try CLIRunner.run(["run", "--default-set", "audio"]).status == 64)
        #expect(try CLIRunner.run(["dataset", "default", "--set", "audio"]).status == 64)
    }
}
