import Foundation
import RialMedia

/// A paired comparison of two runs on the samples they share (same dataset and id):
/// for each method present in both, the AUC difference with a paired cluster-bootstrap
/// interval and p-value, and McNemar's test on the decisions at each run's threshold.
public struct RunComparison: Sendable {
    public struct Row: Sendable {
        public var method: String
        public var auc: PairedAUCComparison
        public var mcnemar: McNemarTest
    }

    public var rows: [Row]
    public var sharedSamples: Int
    public var onlyFirst: Int
    public var onlySecond: Int

    /// Compares `first` (A) with `second` (B); differences are B - A.
    public static func compare(
        first: (results: RunResults, records: [SampleRecord]),
        second: (results: RunResults, records: [SampleRecord]),
        settings: BootstrapSettings
    ) -> RunComparison {
        func key(_ r: SampleRecord) -> String { "\(r.dataset)\u{1F}\(r.id)" }
        let a = first.records.filter { $0.status == .evaluated }, b = second.records.filter { $0.status == .evaluated }
        let aKeys = Set(a.map(key)), bKeys = Set(b.map(key))
        let shared = aKeys.intersection(bKeys)
        var rows: [Row] = []
        for method in first.results.methods where second.results.methods.contains(method) {
            func samples(_ records: [SampleRecord]) -> [ScoredSample] {
                records.filter { shared.contains(key($0)) }.map { $0.scoredSample(method, id: key($0)) }
            }
            let sa = samples(a), sb = samples(b)
            let ta = first.results.metrics[method]?.threshold ?? 0.5,
                tb = second.results.metrics[method]?.threshold ?? 0.5
            rows.append(
                Row(
                    method: method,
                    auc: PairedAUCComparison(first: sb.isEmpty ? [] : sa, second: sb, settings: settings),
                    mcnemar: McNemarTest(first: sa, second: sb, firstThreshold: ta, secondThreshold: tb)))
        }
        return RunComparison(
            rows: rows, sharedSamples: shared.count, onlyFirst: aKeys.subtracting(bKeys).count,
            onlySecond: bKeys.subtracting(aKeys).count)
    }

    /// Markdown table. The folder paths and method keys are user text: `MarkdownText`
    /// keeps each in its place and shows it literally.
    public func markdown(first: String, second: String) -> String {
        func f(_ v: Double) -> String { v.isFinite ? String(format: "%.4f", v) : "—" }
        var lines = [
            "## rial-bench compare", "",
            "A = \(MarkdownText.code(first)), B = \(MarkdownText.code(second)); \(sharedSamples) shared samples "
                + "(\(onlyFirst) only in A, \(onlySecond) only in B). Differences are B − A; paired cluster bootstrap "
                + "by group; McNemar on decisions at each run's threshold.", "",
            "| method | n paired | AUC A | AUC B | Δ AUC [95% CI] | p (bootstrap) | A right only | B right only | p (McNemar) |",
            "|---|---:|---:|---:|---|---:|---:|---:|---:|",
        ]
        for r in rows {
            let ci = r.auc.interval.map { " [\(f($0.lower)), \(f($0.upper))]" } ?? ""
            lines.append(
                "| \(MarkdownText.code(r.method)) | \(r.auc.pairedCount) | \(f(r.auc.aucFirst)) | \(f(r.auc.aucSecond)) | "
                    + "\(f(r.auc.difference))\(ci) | \(f(r.auc.pValue)) | \(r.mcnemar.onlyFirstCorrect) | "
                    + "\(r.mcnemar.onlySecondCorrect) | \(f(r.mcnemar.pValue)) (\(r.mcnemar.method.rawValue)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
