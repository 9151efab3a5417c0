import Foundation
import RialMedia

/// Compares a run with a baseline `results.json` under a `GatePolicy`: every check is
/// listed with the values, the tolerance applied and its polarity.
public struct GateReport: Sendable, Equatable, Codable {
    public struct Check: Sendable, Equatable, Codable {
        /// `accuracy`, `latency` or `coverage`.
        public var kind: String
        /// e.g. `aggregate.auc`, `depth/2.p50/decode`.
        public var name: String
        public var baseline: Double?
        public var current: Double?
        /// The limit the current value was held to.
        public var limit: Double?
        /// e.g. `higher_is_better, abs 0.02`.
        public var rule: String
        public var passed: Bool
        /// Why it failed.
        public var note: String?
    }

    public var baseline: String
    public var current: String
    public var checks: [Check]
    public var passed: Bool { checks.allSatisfy(\.passed) }
    public var failures: [Check] { checks.filter { !$0.passed } }

    /// Runs every check of `policy`, failing closed: a check that cannot be evaluated is
    /// an error, never a pass.
    ///
    /// Refused (`GateError`, every problem one line, `FILE: problem`):
    /// - a policy that does not validate (`GatePolicy.validate()`);
    /// - a `schema` other than `RunResults.schemaName`, in either file;
    /// - runs on different data: the datasets (name and manifest SHA-256) must be the same;
    /// - a baseline with no evaluated samples, no `methods` or an empty `metrics`;
    /// - a method the policy names that the baseline does not have;
    /// - a checked metric that is missing, `null` or NaN in either run;
    /// - a latency key, or the `normalize_by` key, without a finite value in either run.
    public static func evaluate(
        baseline: RunResults, current: RunResults, policy: GatePolicy,
        baselinePath: String, currentPath: String
    ) throws(GateError) -> GateReport {
        var problems = inputProblems(
            baseline: baseline, current: current, baselinePath: baselinePath, currentPath: currentPath)
        do { try policy.validate() } catch { problems.append("policy: \(error.message)") }
        guard problems.isEmpty else { throw GateError(problems) }

        var checks: [Check] = []
        let baseTree = tree(baseline), currentTree = tree(current)

        let needed = Double(baseline.counts.evaluated) * policy.minEvaluatedFraction
        checks.append(
            Check(
                kind: "coverage", name: "counts.evaluated", baseline: Double(baseline.counts.evaluated),
                current: Double(current.counts.evaluated), limit: needed.rounded(.up),
                rule: "at least \(Int(policy.minEvaluatedFraction * 100))% of the baseline's samples",
                passed: Double(current.counts.evaluated) >= needed.rounded(.up), note: nil))

        for check in policy.accuracy {
            for method in check.methods ?? baseline.methods {
                let path = "metrics.\(method).\(check.metric)"
                let parts = ["metrics", method] + check.metric.split(separator: ".").map(String.init)
                guard baseline.methods.contains(method) else {
                    problems.append(
                        "\(baselinePath): method '\(method)' of the policy is not in the baseline "
                            + "(methods: \(baseline.methods.joined(separator: ", ")))")
                    continue
                }
                let base = lookup(baseTree, parts), now = lookup(currentTree, parts)
                guard let base, base.isFinite else {
                    problems.append("\(baselinePath): \(path) is \(undefined(base)) in the baseline; cannot check it")
                    continue
                }
                guard let now, now.isFinite else {
                    problems.append("\(currentPath): \(path) is \(undefined(now)) in the current run; cannot check it")
                    continue
                }
                let rule =
                    "\(check.polarity.rawValue), abs \(format(check.absoluteTolerance)), rel \(format(check.relativeTolerance))"
                let allowed = max(check.absoluteTolerance, check.relativeTolerance * abs(base))
                let limit = check.polarity == .higherIsBetter ? base - allowed : base + allowed
                let passed = check.polarity == .higherIsBetter ? now >= limit - 1e-12 : now <= limit + 1e-12
                checks.append(
                    Check(
                        kind: "accuracy", name: "\(method).\(check.metric)", baseline: base, current: now,
                        limit: limit, rule: rule, passed: passed, note: passed ? nil : "regression"))
            }
        }

        if let latency = policy.latency {
            let unit = latency.normalizeBy.map { "\(latency.statistic)/\($0)" } ?? "\(latency.statistic) ms"
            let rule = "ratio current/baseline <= \(format(1 + latency.relativeTolerance))"
            let keys = baseline.latency.keys.sorted().filter {
                baseline.latency[$0]?.targetMs != nil && $0 != latency.normalizeBy
            }
            if keys.isEmpty {
                problems.append("\(baselinePath): no latency with a target to check (`latency` of the policy is set)")
            }
            for (results, path, role) in [(baseline, baselinePath, "baseline"), (current, currentPath, "current run")] {
                if let by = latency.normalizeBy, !(statistic(results, by, latency.statistic).map { $0 > 0 } ?? false) {
                    problems.append(
                        "\(path): latency.\(by).\(latency.statistic) (normalize_by) is "
                            + "\(statistic(results, by, latency.statistic) == nil ? "missing" : "not a positive number") "
                            + "in the \(role); cannot normalize latency")
                }
            }
            for key in keys {
                let name = "\(key).\(unit)"
                let base = statistic(baseline, key, latency), now = statistic(current, key, latency)
                guard let base, base.isFinite, base >= 0 else {
                    problems.append(
                        "\(baselinePath): latency \(name) is \(undefined(base)) in the baseline; cannot check it")
                    continue
                }
                guard let now, now.isFinite, now >= 0 else {
                    problems.append(
                        "\(currentPath): latency \(name) is \(undefined(now)) in the current run; cannot check it")
                    continue
                }
                let limit = base * (1 + latency.relativeTolerance)
                let passed = now <= limit
                checks.append(
                    Check(
                        kind: "latency", name: name, baseline: base, current: now, limit: limit,
                        rule: rule, passed: passed, note: passed ? nil : "slower than allowed"))
            }
        }
        guard problems.isEmpty else { throw GateError(problems) }
        return GateReport(baseline: baselinePath, current: currentPath, checks: checks)
    }

