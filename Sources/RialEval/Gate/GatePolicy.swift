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

    /// The values `latency.statistic` may take, and where each is read.
    public static let latencyStatistics: [String: KeyPath<LatencyStatistics, Double> & Sendable] = [
        "min": \.min, "mean": \.mean, "p50": \.p50, "p90": \.p90, "p95": \.p95, "p99": \.p99, "max": \.max,
    ]

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
        guard case .object = tree else {
            throw RunError("\(path): the top level must be a mapping of keys, got \(tree.typeDescription)")
        }
        if let unknown = unknownKeys(in: tree).first {
            throw RunError("\(path): unknown key '\(unknown.key)'\(unknown.hint)")
        }
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

    /// The keys a policy file may contain: those of a policy with every optional value set.
    static let exemplar: JSONValue = {
        var policy = GatePolicy()
        policy.accuracy = [AccuracyCheck(metric: "auc", polarity: .higherIsBetter, methods: [])]
        return (try? JSONValue.encoded(policy)) ?? .null
    }()

    /// Every key of `tree` a policy does not have, in document order, with a hint
    /// (`did you mean`, or the keys allowed there). A list's entries share the schema of
    /// the exemplar's first entry.
    static func unknownKeys(in tree: JSONValue) -> [(key: String, hint: String)] {
        var found: [(key: String, hint: String)] = []
        func walk(_ value: JSONValue, _ schema: JSONValue?, _ path: String) {
            switch (value, schema) {
            case (.array(let items), .array(let templates)?):
                for (i, item) in items.enumerated() { walk(item, templates.first, "\(path)[\(i)]") }
            case (.object(let object), .object(let known)?):
                for (key, child) in object {
                    let full = path.isEmpty ? key : "\(path).\(key)"
                    if let childSchema = known[key] {
                        walk(child, childSchema, full)
                        continue
                    }
                    let names = known.map(\.key)
                    let suggestion = names.min {
                        ConfigurationSchema.editDistance($0, key) < ConfigurationSchema.editDistance($1, key)
                    }
                    let hint =
                        suggestion.flatMap {
                            ConfigurationSchema.editDistance($0, key) <= max(2, key.count / 3)
                                ? "; did you mean '\($0)'?" : nil
                        } ?? "; known keys here: \(names.joined(separator: ", "))"
                    found.append((full, hint))
                }
            default: return
            }
        }
        walk(tree, exemplar, "")
        return found
    }

    /// The numbers under `metrics.<method>` a check may name: the leaves of the metrics
    /// of an empty evaluation (undefined values are `null` there), and anything below a
    /// map keyed by data (`apcer.per_species.<species>`).
    static let metricsExemplar: JSONValue = {
        let configuration = MetricsConfiguration(threshold: 0.5, bootstrap: BootstrapSettings(resamples: 1))
        return (try? JSONValue.encoded(MethodMetrics.compute(samples: [], configuration: configuration))) ?? .null
    }()

    /// Why `metric` cannot name a number of `metrics.<method>`, or nil when it can.
    static func metricProblem(_ metric: String) -> String? {
        var node = metricsExemplar
        var walked: [String] = []
        for part in metric.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard case .object(let object) = node else {
                return "'\(walked.joined(separator: "."))' is not an object, so '\(metric)' is not a metric"
            }
            if object.isEmpty { return nil }
            guard let child = object[part] else {
                let known = object.filter { if case .number = $0.value { true } else { $0.value == .null } }.map(\.key)
                let place = walked.isEmpty ? "" : " under '\(walked.joined(separator: "."))'"
                return "unknown metric '\(metric)'\(place); numbers here: \(known.joined(separator: ", "))"
            }
            walked.append(part)
            node = child
        }
        switch node {
        case .number, .null: return nil
        default: return "'\(metric)' is \(node.typeDescription), not a number"
        }
    }

    /// Refuses a policy that cannot be applied as written: negative or non-finite
    /// tolerances, unknown metric names or latency statistics, an empty method list, a
    /// fraction outside 0...1, or no check at all.
    func validate() throws(RunError) {
        let accuracyKey = CodingKeys.accuracy.stringValue
        for (i, check) in accuracy.enumerated() {
            guard check.absoluteTolerance >= 0, check.relativeTolerance >= 0, check.absoluteTolerance.isFinite,
                check.relativeTolerance.isFinite
            else { throw RunError("\(accuracyKey)[\(i)]: tolerances must be finite and >= 0") }
            if let problem = Self.metricProblem(check.metric) {
                throw RunError("\(accuracyKey)[\(i)].\(AccuracyCheck.CodingKeys.metric.stringValue): \(problem)")
            }
            if check.methods?.isEmpty == true {
                throw RunError(
                    "\(accuracyKey)[\(i)].\(AccuracyCheck.CodingKeys.methods.stringValue): an empty list checks nothing "
                        + "(leave it out to check every method)")
            }
        }
        if let latency {
            let key = CodingKeys.latency.stringValue
            if !(latency.relativeTolerance >= 0 && latency.relativeTolerance.isFinite) {
                throw RunError(
                    "\(key).\(LatencyCheck.CodingKeys.relativeTolerance.stringValue) must be finite and >= 0")
            }
            if Self.latencyStatistics[latency.statistic] == nil {
                throw RunError(
                    "\(key).\(LatencyCheck.CodingKeys.statistic.stringValue): unknown statistic '\(latency.statistic)'; "
                        + "one of \(Self.latencyStatistics.keys.sorted().joined(separator: ", "))")
            }
        }
        guard (0...1).contains(minEvaluatedFraction) else {
            throw RunError("\(CodingKeys.minEvaluatedFraction.stringValue) must be in 0...1")
        }
        if accuracy.isEmpty && latency == nil {
            throw RunError("no checks: `\(accuracyKey)` is empty and `\(CodingKeys.latency.stringValue)` is null")
        }
    }
}

/// Why `rial-bench gate` cannot give a verdict: every problem found, one line each
/// (`FILE: problem`). The gate fails closed: a check it cannot evaluate is this error
/// (exit 65), never a pass.
public struct GateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [String]
    public init(_ problems: [String]) { self.problems = problems }
    public var description: String { problems.joined(separator: "\n") }
}
