import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialEval

/// The gate fails closed (issue 17, item 2): every broken baseline, current run or policy
/// below is made by mutating the committed `reports/baseline.json` or
/// `reports/gate-policy.yaml`, and each must be an error naming the problem — never a pass
/// and never a regression verdict drawn from values that are not there.
@Suite struct GateFaultTests {
    enum Verdict: Equatable {
        case pass
        case regression([String])
        case error(String)
    }

    static let baselinePath = Fixtures.packageRoot.appendingPathComponent("reports/baseline.json").path
    static let policyText: String = {
        let path = Fixtures.packageRoot.appendingPathComponent("reports/gate-policy.yaml").path
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()
    static let valid: JSONValue = {
        guard let data = FileManager.default.contents(atPath: baselinePath), let tree = try? JSONValue.parse(data)
        else { return .null }
        return tree
    }()

    /// Writes the documents and gates them as `rial-bench gate` does.
    static func gate(baseline: JSONValue = valid, current: JSONValue = valid, policy: String? = policyText) throws
        -> Verdict
    {
        let folder = try Fixtures.makeTemporaryFolder("rial-gate-fault")
        defer { try? FileManager.default.removeItem(at: folder) }
        let basePath = folder.appendingPathComponent("baseline.json").path
        let currentPath = folder.appendingPathComponent("results.json").path
        let policyPath = folder.appendingPathComponent("policy.yaml").path
        try baseline.serializedData().write(to: URL(fileURLWithPath: basePath))
        try current.serializedData().write(to: URL(fileURLWithPath: currentPath))
        if let policy { try Data(policy.utf8).write(to: URL(fileURLWithPath: policyPath)) }
        do {
            let gatePolicy = try policy.map { _ throws(RunError) in try GatePolicy.load(path: policyPath) } ?? .standard
            let report = try GateReport.evaluate(
                baseline: try GateReport.readResults(path: basePath),
                current: try GateReport.readResults(path: currentPath),
                policy: gatePolicy, baselinePath: "baseline.json", currentPath: "results.json")
            return report.passed ? .pass : .regression(report.failures.map(\.name))
        } catch let error as GateError {
            return .error(error.description)
        } catch let error as RunError {
            return .error(error.message.replacingOccurrences(of: folder.path + "/", with: ""))
        }
    }

    /// `tree` with the value at `path` replaced (nil deletes it).
    static func setting(_ tree: JSONValue, _ path: [String], _ value: JSONValue?) -> JSONValue {
        guard let key = path.first, case .object(var object) = tree else { return tree }
        if path.count == 1 {
            object[key] = value
        } else if let child = object[key] {
            object[key] = setting(child, Array(path.dropFirst()), value)
        }
        return .object(object)
    }

    /// `tree` with the key at `path` renamed to `newName` (value kept).
    static func renaming(_ tree: JSONValue, _ path: [String], to newName: String) -> JSONValue {
        let value = path.reduce(Optional(tree)) { $0?[$1] }
        return setting(setting(tree, path, nil), Array(path.dropLast()) + [newName], value)
    }

    struct Fault: CustomStringConvertible, Sendable {
        var name: String
        var baseline: JSONValue = GateFaultTests.valid
        var current: JSONValue = GateFaultTests.valid
        var policy: String? = GateFaultTests.policyText
        /// Must appear in the error message.
        var message: String
        var description: String { name }
    }

    static let auc = ["metrics", "aggregate", "auc"]
    static let otherHash = String(repeating: "0", count: 64)

    static let faults: [Fault] = [
        // Missing, null, NaN or infinite metrics, in either file.
        Fault(name: "baseline metric deleted", baseline: setting(valid, auc, nil), message: "metrics.aggregate.auc"),
        Fault(name: "current metric deleted", current: setting(valid, auc, nil), message: "metrics.aggregate.auc"),
        Fault(name: "baseline metric null", baseline: setting(valid, auc, .null), message: "metrics.aggregate.auc"),
        Fault(name: "current metric null", current: setting(valid, auc, .null), message: "metrics.aggregate.auc"),
        Fault(name: "baseline metric nan", baseline: setting(valid, auc, "nan"), message: "metrics.aggregate.auc"),
        Fault(name: "current metric nan", current: setting(valid, auc, "nan"), message: "metrics.aggregate.auc"),
        Fault(
            name: "current metric inf", current: setting(valid, auc, "inf"),
            message: "metrics.aggregate.auc is undefined"),
        Fault(
            name: "baseline apcer.max null", baseline: setting(valid, ["metrics", "depth/2", "apcer", "max"], .null),
            message: "metrics.depth/2.apcer.max"),
        Fault(
            name: "baseline metric renamed", baseline: renaming(valid, auc, to: "auc_v0"),
            message: "metrics.aggregate.auc is undefined"),
        Fault(
            name: "current method renamed", current: renaming(valid, ["metrics", "aggregate"], to: "aggregate2"),
            message: "metrics.aggregate.auc is missing in the current run"),
        Fault(
            name: "current method deleted", current: setting(valid, ["metrics", "texture/1"], nil),
            message: "metrics.texture/1.auc is missing"),
        // Empty metrics or methods.
        Fault(
            name: "baseline metrics empty", baseline: setting(valid, ["metrics"], [:]), message: "`metrics` is empty"),
        Fault(name: "baseline methods empty", baseline: setting(valid, ["methods"], []), message: "`methods` is empty"),
        Fault(
            name: "current metrics empty", current: setting(valid, ["metrics"], [:]),
            message: "metrics.depth/1.auc is missing in the current run"),
        Fault(
            name: "baseline evaluated nothing", baseline: setting(valid, ["counts", "evaluated"], 0),
            message: "evaluated no samples"),
        // Wrong schema.
        Fault(
            name: "baseline schema 2", baseline: setting(valid, ["schema"], "rial-bench-results/2"),
            message: "baseline.json: schema 'rial-bench-results/2' is not rial-bench-results/1"),
        Fault(
            name: "current schema other tool", current: setting(valid, ["schema"], "lm-eval-results/1"),
            message: "results.json: schema 'lm-eval-results/1'"),
        Fault(
            name: "baseline schema deleted", baseline: setting(valid, ["schema"], nil),
            message: "baseline.json: no `schema`"),
        Fault(
            name: "current counts deleted", current: setting(valid, ["counts"], nil),
            message: "results.json: not a rial-bench results file: key 'counts' is required"),
        Fault(name: "baseline not results", baseline: ["auc": 0.9], message: "not a rial-bench results file"),
        // Another dataset.
        Fault(
            name: "current on other manifest",
            current: setting(valid, ["datasets"], setDatasetHash(valid["datasets"], otherHash)),
            message: "a baseline of the same data"),
        Fault(
            name: "baseline on other manifest",
            baseline: setting(valid, ["datasets"], setDatasetHash(valid["datasets"], otherHash)),
            message: "000000000000"),
        Fault(
            name: "current on fewer datasets",
            current: setting(valid, ["datasets"], .array(Array(valid["datasets"]?.arrayValue?.prefix(1) ?? []))),
            message: "a baseline of the same data"),
        Fault(name: "current on no dataset", current: setting(valid, ["datasets"], []), message: "run on no datasets"),
        // Latency that cannot be compared.
        Fault(
            name: "current without decode", current: setting(valid, ["latency", "decode"], nil),
            message: "latency.decode.p50 (normalize_by) is missing in the current run"),
        Fault(
            name: "baseline without decode", baseline: setting(valid, ["latency", "decode"], nil),
            message: "latency.decode.p50 (normalize_by) is missing in the baseline"),
        Fault(
            name: "current without a method's latency", current: setting(valid, ["latency", "depth/2"], nil),
            message: "latency depth/2.p50/decode is missing in the current run"),
        Fault(
            name: "baseline without latency", baseline: setting(valid, ["latency"], [:]),
            message: "no latency with a target"),
        // Policies that cannot be applied as written.
        Fault(
            name: "unknown metric", policy: "accuracy: [{metric: aucc, polarity: higher_is_better}]",
            message: "accuracy[0].metric: unknown metric 'aucc'"),
        Fault(
            name: "unknown nested metric", policy: "accuracy: [{metric: apcer.maximum, polarity: lower_is_better}]",
            message: "unknown metric 'apcer.maximum' under 'apcer'"),
        Fault(
            name: "metric is an object", policy: "accuracy: [{metric: apcer, polarity: lower_is_better}]",
            message: "'apcer' is an object, not a number"),
        Fault(
            name: "unknown top-level key", policy: "min_evaluated_fractoin: 0.5",
            message: "unknown key 'min_evaluated_fractoin'; did you mean 'min_evaluated_fraction'?"),
        Fault(
            name: "unknown check key",
            policy: "accuracy: [{metric: auc, polarity: higher_is_better, absolute_tolerence: 0.1}]",
            message: "unknown key 'accuracy[0].absolute_tolerence'"),
        Fault(
            name: "unknown latency key", policy: "latency: {statistics: p90}",
            message: "unknown key 'latency.statistics'"),
        Fault(
            name: "unknown latency statistic", policy: "latency: {statistic: p55}",
            message: "latency.statistic: unknown statistic 'p55'"),
        Fault(
            name: "unknown method",
            policy: "accuracy: [{metric: auc, polarity: higher_is_better, methods: [aggregat]}]",
            message: "method 'aggregat' of the policy is not in the baseline"),
        Fault(
            name: "empty method list", policy: "accuracy: [{metric: auc, polarity: higher_is_better, methods: []}]",
            message: "an empty list checks nothing"),
        Fault(name: "no checks at all", policy: "accuracy: []\nlatency: null\n", message: "no checks"),
        Fault(
            name: "infinite tolerance",
            policy: "accuracy: [{metric: auc, polarity: higher_is_better, absolute_tolerance: .inf}]",
            message: "key 'accuracy[0].absolute_tolerance': expected a number"),
        Fault(
            name: "nan tolerance",
            policy: "accuracy: [{metric: auc, polarity: higher_is_better, absolute_tolerance: .nan}]",
            message: "key 'accuracy[0].absolute_tolerance': expected a number"),
        Fault(
            name: "nan latency tolerance", policy: "latency: {relative_tolerance: .nan}",
            message: "key 'latency.relative_tolerance'"),
        Fault(name: "policy is a list", policy: "- auc\n", message: "the top level must be a mapping"),
        Fault(name: "nan fraction", policy: "min_evaluated_fraction: .nan", message: "key 'min_evaluated_fraction'"),
    ]

    static func setDatasetHash(_ datasets: JSONValue?, _ hash: String) -> JSONValue {
        .array((datasets?.arrayValue ?? []).map { setting($0, ["manifest_sha256"], .string(hash)) })
    }

    @Test func theCommittedBaselinePassesAgainstItself() throws {
        #expect(Self.valid != .null)
        #expect(try Self.gate() == .pass)
        #expect(try Self.gate(policy: nil) == .pass)
    }

    @Test(arguments: faults) func failsClosed(_ fault: Fault) throws {
        let verdict = try Self.gate(baseline: fault.baseline, current: fault.current, policy: fault.policy)
        guard case .error(let message) = verdict else {
            Issue.record("\(fault.name): \(verdict), expected an error")
            return
        }
        #expect(message.contains(fault.message), "\(fault.name): \(message)")
        #expect(!message.contains("Error(") && !message.contains("DecodingError"), "\(fault.name): \(message)")
    }

    /// The table is not all errors: a real regression is still a regression, with the name.
    @Test func aRealRegressionIsStillARegression() throws {
        let worse = Self.setting(
            Self.valid, Self.auc, .number((Self.valid["metrics"]?["aggregate"]?["auc"]?.numberValue ?? 1) - 0.2))
        #expect(try Self.gate(current: worse) == .regression(["aggregate.auc"]))
    }

    /// Seeded random deletions and nulls of every number under `metrics.aggregate`: each
    /// gives a pass only when the policy does not read the value, never for one it checks.
    @Test func randomHolesInCheckedMetricsNeverPass() throws {
        var generator = SeededGenerator(seed: 17)
        let checked = ["auc", "eer", "bpcer", "acer"]
        var tried = 0
        for _ in 0..<12 {
            let metric = checked.randomElement(using: &generator)!
            let method = (Self.valid["methods"]?.arrayValue ?? []).randomElement(using: &generator)?.stringValue ?? ""
            let hole: JSONValue? = [nil, .null, "nan"].randomElement(using: &generator)!
            let inBaseline = Bool.random(using: &generator)
            let broken = Self.setting(Self.valid, ["metrics", method, metric], hole)
            let verdict = try Self.gate(
                baseline: inBaseline ? broken : Self.valid, current: inBaseline ? Self.valid : broken)
            guard case .error(let message) = verdict else {
                Issue.record("metrics.\(method).\(metric) = \(String(describing: hole)): \(verdict)")
                continue
            }
            #expect(message.contains("metrics.\(method).\(metric)"), "\(message)")
            tried += 1
        }
        #expect(tried == 12)
    }
}
