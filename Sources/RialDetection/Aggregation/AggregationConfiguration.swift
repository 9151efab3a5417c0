import RialMedia

/// Every weight, threshold, boundary and cap of confidence aggregation (specs/methods.md
/// section 7). The compiled-in defaults are the spec's.
///
/// A partial object is decoded over the defaults with
/// `tree.decode(AggregationConfiguration.self, overlaying: .reference, rules: overlayRules)`:
/// a missing key keeps its default, at every depth. A profile named in `profiles` is laid
/// over the default profile of the same name (a new name over an empty profile), and its
/// `weights` are merged key by key, so
/// `{"profiles": {"ios_pro": {"weights": {"moire": 0.2}}}}` changes one weight. Set a
/// weight to 0 to drop a method. Unknown method names are a decoding error. Call
/// `validate()` (or build a `ConfidenceAggregator`, which does) before use.
public struct AggregationConfiguration: Sendable, Equatable, Codable {
    /// Weight profiles by name. Defaults: `ios_pro`, `ios_standard` and `android` (PRD 2.0
    /// "Detection Capabilities Matrix").
    public var profiles: [String: AggregationProfile] = [
        AggregationProfile.iosProName: .iosPro,
        AggregationProfile.iosStandardName: .iosStandard,
        AggregationProfile.androidName: .android,
    ]
    /// Added to the weighted mean when at least `min_methods_for_agreement` methods
    /// scored and all of them say real. 0.05; finite, 0...1.
    public var agreementBoost: Double = 0.05
    /// A method "says real" when `score >= real_threshold` (inclusive). Its verdict
    /// decides agreement, disagreement and `primary_supporting_disagree`. 0.5; 0...1.
    public var realThreshold: Double = 0.5
    /// Fewest scored methods for the agreement boost: one method agreeing with itself is
    /// no cross-validation. 2; >= 1.
    public var minMethodsForAgreement: Int = 2
    /// Lower bounds (inclusive) of the levels above SUSPICIOUS.
    public var levelBoundaries = LevelBoundaries()
    /// `ambiguous_results` when `|confidence_score - level_boundaries.medium| <
    /// ambiguity_band` (strict). 0.05; finite, >= 0 (0 = never).
    public var ambiguityBand: Double = 0.05
    /// When a cap lowers the level, the score is lowered to at most the capped level's
    /// upper end: the next boundary minus this margin (MEDIUM cap -> 0.75 - 0.01 = 0.74),
    /// so `confidence_score` and `confidence_level` always agree. 0.01; > 0 and smaller
    /// than the narrowest level band.
    public var cappedScoreMargin: Double = 0.01
    /// The highest level allowed when a condition holds.
    public var levelCaps = LevelCaps()
    /// Which score ranks (`ranking_score`: what ROC, AUC, DET, the threshold tables,
    /// tuning and the decision use) when a cap lowered the level; levels, caps and
    /// `confidence_score` are the same under every choice (`Ranking`). `evidence`: the
    /// uncapped score (weighted mean + boost, clamped to 0...1), whatever the caps.
    /// `capped`: a band inside the capped level, ordered by evidence (level first,
    /// evidence second). `bounded`: the larger of that band and the uncapped score minus
    /// `ranking_penalty`. Default `evidence`: issue 12 asks that the ranking score keep the
    /// order of the evidence ("a cap may lower it, not flatten it"); on real photos, caps
    /// that differ between samples reordered whole sources (docs/ranking.md). A
    /// configuration recorded before this key existed decodes as `capped`, what it used.
    public var ranking: Ranking = .evidence
    /// Under `ranking: bounded`, the most a cap lowers the ranking score below
    /// `uncapped_score` (never below the `capped` ranking score). 0.1; finite, in 0...1
    /// (0 ranks as `evidence`, 1 as `capped`: `uncapped - 1 <= 0` lies below every band).
    /// Read only under `bounded`.
    public var rankingPenalty: Double = 0.1
    /// The highest level each attestation allows.
    public var attestationCaps = AttestationCaps()
    /// Which rule gives `confidence_level`: `weighted` (the default) or `mvp`. Both are
    /// computed for every capture (`AggregationResult.weighted_level`, `.mvp.level`);
    /// `confidence_score` and `ranking_score` are always the weighted aggregator's (the MVP
    /// rule has no score), so ROC/AUC do not depend on this choice. Default `weighted`:
    /// PRD 2.0 replaces the MVP table by "Confidence Weighting" with cross-validation
    /// for the multi-signal pipeline this harness measures (its Expansion Note: "Post-MVP
    /// adds multi-signal detection with attestation-first trust model. See
    /// Multi-Signal Detection Architecture for confidence weighting").
    public var rule: Rule = .weighted
    /// What the PRD's "MEDIUM-HIGH" (StrongBox and Android "Max Confidence") is: `level`,
    /// a level of its own (`MEDIUM_HIGH`, from `level_boundaries.medium_high` up to
    /// `level_boundaries.high`); `high` or `medium`, a documented mapping: every
    /// configured MEDIUM_HIGH (a cap, a profile's `max_level`) resolves to that level and
    /// no result carries MEDIUM_HIGH. Default `high`: it keeps the five levels that
    /// methods.md section 7 defines and story 9-6 sends
    /// (`detection_confidence_level`: "very_high"/"high"/"medium"/"low"/"suspicious"),
    /// and it is what a MEDIUM-HIGH ceiling allows at most (HIGH, never VERY_HIGH), which
    /// keeps StrongBox above TEE (MEDIUM) and below Secure Enclave; the default run's
    /// numbers are unchanged by it. `level` is for a consumer that shows MEDIUM-HIGH.
    public var mediumHigh: MediumHigh = .high
    /// Detection each hardware attestation needs to reach its cap (PRD 2.0 "Evidence
    /// Impact by Attestation Level").
    public var attestationRequirements = AttestationRequirements()
    /// Cross-validation between the methods: the PRD's simple rule or the full analysis
    /// (`CrossValidation`).
    public var crossValidation = CrossValidation()
    /// The deployed backend's video confidence rule (methods.md section 6, "Video
    /// confidence (deployed rule)"): the level `run` gives a video sample from hardware
    /// attestation, the hash chain and temporal/1's depth analysis, beside the weighted
    /// aggregate. Photos never use it.
    public var videoRule = VideoConfidenceRule()

