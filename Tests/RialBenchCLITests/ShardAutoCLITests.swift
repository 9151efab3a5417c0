import Foundation
import RialMedia
import Testing

/// `run --shard auto`: the shard index and count from a Kubernetes Indexed Job or a Slurm
/// job array, through the built binary with the scheduler's variables set as the scheduler
/// sets them, and the shards merged back into a run equal to the unsharded one.
@Suite(.serialized) struct ShardAutoCLITests {
    /// Every variable `--shard auto` reads; each child starts without them, so a test
    /// process that itself runs under a scheduler sees only what the test sets.
    static let schedulerVariables = [
        "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_COUNT",
    ]

    static let dataset: String = {
        let folder =
            (try? Fixtures.makeTemporaryFolder("rial-shard-auto")) ?? URL(fileURLWithPath: NSTemporaryDirectory())
        _ = try? CLIRunner.run([
            "synth", "--out", folder.path, "--count", "8", "--width", "256", "--height", "192", "--seed", "7",
        ])
        return folder.appendingPathComponent("manifest.json").path
    }()

    /// The unsharded run of `dataset`, once.
    static let whole: Result<String, any Error> = Result {
        let out = try Fixtures.makeTemporaryFolder("rial-shard-auto-whole").path
        let outcome = try runBinary(["run", "--dataset", dataset, "--out", out, "--resamples", "20"], environment: [:])
        guard outcome.status == 0 else { throw RunFailed(stderr: outcome.stderr) }
        return out
    }

    struct RunFailed: Error { var stderr: String }

    /// `rial-bench ARGUMENTS` with the scheduler variables removed and `environment` set.
    static func runBinary(_ arguments: [String], environment: [String: String]) throws -> CLIRunner.Outcome {
        try runProgram(CLIRunner.executableURL.path, arguments, environment: environment)
    }

    /// `PROGRAM ARGUMENTS` (a path, or a name looked up on the new PATH) with the scheduler
    /// variables removed and `environment` set.
    static func runProgram(_ program: String, _ arguments: [String], environment: [String: String]) throws
        -> CLIRunner.Outcome
    {
        let unset = schedulerVariables.flatMap { ["-u", $0] }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try CLIRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"), unset + assignments + [program] + arguments)
    }

    static let scaleOut = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/scale-out")

    /// The records of `folder/samples.jsonl` in file order, without their timings
    /// (`latency_ms` and each method's `analysis_time_ms`), the only fields that differ
    /// between two runs of the same samples.
    static func samples(_ folder: String) throws -> [JSONValue] {
        let text = try String(contentsOfFile: "\(folder)/samples.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            var record = try #require(try JSONValue.parse(String(line)).objectValue)
            record["latency_ms"] = nil
            if var methods = record["methods"]?.objectValue {
                for (name, result) in methods {
                    guard var fields = result.objectValue else { continue }
                    fields["analysis_time_ms"] = nil
                    methods[name] = .object(fields)
                }
                record["methods"] = .object(methods)
            }
            return .object(record)
        }
    }

