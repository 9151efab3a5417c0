/// A configuration value that a method or the aggregator cannot work with: the one
/// error type of every `validate()` in this module.
///
/// `key` is the dotted snake_case path of the offending value inside the configuration
/// that was validated (`histogram_bins`, `intrinsics.fx`,
/// `profiles.ios_pro.weights.moire`). A configuration that embeds another one (the
/// whole-pipeline configuration file) re-throws with `prefixed(by:)`, so the user sees
/// the path as written in their file (`depth/2.sample_stride`).
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Dotted key path, e.g. `level_boundaries.high`.
    public var key: String
    /// What is wrong and what is allowed, e.g. `must be >= 1, got 0`.
    public var reason: String

    public init(key: String, _ reason: String) {
        self.key = key
        self.reason = reason
    }

    /// An error about the value at `key`, named by its coding key (the one place the
    /// key's text is written): `ConfigurationError(key: CodingKeys.bandLow, "must be > 0")`.
    public init(key: some CodingKey, _ reason: String) {
        self.init(key: key.stringValue, reason)
    }

    /// The same error one level down: key `PREFIX.KEY` (or `PREFIX` when `key` is empty).
    public func prefixed(by prefix: String) -> ConfigurationError {
        ConfigurationError(key: key.isEmpty ? prefix : "\(prefix).\(key)", reason)
    }

    /// The same error one level down, under the value at `key`: `prefixed(by: key.stringValue)`.
    public func prefixed(by key: some CodingKey) -> ConfigurationError {
        prefixed(by: key.stringValue)
    }

    /// `KEY: REASON`, e.g. `profiles.ios_pro.weights.moire: must be >= 0, got -1.0`.
    public var description: String { "\(key): \(reason)" }
}
