import RialDetection

/// How the cluster bootstrap resamples: count, seed, interval level, threads.
///
/// A partial object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`); JSON keys
/// `resamples`, `seed`, `confidence_level`, `parallel`.
public struct BootstrapSettings: Sendable, Equatable, Codable {
    /// Resamples drawn. 1000; 0 disables the bootstrap (no intervals); 0...1_000_000.
    public var resamples: Int = 1000
    /// Base seed: resample `r` uses `SplitMix64(seed: s_r)` with `s_r` the r-th output
    /// (0-based) of `SplitMix64(seed: seed)`. 42. Same seed and samples, same intervals,
    /// whatever the thread count or input order.
    public var seed: UInt64 = 42
    /// Two-sided coverage of the percentile intervals. 0.95; in (0, 1).
    public var confidenceLevel: Double = 0.95
    /// Spread the resamples over all cores (`DispatchQueue.concurrentPerform`); the
    /// result is identical either way. true.
    public var parallel: Bool = true

    /// The defaults.
    public static let standard = BootstrapSettings()

    /// The resamples a run or comparison may ask for: enough for the third decimal of a
    /// 99% interval, and a bound on time and memory (one replicate per resample per metric).
    public static let resamplesRange = 0...1_000_000

    public init(resamples: Int = 1000, seed: UInt64 = 42, confidenceLevel: Double = 0.95, parallel: Bool = true) {
        self.resamples = resamples
        self.seed = seed
        self.confidenceLevel = confidenceLevel
        self.parallel = parallel
    }

    enum CodingKeys: String, CodingKey {
        case resamples, seed
        case confidenceLevel = "confidence_level"
        case parallel
    }

    /// Checks the ranges above.
    ///
    /// - Throws: `ConfigurationError` naming the key (`resamples`, `confidence_level`).
    public func validate() throws(ConfigurationError) {
        guard Self.resamplesRange.contains(resamples) else {
            throw ConfigurationError(
                key: CodingKeys.resamples,
                "must be in \(Self.resamplesRange.lowerBound)...\(Self.resamplesRange.upperBound), got \(resamples)")
        }
        guard confidenceLevel > 0 && confidenceLevel < 1 else {
            throw ConfigurationError(
                key: CodingKeys.confidenceLevel, "must be in (0, 1), e.g. 0.95, got \(confidenceLevel)")
        }
    }
}
