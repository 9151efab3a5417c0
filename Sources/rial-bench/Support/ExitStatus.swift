import ArgumentParser

/// Process exit codes, as specified in specs/evaluation.md.
enum ExitStatus {
    /// Success.
    static let ok = ExitCode(0)
    /// A bug or an unexpected environment failure.
    static let internalError = ExitCode(1)
    /// `gate` or `bench` found a regression.
    static let regression = ExitCode(2)
    /// A run finished but some samples failed (only with `--strict`).
    static let samplesFailed = ExitCode(3)
    /// `gate` could not find its baseline.
    static let baselineMissing = ExitCode(4)
    /// Usage error (bad flags or arguments); ArgumentParser's `ValidationError` maps here too.
    static let usage = ExitCode(64)
    /// Input data could not be read: corrupt image, truncated depth file, invalid manifest or config.
    static let badInput = ExitCode(65)
}