    /// Reads a `results.json` for the gate: refuses anything but a JSON object of schema
    /// `RunResults.schemaName`, and names the first key that does not decode
    /// (`PATH: not a rial-bench results file: key 'counts.evaluated' is required`).
    public static func readResults(path: String) throws(RunError) -> RunResults {
        let data = try RunResults.contents(of: path)
        let tree: JSONValue
        do { tree = try JSONValue.parse(data) } catch { throw RunError("\(path): not JSON (\(error))") }
        guard case .object = tree else {
            throw RunError("\(path): not a rial-bench results file (the top level is \(tree.typeDescription))")
        }
        guard let schema = tree["schema"]?.stringValue else {
            throw RunError("\(path): no `schema`; not a rial-bench results file")
        }
        guard schema == RunResults.schemaName else {
            throw RunError("\(path): schema '\(schema)' is not \(RunResults.schemaName)")
        }
        do { return try RunResults.decoder.decode(RunResults.self, from: data) } catch let error as DecodingError {
            throw RunError("\(path): not a rial-bench results file: \(ConfigurationFile.describe(error))")
        } catch {
            throw RunError("\(path): not a rial-bench results file")
        }
    }

    /// Problems of the two files that make every check meaningless.
    static func inputProblems(
        baseline: RunResults, current: RunResults, baselinePath: String, currentPath: String
    ) -> [String] {
        var problems: [String] = []
        for (results, path) in [(baseline, baselinePath), (current, currentPath)]
        where results.schema != RunResults.schemaName {
            problems.append("\(path): schema '\(results.schema)' is not \(RunResults.schemaName)")
        }
        func identity(_ d: RunDataset) -> String { "\(d.name) (manifest sha256 \(d.manifestSHA256.prefix(12)))" }
        let baseData = baseline.datasets.map(identity).sorted(), currentData = current.datasets.map(identity).sorted()
        if baseData != currentData {
            func list(_ items: [String]) -> String { items.isEmpty ? "no datasets" : items.joined(separator: ", ") }
            problems.append(
                "\(currentPath): run on \(list(currentData)), but the baseline \(baselinePath) on \(list(baseData)); "
                    + "gate a run against a baseline of the same data")
        }
        if baseline.counts.evaluated <= 0 {
            problems.append("\(baselinePath): the baseline evaluated no samples")
        }
        if baseline.methods.isEmpty {
            problems.append("\(baselinePath): `methods` is empty; nothing to check")
        }
        if baseline.metrics.isEmpty {
            problems.append("\(baselinePath): `metrics` is empty; nothing to check")
        }
        return problems
    }

    /// `missing`, `null (NaN)` or `infinite`, for a value that cannot be checked.
    static func undefined(_ value: Double?) -> String {
        guard let value else { return "missing" }
        if value.isNaN { return "undefined (null, NaN or absent)" }
        return value.isInfinite ? "infinite" : "negative"
    }

