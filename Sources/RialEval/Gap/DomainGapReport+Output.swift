import Foundation
import RialMedia

extension DomainGapReport {
    /// `gap.json`: the report, keys sorted, non-finite numbers as null.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }

    /// Section title for Markdown.
    static func title(_ section: String) -> String {
        switch section {
        case "bona_fide": "Bona fide photos (real_scene)"
        case "screen": "Screen attacks (screen, lcd_screen, oled_screen)"
        default: "Print attacks (printed_paper)"
        }
    }

    /// `report.md`.
    public func markdown() -> String {
        func number(_ v: Double?) -> String {
            guard let v, v.isFinite else { return "-" }
            if v == 0 { return "0" }
            return abs(v) >= 100
                ? String(format: "%.0f", v) : abs(v) >= 1 ? String(format: "%.2f", v) : String(format: "%.3f", v)
        }
        func distribution(_ d: Distribution) -> String {
            d.n == 0 ? "- (n=0)" : "\(number(d.median)) [\(number(d.q1)), \(number(d.q3))] (n=\(d.n))"
        }
        var lines = ["# Domain gap: reference vs compared images", ""]
        lines.append("- reference: `\(reference.manifest)`\(reference.name.map { " (\($0))" } ?? "")")
        lines.append("- compared: `\(compared.manifest)`\(compared.name.map { " (\($0))" } ?? "")")
        lines.append(
            "- statistics at the analysis scale: short side \(analysisShortSide) px (area average, never upscaled); "
                + "values as `median [q1, q3] (n=samples)`; δ = Cliff's delta, reference vs compared "
                + "(0 = same distribution, |δ| > 0.47 large)")
        lines.append(
            "- samples measured: reference \(Self.sectionNames.map { "\($0) \(reference.measured[$0] ?? 0)" }.joined(separator: ", ")); "
                + "compared \(Self.sectionNames.map { "\($0) \(compared.measured[$0] ?? 0)" }.joined(separator: ", ")); "
                + "failed: reference \(reference.failed), compared \(compared.failed)")
        lines.append("")
        lines.append("## Domain-gap figure")
        lines.append("")
        lines.append(
            "AUC of a standardised logistic regression (L2, pixel statistics only, group K-fold: a group never trains "
                + "and tests together) telling reference from compared images; 1.0 = trivially recognisable, "
                + "0.5 = indistinguishable; 95% cluster-bootstrap interval over groups.")
        lines.append("")
        lines.append("| section | AUC | 95% CI | reference n | compared n | groups | folds |")
        lines.append("|---|---|---|---|---|---|---|")
        for section in sections {
            guard let c = section.classifier else {
                lines.append("| \(section.name) | - | - | - | - | - | - |")
                continue
            }
            let ci =
                c.interval.map { "[\(String(format: "%.3f", $0.lower)), \(String(format: "%.3f", $0.upper))]" } ?? "-"
            lines.append(
                "| \(section.name) | \(String(format: "%.3f", c.auc)) | \(ci) | \(c.referenceCount) | \(c.comparedCount) | "
                    + "\(c.groupCount) | \(c.folds) |")
        }
        for section in sections {
            lines += ["", "## \(Self.title(section.name))", ""]
            lines.append("| statistic | reference | compared | δ |")
            lines.append("|---|---|---|---|")
            for c in section.comparisons {
                lines.append(
                    "| `\(c.statistic.rawValue)` | \(distribution(c.reference)) | \(distribution(c.compared)) | "
                        + "\(number(c.cliffsDelta)) |")
            }
            if let classifier = section.classifier {
                let ranked = zip(classifier.features, classifier.coefficients).sorted { abs($0.1) > abs($1.1) }.prefix(
                    6)
                lines.append("")
                lines.append(
                    "Largest standardised weights of the classifier fitted on all \(classifier.referenceCount + classifier.comparedCount) "
                        + "samples (positive = larger in the reference set): "
                        + ranked.map { "`\($0.0)` \(String(format: "%+.2f", $0.1))" }.joined(separator: ", ") + ".")
            }
        }
        lines += ["", "## Statistics", ""]
        for statistic in GapStatistic.allCases {
            lines.append(
                "- `\(statistic.rawValue)`: \(statistic.summary)\(statistic.isPixelStatistic ? "" : "; not classified on")"
            )
        }
        if !failures.isEmpty {
            lines += ["", "## Samples not measured (\(failures.count))", ""]
            for failure in failures.prefix(50) {
                lines.append("- \(failure.set) `\(failure.sample)`: \(failure.reason)")
            }
            if failures.count > 50 { lines.append("- ... \(failures.count - 50) more in gap.json") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension DomainGapReport {
    /// The report in `folder/gap.json` (written by `rial-bench dataset gap`).
    ///
    /// - Throws: `RunError` naming the file when it is missing or unreadable (as for
    ///   `results.json` and `tune.json`), not a gap report or of another format version.
    public static func read(folder: String) throws(RunError) -> DomainGapReport {
        let path = URL(fileURLWithPath: folder).appendingPathComponent("gap.json").path
        // RunResults.decoder reads the "inf"/"-inf"/"nan" strings json() writes.
        let report = try RunResults.decodeReport(
            DomainGapReport.self, from: try RunResults.contents(of: path), path: path, what: "domain-gap report")
        guard report.reportFormat == format else {
            throw RunError("\(path): format '\(report.reportFormat)', this rial-bench reads '\(format)'")
        }
        return report
    }
}
