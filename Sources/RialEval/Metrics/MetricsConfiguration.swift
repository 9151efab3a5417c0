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
    /// Fewest attacks an attack species needs to count in "APCER max" (and in the
    /// max-over-species BPCER20/BPCER100): with fewer, one accepted attack moves its
    /// APCER by more than 5 points, so the species is flagged and left out of the max
    /// (its own APCER is still reported). `defaultMinimumAttacksPerSpecies`; >= 1
    /// (1 = every species counts).
    public var minimumAttacksPerSpecies: Int = Self.defaultMinimumAttacksPerSpecies

    /// 20: the smallest count at which one attack changes a species' APCER by 5 points,
    /// the resolution of the BPCER20/APCER 5 % operating points.
    public static let defaultMinimumAttacksPerSpecies = 20

    /// The defaults.
    public static let standard = MetricsConfiguration()

    public init(
        threshold: Double = 0.5, bootstrap: BootstrapSettings = BootstrapSettings(),
        breakdowns: [BreakdownDimension] = BreakdownDimension.allCases,
        minimumAttacksPerSpecies: Int = Self.defaultMinimumAttacksPerSpecies
    ) {
        self.threshold = threshold
        self.bootstrap = bootstrap
        self.breakdowns = breakdowns
        self.minimumAttacksPerSpecies = minimumAttacksPerSpecies
    }

    enum CodingKeys: String, CodingKey {
        case threshold, bootstrap, breakdowns
        case minimumAttacksPerSpecies = "min_attacks_per_species"
    }

    /// Checks the ranges above.
    ///
    /// - Throws: `ConfigurationError` naming the key (`threshold`,
    ///   `bootstrap.resamples`, `bootstrap.confidence_level`, `min_attacks_per_species`).
    public func validate() throws(ConfigurationError) {
        guard threshold.isFinite else {
            throw ConfigurationError(key: CodingKeys.threshold, "must be a finite number, got \(threshold)")
        }
        guard minimumAttacksPerSpecies >= 1 else {
            throw ConfigurationError(
                key: CodingKeys.minimumAttacksPerSpecies, "must be at least 1, got \(minimumAttacksPerSpecies)")
        }
        do {
            try bootstrap.validate()
        } catch {
            throw error.prefixed(by: CodingKeys.bootstrap)
        }
    }
}
