/// Fuses per-method scores into one confidence score and level with cross-validation
/// (specs/methods.md section 7). Pure logic, no I/O.
///
/// Algorithm, for a profile with weights `w` and primary `p`:
/// 1. Scored methods: for each method, the first input naming it (later duplicates are
///    ignored), kept when its profile weight is > 0, `available` is true and its score is
///    finite; the score is clamped into 0...1. Methods with weight > 0 that did not
///    score -> `partial_analysis` (no penalty: weights renormalise).
/// 2. `weights_used[i] = w_i / sum(w_j)`; `weighted_mean = sum(weights_used[i] * s_i)`
///    (0 when nothing scored).
/// 3. Verdict of a method: `s_i >= real_threshold`. All verdicts equal -> agree; else
///    `methods_disagree` and level at most `level_caps.disagreement`. Boost
///    `agreement_boost` only when at least `min_methods_for_agreement` methods scored and
///    all say real; never for agreeing on fake.
/// 4. Primary not scored -> `primary_signal_failed`, level at most MEDIUM. Primary
///    scored and at least one other method scored: when the primary's verdict differs
///    from the verdict of the other methods' weighted mean (weights renormalised among
///    them) -> `primary_supporting_disagree` (a flag only; the disagreement cap covers
///    the level).
/// 5. A scored method with `screen_detected` / `print_detected` -> the flag, level at
///    most `level_caps.screen` / `.print`.
/// 6. VERY_HIGH needs every weighted method scored, agreeing and the primary valid;
///    otherwise at most HIGH.
/// 7. Attestation cap (`AggregationConfiguration.AttestationCaps`), the profile's
///    `max_level`, and the passed attestation's detection requirement
///    (`AggregationConfiguration.AttestationRequirements`: not met ->
///    `required_detection_missing`, level at most its `unmet_cap`); a rejected
///    attestation (failed, software-only) raises `attestation_rejected`. Every cap is
///    resolved by `medium_high` (MEDIUM_HIGH -> HIGH by default). Each failed check
///    (`failedChecks`, named as `MetadataChecks.statuses` names them, e.g.
///    `metadata.device_has_lidar`) -> `metadata_check_failed` and level at most
///    `level_caps.metadata_fail` (the cause is the check's name); a check that could not
///    run or that the user opted out of is never passed here.
/// 7b. Cross-validation (`CrossValidationResult.analyse`, configuration
///    `cross_validation`) on the scored methods: pairwise consistency, intervals,
///    anomalies; `high_uncertainty` when the aggregated interval is wider than
///    `high_uncertainty_width`. Under `mode: full` the anomalies' `confidence_impact` is
///    subtracted from the evidence (`weighted_mean + boost - impact`, used in place of
///    `weighted_mean + boost` below) and `high_uncertainty` caps the level at
///    `high_uncertainty_cap`; under `simple` (default) neither.
/// 8. `uncapped = clamp(weighted_mean + boost, 0, 1)`; level = min(level of uncapped by
///    the `>=` boundaries, every cap). If a cap lowered it, score =
///    `min(uncapped, upperBound(level) - capped_score_margin)`.
/// 9. `ambiguous_results` when `|score - level_boundaries.medium| < ambiguity_band`.
/// 10. Ranking score (`AggregationResult.rankingScore`), the score ROC, AUC, DET, tuning
///     and the evaluation decision use, by `ranking` (`AggregationConfiguration.Ranking`);
///     level and score are as above under every choice. With `e` the evidence of step 8
///     before the clamp to 1 and the band score
///     `band(e) = (hi - m) + (m / 2) * (e - hi) / (1 + agreement_boost - hi)`
///     (`m = capped_score_margin`, `hi` the upper bound of the level a cap lowered it to;
///     `bandScore`):
///     - `evidence` (default): `evidenceScore(e)`, capped or not: `uncapped` up to
///       `1 - agreement_boost`, above it the evidence up to `1 + agreement_boost` mapped
///       onto the rest of 0...1, so captures whose `uncapped` clamps to 1 stay apart.
///       The ranking follows the evidence alone; caps
///       change the level, `confidence_score` and the flags, never the order. Chosen
///       because caps that differ between samples reorder them whatever their evidence:
///       on the real development set, a failed metadata check (level SUSPICIOUS) put 48
///       of one source's 50 bona fide photos below its attacks (docs/ranking.md);
///     - `capped`: `band(e)` when a cap lowered the level, else `uncapped`: the level
///       after caps first, the evidence second;
///     - `bounded`: `max(band(e), uncapped - ranking_penalty)` when a cap lowered the
///       level, else `uncapped`: a cap lowers the ranking by at most `ranking_penalty`.
public struct ConfidenceAggregator: Sendable {
    public let configuration: AggregationConfiguration

