import ArgumentParser
import Foundation

/// `--jobs N`: worker threads, for every command that works in parallel.
///
/// The default is every active core, resolved when the command runs (so `--help` is
/// the same on every machine). Output never depends on it.
struct JobsOption: ParsableArguments {
    @Option(help: "Worker threads, at least 1 (default: all cores).")
    var jobs: Int?

    /// The most worker threads a command starts: far above any core count, far below
    /// what the system lets a process create.
    static let maximum = 1024

    /// `--jobs`, or the number of active processor cores.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if let jobs, jobs > Self.maximum {
            throw ValidationError("--jobs must be at most \(Self.maximum), got \(jobs)")
        }
    }
}
