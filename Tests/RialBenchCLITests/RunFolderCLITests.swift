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

    /// A `rial-bench` child started with posix_spawn, its output discarded, no signal
    /// blocked and SIGINT and SIGTERM at their default action: a child started with
    /// `Process` from the test runner's threads ran on after a SIGINT (an ignored or blocked
    /// signal stays so across exec), so half the rounds were never interrupted.
    struct Child {
        let pid: pid_t
        /// The wait status, once the child has ended.
        private(set) var status: Int32?

        init(_ arguments: [String]) throws {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGINT)
            sigaddset(&defaults, SIGTERM)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            posix_spawnattr_setsigmask(&attributes, &unblocked)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let path = CLIRunner.executableURL.path
            let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
            guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
            self.pid = pid
        }

        /// Reaps the child if it has ended; true while it runs.
        mutating func isRunning() -> Bool {
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status == nil
        }

        /// The signal that ended the child, if one did.
        var signal: Int32? { status.flatMap { $0 & 0x7f == 0 ? nil : $0 & 0x7f } }
        /// The exit status, if the child exited.
        var exitStatus: Int32? { status.flatMap { $0 & 0x7f == 0 ? ($0 >> 8) & 0xff : nil } }
    }

    /// True when a `samples.jsonl` changed since `since` and not yet followed by its
    /// `results.json` exists for run folder `out`: in `out` itself (a binary that writes
    /// in place) or in a staging folder `.NAME.partial-*` beside it.
    static func samplesBeingWritten(_ out: String, since: Date) -> Bool {
        let target = URL(fileURLWithPath: out)
        let parent = target.deletingLastPathComponent()
        let staging = ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [])
            .filter { $0.hasPrefix(".\(target.lastPathComponent).partial-") }
            .map { parent.appendingPathComponent($0) }
        func modified(_ url: URL) -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        }
        return ([target] + staging).contains { folder in
            guard let samples = modified(folder.appendingPathComponent("samples.jsonl")), samples >= since else {
                return false
            }
            return modified(folder.appendingPathComponent("results.json")).map { $0 < samples } ?? true
        }
    }

    /// An earlier complete run (3 samples) is overwritten by a run of 8 with `--jobs 1`
    /// (which writes samples.jsonl a line at a time for most of its wall time) that is killed
    /// with SIGKILL or SIGINT at a seeded moment in each eighth of the window in which a
    /// watched whole run wrote its samples.jsonl (more rounds, up to 16, when a loaded
    /// machine makes kills miss the window). Afterwards the folder is the earlier run
    /// or the new one, whole: samples.jsonl always has the lines results.json counts, and
    /// `gate`/`report --from` either judge a consistent folder or refuse it with exit 65.
    ///
    /// The test must be able to fail: at least `minimumInterrupted` rounds must have been
    /// ended by the signal while a samples.jsonl of the killed run was being written (a
    /// binary that writes the run folder in place then leaves new samples beside the old
    /// results.json). `RIAL_BENCH_EXECUTABLE=PATH` runs it against another binary.
    @Test func interruptedRunsNeverMixTwoRuns() throws {
        let parent = try Fixtures.makeTemporaryFolder("rial-interrupt")
        let out = parent.appendingPathComponent("run").path
        let policy = parent.appendingPathComponent("policy.yaml").path
        try Data("latency: null\n".utf8).write(to: URL(fileURLWithPath: policy))
        let arguments = [
            "run", "--dataset", Self.dataset, "--out", out, "--limit", "8", "--resamples", "10", "--jobs", "1",
        ]
        // A whole run, watched: from when its samples.jsonl appears until its results.json follows.
        let started = Date()
        var whole = try Child(arguments)
        var firstWrite: Double?, lastWrite: Double?
        while whole.isRunning() {
            if Self.samplesBeingWritten(out, since: started) {
                let now = Date().timeIntervalSince(started)
                firstWrite = firstWrite ?? now
                lastWrite = now
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(whole.exitStatus == 0)
        let writeStart = try #require(firstWrite, "the whole run never wrote a samples.jsonl")
        let ended = try #require(lastWrite)
        // The earlier run, kept aside and copied in place before each round.
        let earlier = parent.appendingPathComponent("earlier")
        let old = try Self.run(earlier.path, limit: 3)
        #expect(old.status == 0, "\(old.stderr)")
        let baseline = earlier.appendingPathComponent("results.json")
        // 8 rounds, one per eighth of the window; on a loaded machine a kill can land
        // outside this run's write window, so more rounds follow (cycling the eighths, at
        // most 16) until `minimumInterrupted` have landed mid-write.
        let rounds = 8, maximumRounds = 16, minimumInterrupted = 6
        var rng = SeededGenerator(seed: 2026)
        var tried = 0, interrupted = 0, mixed = 0, wrongExit = 0, hangs = 0
        var round = 0
        while round < maximumRounds, round < rounds || interrupted < minimumInterrupted {
            defer { round += 1 }
            try FileManager.default.removeItem(atPath: out)
            try FileManager.default.copyItem(at: earlier, to: URL(fileURLWithPath: out))

            // Round r is killed in the (r mod 8)-th eighth of the watched run's writing window.
            let delay =
                writeStart + (ended - writeStart)
                * (Double(round % rounds) + Double.random(in: 0.1..<0.9, using: &rng)) / Double(rounds)
            let childStart = Date()
            var child = try Child(arguments)
            Thread.sleep(until: childStart.addingTimeInterval(delay))
            let midWrite = child.isRunning() && Self.samplesBeingWritten(out, since: childStart)
            let signal = round % 2 == 0 ? SIGKILL : SIGINT
            kill(child.pid, signal)
            let deadline = Date().addingTimeInterval(60)
            while child.isRunning() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if child.isRunning() {
                hangs += 1
                kill(child.pid, SIGKILL)
                while child.isRunning() { Thread.sleep(forTimeInterval: 0.02) }
                Issue.record("round \(round): the run did not end within 60 s of the signal")
            } else if midWrite && child.signal == signal {
                interrupted += 1
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
        let counts =
            "rounds \(tried), interrupted mid-write \(interrupted), mixed folders \(mixed), wrong exits \(wrongExit), hangs \(hangs); samples.jsonl written from \(writeStart) s to \(ended) s of the watched run"
        print("interruptedRunsNeverMixTwoRuns: \(counts)")
        #expect(interrupted >= minimumInterrupted, "too few rounds interrupted mid-write: \(counts)")
        #expect(tried >= rounds && mixed == 0 && wrongExit == 0 && hangs == 0, "\(counts)")
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
