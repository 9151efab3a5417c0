import ArgumentParser
import RialEval

/// The range check of `--resamples`, shared by `run` and `compare`.
enum BootstrapOptionCheck {
    /// - Throws: `ValidationError` (exit 64) outside `BootstrapSettings.resamplesRange`.
    static func resamples(_ resamples: Int) throws {
        let range = BootstrapSettings.resamplesRange
        guard range.contains(resamples) else {
            throw ValidationError("--resamples must be in \(range.lowerBound)...\(range.upperBound), got \(resamples)")
        }
    }
}