    /// `statistic` (`GatePolicy.latencyStatistics`) of latency `key`, divided by the
    /// `normalize_by` key's when the policy says so; nil when either is missing.
    static func statistic(_ results: RunResults, _ key: String, _ check: GatePolicy.LatencyCheck) -> Double? {
        guard let value = statistic(results, key, check.statistic) else { return nil }
        guard let by = check.normalizeBy else { return value }
        guard let divisor = statistic(results, by, check.statistic), divisor > 0 else { return nil }
        return value / divisor
    }

    static func statistic(_ results: RunResults, _ key: String, _ name: String) -> Double? {
        guard let statistics = results.latency[key]?.statistics,
            let path = GatePolicy.latencyStatistics[name]
        else { return nil }
        return statistics[keyPath: path]
    }

    static func tree(_ results: RunResults) -> JSONValue {
        guard let data = try? results.jsonData(), let value = try? JSONValue.parse(data) else { return .null }
        return value
    }

    static func lookup(_ tree: JSONValue, _ path: [String]) -> Double? {
        var node: JSONValue? = tree
        for part in path { node = node?[part] }
        switch node {
        case .number(let n)?: return n
        case .string("nan")?, .null?: return .nan
        default: return nil
        }
    }

    static func format(_ v: Double?) -> String {
        guard let v else { return "—" }
        return v.isFinite ? String(format: "%.4g", v) : "nan"
    }

    /// The report as Markdown (a CI step summary). Paths, check names, rules and notes
    /// are user text (file paths, method and policy keys): `MarkdownText` keeps each in
    /// its table cell and shows it literally.
    public func markdown() -> String {
        var lines = [
            "## rial-bench gate: \(passed ? "PASS" : "FAIL (\(failures.count) of \(checks.count) checks)")", "",
            "Baseline \(MarkdownText.code(baseline)), current \(MarkdownText.code(current)).", "",
            "| check | kind | baseline | current | limit | rule | result |", "|---|---|---:|---:|---:|---|---|",
        ]
        for c in checks {
            lines.append(
                "| \(MarkdownText.code(c.name)) | \(MarkdownText.escape(c.kind)) | \(Self.format(c.baseline)) | "
                    + "\(Self.format(c.current)) | \(Self.format(c.limit)) | \(MarkdownText.escape(c.rule)) | "
                    + "\(c.passed ? "pass" : "**FAIL**")\(c.note.map { ": \(MarkdownText.escape($0))" } ?? "") |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JUnit XML: one test case per check.
    public func junitXML() -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuite name="rial-bench gate" tests="\#(checks.count)" failures="\#(failures.count)" errors="0">"#,
        ]
        for c in checks {
            let kind = Self.xmlAttribute(c.kind), name = Self.xmlAttribute(c.name),
                detail = HTMLText.escape(
                    "baseline \(Self.format(c.baseline)), current \(Self.format(c.current)), limit \(Self.format(c.limit)); \(c.rule)"
                )
            if c.passed {
                lines.append(
                    #"  <testcase classname="gate.\#(kind)" name="\#(name)"><system-out>\#(detail)</system-out></testcase>"#
                )
            } else {
                lines.append(
                    #"  <testcase classname="gate.\#(kind)" name="\#(name)"><failure message="\#(Self.xmlAttribute(c.note ?? "failed"))">\#(detail)</failure></testcase>"#
                )
            }
        }
        lines.append("</testsuite>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Markdown report of a gate that could not run (exit 4 or 65): the heading says
    /// ERROR, then every problem on its own line, escaped (`MarkdownText`).
    public static func errorMarkdown(_ problems: [String]) -> String {
        var lines = ["## rial-bench gate: ERROR (the gate could not be evaluated)", ""]
        lines += problems.map { "- \(MarkdownText.escape($0))" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JUnit XML of a gate that could not run (exit 4 or 65): one test case with an
    /// `<error>` whose message is the first problem and whose text lists them all, so a CI
    /// system shows a failed gate and why instead of nothing.
    public static func errorJUnitXML(_ problems: [String]) -> String {
        let first = problems.first ?? "the gate could not be evaluated"
        return [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuite name="rial-bench gate" tests="1" failures="0" errors="1">"#,
            #"  <testcase classname="gate" name="evaluate"><error message="\#(xmlAttribute(first))">\#(HTMLText.escape(problems.joined(separator: "\n")))</error></testcase>"#,
            "</testsuite>",
        ].joined(separator: "\n") + "\n"
    }

    /// `HTMLText.escape(text)` for a double-quoted XML attribute, with tab, line feed and
    /// carriage return as character references: a parser would otherwise turn them into
    /// spaces (XML 1.0, 3.3.3 attribute-value normalisation).
    static func xmlAttribute(_ text: String) -> String {
        HTMLText.escape(text).replacingOccurrences(of: "\t", with: "&#9;")
            .replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
    }
}
