import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialEval

/// `methodology --bench FILE`: a `bench --json` report read back and shown as the
/// methodology's "Latency on one capture" section, beside the run's own latency; bad files
/// give one error naming the file; a non-finite ratio survives the round trip.
@Suite struct MethodologyBenchTests {
    /// A bench report written by hand: decode p50 20 ms, `depth/2` 4.5 ms against 5 (PASS),
    /// `moire/2` 31 ms against 30 (FAIL), end to end 34 ms = 1.7 x decode; a bound of
    /// 30 ms (60 ms of work over 2 cores, 1.5 x the decode); paired 1.8 x, CPU 1.1 x the
    /// work, cores 80% busy; `moire/2` measured again at 29 ms (unsettled).
    static func json(
        configuration: String? = "abc123", schema: String = "rial-bench-bench/1", instructionSet: String? = nil
    ) -> String {
        func stats(_ p50: Double) -> String {
            """
            {"n": 20, "min_ms": \(p50 - 1), "mean_ms": \(p50), "p50_ms": \(p50), "p90_ms": \(p50 + 1), \
            "p95_ms": \(p50 + 2), "p99_ms": \(p50 + 3), "max_ms": \(p50 + 4), "excluded": 0}
            """
        }
        let configurationLine = configuration.map { "\"configuration_sha256\": \"\($0)\"," } ?? ""
        let instructionSetField = instructionSet.map { ", \"instruction_set\": \"\($0)\"" } ?? ""
        return """
            {"schema": "\(schema)", "iterations": 20, "warmup": 3, "build": "release",
             "capture": "synthetic real scene 4032x3024", "created": "2026-11-28T03:00:00Z",
             "tool": {"name": "rial-bench", "version": "0.9", "git_commit": "deadbeef"}, \(configurationLine)
             "environment": {"os": "Linux", "cpu": "Test CPU", "cores": 2, "memory_gib": 24, "swift": "6.3", "hostname": "h"\(instructionSetField)},
             "entries": [
               {"key": "decode", "statistics": \(stats(20)), "verdict": "n/a"},
               {"key": "depth/2", "statistics": \(stats(4.5)), "target_ms": 5, "target_source": "t", "verdict": "PASS"},
               {"key": "moire/2", "statistics": \(stats(31)), "target_ms": 30, "target_source": "t", "verdict": "FAIL"},
               {"key": "end_to_end", "statistics": \(stats(34)), "target_ms": 30, "target_source": "t", "verdict": "FAIL"}],
             "end_to_end_over_decode": 1.7,
             "end_to_end_bound": {"methods": ["depth/2", "moire/2"], "cpu_ms": 60, "cores": 2, "bound_ms": 30},
             "end_to_end_usage": {"iterations": 20, "cores": 2, "wall_ms": 36, "cpu_ms": 66, "single_threaded_ms": 60,
               "over_decode": 1.8, "utilisation": 0.8, "work_inflation": 1.1},
             "remeasured": [{"key": "moire/2", "p50_ms": 31, "repeat_p50_ms": 29, "repeat_count": 20, "target_ms": 30,
               "unsettled": true}]}
            """
    }

    static func file(_ contents: String?) throws -> String {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench")
        let path = folder.appendingPathComponent("bench.json")
        if let contents { try Data(contents.utf8).write(to: path) }
        return path.path
    }

    static func section(_ json: String, run: String = "abc123") throws -> String {
        let path = try file(json)
        let summary = MethodologyReport.BenchSummary(
            path: "reports/bench.json", report: try Benchmark.Report.read(path: path))
        return MethodologyReport.benchSection(summary, runConfigurationSHA256: run).joined(separator: "\n")
    }