    /// The spec defaults.
    public static let reference = AggregationConfiguration()

    public init() {}

    /// `level` as the configuration's `medium_high` resolves it: MEDIUM_HIGH becomes HIGH
    /// or MEDIUM under the mappings and stays itself under `level`; any other level is
    /// itself.
    public func resolved(_ level: ConfidenceLevel) -> ConfidenceLevel {
        guard level == .mediumHigh else { return level }
        switch mediumHigh {
        case .level: return .mediumHigh
        case .high: return .high
        case .medium: return .medium
        }
    }

    /// `level_boundaries` with the MEDIUM_HIGH band switched on when `medium_high` is
    /// `level`: the boundaries every score is read against.
    public var effectiveBoundaries: LevelBoundaries {
        var b = levelBoundaries
        b.usesMediumHigh = mediumHigh == .level
        return b
    }

    /// The levels results can carry under this configuration, lowest first.
    public var levels: [ConfidenceLevel] {
        mediumHigh == .level ? ConfidenceLevel.allCases : ConfidenceLevel.standard
    }

    /// What the PRD's MEDIUM-HIGH is (`medium_high`).
    public enum MediumHigh: String, Sendable, Hashable, Codable, CaseIterable {
        /// A level of its own, MEDIUM_HIGH, between MEDIUM and HIGH.
        case level
        /// MEDIUM_HIGH resolves to HIGH (the default).
        case high
        /// MEDIUM_HIGH resolves to MEDIUM.
        case medium
    }

