/// What aggregation needs of one method outcome, kept in every `samples.jsonl` record
/// (`aggregation_inputs`, keyed by breakdown key) so a finished run can be aggregated
/// again under another configuration without running any method (`rial-bench rescore`).
///
/// Every outcome is a candidate, also those that did not feed aggregation (depth/1
/// when `aggregate_with` picks depth/2), so a rescore may pick another version the run
/// computed. `score` is the method's raw score, before calibration.
///
/// JSON: `{family, source: computed|payload, available, score (null when none),
/// screen_detected, print_detected}`.
public struct AggregationCandidate: Sendable, Equatable, Codable {
    public var family: MethodFamily
    /// Computed by the pipeline, or read from a phone payload (then it replaces the
    /// family's local methods).
    public var source: MethodOutcome.Source
    /// The method completed (`status == completed`).
    public var available: Bool
    /// The raw score, before calibration; nil when the method gave none.
    public var score: Double?
    /// The result says it saw a screen.
    public var screenDetected: Bool
    /// The result says it saw a print.
    public var printDetected: Bool

    enum CodingKeys: String, CodingKey {
        case family, source, available, score
        case screenDetected = "screen_detected"
        case printDetected = "print_detected"
    }

    public init(
        family: MethodFamily, source: MethodOutcome.Source, available: Bool, score: Double?,
        screenDetected: Bool = false, printDetected: Bool = false
    ) {
        self.family = family
        self.source = source
        self.available = available
        self.score = score
        self.screenDetected = screenDetected
        self.printDetected = printDetected
    }

    /// A payload result that stands in for its family's local methods: read from a
    /// payload, completed, and with a score in 0...1 (not NaN, not infinite). Anything
    /// else from a payload is no evidence and never displaces a local result.
    public var replacesLocalMethods: Bool {
        source == .payload && available && score.map { (0...1).contains($0) } == true
    }

    /// Writes `score` as `null` when absent (the synthesized encoder would leave the key out).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(family, forKey: .family)
        try c.encode(source, forKey: .source)
        try c.encode(available, forKey: .available)
        try c.encode(score, forKey: .score)
        try c.encode(screenDetected, forKey: .screenDetected)
        try c.encode(printDetected, forKey: .printDetected)
    }
}

extension MethodOutcome {
    /// This outcome as an aggregation candidate (raw score).
    public var aggregationCandidate: AggregationCandidate {
        AggregationCandidate(
            family: family, source: source, available: summary.status == .completed, score: summary.score,
            screenDetected: screenDetected, printDetected: printDetected)
    }
}