    /// - Throws: `ConfigurationError` when `configuration` is invalid.
    public init(configuration: AggregationConfiguration = .reference) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// Aggregates with the configuration's profile called `profileName`.
    ///
    /// - Throws: `ConfigurationError` (key `profiles.NAME`) for an unknown profile.
    public func aggregate(
        inputs: [AggregationInput], attestation: AttestationEvidence,
        profileNamed profileName: String
    ) throws(ConfigurationError) -> AggregationResult {
        aggregate(inputs: inputs, attestation: attestation, profile: try configuration.profile(named: profileName))
    }

    /// Aggregates `inputs` under `profile` (see the type's documentation). Never traps:
    /// an invalid profile (no positive weight) yields score 0, SUSPICIOUS.
    ///
    /// - Parameter failedChecks: names of the evidence checks that ran and failed (step 7).
    public func aggregate(
        inputs: [AggregationInput], attestation: AttestationEvidence,
        profile: AggregationProfile, failedChecks: [String] = []
    ) -> AggregationResult {
        let timer = AnalysisTimer()
        let c = configuration
        let boundaries = c.effectiveBoundaries
        var flags = Set<AggregationFlag>()

        var seen = Set<AggregationMethod>()
        var scored: [(method: AggregationMethod, weight: Double, score: Double, input: AggregationInput)] = []
        for input in inputs where seen.insert(input.method).inserted {
            guard let weight = profile.weights[input.method], weight > 0, weight.isFinite,
                input.available, let score = input.score, score.isFinite
            else { continue }
            scored.append((input.method, weight, Swift.min(Swift.max(score, 0), 1), input))
        }
        let expected = profile.weightedMethods
        let allPresent = !scored.isEmpty && scored.count == expected.count
        if !allPresent { flags.insert(.partialAnalysis) }

        let totalWeight = scored.reduce(0) { $0 + $1.weight }
        var weightsUsed: [AggregationMethod: Double] = [:]
        var weightedMean = 0.0
        for entry in scored {
            let share = entry.weight / totalWeight
            weightsUsed[entry.method] = share
            weightedMean += share * entry.score
        }

        let saysReal = { (score: Double) in score >= c.realThreshold }
        let verdicts = scored.map { saysReal($0.score) }
        let agree = verdicts.allSatisfy { $0 == verdicts.first }
        if !agree { flags.insert(.methodsDisagree) }
        let boost =
            agree && scored.count >= c.minMethodsForAgreement && verdicts.allSatisfy({ $0 })
            ? c.agreementBoost : 0
        let scores = scored.map(\.score)
        let disagreement = scores.count >= 2 ? scores.max()! - scores.min()! : 0

        let primary = scored.first { $0.method == profile.primary }
        if let primary {
            let others = scored.filter { $0.method != primary.method }
            if !others.isEmpty {
                let otherWeight = others.reduce(0) { $0 + $1.weight }
                let otherMean = others.reduce(0) { $0 + $1.weight / otherWeight * $1.score }
                if saysReal(primary.score) != saysReal(otherMean) { flags.insert(.primarySupportingDisagree) }
            }
        } else {
            flags.insert(.primarySignalFailed)
        }
        let screen = scored.contains { $0.input.screenDetected }
        let print = scored.contains { $0.input.printDetected }
        if screen { flags.insert(.screenDetected) }
        if print { flags.insert(.printDetected) }

        let cv = CrossValidationResult.analyse(
            scored: scored.map { ($0.method, weightsUsed[$0.method] ?? 0, $0.score) }, primary: profile.primary,
            screenOrPrint: Set(scored.filter { $0.input.screenDetected || $0.input.printDetected }.map(\.method)),
            partial: !allPresent, realThreshold: c.realThreshold, configuration: c.crossValidation)
        let full = c.crossValidation.mode == .full
        if cv.highUncertainty { flags.insert(.highUncertainty) }

        var caps: [(level: ConfidenceLevel, cause: String)] = []
        if full && cv.highUncertainty { caps.append((c.crossValidation.highUncertaintyCap, "high_uncertainty")) }
        if !agree { caps.append((c.levelCaps.disagreement, "methods_disagree")) }
        if screen { caps.append((c.levelCaps.screen, "screen_detected")) }
        if print { caps.append((c.levelCaps.print, "print_detected")) }
        if primary == nil { caps.append((.medium, "primary_signal_failed")) }
        if !(allPresent && agree && primary != nil) { caps.append((.high, "very_high_requirements")) }
        let attestationCap = c.attestationCaps.cap(for: attestation)
        caps.append((attestationCap.level, "attestation.\(attestationCap.key)"))
        if let maxLevel = profile.maxLevel { caps.append((maxLevel, "profile.max_level")) }
        var missingRequired: [AggregationMethod]?
        if let (requirement, key) = c.attestationRequirements.requirement(for: attestation) {
            let satisfied = Self.satisfying(
                inputs, by: c.attestationRequirements.satisfiedBy, threshold: c.realThreshold)
            if let missing = requirement.missing(satisfied: satisfied) {
                missingRequired = missing
                flags.insert(.requiredDetectionMissing)
                caps.append((requirement.unmetCap, "attestation.\(key).requires"))
            }
        }
        for check in Set(failedChecks).sorted() { caps.append((c.levelCaps.metadataFail, check)) }
        if !failedChecks.isEmpty { flags.insert(.metadataCheckFailed) }
        caps = caps.map { (c.resolved($0.level), $0.cause) }
        let rejected = attestation.isRejected
        if rejected { flags.insert(.attestationRejected) }

        let evidence = weightedMean + boost - (full ? cv.confidenceImpact : 0)
        let uncapped = Swift.min(Swift.max(evidence, 0), 1)
        let uncappedLevel = boundaries.level(for: uncapped)
        let binding = caps.filter { $0.level < uncappedLevel }
        let level = binding.map(\.level).min() ?? uncappedLevel
        var score = uncapped, cappedBelow: Double?
        if level < uncappedLevel, let upper = boundaries.upperBound(of: level) {
            score = Swift.min(score, upper - c.cappedScoreMargin)
            cappedBelow = upper
        }
        let ranking = Self.rankingScore(
            evidence: evidence, uncapped: uncapped, cappedBelow: cappedBelow, configuration: c)
        if abs(score - boundaries.medium) < c.ambiguityBand { flags.insert(.ambiguousResults) }

        var result = AggregationResult(
            confidenceScore: score, confidenceLevel: level, uncappedScore: uncapped, rankingScore: ranking,
            weightedMean: weightedMean,
            agreementBoost: boost, flags: flags.sorted(), weightsUsed: weightsUsed, primaryMethod: profile.primary,
            methodsAgree: agree, disagreementScore: disagreement,
            capsApplied: binding.map { "\($0.cause): level capped at \($0.level.rawValue)" }.sorted(),
            attestationRejected: rejected, analysisTimeMs: timer.elapsedMilliseconds)
        result.missingRequired = missingRequired
        result.crossValidation = cv
        return result
    }