    /// The profile called `name`.
    ///
    /// - Throws: `ConfigurationError` with key `profiles.NAME` when there is none.
    public func profile(named name: String) throws(ConfigurationError) -> AggregationProfile {
        guard let profile = profiles[name] else {
            throw ConfigurationError(
                key: name,
                "no such profile; known profiles: \(profiles.keys.sorted().joined(separator: ", "))"
            ).prefixed(by: CodingKeys.profiles)
        }
        return profile
    }

    /// Lower bounds (inclusive, `>=`) of each level; a score below `low` is SUSPICIOUS.
    /// Strictly decreasing, all in (0, 1].
    public struct LevelBoundaries: Sendable, Equatable, Codable {
        /// 0.90.
        public var veryHigh: Double = 0.90
        /// 0.75.
        public var high: Double = 0.75
        /// 0.50.
        public var medium: Double = 0.50
        /// 0.25.
        public var low: Double = 0.25
        /// Lower bound of MEDIUM_HIGH, read only when `aggregation.medium_high` is `level`
        /// (then `medium < medium_high < high`). 0.625, the middle of the MEDIUM band
        /// 0.50...0.75: the product documents name the level but give it no score.
        public var mediumHigh: Double = 0.625
        /// Whether `medium_high` splits the MEDIUM band (not configuration of its own:
        /// `AggregationConfiguration.effectiveBoundaries` sets it from `medium_high`).
        public var usesMediumHigh = false

        enum CodingKeys: String, CodingKey {
            case veryHigh = "very_high"
            case high, medium, low
            case mediumHigh = "medium_high"
        }

        public init() {}

        /// Synthesized decoding, except that `medium_high` may be absent (configurations
        /// recorded before it existed): then 0.625.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            veryHigh = try c.decode(Double.self, forKey: .veryHigh)
            high = try c.decode(Double.self, forKey: .high)
            medium = try c.decode(Double.self, forKey: .medium)
            low = try c.decode(Double.self, forKey: .low)
            mediumHigh = try c.decodeIfPresent(Double.self, forKey: .mediumHigh) ?? 0.625
        }

        public init(veryHigh: Double, high: Double, medium: Double, low: Double) {
            self.veryHigh = veryHigh
            self.high = high
            self.medium = medium
            self.low = low
        }

        /// The level of `score`: the highest level whose lower bound is `<= score`.
        /// NaN is SUSPICIOUS.
        public func level(for score: Double) -> ConfidenceLevel {
            if score >= veryHigh { return .veryHigh }
            if score >= high { return .high }
            if usesMediumHigh && score >= mediumHigh { return .mediumHigh }
            if score >= medium { return .medium }
            if score >= low { return .low }
            return .suspicious
        }

        /// The inclusive lower bound of `level` (0 for SUSPICIOUS).
        public func lowerBound(of level: ConfidenceLevel) -> Double {
            switch level {
            case .suspicious: 0
            case .low: low
            case .medium: medium
            case .mediumHigh: usesMediumHigh ? mediumHigh : high
            case .high: high
            case .veryHigh: veryHigh
            }
        }