    /// Runs one shard per environment, merges them and checks the merge against the whole run.
    func shardAndMerge(_ environments: [[String: String]], extra: [String] = [], expect lines: [String]) throws {
        let whole = try Self.whole.get()
        var folders: [String] = []
        var shardSamples = 0
        for (environment, line) in zip(environments, lines) {
            let out = try Fixtures.makeTemporaryFolder("rial-shard-auto-part").path
            let outcome = try Self.runBinary(
                ["run", "--dataset", Self.dataset, "--out", out, "--resamples", "20", "--shard", "auto"] + extra,
                environment: environment)
            #expect(outcome.status == 0, "\(environment): \(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix(line + "\n"), "\(outcome.stdout)")
            shardSamples += try Self.samples(out).count
            folders.append(out)
        }
        #expect(shardSamples == 8)
        let merged = try Fixtures.makeTemporaryFolder("rial-shard-auto-merged").path
        let merge = try Self.runBinary(["merge"] + folders + ["--out", merged], environment: [:])
        #expect(merge.status == 0, "\(merge.stderr)")
        let expected = try Self.samples(whole)
        #expect(expected.count == 8)
        #expect(try Self.samples(merged) == expected)
        let wholeResults = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(whole)/results.json")))
        let mergedResults = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: "\(merged)/results.json")))
        #expect(wholeResults["metrics"] == mergedResults["metrics"])
        #expect(mergedResults["shards"] == .number(Double(environments.count)))
    }

    @Test func kubernetesIndexedJobShardsMergeIntoTheWholeRun() throws {
        let environments = (0..<3).map { ["JOB_COMPLETION_INDEX": "\($0)"] }
        try shardAndMerge(
            environments, extra: ["--shard-count", "3"],
            expect: (0..<3).map { "shard \($0 + 1)/3 from JOB_COMPLETION_INDEX=\($0), --shard-count 3" })
    }

    /// `--array=0-2`, `--array=1-3` and `--array=5-7` give the same three shards.
    @Test(arguments: [0, 1, 5]) func slurmArrayShardsMergeIntoTheWholeRun(first: Int) throws {
        let ids = first...(first + 2)
        let environments = ids.map {
            [
                "SLURM_ARRAY_TASK_ID": "\($0)", "SLURM_ARRAY_TASK_MIN": "\(first)",
                "SLURM_ARRAY_TASK_MAX": "\(first + 2)", "SLURM_ARRAY_TASK_COUNT": "3",
            ]
        }
        try shardAndMerge(
            environments, extra: first == 1 ? ["--shard-count", "3"] : [],
            expect: ids.map {
                "shard \($0 - first + 1)/3 from SLURM_ARRAY_TASK_ID=\($0), SLURM_ARRAY_TASK_MIN=\(first), "
                    + "SLURM_ARRAY_TASK_MAX=\(first + 2), SLURM_ARRAY_TASK_COUNT=3"
            })
    }

    /// Shard I of `--shard auto` evaluates exactly the samples of `--shard I/N`.
    @Test func autoEqualsTheExplicitShard() throws {
        let auto = try Fixtures.makeTemporaryFolder("rial-shard-auto-k8s").path
        let explicit = try Fixtures.makeTemporaryFolder("rial-shard-auto-explicit").path
        let a = try Self.runBinary(
            [
                "run", "--dataset", Self.dataset, "--out", auto, "--resamples", "0", "--shard", "auto", "--shard-count",
                "4",
            ],
            environment: ["JOB_COMPLETION_INDEX": "2"])
        let b = try Self.runBinary(
            ["run", "--dataset", Self.dataset, "--out", explicit, "--resamples", "0", "--shard", "3/4"],
            environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(!b.stdout.contains("shard 3/4 from"))
        let samples = try Self.samples(auto)
        #expect(samples.count == 2)
        #expect(samples == (try Self.samples(explicit)))
    }

    static let slurm = [
        "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4",
        "SLURM_ARRAY_TASK_COUNT": "4",
    ]

    static func slurm(_ changes: [String: String?]) -> [String: String] {
        var environment = slurm
        for (key, value) in changes { environment[key] = value }
        return environment
    }

    /// Each case: the scheduler variables, extra options, and a fragment of the one-line message.
    static let usageErrors: [([String: String], [String], String)] = [
        ([:], [], "neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID"),
        ([:], ["--shard-count", "4"], "neither JOB_COMPLETION_INDEX"),
        (["JOB_COMPLETION_INDEX": "1"], [], "the count is not; pass --shard-count N"),
        (["JOB_COMPLETION_INDEX": "4"], ["--shard-count", "4"], "JOB_COMPLETION_INDEX=4 is out of range 0...3"),
        (["JOB_COMPLETION_INDEX": "-1"], ["--shard-count", "4"], "JOB_COMPLETION_INDEX=-1 is out of range 0...3"),
        (["JOB_COMPLETION_INDEX": "x1"], ["--shard-count", "4"], #"JOB_COMPLETION_INDEX is "x1", not an integer"#),
        (["JOB_COMPLETION_INDEX": ""], ["--shard-count", "4"], #"JOB_COMPLETION_INDEX is "", not an integer"#),
        (["JOB_COMPLETION_INDEX": "+1"], ["--shard-count", "4"], #"JOB_COMPLETION_INDEX is "+1", not an integer"#),
        (["JOB_COMPLETION_INDEX": " 1"], ["--shard-count", "4"], #"JOB_COMPLETION_INDEX is " 1", not an integer"#),
        (
            ["JOB_COMPLETION_INDEX": "99999999999999999999"], ["--shard-count", "4"],
            #"JOB_COMPLETION_INDEX is "99999999999999999999", not an integer"#
        ),
        (["JOB_COMPLETION_INDEX": "\u{1B}[2J"], ["--shard-count", "4"], #"is "\u{1B}[2J", not an integer"#),
        (["JOB_COMPLETION_INDEX": "0"], ["--shard-count", "0"], "--shard-count must be at least 1, got 0"),
        (["JOB_COMPLETION_INDEX": "0"].merging(slurm) { a, _ in a }, [], "both JOB_COMPLETION_INDEX"),
        (slurm(["SLURM_ARRAY_TASK_COUNT": nil]), [], "SLURM_ARRAY_TASK_COUNT is not set"),
        (slurm(["SLURM_ARRAY_TASK_MIN": nil]), [], "SLURM_ARRAY_TASK_MIN is not set"),
        (slurm(["SLURM_ARRAY_TASK_MAX": nil]), [], "SLURM_ARRAY_TASK_MAX is not set"),
        (slurm(["SLURM_ARRAY_TASK_ID": "two"]), [], #"SLURM_ARRAY_TASK_ID is "two", not an integer"#),
        (slurm(["SLURM_ARRAY_TASK_COUNT": "4.0"]), [], #"SLURM_ARRAY_TASK_COUNT is "4.0", not an integer"#),
        (slurm(["SLURM_ARRAY_TASK_ID": "5"]), [], "SLURM_ARRAY_TASK_ID=5 is out of range 1...4"),
        (slurm(["SLURM_ARRAY_TASK_ID": "0"]), [], "SLURM_ARRAY_TASK_ID=0 is out of range 1...4"),
        (slurm(["SLURM_ARRAY_TASK_MAX": "7"]), [], "the Slurm array must be one contiguous range"),
        (slurm(["SLURM_ARRAY_TASK_COUNT": "0"]), [], "the Slurm array must be one contiguous range"),
        (slurm(["SLURM_ARRAY_TASK_MIN": "5"]), [], "the Slurm array must be one contiguous range"),
        (slurm([:]), ["--shard-count", "3"], "--shard-count 3 differs from SLURM_ARRAY_TASK_COUNT=4"),
    ]

    @Test(arguments: usageErrors) func schedulerProblemsAreUsageErrors(
        environment: [String: String], extra: [String], message: String
    ) throws {
        let out = try Fixtures.makeTemporaryFolder("rial-shard-auto-bad").appendingPathComponent("out").path
        let outcome = try Self.runBinary(
            ["run", "--dataset", Self.dataset, "--out", out, "--shard", "auto"] + extra, environment: environment)
        #expect(outcome.status == 64, "\(environment): \(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").first?.contains("--shard") == true, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `--shard I/N` is unchanged, and `--shard-count` belongs to `--shard auto` only.
    @Test(arguments: [
        (["--shard", "3/2"], "--shard must be I/N"), (["--shard", "autox"], "--shard must be I/N"),
        (["--shard", "0/4"], "--shard must be I/N"), (["--shard-count", "4"], "--shard-count needs --shard auto"),
        (["--shard", "1/4", "--shard-count", "4"], "--shard-count needs --shard auto"),
    ])
    func explicitShardOptionsAreChecked(options: [String], message: String) throws {
        let outcome = try Self.runBinary(
            ["run", "--dataset", Self.dataset, "--out", "/nonexistent/out"] + options,
            environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    /// A stand-in for `sbatch` that runs a job at once: each array task with the variables
    /// Slurm sets (ID, MIN, MAX, COUNT, CPUS_PER_TASK) and its output in `LOG_DIR`, a
    /// `--wrap` command after checking its `afterok` dependency; it prints the job id as
    /// `--parsable` does and logs each call to `LOG_DIR/sbatch.log`.
    static let fakeSbatch = #"""
        #!/usr/bin/env bash
        set -euo pipefail
        array="" wrap="" dependency=""
        script=()
        echo "sbatch $*" >> "$LOG_DIR/sbatch.log"
        while (($#)); do
            case "$1" in
                --parsable | --kill-on-invalid-dep=* | --job-name=* | --output=*) ;;
                --array=*) array="${1#--array=}" ;;
                --dependency=*) dependency="${1#--dependency=}" ;;
                --export=ALL,*) IFS=, read -ra pairs <<< "${1#--export=ALL,}"; for p in "${pairs[@]}"; do export "$p"; done ;;
                --wrap) wrap="$2"; shift ;;
                -*) echo "fake sbatch: unknown option $1" >&2; exit 2 ;;
                *) script+=("$1") ;;
            esac
            shift
        done
        if [[ -n "$wrap" ]]; then
            [[ "$dependency" == afterok:41 ]] || { echo "fake sbatch: dependency '$dependency'" >&2; exit 2; }
            sh -c "$wrap" > "$LOG_DIR/merge.log" 2>&1
            echo "42;cluster"
            exit
        fi
        low="${array%-*}" high="${array#*-}"
        for ((id = low; id <= high; id++)); do
            SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=$low SLURM_ARRAY_TASK_MAX=$high \
                SLURM_ARRAY_TASK_COUNT=$((high - low + 1)) SLURM_CPUS_PER_TASK=1 \
                bash "${script[@]}" > "$LOG_DIR/task-$id.log" 2>&1
        done
        echo "41;cluster"
        """#

    /// scripts/scale-out/slurm-submit through a stand-in sbatch: the array's tasks run the
    /// sbatch script with Slurm's variables, the merge job runs its --wrap command.
    @Test func slurmSubmitScriptShardsAndMerges() throws {
        let root = try Fixtures.makeTemporaryFolder("rial-shard-auto-slurm")
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let sbatch = bin.appendingPathComponent("sbatch")
        try Data(Self.fakeSbatch.utf8).write(to: sbatch)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sbatch.path)
        let out = root.appendingPathComponent("runs with space").path
        let path = "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        let submit = try Self.runProgram(
            Self.scaleOut.appendingPathComponent("slurm-submit").path, [Self.dataset, out, "3"],
            environment: ["PATH": path, "LOG_DIR": root.path, "RIAL_BENCH": CLIRunner.executableURL.path])
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        #expect(submit.status == 0, "\(submit.stdout)\(submit.stderr) \(logs)")
        #expect(submit.stdout.contains("merge: job 42 after 41"), "\(submit.stdout)")
        for id in 1...3 {
            let log = try String(contentsOf: root.appendingPathComponent("task-\(id).log"), encoding: .utf8)
            #expect(log.contains("shard \(id)/3 from SLURM_ARRAY_TASK_ID=\(id), SLURM_ARRAY_TASK_MIN=1"), "\(log)")
        }
        #expect(try Self.samples("\(out)/merged") == Self.samples(try Self.whole.get()))
    }

    /// The shard and merge commands of scripts/scale-out/kubernetes-job.yaml, run as its pods
    /// would run them: `sh -c` with JOB_COMPLETION_INDEX = 0 ..< completions, then the merge,
    /// with the volume's /data in a temporary folder.
    @Test func kubernetesManifestShardsAndMerges() throws {
        let manifest = try String(
            contentsOf: Self.scaleOut.appendingPathComponent("kubernetes-job.yaml"), encoding: .utf8)
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Each `- >-` block scalar under `args`, folded as YAML folds it (lines joined by spaces).
        var commands: [String] = []
        for (i, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "- >-" {
            let indent = line.prefix { $0 == " " }.count
            let body = lines[(i + 1)...].prefix { $0.prefix { $0 == " " }.count > indent && !$0.isEmpty }
            commands.append(body.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
        }
        try #require(commands.count == 2, "\(commands)")
        let completions = try #require(
            lines.first { $0.hasPrefix("  completions:") }.flatMap {
                Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
            })
        #expect(commands[0].contains("--shard auto --shard-count \(completions)"))
        #expect(!manifest.contains("$("), "Kubernetes would expand $(NAME) itself")

        let data = try Fixtures.makeTemporaryFolder("rial-shard-auto-k8s-data")
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent("datasets"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: data.appendingPathComponent("datasets/set").path,
            withDestinationPath: URL(fileURLWithPath: Self.dataset).deletingLastPathComponent().path)
        // A container's view: rial-bench on PATH, the volume at /data.
        func container(_ command: String) -> String {
            command.replacingOccurrences(of: "/data/", with: "\(data.path)/")
                .replacingOccurrences(of: "exec rial-bench ", with: "exec \"$RIAL_BENCH\" ")
        }
        for index in 0..<completions {
            let shard = try Self.runProgram(
                "sh", ["-c", container(commands[0])],
                environment: ["JOB_COMPLETION_INDEX": "\(index)", "RIAL_BENCH": CLIRunner.executableURL.path])
            #expect(shard.status == 0, "\(shard.stderr)")
            #expect(shard.stdout.hasPrefix("shard \(index + 1)/\(completions) from JOB_COMPLETION_INDEX=\(index)"))
        }
        let merge = try Self.runProgram(
            "sh", ["-c", container(commands[1])], environment: ["RIAL_BENCH": CLIRunner.executableURL.path])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(
            try Self.samples(data.appendingPathComponent("runs/sharded/merged").path)
                == Self.samples(try Self.whole.get()))
    }
}
