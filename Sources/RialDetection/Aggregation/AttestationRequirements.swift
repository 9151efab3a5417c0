extension AggregationConfiguration {
    /// The detection each hardware attestation needs before its cap applies (PRD 2.0
    /// "Android Platform Requirements", table "Evidence Impact by Attestation Level":
    ///
    /// | Attestation Level | Detection Required | Max Confidence |
    /// |---|---|---|
    /// | StrongBox | Parallax OR Moiré | MEDIUM-HIGH |
    /// | TEE | Parallax AND Moiré AND Texture | MEDIUM |
    /// | Software | N/A | REJECTED |
    ///
    /// A requirement is met when `match` is `any` and at least one of `methods` satisfies
    /// it, or `match` is `all` and every one does. A method satisfies it (`satisfied_by`):
    /// - `passed` (default): it was among the inputs, available, with a finite score
    ///   `>= real_threshold` (the verdict "says real" of cross-validation): a method that
    ///   ran and found a screen is not the detection the table asks for;
    /// - `scored`: it was available with a finite score, whatever the score.
    /// The method's profile weight does not matter: the table names methods, not weights.
    ///
    /// When a requirement is not met, the level is capped at its `unmet_cap` (flag
    /// `required_detection_missing`; `AggregationResult.missingRequired` names the methods
    /// that did not satisfy it; cause `attestation.KEY.requires`). The PRD gives the
    /// maximum only for a capture that has the required detection and says, for methods
    /// that are missing, "confidence ceiling reduced" (PRD 2.0 "Cross-Validation":
    /// "Partial: Some methods unavailable -> no penalty, but confidence ceiling reduced"),
    /// without the lower ceiling: the default is one level below the attestation's
    /// maximum (StrongBox MEDIUM, TEE LOW), which also matches the MVP rule's step from
    /// HIGH to MEDIUM when hardware passed and the depth check did not. Secure Enclave has
    /// no row in the table: no requirement (`methods` empty).
    public struct AttestationRequirements: Sendable, Equatable, Codable {
        /// What satisfies a requirement. `passed`.
        public var satisfiedBy: Satisfaction = .passed
        /// None.
        public var secureEnclave = AttestationRequirement(methods: [], match: .all, unmetCap: .veryHigh)
        /// Parallax OR moire; unmet -> MEDIUM.
        public var strongbox = AttestationRequirement(methods: [.parallax, .moire], match: .any, unmetCap: .medium)
        /// Parallax AND moire AND texture; unmet -> LOW.
        public var tee = AttestationRequirement(methods: [.parallax, .moire, .texture], match: .all, unmetCap: .low)

        enum CodingKeys: String, CodingKey {
            case satisfiedBy = "satisfied_by"
            case secureEnclave = "secure_enclave"
            case strongbox, tee
        }

        public init() {}

        /// No attestation requires any detection (configurations recorded before
        /// `attestation_requirements` existed).
        public static let nothingRequired: AttestationRequirements = {
            var r = AttestationRequirements()
            r.strongbox.methods = []
            r.tee.methods = []
            return r
        }()

        /// What satisfies a requirement.
        public enum Satisfaction: String, Sendable, Hashable, Codable, CaseIterable {
            /// Available, finite score `>= real_threshold`.
            case passed
            /// Available with a finite score.
            case scored
        }

        /// The requirement for `attestation` and its key: only a passed hardware
        /// attestation has one (a failed, software or missing attestation is capped or
        /// rejected by `attestation_caps` already).
        public func requirement(for attestation: AttestationEvidence) -> (AttestationRequirement, key: String)? {
            guard attestation.status == .pass else { return nil }
            switch attestation.method {
            case .secureEnclave: return (secureEnclave, "secure_enclave")
            case .strongbox: return (strongbox, "strongbox")
            case .tee: return (tee, "tee")
            case .software, .none: return nil
            }
        }

        /// Checks every requirement: `methods` without repeats.
        ///
        /// - Throws: `ConfigurationError` naming the key, e.g. `tee.methods`.
        public func validate() throws(ConfigurationError) {
            for (key, r) in [("secure_enclave", secureEnclave), ("strongbox", strongbox), ("tee", tee)]
            where Set(r.methods).count != r.methods.count {
                throw ConfigurationError(key: "\(key).methods", "names a method twice: \(r.methods.map(\.rawValue))")
            }
        }
    }

    /// One row of the table: the methods, how many must satisfy it, the cap when not.
    public struct AttestationRequirement: Sendable, Equatable, Codable {
        /// The methods the requirement names; empty = no requirement.
        public var methods: [AggregationMethod]
        /// `any` (OR) or `all` (AND).
        public var match: Match
        /// The highest level when the requirement is not met.
        public var unmetCap: ConfidenceLevel

        public enum Match: String, Sendable, Hashable, Codable, CaseIterable {
            case any, all
        }

        enum CodingKeys: String, CodingKey {
            case methods, match
            case unmetCap = "unmet_cap"
        }

        public init(methods: [AggregationMethod], match: Match, unmetCap: ConfidenceLevel) {
            self.methods = methods
            self.match = match
            self.unmetCap = unmetCap
        }

        /// The methods of the requirement that are not satisfied, given the ones that
        /// are, or nil when the requirement is met (always met when `methods` is empty).
        public func missing(satisfied: Set<AggregationMethod>) -> [AggregationMethod]? {
            guard !methods.isEmpty else { return nil }
            let missing = methods.filter { !satisfied.contains($0) }
            switch match {
            case .any: return missing.count < methods.count ? nil : missing.sorted()
            case .all: return missing.isEmpty ? nil : missing.sorted()
            }
        }
    }
}