        /// The exclusive upper bound of `level`: the next level's lower bound, or nil for
        /// VERY_HIGH.
        public func upperBound(of level: ConfidenceLevel) -> Double? {
            switch level {
            case .suspicious: low
            case .low: medium
            case .medium: usesMediumHigh ? mediumHigh : high
            case .mediumHigh: high
            case .high: veryHigh
            case .veryHigh: nil
            }
        }
    }

    /// The highest level allowed under each condition of methods.md section 7. The two
    /// structural rules are not configurable: VERY_HIGH needs every weighted method
    /// scored, agreeing and the primary valid (else at most HIGH), and HIGH needs the
    /// primary valid (else at most MEDIUM).
    public struct LevelCaps: Sendable, Equatable, Codable {
        /// When the methods disagree. MEDIUM.
        public var disagreement: ConfidenceLevel = .medium
        /// When a scored method detected a screen. MEDIUM.
        public var screen: ConfidenceLevel = .medium
        /// When a scored method detected a print. MEDIUM.
        public var print: ConfidenceLevel = .medium
        /// When a metadata check ran and failed (`metadata_check_failed`). SUSPICIOUS: the
        /// product documents' evidence status table (PRD 1.1 / 2.0 "Evidence Status
        /// Values") reads FAIL as "Red flag—possible manipulation", and their MVP rule
        /// returns SUSPICIOUS when any check failed. An unavailable check never applies it.
        public var metadataFail: ConfidenceLevel = .suspicious

        enum CodingKeys: String, CodingKey {
            case disagreement, screen, print
            case metadataFail = "metadata_fail"
        }

        public init() {}

        /// Synthesized decoding, except that `metadata_fail` may be absent (configurations
        /// recorded in `results.json` before it existed): then it is SUSPICIOUS.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            disagreement = try c.decode(ConfidenceLevel.self, forKey: .disagreement)
            screen = try c.decode(ConfidenceLevel.self, forKey: .screen)
            print = try c.decode(ConfidenceLevel.self, forKey: .print)
            metadataFail = try c.decodeIfPresent(ConfidenceLevel.self, forKey: .metadataFail) ?? .suspicious
        }
    }

    /// Which score ranks. With `e = weighted_mean + boost` (minus the cross-validation
    /// impact under `cross_validation.mode: full`), `uncapped = clamp(e, 0, 1)` and, when a
    /// cap lowered the level to a level with upper bound `hi`, the band score
    /// `band(e) = (hi - m) + (m / 2) * (e - hi) / (1 + b - hi)` (`ConfidenceAggregator
    /// .bandScore`; `m` = `capped_score_margin`, `b` = `agreement_boost`):
    public enum Ranking: String, Sendable, Hashable, Codable, CaseIterable {
        /// The evidence whatever the caps (`ConfidenceAggregator.evidenceScore`: `uncapped`
        /// up to `1 - agreement_boost`, the evidence above it mapped onto the rest of 0...1
        /// so it does not tie at 1): the order of the evidence, exactly. Ties only where
        /// the evidence ties or is below 0.
        case evidence
        /// `band(e)` when a cap lowered the level, else `uncapped`: the level after caps
        /// first, the evidence second (what runs used before `ranking` existed). A cap
        /// that differs between samples (a failed metadata check, a detection boolean)
        /// reorders them whatever their evidence, and a capped sample ranks below an
        /// uncapped one of its level whose evidence is within `m` under the boundary.
        case capped
        /// `max(band(e), uncapped - ranking_penalty)` when a cap lowered the level, else
        /// `uncapped`: a cap lowers the ranking score by at most `ranking_penalty`.
        /// Increasing in `e` for a given set of caps; two samples keep their order unless
        /// their evidence differs by less than the penalty and only one is capped.
        case bounded
    }

    /// Which rule gives `confidence_level`.
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        /// The weighted aggregator (`ConfidenceAggregator`): PRD 2.0 "Confidence
        /// Weighting" and "Cross-Validation", methods.md section 7.
        case weighted
        /// The MVP rule (`MVPEvidenceRule`): PRD 1.1 / 2.0 "Confidence Calculation (MVP)",
        /// hardware attestation x the primary depth check, SUSPICIOUS on any failed check.
        case mvp
    }

    /// The highest level each hardware attestation allows (attestation-first model,
    /// methods.md section 7). Which entry applies:
    /// - `status == .fail` -> `failed` (SUSPICIOUS), and the capture is rejected;
    /// - `status == .unavailable` (whatever the method) -> `none`;
    /// - `status == .pass` -> the entry of the method; `software` is rejected.
    ///
    /// Decisions where the spec is silent or coarse:
    /// - "software-only attestation is rejected" -> `software` = SUSPICIOUS, with
    ///   `AggregationResult.attestationRejected` set (the flags vocabulary has no entry).
    /// - "StrongBox max MEDIUM-HIGH" -> `strongbox` = MEDIUM_HIGH, which `medium_high`
    ///   resolves (default HIGH: StrongBox may reach HIGH but never VERY_HIGH, which keeps
    ///   it above TEE (MEDIUM) and below Secure Enclave).
    /// - No attestation (`none`, or status unavailable) -> MEDIUM, matching the MVP
    ///   rule where depth alone without hardware reaches MEDIUM.
    /// - "Secure Enclave + LiDAR can reach VERY_HIGH" -> `secure_enclave` = VERY_HIGH;
    ///   LiDAR is then required by the VERY_HIGH rule (all methods present, primary valid).
    public struct AttestationCaps: Sendable, Equatable, Codable {
        /// VERY_HIGH.
        public var secureEnclave: ConfidenceLevel = .veryHigh
        /// MEDIUM_HIGH (PRD 2.0 "Evidence Impact by Attestation Level"), resolved by
        /// `medium_high` (default HIGH).
        public var strongbox: ConfidenceLevel = .mediumHigh
        /// MEDIUM.
        public var tee: ConfidenceLevel = .medium
        /// SUSPICIOUS (rejected).
        public var software: ConfidenceLevel = .suspicious
        /// MEDIUM.
        public var none: ConfidenceLevel = .medium
        /// Attestation checked and failed. SUSPICIOUS.
        public var failed: ConfidenceLevel = .suspicious

        enum CodingKeys: String, CodingKey {
            case secureEnclave = "secure_enclave"
            case strongbox, tee, software, none, failed
        }

        public init() {}

        /// The cap for `attestation` and the configuration key it came from.
        public func cap(for attestation: AttestationEvidence) -> (level: ConfidenceLevel, key: String) {
            switch attestation.status {
            case .fail: return (failed, "failed")
            case .unavailable: return (none, "none")
            case .pass:
                switch attestation.method {
                case .secureEnclave: return (secureEnclave, "secure_enclave")
                case .strongbox: return (strongbox, "strongbox")
                case .tee: return (tee, "tee")
                case .software: return (software, "software")
                case .none: return (none, "none")
                }
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case profiles
        case agreementBoost = "agreement_boost"
        case realThreshold = "real_threshold"
        case minMethodsForAgreement = "min_methods_for_agreement"
        case levelBoundaries = "level_boundaries"
        case ambiguityBand = "ambiguity_band"
        case cappedScoreMargin = "capped_score_margin"
        case levelCaps = "level_caps"
        case ranking
        case rankingPenalty = "ranking_penalty"
        case attestationCaps = "attestation_caps"
        case rule
        case mediumHigh = "medium_high"
        case attestationRequirements = "attestation_requirements"
        case crossValidation = "cross_validation"
        case videoRule = "video_rule"
    }

    /// Synthesized decoding, except that keys added later may be absent (configurations
    /// recorded in `results.json` before they existed): `rule` is then `weighted`,
    /// `ranking` `capped`, `ranking_penalty` 0.1, and the others as noted below.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        profiles = try c.decode([String: AggregationProfile].self, forKey: .profiles)
        agreementBoost = try c.decode(Double.self, forKey: .agreementBoost)
        realThreshold = try c.decode(Double.self, forKey: .realThreshold)
        minMethodsForAgreement = try c.decode(Int.self, forKey: .minMethodsForAgreement)
        levelBoundaries = try c.decode(LevelBoundaries.self, forKey: .levelBoundaries)
        ambiguityBand = try c.decode(Double.self, forKey: .ambiguityBand)
        cappedScoreMargin = try c.decode(Double.self, forKey: .cappedScoreMargin)
        levelCaps = try c.decode(LevelCaps.self, forKey: .levelCaps)
        // Absent in configurations recorded before it existed: they ranked by `capped`.
        ranking = try c.decodeIfPresent(Ranking.self, forKey: .ranking) ?? .capped
        rankingPenalty = try c.decodeIfPresent(Double.self, forKey: .rankingPenalty) ?? 0.1
        attestationCaps = try c.decode(AttestationCaps.self, forKey: .attestationCaps)
        rule = try c.decodeIfPresent(Rule.self, forKey: .rule) ?? .weighted
        // Absent in configurations recorded before they existed: HIGH was then the
        // StrongBox cap as written, and no attestation had a detection requirement.
        mediumHigh = try c.decodeIfPresent(MediumHigh.self, forKey: .mediumHigh) ?? .high
        attestationRequirements =
            try c.decodeIfPresent(AttestationRequirements.self, forKey: .attestationRequirements)
            ?? .nothingRequired
        crossValidation = try c.decodeIfPresent(CrossValidation.self, forKey: .crossValidation) ?? CrossValidation()
        videoRule = try c.decodeIfPresent(VideoConfidenceRule.self, forKey: .videoRule) ?? VideoConfidenceRule()
    }

    /// How a partial object is laid over the defaults (`JSONValue.decode(_:overlaying:rules:)`)
    /// where the plain overlay rule does not say it: a profile named in `profiles` is laid
    /// over the default profile of that name, and a new name over an empty profile
    /// (`{"weights": {}}`, no primary); a profile or a weight written as `null` is a value
    /// (refused by the decoder), not "keep the default". Weights merge per method by the
    /// plain rule.
    public static let overlayRules: JSONOverlayRules = {
        let profile = "\(CodingKeys.profiles.stringValue).*"
        let weights = "\(profile).\(AggregationProfile.CodingKeys.weights.stringValue).*"
        let emptyProfile = JSONValue.object([AggregationProfile.CodingKeys.weights.stringValue: .object([:])])
        return JSONOverlayRules(nullable: [profile, weights], entryTemplates: [profile: emptyProfile])
    }()

    /// Checks that aggregation is defined:
    /// - at least one profile; in each, every weight finite and >= 0, their sum finite
    ///   (two weights of 1e308 overflow it and every share becomes 0 or NaN), at least
    ///   one > 0, and a `primary` whose weight is > 0;
    /// - `agreement_boost` and `real_threshold` finite and in 0...1;
    /// - `min_methods_for_agreement >= 1`;
    /// - `level_boundaries` finite, in (0, 1] and strictly decreasing
    ///   (`very_high > high > medium > low > 0`);
    /// - `ambiguity_band` finite and >= 0;
    /// - `ranking_penalty` finite and in 0...1;
    /// - `capped_score_margin` finite, > 0 and smaller than the narrowest band
    ///   (`low - 0`, `medium - low`, `high - medium`, `very_high - high`).
    ///
    /// - Throws: `ConfigurationError` naming the first offending key as a
    ///   dotted path, e.g. `profiles.ios_pro.weights.moire`.
    public func validate() throws(ConfigurationError) {
        guard !profiles.isEmpty else {
            throw ConfigurationError(key: CodingKeys.profiles, "must name at least one profile")
        }
        for name in profiles.keys.sorted() {
            let profile = profiles[name]!
            let prefix = "\(CodingKeys.profiles.stringValue).\(name)"
            let weightsKey = "\(prefix).\(AggregationProfile.CodingKeys.weights.stringValue)"
            let primaryKey = "\(prefix).\(AggregationProfile.CodingKeys.primary.stringValue)"
            for method in profile.weights.keys.sorted() {
                let weight = profile.weights[method]!
                guard weight.isFinite else {
                    throw ConfigurationError(
                        key: "\(weightsKey).\(method.rawValue)", "must be a finite number, got \(weight)")
                }
                guard weight >= 0 else {
                    throw ConfigurationError(key: "\(weightsKey).\(method.rawValue)", "must be >= 0, got \(weight)")
                }
            }
            let total = profile.weights.values.reduce(0, +)
            guard total.isFinite else {
                throw ConfigurationError(
                    key: weightsKey, "must add up to a finite number (the shares are weight / sum), got \(total)")
            }
            guard profile.weights.values.contains(where: { $0 > 0 }) else {
                throw ConfigurationError(key: weightsKey, "must give at least one method a weight > 0")
            }
            guard let primary = profile.primary else {
                throw ConfigurationError(key: primaryKey, "is missing; name the primary method (e.g. lidar)")
            }
            guard let weight = profile.weights[primary], weight > 0 else {
                throw ConfigurationError(
                    key: primaryKey, "'\(primary.rawValue)' must have a weight > 0 in \(weightsKey)")
            }
        }
        for (key, number) in [(CodingKeys.agreementBoost, agreementBoost), (.realThreshold, realThreshold)]
        where !(number.isFinite && (0...1).contains(number)) {
            throw ConfigurationError(key: key, "must be a finite number in 0...1, got \(number)")
        }
        guard minMethodsForAgreement >= 1 else {
            throw ConfigurationError(
                key: CodingKeys.minMethodsForAgreement, "must be >= 1, got \(minMethodsForAgreement)")
        }
        let b = levelBoundaries
        let bounds: [(LevelBoundaries.CodingKeys, Double)] = [
            (.veryHigh, b.veryHigh), (.high, b.high), (.medium, b.medium), (.low, b.low),
        ]
        for (name, bound) in bounds where !(bound.isFinite && bound > 0 && bound <= 1) {
            throw ConfigurationError(key: name, "must be finite and in (0, 1], got \(bound)")
                .prefixed(by: CodingKeys.levelBoundaries)
        }
        for i in 1..<bounds.count where !(bounds[i].1 < bounds[i - 1].1) {
            let above = "\(CodingKeys.levelBoundaries.stringValue).\(bounds[i - 1].0.stringValue)"
            throw ConfigurationError(key: bounds[i].0, "must be < \(above) (\(bounds[i - 1].1)), got \(bounds[i].1)")
                .prefixed(by: CodingKeys.levelBoundaries)
        }
        guard ambiguityBand.isFinite, ambiguityBand >= 0 else {
            throw ConfigurationError(key: CodingKeys.ambiguityBand, "must be finite and >= 0, got \(ambiguityBand)")
        }
        guard rankingPenalty.isFinite, (0...1).contains(rankingPenalty) else {
            throw ConfigurationError(
                key: CodingKeys.rankingPenalty, "must be a finite number in 0...1, got \(rankingPenalty)")
        }
        if mediumHigh == .level {
            guard b.mediumHigh.isFinite, b.mediumHigh > b.medium, b.mediumHigh < b.high else {
                throw ConfigurationError(
                    key: LevelBoundaries.CodingKeys.mediumHigh,
                    "must be between level_boundaries.medium (\(b.medium)) and level_boundaries.high (\(b.high)) "
                        + "when medium_high is 'level', got \(b.mediumHigh)"
                ).prefixed(by: CodingKeys.levelBoundaries)
            }
        }
        let split = mediumHigh == .level ? min(b.mediumHigh - b.medium, b.high - b.mediumHigh) : 1
        let narrowest = min(b.low, b.medium - b.low, b.high - b.medium, b.veryHigh - b.high, split)
        guard cappedScoreMargin.isFinite, cappedScoreMargin > 0, cappedScoreMargin < narrowest else {
            throw ConfigurationError(
                key: CodingKeys.cappedScoreMargin,
                "must be > 0 and < the narrowest level band (\(narrowest)), got \(cappedScoreMargin)")
        }
        do { try attestationRequirements.validate() } catch {
            throw error.prefixed(by: CodingKeys.attestationRequirements)
        }
        do { try crossValidation.validate() } catch { throw error.prefixed(by: CodingKeys.crossValidation) }
        do { try videoRule.validate() } catch { throw error.prefixed(by: CodingKeys.videoRule) }
    }
}