    /// The methods among `inputs` that satisfy an attestation requirement (first input
    /// per method, as aggregation reads them; profile weights do not matter): available
    /// with a finite score, and under `passed` a score (clamped into 0...1) `>= threshold`.
    public static func satisfying(
        _ inputs: [AggregationInput], by rule: AggregationConfiguration.AttestationRequirements.Satisfaction,
        threshold: Double
    ) -> Set<AggregationMethod> {
        var seen = Set<AggregationMethod>(), satisfied = Set<AggregationMethod>()
        for input in inputs where seen.insert(input.method).inserted {
            guard input.available, let score = input.score, score.isFinite else { continue }
            if rule == .scored || Swift.min(Swift.max(score, 0), 1) >= threshold { satisfied.insert(input.method) }
        }
        return satisfied
    }

    /// The ranking score (step 10) under `configuration.ranking`, for evidence `e` (before
    /// the clamp to 1), `uncapped = clamp(e, 0, 1)` and `cappedBelow`, the upper bound of
    /// the level a cap lowered the capture to (nil when no cap lowered it: then `uncapped`
    /// under `capped` and `bounded`).
    public static func rankingScore(
        evidence e: Double, uncapped: Double, cappedBelow hi: Double?, configuration c: AggregationConfiguration
    ) -> Double {
        switch c.ranking {
        case .evidence:
            return evidenceScore(e, agreementBoost: c.agreementBoost)
        case .capped:
            guard let hi else { return uncapped }
            return bandScore(
                evidence: e, cappedBelow: hi, margin: c.cappedScoreMargin, agreementBoost: c.agreementBoost)
        case .bounded:
            guard let hi else { return uncapped }
            let band = bandScore(
                evidence: e, cappedBelow: hi, margin: c.cappedScoreMargin, agreementBoost: c.agreementBoost)
            return Swift.max(band, uncapped - c.rankingPenalty)
        }
    }

