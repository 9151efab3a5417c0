extension AggregationConfiguration {
    /// Cross-validation between the methods (`aggregation.cross_validation`).
    ///
    /// Sources: PRD 2.0 "Cross-Validation" (agreement -> +5%, disagreement -> flag and cap
    /// at MEDIUM, partial -> ceiling reduced), FR77 ("cross-validation status
    /// (agree/disagree/partial)"), and story 9-6, which carries the phone's enhanced
    /// cross-validation of story 9-5 ("CrossValidationResult: pairwise, intervals,
    /// anomalies"; payload `cross_validation: {validation_status, anomalies, ...}`). Story
    /// 9-5 itself is not among the product documents, so its rules below are rial-bench's
    /// reading of those names; every number is configuration, not a product value, except
    /// `high_uncertainty_width` 0.3 (issue 14).
    ///
    /// The analysis (`CrossValidationResult`) is computed for every capture under both
    /// modes; `mode` decides whether it changes the score:
    /// - `simple` (default): the PRD's rule only (agreement boost, disagreement cap); the
    ///   anomalies' confidence impact is reported, not applied. Default because it is the
    ///   rule PRD 2.0 states, story 9-5's thresholds are not available to check ours
    ///   against, and it keeps the default run's numbers;
    /// - `full`: as `simple`, and the total confidence impact of the anomalies is
    ///   subtracted from the evidence before the levels are read, and a capture with
    ///   `high_uncertainty` is capped at `high_uncertainty_cap`.
    public struct CrossValidation: Sendable, Equatable, Codable {
        /// `simple` or `full`. `simple`.
        public var mode: Mode = .simple
        /// Half-width of each method's confidence interval around its score (clamped to
        /// 0...1): 0.05 for the physical depth signals (lidar, parallax: "STRONG
        /// SUPPORTING" in the PRD's trust hierarchy), 0.10 for the detection algorithms
        /// (moire, texture, supporting: "vulnerable to adversarial attack"), 0 for
        /// attestation (a configured score, not a measurement). Not product values.
        public var methodUncertainty: [AggregationMethod: Double] = [
            .lidar: 0.05, .parallax: 0.05, .moire: 0.10, .texture: 0.10, .supporting: 0.10, .attestation: 0,
        ]
        /// Two scene methods are expected to be concordant (both estimate "real scene"):
        /// consistent when they give the same verdict and their scores differ by at most
        /// this. 0.3.
        public var pairTolerance: Double = 0.3
        /// A pair whose scores differ by more than this is a `high` severity anomaly. 0.5.
        public var highSeverityDifference: Double = 0.5
        /// Methods expected to be independent of the others (reported in `pairwise`,
        /// never an anomaly): attestation, which says where the key lives, not what the
        /// camera saw. `[attestation]`.
        public var independentMethods: [AggregationMethod] = [.attestation]
        /// `high_uncertainty` when the aggregated interval is wider than this. 0.3.
        public var highUncertaintyWidth: Double = 0.3
        /// Under `full`, the highest level of a capture with `high_uncertainty`. HIGH
        /// (VERY_HIGH needs the methods to agree).
        public var highUncertaintyCap: ConfidenceLevel = .high
        /// Confidence impact (subtracted from the evidence under `full`) of one anomaly per
        /// severity. low 0.01, medium 0.03, high 0.05.
        public var anomalyImpact = AnomalyImpact()
        /// The total impact never exceeds this. 0.15.
        public var maxImpact: Double = 0.15
        /// Temporal consistency over frames: consistent when the per-frame scores span
        /// at most this (max - min). 0.2. Without at least two frames it is unavailable.
        public var temporalMaxSpread: Double = 0.2

        /// How cross-validation changes the score.
        public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
            /// Boost and disagreement cap (PRD 2.0 "Cross-Validation").
            case simple
            /// Also the anomalies' impact and the high-uncertainty cap.
            case full
        }

        /// Impact per anomaly severity.
        public struct AnomalyImpact: Sendable, Equatable, Codable {
            /// 0.01.
            public var low: Double = 0.01
            /// 0.03.
            public var medium: Double = 0.03
            /// 0.05.
            public var high: Double = 0.05

            public init() {}

            public func impact(of severity: CrossValidationResult.Severity) -> Double {
                switch severity {
                case .low: low
                case .medium: medium
                case .high: high
                }
            }
        }

        enum CodingKeys: String, CodingKey {
            case mode
            case methodUncertainty = "method_uncertainty"
            case pairTolerance = "pair_tolerance"
            case highSeverityDifference = "high_severity_difference"
            case independentMethods = "independent_methods"
            case highUncertaintyWidth = "high_uncertainty_width"
            case highUncertaintyCap = "high_uncertainty_cap"
            case anomalyImpact = "anomaly_impact"
            case maxImpact = "max_impact"
            case temporalMaxSpread = "temporal_max_spread"
        }

        public init() {}

        /// Every number finite and in 0...1 (`high_severity_difference >= pair_tolerance`).
        ///
        /// - Throws: `ConfigurationError` naming the key (`method_uncertainty.moire`).
        public func validate() throws(ConfigurationError) {
            var numbers: [(String, Double)] = methodUncertainty.keys.sorted().map {
                ("\(CodingKeys.methodUncertainty.stringValue).\($0.rawValue)", methodUncertainty[$0]!)
            }
            numbers += [
                (CodingKeys.pairTolerance.stringValue, pairTolerance),
                (CodingKeys.highSeverityDifference.stringValue, highSeverityDifference),
                (CodingKeys.highUncertaintyWidth.stringValue, highUncertaintyWidth),
                ("\(CodingKeys.anomalyImpact.stringValue).low", anomalyImpact.low),
                ("\(CodingKeys.anomalyImpact.stringValue).medium", anomalyImpact.medium),
                ("\(CodingKeys.anomalyImpact.stringValue).high", anomalyImpact.high),
                (CodingKeys.maxImpact.stringValue, maxImpact),
                (CodingKeys.temporalMaxSpread.stringValue, temporalMaxSpread),
            ]
            for (key, value) in numbers where !(value.isFinite && (0...1).contains(value)) {
                throw ConfigurationError(key: key, "must be a finite number in 0...1, got \(value)")
            }
            guard highSeverityDifference >= pairTolerance else {
                throw ConfigurationError(
                    key: CodingKeys.highSeverityDifference,
                    "must be >= pair_tolerance (\(pairTolerance)), got \(highSeverityDifference)")
            }
        }
    }
}

