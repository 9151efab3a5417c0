import ArgumentParser
import RialDetection

/// Why a command stops: the lines to print and the exit status.
///
/// Commands throw it instead of printing and exiting themselves; `RialBench.main()` is
/// the one place that writes each message as `rial-bench: error: MESSAGE` on standard
/// error, in order, and exits with `status` (one of `ExitStatus`, specs/evaluation.md).
/// A message names the file and the problem (`FILE: problem`). Bad flags are not a
/// `CLIError`: `validate()` throws ArgumentParser's `ValidationError` (exit 64 with usage).
struct CLIError: Error {
    /// The process exit status.
    var status: ExitCode
    /// What went wrong, one line each, naming the file.
    var messages: [String]

    init(_ status: ExitCode, messages: [String]) {
        self.status = status
        self.messages = messages
    }

    /// Input data that cannot be used (unreadable file, invalid manifest or configuration): exit 65.
    static func badInput(_ message: String) -> CLIError { CLIError(ExitStatus.badInput, messages: [message]) }

    /// Every problem of a manifest or other input, one line each: exit 65.
    static func badInput(lines: [String]) -> CLIError { CLIError(ExitStatus.badInput, messages: lines) }

    /// A usage problem found only while running (e.g. a debug build refusing to benchmark): exit 64.
    static func usage(_ message: String) -> CLIError { CLIError(ExitStatus.usage, messages: [message]) }

    /// A failure that is not the input's fault (an output that cannot be written or encoded): exit 1.
    static func internalError(_ message: String) -> CLIError { CLIError(ExitStatus.internalError, messages: [message]) }

    /// `gate` without its baseline file: exit 4.
    static func baselineMissing(_ message: String) -> CLIError {
        CLIError(ExitStatus.baselineMissing, messages: [message])
    }
}

extension CLIError {
    /// `FILE: key 'KEY': reason` for a configuration value out of range; `FILE` is
    /// `configuration` when the compiled-in defaults (or options) were used.
    static func configurationMessage(_ error: ConfigurationError, file: String? = nil) -> String {
        "\(file ?? "configuration"): key '\(error.key)': \(error.reason)"
    }
}
