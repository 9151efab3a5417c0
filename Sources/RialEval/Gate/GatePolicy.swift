import Foundation
import RialMedia

/// What `rial-bench gate` checks and how much change it tolerates: strict on accuracy,
/// tolerant on latency (shared CI machines are noisy, so latency is compared as a ratio
/// to the same run's JPEG decode time, not in absolute milliseconds).
///
/// File form (YAML or JSON), every key optional (the file is laid over `standard` with
/// `overlayRules`; an accuracy check needs only `metric` and `polarity`):
/// ```yaml
/// accuracy:
///   - {metric: auc, polarity: higher_is_better, absolute_tolerance: 0.02}
///   - {metric: apcer.max, polarity: lower_is_better, absolute_tolerance: 0.05, methods: [aggregate]}
/// latency: {statistic: p50, relative_tolerance: 1.0, normalize_by: decode}
/// min_evaluated_fraction: 0.9
/// ```
public struct GatePolicy: Sendable, Equatable, Codable {
    /// One accuracy check, applied to every method of the baseline (or those listed).
    public struct AccuracyCheck: Sendable, Equatable, Codable {
        /// Path inside `metrics.<method>`: `auc`, `eer`, `apcer.max`, `bpcer`, `acer`, `bpcer20`, ...
        public var metric: String
        public var polarity: Polarity
        /// Allowed change in the bad direction, absolute. The larger of the two tolerances applies.
        public var absoluteTolerance: Double = 0
        /// Allowed change in the bad direction, relative to |baseline|.
        public var relativeTolerance: Double = 0
        /// Methods to check (`aggregate`, `depth/2`); nil = every method in the baseline.
        public var methods: [String]?

        enum CodingKeys: String, CodingKey {
            case metric, polarity
            case absoluteTolerance = "absolute_tolerance"
            case relativeTolerance = "relative_tolerance"
            case methods
        }

        public init(
            metric: String, polarity: Polarity, absoluteTolerance: Double = 0, relativeTolerance: Double = 0,
            methods: [String]? = nil
        ) {
            self.metric = metric
            self.polarity = polarity
            self.absoluteTolerance = absoluteTolerance
            self.relativeTolerance = relativeTolerance
            self.methods = methods
        }
    }

    /// Latency checks: every latency key of the baseline with a target.
    public struct LatencyCheck: Sendable, Equatable, Codable {
        /// `p50`, `p90`, `mean`, ...
        public var statistic: String = "p50"
        /// current / baseline may exceed 1 by this much. 1.0 = up to twice as slow.
        public var relativeTolerance: Double = 1.0
        /// Divide each latency by this key's latency of the same run first (`decode`), so
        /// a slower machine does not look like a regression; nil = absolute times.
        public var normalizeBy: String? = "decode"

        enum CodingKeys: String, CodingKey {
            case statistic
            case relativeTolerance = "relative_tolerance"
            case normalizeBy = "normalize_by"
        }

        public init() {}
    }

    public enum Polarity: String, Sendable, Equatable, Codable {
        case higherIsBetter = "higher_is_better"
        case lowerIsBetter = "lower_is_better"
    }

    public var accuracy: [AccuracyCheck] = GatePolicy.standardAccuracy
    /// nil = no latency checks.
    public var latency: LatencyCheck? = LatencyCheck()
    /// The current run must evaluate at least this fraction of the baseline's evaluated samples.
    public var minEvaluatedFraction: Double = 0.9

    enum CodingKeys: String, CodingKey {
        case accuracy, latency
        case minEvaluatedFraction = "min_evaluated_fraction"
    }

    public init() {}

    /// Strict on accuracy: AUC may drop by 0.02, EER rise by 0.02, APCER/BPCER/ACER at the
    /// operating point rise by 0.05 (one sample of a small class moves them more, so the
    /// operating-point rates get more room than the threshold-free AUC).
    public static let standardAccuracy: [AccuracyCheck] = [
        .init(metric: "auc", polarity: .higherIsBetter, absoluteTolerance: 0.02),
        .init(metric: "eer", polarity: .lowerIsBetter, absoluteTolerance: 0.02),
        .init(metric: "apcer.max", polarity: .lowerIsBetter, absoluteTolerance: 0.05),
        .init(metric: "bpcer", polarity: .lowerIsBetter, absoluteTolerance: 0.05),
        .init(metric: "acer", polarity: .lowerIsBetter, absoluteTolerance: 0.05),
    ]

    public static let standard = GatePolicy()

    /// Where a policy file departs from the plain overlay rule
    /// (`JSONValue.overlaid(with:rules:)`): `latency: null` turns the latency checks off
    /// and `latency.normalize_by: null` compares absolute times (both are values, not
    /// "keep the default"), and each written accuracy check is laid over a check's
    /// defaults (tolerances 0, every method), since the list replaces the standard one.
    public static let overlayRules: JSONOverlayRules = {
        let latency = CodingKeys.latency.stringValue
        var check = (try? JSONValue.encoded(AccuracyCheck(metric: "", polarity: .higherIsBetter)))?.objectValue ?? [:]
        check[AccuracyCheck.CodingKeys.metric.stringValue] = nil
        check[AccuracyCheck.CodingKeys.polarity.stringValue] = nil
        return JSONOverlayRules(
            nullable: [latency, "\(latency).\(LatencyCheck.CodingKeys.normalizeBy.stringValue)"],
            entryTemplates: ["\(CodingKeys.accuracy.stringValue).*": .object(check)])
    }()

    /// Reads a policy file (YAML or JSON).
    public static func load(path: String) throws(RunError) -> GatePolicy {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw RunError(
                "\(path): \(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")")
        }
        let tree: JSONValue
        do { tree = try ConfigurationFile.yamlTree(text) } catch {
            throw RunError("\(path): \((error as? ConfigurationFileError)?.message ?? "is not valid YAML")")
        }
        if tree == .null { return .standard }
        do {
            let policy = try tree.decode(GatePolicy.self, overlaying: .standard, rules: overlayRules)
            try policy.validate()
            return policy
        } catch let error as DecodingError {
            throw RunError("\(path): \(ConfigurationFile.describe(error))")
        } catch {
            throw RunError("\(path): \(error)")
        }
    }

    func validate() throws(RunError) {
        for (i, check) in accuracy.enumerated() where !(check.absoluteTolerance >= 0 && check.relativeTolerance >= 0) {
            throw RunError("\(CodingKeys.accuracy.stringValue)[\(i)]: tolerances must be >= 0")
        }
        if let latency, !(latency.relativeTolerance >= 0) {
            let key = "\(CodingKeys.latency.stringValue).\(LatencyCheck.CodingKeys.relativeTolerance.stringValue)"
            throw RunError("\(key) must be >= 0")
        }
        guard (0...1).contains(minEvaluatedFraction) else {
            throw RunError("\(CodingKeys.minEvaluatedFraction.stringValue) must be in 0...1")
        }
    }
}