    @Test func sectionShowsEveryRowAndTheEndToEndFigures() throws {
        let text = try Self.section(Self.json())
        #expect(text.contains("## Latency on one capture (`rial-bench bench`)"))
        #expect(text.contains("rial-bench 0.9 at `deadbeef`, 2026-11-28T03:00:00Z"))
        #expect(text.contains("Test CPU, 2 cores, release build: each item 20 times after 3 warm-up iterations"))
        #expect(text.contains("The bench ran the run's configuration (SHA-256 `abc123`)."))
        #expect(text.contains("| `depth/2` | 20 | 4.50 | 5.50 | 7.50 | 5.00 | PASS |"))
        #expect(text.contains("| `moire/2` | 20 | 31.00 | 32.00 | 34.00 | 30.00 | FAIL |"))
        #expect(text.contains("| `decode` | 20 | 20.00 | 21.00 | 23.00 | — | n/a |"))
        #expect(text.contains("took 1.70 x the decode (goal <= 1.5)"))
        // 30 ms bound over a 20 ms decode.
        #expect(text.contains("no less than 30.00 ms (1.50 x the decode), 60.00 ms of single-threaded work"))
        #expect(
            text.contains(
                "end to end / decode 1.80; it used 1.10 x the single-threaded work in CPU and kept its 2 cores 80% busy"
            ))
        #expect(text.contains("`moire/2` 31.00 then 29.00 ms (target 30.00)"))
    }

    /// A report from before 2026-12-07 has no `instruction_set` and names the CPU alone (the
    /// test above); a newer one says what the code was compiled for after the CPU.
    @Test func theInstructionSetFollowsTheCPUWhenRecorded() throws {
        let text = try Self.section(Self.json(instructionSet: "x86-64-v3 (AVX2, FMA)"))
        #expect(text.contains("on Test CPU, code built for x86-64-v3 (AVX2, FMA), 2 cores, release build"))
        let path = try Self.file(Self.json(instructionSet: "arm64"))
        #expect(try Benchmark.Report.read(path: path).environment.instructionSet == "arm64")
        #expect(try Benchmark.Report.read(path: Self.file(Self.json())).environment.instructionSet == nil)
    }

    @Test func anotherOrUnrecordedConfigurationIsFlagged() throws {
        #expect(
            try Self.section(Self.json(), run: "fff").contains(
                "**The bench ran another configuration** (SHA-256 `abc123`, the run `fff`)"))
        #expect(try Self.section(Self.json(configuration: nil)).contains("does not record its configuration"))
    }

    /// The error `read` gives for `path`, nil when it reads.
    static func message(_ path: String) -> String? {
        do {
            _ = try Benchmark.Report.read(path: path)
            return nil
        } catch { return error.description }
    }

    @Test func badFilesAreNamed() throws {
        let missing = try Self.file(nil)
        #expect(Self.message(missing)?.contains("\(missing): no such file") == true)
        let garbage = try Self.file("{\"schema\": 3}")
        #expect(Self.message(garbage)?.contains("\(garbage): not a bench report") == true)
        let truncated = try Self.file(String(Self.json().prefix(200)))
        #expect(Self.message(truncated)?.contains("\(truncated): not a bench report") == true)
        let other = try Self.file(Self.json(schema: "rial-bench-bench/9"))
        #expect(
            Self.message(other)?.contains("schema 'rial-bench-bench/9', this rial-bench reads 'rial-bench-bench/1'")
                == true)
    }

    /// A decode that never finished makes end to end over decode NaN: the JSON must still
    /// be written (a plain encoder refuses NaN) and read back as NaN.
    @Test func nonFiniteRatioRoundTrips() throws {
        var report = try Benchmark.Report.read(path: try Self.file(Self.json()))
        report.endToEndOverDecode = .nan
        let path = try Self.file(String(decoding: try report.jsonData(), as: UTF8.self))
        #expect(try Benchmark.Report.read(path: path).endToEndOverDecode.isNaN)
    }

    /// Fuzz: every truncation of a valid report, 200 files of random bytes and 200 copies
    /// with 1 to 4 random bytes changed are each refused in one line naming the file, or
    /// read; nothing crashes.
    @Test func truncatedAndRandomFilesAreRefusedByName() throws {
        let valid = Array(Self.json().utf8)
        let path = try Self.file(nil)
        func refusal(_ bytes: [UInt8]) throws -> String? {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return Self.message(path)
        }
        for length in 0..<valid.count {
            let message = try refusal(Array(valid[0..<length]))
            #expect(message?.hasPrefix("\(path): ") == true, "\(length): \(message ?? "accepted")")
            #expect(message?.contains("\n") == false, "\(length)")
        }
        var random = SplitMix64(seed: 20_261_128)
        var refused = 0
        for trial in 0..<400 {
            var bytes: [UInt8]
            if trial % 2 == 0 {
                bytes = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = valid
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            guard let message = try refusal(bytes) else { continue }
            refused += 1
            #expect(message.hasPrefix("\(path): "), "\(message)")
            #expect(!message.contains("\n"), "\(message)")
        }
        // Every random file is refused; a changed byte may still leave a valid report.
        #expect(refused >= 200)
    }
}
