import Foundation
import RialMedia
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Run folders through the built binary: runs killed at random points never leave new
/// samples beside old results, and every command that reads a run folder refuses one
/// whose files do not match (exit 65).
@Suite(.serialized) struct RunFolderCLITests {
    static let dataset: String = {
        let folder =
            (try? Fixtures.makeTemporaryFolder("rial-cli-folder")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        _ = try? CLIRunner.run([
            "synth", "--out", folder.path, "--count", "8", "--width", "256", "--height", "192",
            "--second-view", "--seed", "7",
        ])
        return folder.appendingPathComponent("manifest.json").path
    }()

    static func run(_ out: String, limit: Int, extra: [String] = []) throws -> CLIRunner.Outcome {
        try CLIRunner.run(
            ["run", "--dataset", dataset, "--out", out, "--limit", "\(limit)", "--resamples", "10"] + extra)
    }

    /// Lines of `samples.jsonl` and `counts.selected` of `results.json` in `folder`, when both parse.
    static func consistency(_ folder: String) -> (lines: Int, selected: Int)? {
        guard let samples = try? Data(contentsOf: URL(fileURLWithPath: "\(folder)/samples.jsonl")),
            let results = try? JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(folder)/results.json"))),
            let selected = results["counts"]?["selected"]?.numberValue
        else { return nil }
        return (samples.filter { $0 == UInt8(ascii: "\n") }.count, Int(selected))
    }

    /// An earlier complete run (3 samples) is overwritten by a run of 8 that is killed with
    /// SIGKILL or SIGINT at a seeded random moment. Afterwards the folder is the earlier run
    /// or the new one, whole: samples.jsonl always has the lines results.json counts, and
    /// `gate`/`report --from` either judge a consistent folder or refuse it with exit 65.
    @Test func interruptedRunsNeverMixTwoRuns() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-interrupt")
        let out = parent.appendingPathComponent("run").path
        let policy = parent.appendingPathComponent("policy.yaml").path
        try Data("latency: null\n".utf8).write(to: URL(fileURLWithPath: policy))
        // A whole run's wall time bounds the moments at which the child is killed.
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try Self.run(out, limit: 8).status == 0)
        let full = Double((clock.now - start).components.seconds) + 0.5
        var rng = SeededGenerator(seed: 2026)
        var tried = 0, mixed = 0, wrongExit = 0, hangs = 0
        for round in 0..<10 {
            let old = try Self.run(out, limit: 3)
            #expect(old.status == 0, "\(old.stderr)")
            let baseline = parent.appendingPathComponent("baseline.json")
            try? FileManager.default.removeItem(at: baseline)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "\(out)/results.json"), to: baseline)

            let process = Process()
            process.executableURL = CLIRunner.executableURL
            process.arguments = [
                "run", "--dataset", Self.dataset, "--out", out, "--limit", "8", "--resamples", "10",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let delay = Double.random(in: 0...full, using: &rng)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, round % 2 == 0 ? SIGKILL : SIGINT)
            // Poll rather than waitUntilExit, which can miss the end of a child killed this way.
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning {
                hangs += 1
                kill(process.processIdentifier, SIGKILL)
                Issue.record("round \(round): the run did not end within 60 s of the signal")
            }
            tried += 1

            if let (lines, selected) = Self.consistency(out), lines != selected {
                mixed += 1
                Issue.record("round \(round) after \(delay) s: \(lines) sample lines beside results of \(selected)")
            }
            let gate = try CLIRunner.run([
                "gate", "--baseline", baseline.path, "--current", out, "--policy", policy,
            ])
            let report = try CLIRunner.run(["report", "--from", out])
            // gate: 0 or 2 (a verdict on a whole run: the new one has more samples) or 65 (refused).
            for outcome in [gate, report] where ![0, 2, 65].contains(outcome.status) || report.status == 2 {
                wrongExit += 1
                Issue.record("round \(round): exit \(outcome.status): \(outcome.stdout)\(outcome.stderr)")
            }
            if gate.status != 65 || report.status == 0 {
                #expect(Self.consistency(out).map { $0.lines == $0.selected } ?? false, "round \(round)")
            }
        }
        #expect(tried == 10 && mixed == 0 && wrongExit == 0 && hangs == 0)
    }

    /// A samples.jsonl changed after its run is refused by every command that reads the folder.
    @Test func tamperedFolderIsRefusedByEveryReader() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-tampered")
        let out = parent.appendingPathComponent("run").path
        let shard = parent.appendingPathComponent("shard").path
        #expect(try Self.run(out, limit: 4).status == 0)
        #expect(try Self.run(shard, limit: 4, extra: ["--shard", "1/1"]).status == 0)
        for folder in [out, shard] {
            let samples = URL(fileURLWithPath: "\(folder)/samples.jsonl")
            let lines = try String(contentsOf: samples, encoding: .utf8).split(separator: "\n")
            try Data((lines.dropLast().joined(separator: "\n") + "\n").utf8).write(to: samples)
        }
        let commands: [[String]] = [
            ["report", "--from", out],
            ["gate", "--baseline", "\(out)/results.json", "--current", out],
            ["gate", "--baseline", "\(out)/results.json", "--current", "\(out)/results.json"],
            ["compare", out, out, "--resamples", "10"],
            ["merge", shard, "--out", parent.appendingPathComponent("merged").path],
        ]
        for command in commands {
            let outcome = try CLIRunner.run(command)
            #expect(outcome.status == 65, "\(command): \(outcome.stdout)\(outcome.stderr)")
            #expect(
                outcome.stderr.contains("samples.jsonl: 3 lines but results.json was computed from 4"), "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("merged").path))
    }

    @Test func truncatedResultsAreRefused() throws {
        let out = try Fixtures.makeTemporaryFolder("rial-truncated-results").appendingPathComponent("run").path
        #expect(try Self.run(out, limit: 2).status == 0)
        let results = URL(fileURLWithPath: "\(out)/results.json")
        let data = try Data(contentsOf: results)
        try data.prefix(data.count / 2).write(to: results)
        // `gate` reads its baseline first, as JSON, and names the parse error.
        let expected = [
            (["report", "--from", out], "\(out)/results.json: not a rial-bench results file"),
            (["gate", "--baseline", "\(out)/results.json", "--current", out], "\(out)/results.json: not JSON"),
        ]
        for (command, message) in expected {
            let outcome = try CLIRunner.run(command)
            #expect(outcome.status == 65, "\(command)")
            #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)")
        }
    }

    /// `run --out` refuses a folder that holds other files, and leaves them as they were.
    @Test func aFolderThatIsNotARunFolderIsRefused() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-not-a-run")
        let keep = folder.appendingPathComponent("thesis.tex")
        try Data("do not delete".utf8).write(to: keep)
        let outcome = try Self.run(folder.path, limit: 1)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("\(folder.path): exists and is not a rial-bench run folder"))
        #expect(try String(contentsOf: keep, encoding: .utf8) == "do not delete")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["thesis.tex"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
                .filter { $0.hasPrefix(".\(folder.lastPathComponent).") }.isEmpty)
    }

    /// `merge` wants every shard 1/N...N/N once, and records each in `merged_shards`.
    @Test func mergeRefusesAMissingOrDuplicatedShard() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-merge-set")
        let shards = (1...3).map { parent.appendingPathComponent("s\($0)").path }
        for (i, folder) in shards.enumerated() {
            let outcome = try Self.run(folder, limit: 8, extra: ["--shard", "\(i + 1)/3"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let merged = parent.appendingPathComponent("merged").path
        let missing = try CLIRunner.run(["merge", shards[0], shards[2], "--out", merged])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("incomplete set of shards: 2/3 missing"))
        let twice = try CLIRunner.run(["merge", shards[0], shards[1], shards[1], shards[2], "--out", merged])
        #expect(twice.status == 65)
        #expect(twice.stderr.contains("shard 2/3 is given twice"))
        #expect(!FileManager.default.fileExists(atPath: merged))

        let whole = try CLIRunner.run(["merge", shards[2], shards[0], shards[1], "--out", merged])
        #expect(whole.status == 0, "\(whole.stderr)")
        let results = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(merged)/results.json")))
        #expect(results["merged_shards"]?.arrayValue?.map { $0["index"] } == [1, 2, 3])
        #expect(results["counts"]?["selected"] == 8)
        #expect(try CLIRunner.run(["report", "--from", merged]).status == 0)
    }
}
