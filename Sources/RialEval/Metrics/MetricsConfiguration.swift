import RialDetection

/// What `MethodMetrics.compute` needs besides the samples: the operating threshold, the
/// bootstrap and the breakdowns.
///
/// A partial object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`). JSON keys
/// `threshold`, `bootstrap` (see `BootstrapSettings`), `breakdowns`.
public struct MetricsConfiguration: Sendable, Equatable, Codable {
    /// Operating decision threshold: accepted as bona fide when `score >= threshold`
    /// (inclusive, as the aggregator's `real_threshold`). 0.5; finite.
    public var threshold: Double = 0.5
    /// Cluster bootstrap of AUC, EER and the operating-point rates. 1000 resamples,
    /// seed 42, 95 %.
    public var bootstrap = BootstrapSettings()
    /// Breakdowns to compute. All four.
    public var breakdowns: [BreakdownDimension] = BreakdownDimension.allCases

    /// The defaults.
    public static let standard = MetricsConfiguration()

    public init(
        threshold: Double = 0.5, bootstrap: BootstrapSettings = BootstrapSettings(),
        breakdowns: [BreakdownDimension] = BreakdownDimension.allCases
    ) {
        self.threshold = threshold
        self.bootstrap = bootstrap
        self.breakdowns = breakdowns
    }

    enum CodingKeys: String, CodingKey {
        case threshold, bootstrap, breakdowns
    }

    /// Checks the ranges above.
    ///
    /// - Throws: `ConfigurationError` naming the key (`threshold`,
    ///   `bootstrap.resamples`, `bootstrap.confidence_level`).
    public func validate() throws(ConfigurationError) {
        guard threshold.isFinite else {
            throw ConfigurationError(key: CodingKeys.threshold, "must be a finite number, got \(threshold)")
        }
        do {
            try bootstrap.validate()
        } catch {
            throw error.prefixed(by: CodingKeys.bootstrap)
        }
    }
}
