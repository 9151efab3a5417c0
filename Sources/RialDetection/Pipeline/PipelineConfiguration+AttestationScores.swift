extension PipelineConfiguration {
    /// Scores of a passed attestation by where the key lives, for profiles that weight
    /// `attestation` (Android). Not passed (`unavailable`) = not scored; `fail` scores
    /// `failed`. Each in 0...1.
    public struct AttestationScores: Sendable, Equatable, Codable {
        /// 1.0.
        public var secureEnclave: Double = 1.0
        /// 1.0.
        public var strongbox: Double = 1.0
        /// 0.75: a TEE key is weaker than a dedicated secure element.
        public var tee: Double = 0.75
        /// 0.0: software keys prove nothing about the device.
        public var software: Double = 0.0
        /// 0.0: the attestation was checked and failed.
        public var failed: Double = 0.0

        enum CodingKeys: String, CodingKey {
            case secureEnclave = "secure_enclave"
            case strongbox, tee, software, failed
        }

        public init() {}

        /// The score of `evidence`, or nil when it is not scored (unavailable).
        public func score(for evidence: AttestationEvidence) -> Double? {
            switch evidence.status {
            case .unavailable: return nil
            case .fail: return failed
            case .pass:
                switch evidence.method {
                case .secureEnclave: return secureEnclave
                case .strongbox: return strongbox
                case .tee: return tee
                case .software: return software
                case .none: return nil
                }
            }
        }

        func validate() throws(ConfigurationError) {
            let all = [
                (CodingKeys.secureEnclave, secureEnclave), (CodingKeys.strongbox, strongbox), (CodingKeys.tee, tee),
                (CodingKeys.software, software), (CodingKeys.failed, failed),
            ]
            for (key, value) in all where !(value.isFinite && (0...1).contains(value)) {
                throw ConfigurationError(key: key, "must be a number in 0...1, got \(value)")
            }
        }
    }
}
