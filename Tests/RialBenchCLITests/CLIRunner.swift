import Dispatch
import Foundation

/// Runs the built `rial-bench` executable, which SwiftPM places beside the test bundle,
/// or any other program, and collects its exit status and both output streams.
struct CLIRunner {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The child was still running after the timeout and was terminated.
    struct Timeout: Error, CustomStringConvertible {
        var command: [String]
        var seconds: Double
        var description: String {
            "\(command.joined(separator: " ")) did not finish within \(seconds) s; terminated"
        }
    }

    /// The `rial-bench` under test: the one beside the test bundle, or the program named by
    /// the environment variable `RIAL_BENCH_EXECUTABLE` (to run a suite against another
    /// build, e.g. an older commit's binary, to show that a test can fail).
    static var executableURL: URL {
        if let path = ProcessInfo.processInfo.environment["RIAL_BENCH_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        // argv[0] is .build/<config>/rial-benchPackageTests.xctest (Linux) or inside it (macOS).
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("rial-bench").path),
            dir.path != "/"
        {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("rial-bench")
    }

    /// Runs `rial-bench ARGUMENTS`; see `run(executable:_:currentDirectory:environment:timeout:)`.
    static func run(
        _ arguments: [String], currentDirectory: URL? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(900)
    ) throws -> Outcome {
        try run(
            executable: executableURL, arguments, currentDirectory: currentDirectory, environment: environment,
            timeout: timeout)
    }

    /// Runs `executable` with `arguments` and the test process's environment overlaid with
    /// `environment`.
    ///
    /// Standard output and standard error are drained at the same time on two threads, so
    /// a child that fills one pipe (64 KiB on Linux) while the other is being read cannot
    /// block. When the child is still running after `timeout`, it is terminated and
    /// `Timeout` is thrown, so a hang fails the test instead of stopping the suite.
    static func run(
        executable: URL, _ arguments: [String], currentDirectory: URL? = nil,
        environment: [String: String] = [:], timeout: Duration = .seconds(900)
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = PipeDrain(out.fileHandleForReading), stderr = PipeDrain(err.fileHandleForReading)
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) * 1e-18
        guard stdout.wait(until: deadline) == .success, stderr.wait(until: deadline) == .success else {
            process.terminate()
            throw Timeout(
                command: [executable.lastPathComponent] + arguments,
                seconds: Double(seconds) + Double(attoseconds) * 1e-18)
        }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdout.data, as: UTF8.self),
            stderr: String(decoding: stderr.data, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
///
/// `data` is written once, by the reading thread, before it signals; read it only after
/// `wait` returned `.success` (the semaphore orders the two).
private final class PipeDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var collected = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            collected = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait(until deadline: DispatchTime) -> DispatchTimeoutResult { done.wait(timeout: deadline) }

    var data: Data { collected }
}