    /// The ranking score under `ranking: evidence`, capped or not: `clamp(e, 0, 1)` up to
    /// the knee `k = max(1 - b, 0)` (`b` the agreement boost), and above it the evidence
    /// `k...1 + b` mapped linearly onto `k...1`:
    /// `k + (e - k) * (1 - k) / (1 + b - k)`. Strictly increasing in `e` from 0 on, so
    /// evidence above 1 (every method says real and the boost is added) does not tie at 1
    /// as `uncapped_score` does. With the default `b = 0.05`: `e` up to 0.95 as it is,
    /// `0.95 + (e - 0.95) / 2` above (1.05 -> 1.0, 1.0 -> 0.975).
    public static func evidenceScore(_ e: Double, agreementBoost b: Double) -> Double {
        let k = Swift.max(1 - b, 0)
        guard b > 0, e > k else { return Swift.min(Swift.max(e, 0), 1) }
        return Swift.min(k + (e - k) * (1 - k) / (1 + b - k), 1)
    }

    /// The band score of a capture whose level a cap lowered to the level with upper
    /// bound `hi` (exclusive), the ranking score under `ranking: capped`:
    /// `(hi - m) + (m / 2) * (e - hi) / (1 + b - hi)`, where
    /// `e = weighted_mean + boost` is the evidence before the clamp to 1 (in `0...1 + b`,
    /// `b` the configuration's `agreement_boost`) and `e >= hi` (else the cap would not have
    /// lowered the level). Increasing in `e`, from `hi - m` (at `e = hi`) to `hi - m / 2`
    /// (at `1 + b`): the clamp of `uncapped` to 1 would tie every capture with `e >= 1`.
    /// With `hi >= 1 + b` no evidence lies above `hi` and the result is `hi - m`.
    public static func bandScore(
        evidence e: Double, cappedBelow hi: Double, margin m: Double, agreementBoost b: Double
    ) -> Double {
        let span = 1 + b - hi
        let fraction = span > 0 ? Swift.min(Swift.max((e - hi) / span, 0), 1) : 0
        return (hi - m) + (m / 2) * fraction
    }
}
