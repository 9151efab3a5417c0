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
        /// Why it failed or was skipped.
        public var note: String?
    }

    public var baseline: String
    public var current: String
    public var checks: [Check]
    public var passed: Bool { checks.allSatisfy(\.passed) }
    public var failures: [Check] { checks.filter { !$0.passed } }

    /// Runs every check of `policy`.
    public static func evaluate(
        baseline: RunResults, current: RunResults, policy: GatePolicy,
        baselinePath: String, currentPath: String
    ) -> GateReport {
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
                let base = lookup(baseTree, ["metrics", method] + check.metric.split(separator: ".").map(String.init))
                let now = lookup(
                    currentTree, ["metrics", method] + check.metric.split(separator: ".").map(String.init))
                let rule =
                    "\(check.polarity.rawValue), abs \(format(check.absoluteTolerance)), rel \(format(check.relativeTolerance))"
                guard let base, base.isFinite else {
                    checks.append(
                        Check(
                            kind: "accuracy", name: "\(method).\(check.metric)", baseline: base, current: now,
                            limit: nil, rule: rule, passed: true, note: "not defined in the baseline; skipped"))
                    continue
                }
                let allowed = max(check.absoluteTolerance, check.relativeTolerance * abs(base))
                let limit = check.polarity == .higherIsBetter ? base - allowed : base + allowed
                var passed = false, note: String?
                if let now, now.isFinite {
                    passed = check.polarity == .higherIsBetter ? now >= limit - 1e-12 : now <= limit + 1e-12
                } else {
                    note = now == nil ? "\(path) missing in the current run" : "undefined (NaN) in the current run"
                }
                checks.append(
                    Check(
                        kind: "accuracy", name: "\(method).\(check.metric)", baseline: base, current: now,
                        limit: limit, rule: rule, passed: passed, note: passed ? nil : note ?? "regression"))
            }
        }

        if let latency = policy.latency {
            for key in baseline.latency.keys.sorted()
            where baseline.latency[key]?.targetMs != nil && key != latency.normalizeBy {
                let base = statistic(baseline, key, latency), now = statistic(current, key, latency)
                let unit = latency.normalizeBy.map { "\(latency.statistic)/\($0)" } ?? "\(latency.statistic) ms"
                let rule = "ratio current/baseline <= \(format(1 + latency.relativeTolerance))"
                guard let base, base > 0 else {
                    checks.append(
                        Check(
                            kind: "latency", name: "\(key).\(unit)", baseline: base, current: now, limit: nil,
                            rule: rule, passed: true, note: "no baseline value; skipped"))
                    continue
                }
                let limit = base * (1 + latency.relativeTolerance)
                let passed = now.map { $0 <= limit } ?? false
                checks.append(
                    Check(
                        kind: "latency", name: "\(key).\(unit)", baseline: base, current: now, limit: limit,
                        rule: rule, passed: passed,
                        note: passed ? nil : now == nil ? "missing in the current run" : "slower than allowed"))
            }
        }
        return GateReport(baseline: baselinePath, current: currentPath, checks: checks)
    }

    static func statistic(_ results: RunResults, _ key: String, _ check: GatePolicy.LatencyCheck) -> Double? {
        func value(_ k: String) -> Double? {
            guard let s = results.latency[k]?.statistics else { return nil }
            switch check.statistic {
            case "min": return s.min
            case "mean": return s.mean
            case "p90": return s.p90
            case "p95": return s.p95
            case "p99": return s.p99
            case "max": return s.max
            default: return s.p50
            }
        }
        guard let v = value(key) else { return nil }
        guard let by = check.normalizeBy else { return v }
        guard let d = value(by), d > 0 else { return nil }
        return v / d
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

    /// The report as Markdown (a CI step summary).
    public func markdown() -> String {
        var lines = [
            "## rial-bench gate: \(passed ? "PASS" : "FAIL (\(failures.count) of \(checks.count) checks)")", "",
            "Baseline `\(baseline)`, current `\(current)`.", "",
            "| check | kind | baseline | current | limit | rule | result |", "|---|---|---:|---:|---:|---|---|",
        ]
        for c in checks {
            lines.append(
                "| `\(c.name)` | \(c.kind) | \(Self.format(c.baseline)) | \(Self.format(c.current)) | \(Self.format(c.limit)) | "
                    + "\(c.rule) | \(c.passed ? "pass" : "**FAIL**")\(c.note.map { ": \($0)" } ?? "") |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JUnit XML: one test case per check.
    public func junitXML() -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuite name="rial-bench gate" tests="\#(checks.count)" failures="\#(failures.count)" errors="0">"#,
        ]
        for c in checks {
            let name = escape(c.name),
                detail = escape(
                    "baseline \(Self.format(c.baseline)), current \(Self.format(c.current)), limit \(Self.format(c.limit)); \(c.rule)"
                )
            if c.passed {
                lines.append(
                    #"  <testcase classname="gate.\#(c.kind)" name="\#(name)"><system-out>\#(detail)</system-out></testcase>"#
                )
            } else {
                lines.append(
                    #"  <testcase classname="gate.\#(c.kind)" name="\#(name)"><failure message="\#(escape(c.note ?? "failed"))">\#(detail)</failure></testcase>"#
                )
            }
        }
        lines.append("</testsuite>")
        return lines.joined(separator: "\n") + "\n"
    }
}
