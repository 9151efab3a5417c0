extension PipelineConfiguration {
    /// How a score becomes a yes/no decision: bona fide (accept) when `score >= threshold`.
    public struct DecisionConfiguration: Sendable, Equatable, Codable {
        /// Threshold of the aggregate's `ranking_score` (equal to `confidence_score` unless
        /// a cap lowered the level) and of any method without its own entry. 0.5; in 0...1.
        public var threshold: Double = 0.5
        /// Per-method thresholds by identifier (`depth/1: 0.5`); empty by default.
        public var methodThresholds: [String: Double] = [:]

        enum CodingKeys: String, CodingKey {
            case threshold
            case methodThresholds = "method_thresholds"
        }

        public init() {}

        /// The threshold of `method` (nil = the aggregate).
        public func threshold(for method: MethodIdentifier?) -> Double {
            guard let method else { return threshold }
            return methodThresholds[method.description] ?? threshold
        }

        func validate() throws(ConfigurationError) {
            guard threshold.isFinite, (0...1).contains(threshold) else {
                throw ConfigurationError(key: CodingKeys.threshold, "must be a number in 0...1, got \(threshold)")
            }
            for key in methodThresholds.keys.sorted() {
                do { _ = try MethodIdentifier(parsing: key) } catch {
                    throw ConfigurationError(key: key, error.description).prefixed(by: CodingKeys.methodThresholds)
                }
                let value = methodThresholds[key]!
                guard value.isFinite, (0...1).contains(value) else {
                    throw ConfigurationError(key: key, "must be a number in 0...1, got \(value)")
                        .prefixed(by: CodingKeys.methodThresholds)
                }
            }
        }
    }
}
