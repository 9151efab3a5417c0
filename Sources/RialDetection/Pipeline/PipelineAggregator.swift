/// The aggregation step of the pipeline, on its own: which outcomes feed aggregation,
/// their calibration, and the aggregator. `CaptureAnalyzer` runs it after the methods,
/// and `rial-bench rescore` runs it on the candidates a finished run recorded, so both
/// give the same result from the same candidates.
///
/// Steps, for candidates keyed by breakdown key:
/// 1. Selection, per family in `MethodFamily` order: a `payload` candidate of the family
///    that completed with a score in 0...1 if there is one (the phone's result replaces
///    the local ones; `AggregationCandidate.replacesLocalMethods`), else the candidate
///    keyed by `aggregate_with[family]`; a family with neither is not aggregated. A
///    payload entry that failed, is unavailable or invalid is no evidence and never
///    displaces the local result: an all-invalid payload aggregates as no payload would.
/// 2. Calibration: a selected candidate whose key has an entry in `calibration`
///    (`moire/1`) gets `calibration.apply(score)`; payload keys (`payload.moire`) and
///    the attestation signal are used as given.
/// 3. The aggregator (`ConfidenceAggregator`) on the selected inputs, plus attestation
///    as a weighted signal scored by `attestation_scores` (unavailable when not passed
///    or failed), and the evidence checks that failed (`checks` with status `fail`:
///    flag `metadata_check_failed`, cap `level_caps.metadata_fail`).
/// 4. The MVP rule (`MVPEvidenceRule`) on the same capture: hardware from the
///    attestation, depth from the primary candidate's (calibrated) score against
///    `real_threshold`, and `checks`. `confidence_level` is the level of the configured
///    `aggregation.rule`; both levels are in the result (`weighted_level`, `mvp.level`).
public struct PipelineAggregator: Sendable {
    public let configuration: PipelineConfiguration
    let aggregator: ConfidenceAggregator

    /// - Throws: `ConfigurationError` naming the key when `configuration` is invalid.
    public init(configuration: PipelineConfiguration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        aggregator = try ConfidenceAggregator(configuration: configuration.aggregation)
    }

    /// What one aggregation produced.
    public struct Outcome: Sendable, Equatable {
        /// Breakdown keys of the candidates that fed aggregation, in family order.
        public var aggregated: [String]
        public var result: AggregationResult
        /// Breakdown key of the aggregated candidate in the profile's primary role.
        public var primaryMethod: String?
    }

    /// The profile called `name`.
    ///
    /// - Throws: `ConfigurationError` (key `profile`) naming the known profiles.
    public func profile(named name: String) throws(ConfigurationError) -> AggregationProfile {
        do { return try configuration.aggregation.profile(named: name) } catch {
            throw ConfigurationError(
                key: "profile",
                "'\(name)' is not a profile (known: "
                    + configuration.aggregation.profiles.keys.sorted().joined(separator: ", ") + ")")
        }
    }

    /// The breakdown keys that feed aggregation among `candidates` (step 1), in family order.
    public func selection(_ candidates: [String: AggregationCandidate]) -> [String] {
        var keys: [String] = []
        for family in MethodFamily.allCases {
            var payload: String?
            for (key, candidate) in candidates
            where candidate.family == family && candidate.replacesLocalMethods {
                if payload.map({ key < $0 }) ?? true { payload = key }
            }
            if let payload {
                keys.append(payload)
            } else if let method = configuration.aggregateWith[family], candidates[method.description] != nil {
                keys.append(method.description)
            }
        }
        return keys
    }

    /// The score `key`'s candidate feeds aggregation with: calibrated when `calibration`
    /// has an entry for `key` (step 2), else `score` as given.
    public func calibrated(_ score: Double?, key: String) -> Double? {
        guard let score, let calibration = configuration.calibration[key] else { return score }
        return calibration.apply(score)
    }

    /// Selects, calibrates and aggregates `candidates` under `profile` (steps 1-4).
    ///
    /// - Parameter checks: the evidence checks by name (`metadata.timestamp`, ...), as
    ///   `MetadataChecks.statuses` gives them; only `fail` changes the level.
    public func aggregate(
        _ candidates: [String: AggregationCandidate], attestation: AttestationEvidence, profile: AggregationProfile,
        checks: [String: EvidenceCheckStatus] = [:]
    ) -> Outcome {
        let keys = selection(candidates)
        var inputs: [AggregationInput] = keys.map { key in
            let c = candidates[key]!
            return AggregationInput(
                method: c.family.role, available: c.available, score: calibrated(c.score, key: key),
                screenDetected: c.screenDetected, printDetected: c.printDetected)
        }
        let attestationScore = configuration.attestationScores.score(for: attestation)
        inputs.append(attestationScore.map { .scored(.attestation, $0) } ?? .unavailable(.attestation))
        let failed = checks.filter { $0.value == .fail }.keys.sorted()
        var result = aggregator.aggregate(
            inputs: inputs, attestation: attestation, profile: profile, failedChecks: failed)
        let primary = keys.first { candidates[$0]!.family.role == profile.primary }

        var depth = EvidenceCheckStatus.unavailable
        if let primary, let c = candidates[primary], c.available,
            let score = calibrated(c.score, key: primary), score.isFinite
        {
            depth = score >= configuration.aggregation.realThreshold ? .pass : .fail
        }
        let mvp = MVPEvidenceRule.Evaluation(
            hardware: MVPEvidenceRule.hardware(attestation), depth: depth, checks: checks)
        let rule = configuration.aggregation.rule
        result.rule = rule
        result.weightedLevel = result.confidenceLevel
        result.mvp = mvp
        result.failedChecks = failed
        if rule == .mvp { result.confidenceLevel = mvp.level }
        return Outcome(aggregated: keys, result: result, primaryMethod: primary)
    }
}