/// The cross-validation of one capture (`AggregationResult.cross_validation`, evidence
/// package `scene_analysis.cross_validation`), from the methods that scored. JSON keys
/// are snake_case.
public struct CrossValidationResult: Sendable, Equatable, Codable {
    /// The mode that was configured (`simple`: `confidence_impact` not applied).
    public var mode: AggregationConfiguration.CrossValidation.Mode
    /// FR77's status: `disagree` when the scored methods' verdicts differ (the
    /// aggregator's `methods_disagree`); else `partial` when a weighted method did not
    /// score; else `agree`.
    public var validationStatus: Status
    /// Every pair of scored methods (weighted or not), sorted by method names.
    public var pairwise: [Pair]
    /// Each scored method's interval: `score -/+ method_uncertainty`, clamped to 0...1.
    public var methodIntervals: [AggregationMethod: Interval]
    /// The aggregated interval around the weighted mean `m`: half-width
    /// `sqrt(u^2 + s^2)`, with `u = sum(w_i * h_i)` (the weighted half-widths) and
    /// `s^2 = sum(w_i * (x_i - m)^2)` (the weighted spread of the scores), over the
    /// weighted scored methods with their renormalised weights; clamped to 0...1. Nil when
    /// nothing weighted scored.
    public var aggregatedInterval: Interval?
    /// `aggregated_interval.upper - lower` > `high_uncertainty_width`.
    public var highUncertainty: Bool
    /// Sorted by severity (high first), then type and methods.
    public var anomalies: [Anomaly]
    /// Sum of the anomalies' impacts, at most `max_impact`; subtracted from the evidence
    /// only under `full`.
    public var confidenceImpact: Double
    /// Consistency over frames.
    public var temporal: Temporal

