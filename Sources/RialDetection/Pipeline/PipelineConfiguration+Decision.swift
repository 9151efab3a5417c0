extension PipelineConfiguration {
    /// How a score becomes a yes/no decision: bona fide (accept) when `score >= threshold`.
    public struct DecisionConfiguration: Sendable, Equatable, Codable {
        /// Threshold of the aggregate `confidence_score` and of any method without its
        /// own entry. 0.5; in 0...1.
        public var threshold: Double = 0.5
        /// Per-method thresholds by identifier (`depth/1: 0.5`); empty by default.
        public var methodThresholds: [String: Double] = [:]

        enum CodingKeys: String, CodingKey {
            case threshold
            case methodThresholds = "method_thresholds"
        }

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            threshold = try c.decodeIfPresent(Double.self, forKey: .threshold) ?? 0.5
            methodThresholds = try c.decodeIfPresent([String: Double].self, forKey: .methodThresholds) ?? [:]
        }

        /// The threshold of `method` (nil = the aggregate).
        public func threshold(for method: MethodIdentifier?) -> Double {
            guard let method else { return threshold }
            return methodThresholds[method.description] ?? threshold
        }

        func validate() throws(ConfigurationError) {
            guard threshold.isFinite, (0...1).contains(threshold) else {
                throw ConfigurationError(key: "threshold", "must be a number in 0...1, got \(threshold)")
            }
            for key in methodThresholds.keys.sorted() {
                do { _ = try MethodIdentifier(parsing: key) } catch {
                    throw ConfigurationError(key: "method_thresholds.\(key)", error.description)
                }
                let value = methodThresholds[key]!
                guard value.isFinite, (0...1).contains(value) else {
                    throw ConfigurationError(key: "method_thresholds.\(key)", "must be a number in 0...1, got \(value)")
                }
            }
        }
    }
}
