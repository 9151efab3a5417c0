import Foundation
import Testing

/// The test helper itself: a child that writes more than a pipe buffer (64 KiB on Linux)
/// to standard error before it writes to standard output or exits. Reading standard output
/// to its end first would wait for the child while the child waits for room in the full
/// standard-error pipe; the timeouts make such a regression fail instead of hanging.
@Suite struct CLIRunnerTests {
    @Test func childFillingStandardErrorFirstDoesNotDeadlock() throws {
        let bytes = 200 * 1024
        let outcome = try CLIRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "head -c \(bytes) /dev/zero | tr '\\000' x >&2; echo done; exit 7"],
            timeout: .seconds(60))
        #expect(outcome.status == 7)
        #expect(outcome.stdout == "done\n")
        #expect(outcome.stderr.utf8.count == bytes)
        #expect(outcome.stderr.allSatisfy { $0 == "x" })
    }

    /// The same through the binary: `inspect` prints one error line per missing path.
    @Test func rialBenchWithMoreThanAPipeOfErrors() throws {
        let paths = (0..<2000).map { "/nonexistent/rial-bench-cli-runner/missing-\($0).jpg" }
        let outcome = try CLIRunner.run(["inspect"] + paths, timeout: .seconds(120))
        #expect(outcome.status == 65)
        #expect(outcome.stderr.utf8.count > 64 * 1024)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == paths.count)
        #expect(lines.last?.hasPrefix("rial-bench: error: \(paths[paths.count - 1])") == true, "\(lines.last ?? "")")
    }

    @Test func aChildThatOutlivesItsTimeoutIsTerminated() throws {
        let start = ContinuousClock.now
        #expect(throws: CLIRunner.Timeout.self) {
            try CLIRunner.run(
                executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "exec sleep 30"],
                timeout: .milliseconds(300))
        }
        #expect(ContinuousClock.now - start < .seconds(20))
    }
}