    enum CodingKeys: String, CodingKey {
        case mode
        case validationStatus = "validation_status"
        case pairwise
        case methodIntervals = "method_intervals"
        case aggregatedInterval = "aggregated_interval"
        case highUncertainty = "high_uncertainty"
        case anomalies
        case confidenceImpact = "confidence_impact"
        case temporal
    }

    /// FR77: agree / disagree / partial.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        case agree, disagree, partial
    }

    /// Anomaly severity.
    public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case low, medium, high

        var rank: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .high: 2
            }
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }

    /// `[lower, upper]` in 0...1.
    public struct Interval: Sendable, Equatable, Codable {
        public var lower: Double
        public var upper: Double
        public var width: Double { upper - lower }

        public init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }
    }

    /// One pair of scored methods.
    public struct Pair: Sendable, Equatable, Codable {
        /// The two methods, sorted.
        public var methods: [AggregationMethod]
        /// `concordant` (both scene methods: expected to agree) or `independent` (one is in
        /// `independent_methods`: not compared).
        public var relationship: Relationship
        /// `|s_a - s_b|`.
        public var difference: Double
        /// Concordant pairs: same verdict and `difference <= pair_tolerance`; nil for
        /// independent pairs.
        public var consistent: Bool?

        public enum Relationship: String, Sendable, Hashable, Codable {
            case concordant, independent
        }
    }

    /// Something the methods say that does not fit together.
    public struct Anomaly: Sendable, Equatable, Codable {
        /// `pairwise_inconsistency` (a concordant pair that is not consistent: `high` when
        /// the difference exceeds `high_severity_difference`, `medium` when the verdicts
        /// differ, else `low`); `depth_contradicts_detection` (the primary depth signal
        /// says real while another method saw a screen or print: `high`, the recapture
        /// case the PRD's multi-signal design is for); `temporal_inconsistency` (frames
        /// disagree: `high`); `single_method` (one scene method scored, nothing to
        /// cross-validate: `low`).
        public var type: String
        public var severity: Severity
        public var methods: [AggregationMethod]
        /// The anomaly's impact (`anomaly_impact` of its severity), >= 0.
        public var confidenceImpact: Double

        enum CodingKeys: String, CodingKey {
            case type, severity, methods
            case confidenceImpact = "confidence_impact"
        }
    }

    /// `temporal`: `unavailable` without at least two frames (every still capture
    /// today), else `pass` when the frames' scores span at most `temporal_max_spread`,
    /// `fail` when more.
    public struct Temporal: Sendable, Equatable, Codable {
        public var status: EvidenceCheckStatus
        public var frames: Int
        /// max - min of the frame scores; nil when unavailable.
        public var spread: Double?
        /// Why unavailable (`no frames`).
        public var reason: String?
    }

    /// The temporal check over `frameScores` (per-frame aggregated scores, finite ones
    /// only).
    public static func temporal(
        _ frameScores: [Double]?, configuration c: AggregationConfiguration.CrossValidation
    ) -> Temporal {
        let frames = (frameScores ?? []).filter(\.isFinite)
        guard frames.count >= 2 else {
            return Temporal(
                status: .unavailable, frames: frames.count, spread: nil,
                reason: frames.isEmpty ? "no frames" : "one frame")
        }
        let spread = frames.max()! - frames.min()!
        return Temporal(status: spread <= c.temporalMaxSpread ? .pass : .fail, frames: frames.count, spread: spread)
    }

    /// The cross-validation of `scored` (method, renormalised weight, clamped score; the
    /// weight is 0 for a scored method the profile does not weight).
    ///
    /// - Parameters:
    ///   - screenOrPrint: the scored methods that reported a screen or a print.
    ///   - partial: a weighted method did not score.
    ///   - realThreshold: the verdict threshold (`score >= real_threshold` says real).
    public static func analyse(
        scored: [(method: AggregationMethod, weight: Double, score: Double)], primary: AggregationMethod?,
        screenOrPrint: Set<AggregationMethod>, partial: Bool, realThreshold: Double,
        frameScores: [Double]? = nil, configuration c: AggregationConfiguration.CrossValidation
    ) -> CrossValidationResult {
        let says = { (s: Double) in s >= realThreshold }
        let independent = Set(c.independentMethods)
        let sorted = scored.sorted { $0.method < $1.method }
        var pairs: [Pair] = []
        var anomalies: [Anomaly] = []
        func anomaly(_ type: String, _ severity: Severity, _ methods: [AggregationMethod]) {
            anomalies.append(
                Anomaly(
                    type: type, severity: severity, methods: methods.sorted(),
                    confidenceImpact: c.anomalyImpact.impact(of: severity)))
        }
        for i in sorted.indices {
            for j in sorted.indices where j > i {
                let a = sorted[i], b = sorted[j]
                let difference = abs(a.score - b.score)
                guard !independent.contains(a.method), !independent.contains(b.method) else {
                    pairs.append(
                        Pair(methods: [a.method, b.method], relationship: .independent, difference: difference))
                    continue
                }
                let sameVerdict = says(a.score) == says(b.score)
                let consistent = sameVerdict && difference <= c.pairTolerance
                pairs.append(
                    Pair(
                        methods: [a.method, b.method], relationship: .concordant, difference: difference,
                        consistent: consistent))
                if !consistent {
                    let severity: Severity =
                        difference > c.highSeverityDifference ? .high : !sameVerdict ? .medium : .low
                    anomaly("pairwise_inconsistency", severity, [a.method, b.method])
                }
            }
        }
        let scene = sorted.filter { !independent.contains($0.method) }
        if scene.count == 1 { anomaly("single_method", .low, [scene[0].method]) }
        if let primary, let p = sorted.first(where: { $0.method == primary }), says(p.score) {
            let seen = screenOrPrint.filter { $0 != primary }.sorted()
            if !seen.isEmpty { anomaly("depth_contradicts_detection", .high, [primary] + seen) }
        }
        let temporal = temporal(frameScores, configuration: c)
        if temporal.status == .fail { anomaly("temporal_inconsistency", .high, []) }

        var intervals: [AggregationMethod: Interval] = [:]
        for m in sorted {
            let h = c.methodUncertainty[m.method] ?? 0
            intervals[m.method] = Interval(lower: Swift.max(m.score - h, 0), upper: Swift.min(m.score + h, 1))
        }
        var aggregated: Interval?
        let weighted = sorted.filter { $0.weight > 0 }
        if !weighted.isEmpty {
            let mean = weighted.reduce(0) { $0 + $1.weight * $1.score }
            let u = weighted.reduce(0) { $0 + $1.weight * (c.methodUncertainty[$1.method] ?? 0) }
            let variance = weighted.reduce(0) { $0 + $1.weight * ($1.score - mean) * ($1.score - mean) }
            let half = (u * u + variance).squareRoot()
            aggregated = Interval(lower: Swift.max(mean - half, 0), upper: Swift.min(mean + half, 1))
        }
        let verdicts = Set(sorted.map { says($0.score) })
        let status: Status = verdicts.count > 1 ? .disagree : partial ? .partial : .agree
        anomalies.sort {
            ($0.severity.rank, $1.type, $1.methods.map(\.rawValue).joined(separator: ","))
                > ($1.severity.rank, $0.type, $0.methods.map(\.rawValue).joined(separator: ","))
        }
        let impact = Swift.min(anomalies.reduce(0) { $0 + $1.confidenceImpact }, c.maxImpact)
        return CrossValidationResult(
            mode: c.mode, validationStatus: status, pairwise: pairs, methodIntervals: intervals,
            aggregatedInterval: aggregated, highUncertainty: (aggregated?.width ?? 0) > c.highUncertaintyWidth,
            anomalies: anomalies, confidenceImpact: impact, temporal: temporal)
    }
}
