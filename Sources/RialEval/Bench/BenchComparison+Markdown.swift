import Foundation

extension BenchComparison {
    /// The comparison as Markdown (a pull-request comment or a CI step summary): what each
    /// side measured, one table row per item, then what the test cannot tell and the
    /// regressions when gated.
    public func markdown() -> String {
        var lines = ["# bench-compare", ""]
        lines.append("- Before: \(Self.describe(before)).")
        lines.append("- After: \(Self.describe(after)).")
        if captures.count == 1 {
            lines.append("- Both timed one capture (simulated): \(MarkdownText.escape(captures[0])).")
        } else {
            lines.append(
                "- **The reports timed different captures**, so their times measure different inputs: "
                    + captures.map { MarkdownText.escape($0) }.joined(separator: "; ") + ".")
        }
        lines.append("")
        lines.append(
            "Each report's p50 of an item counts once. A cell is the median over the side's reports, "
                + "then their lowest and highest in brackets; `change` is the after median over the before "
                + "median; `p` is the two-sided Wilcoxon-Mann-Whitney rank-sum test of the two sides' p50s "
                + "(exact up to \(RankSumTest.exactLimit) reports in all, else normal); `~` marks a change "
                + "with p >= \(Self.number(alpha)), which the machine's drift could explain. The minimum "
                + "columns are the medians of the reports' fastest iterations.")
        lines.append("")
        lines.append("| item | before p50 | after p50 | change | p | before min | after min |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|")
        for row in rows {
            let change = row.change.isFinite ? String(format: "%+.1f%%", row.change * 100) : "—"
            let p = row.pValue.isFinite ? Self.number(row.pValue) : "—"
            lines.append(
                "| \(MarkdownText.code(row.key)) | \(Self.cell(row.before, row.unit)) | "
                    + "\(Self.cell(row.after, row.unit)) | \(change)\(row.significant ? "" : " ~") | \(p) | "
                    + "\(Self.value(row.before.medianMinimum, row.unit)) | "
                    + "\(Self.value(row.after.medianMinimum, row.unit)) |")
        }
        lines.append("")
        if smallestPValue >= alpha {
            lines.append(
                "- With \(before.reports) and \(after.reports) reports the smallest p-value the test can give is "
                    + "\(Self.number(smallestPValue)), so no change can reach p < \(Self.number(alpha)): run at "
                    + "least 4 reports a side (5 a side: 0.008).")
        }
        if !onlyBefore.isEmpty {
            lines.append("- Measured before only: \(onlyBefore.map(MarkdownText.code).joined(separator: ", ")).")
        }
        if !onlyAfter.isEmpty {
            lines.append("- Measured after only: \(onlyAfter.map(MarkdownText.code).joined(separator: ", ")).")
        }
        if let failAbove {
            let limit = "slower by more than \(Self.number(failAbove * 100))% at p < \(Self.number(alpha))"
            if regressions.isEmpty {
                lines.append("- No item is \(limit).")
            } else {
                let list = regressions.map {
                    "\(MarkdownText.code($0.key)) \(String(format: "%+.1f%%", $0.change * 100)) (p \(Self.number($0.pValue)))"
                }
                lines.append("- **Regression**, \(limit): \(list.joined(separator: ", ")).")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ side: Side) -> String {
        func list(_ values: [String], _ shorten: (String) -> String) -> String {
            values.map { MarkdownText.code(shorten($0)) }.joined(separator: ", ")
        }
        let commits = list(side.commits) { $0.count == 40 ? String($0.prefix(10)) : $0 }
        let configurations = list(side.configurations) { $0.count == 64 ? String($0.prefix(12)) : $0 }
        let iterations = side.iterations.map(String.init).joined(separator: ", ")
        let builds = side.instructionSets.map { MarkdownText.escape($0) }.joined(separator: ", ")
        return "\(side.reports) report\(side.reports == 1 ? "" : "s") (commit \(commits); code built for \(builds); "
            + "configuration \(configurations); \(iterations) iterations an item)"
    }

    static func cell(_ summary: Summary, _ unit: String) -> String {
        "\(value(summary.median, unit)) [\(value(summary.lowest, unit)), \(value(summary.highest, unit))]"
    }

    static func value(_ value: Double?, _ unit: String) -> String {
        guard let value, value.isFinite else { return "—" }
        if unit == "x" { return String(format: "%.3f x", value) }
        // The bundle items take microseconds: keep their digits.
        return String(format: value < 0.1 ? "%.4f ms" : "%.2f ms", value)
    }

    /// A p-value, fraction or percentage: 3 significant digits, no exponent above 1e-4.
    static func number(_ value: Double) -> String {
        if value != 0, abs(value) < 1e-4 { return String(format: "%.1e", value) }
        return String(format: "%.3g", value)
    }
}
