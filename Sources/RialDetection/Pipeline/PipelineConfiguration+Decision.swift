extension PipelineConfiguration {
    /// How a score becomes a yes/no decision: bona fide (accept) when `score >= threshold`.
    public struct DecisionConfiguration: Sendable, Equatable, Codable {
        /// Threshold of the aggregate's `ranking_score` (equal to `confidence_score` unless
        /// a cap lowered the level). 0.5; in 0...1.
        public var threshold: Double = 0.5
        /// Threshold of a method's own score where `method_thresholds` has no entry for it: the
        /// operating point of its per-method metrics. 0.5; in 0...1. Apart from `threshold`,
        /// so moving the aggregate's operating point (`tune`, a rescore) leaves every method's
        /// numbers as they were. Recorded configurations written before it existed read it as
        /// their `threshold`, which methods used then.
        public var methodThreshold: Double = 0.5
        /// Per-method thresholds by identifier (`depth/1: 0.5`); empty by default.
        public var methodThresholds: [String: Double] = [:]

        enum CodingKeys: String, CodingKey {
            case threshold
            case methodThreshold = "method_threshold"
            case methodThresholds = "method_thresholds"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            threshold = try c.decode(Double.self, forKey: .threshold)
            methodThreshold = try c.decodeIfPresent(Double.self, forKey: .methodThreshold) ?? threshold
            methodThresholds = try c.decode([String: Double].self, forKey: .methodThresholds)
        }

        /// The threshold of `method` (nil = the aggregate).
        public func threshold(for method: MethodIdentifier?) -> Double {
            guard let method else { return threshold }
            return methodThresholds[method.description] ?? methodThreshold
        }

        func validate() throws(ConfigurationError) {
            guard threshold.isFinite, (0...1).contains(threshold) else {
                throw ConfigurationError(key: CodingKeys.threshold, "must be a number in 0...1, got \(threshold)")
            }
            guard methodThreshold.isFinite, (0...1).contains(methodThreshold) else {
                throw ConfigurationError(
                    key: CodingKeys.methodThreshold, "must be a number in 0...1, got \(methodThreshold)")
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
