import Foundation
import RialMedia

/// `report.md`: the run in one page of Markdown, short enough for a pull-request
/// comment or a CI step summary. Every number names the data it rests on. Text from the
/// user (dataset names, sample ids, failure reasons, the profile name) goes through
/// `MarkdownText.escape`, so it shows literally and cannot break a table or add markup.
public enum MarkdownReport {
    /// Says so when `roc.csv` and `det.csv` thin a curve (`CurveExport`): some key has more
    /// scored samples than the export writes in full. Nil otherwise.
    static func curveNote(_ r: RunResults) -> String? {
        let export = r.curveExport ?? .standard
        let longest = r.metrics.values.map { $0.bonaFideCount + $0.attackCount }.max() ?? 0
        guard export.tolerance > 0, longest + 1 > export.fullPoints else { return nil }
        return "`roc.csv` and `det.csv`: curves of more than \(export.fullPoints) points keep every point whose rates "
            + "moved by more than \(number(export.tolerance)) times their distance to 0 or 1 from the last point written "
            + "(`curve_export` in results.json; `--full-curves` writes every point); the metrics use every point."
    }

    public static func render(_ r: RunResults) -> String {
        var out: [String] = []
        out.append("# rial-bench run")
        out.append("")
        if r.testRun {
            out.append(
                "> **TEST RUN** (`--limit \(r.limit ?? 0)`): a subset of the data; these numbers are not representative."
            )
            out.append("")
        }
        out.append("## Headline")
        out.append("")
        out += OperatingPointReport.markdown(OperatingPointReport.headline(r))
        out.append(dataLine(r))
        out.append("")
        out.append(
            "Profile \(MarkdownText.escape(r.profile)), configuration SHA-256 \(MarkdownText.code(r.configurationSHA256.prefix(16) + "…")), "
                + "decision threshold \(number(r.configuration.decision.threshold)), "
                + "\(r.bootstrapResamples) cluster-bootstrap resamples by `group` (seed \(r.seeds["bootstrap"] ?? 0)), 95% intervals."
        )
        out.append("")
        if let note = curveNote(r) {
            out.append(note)
            out.append("")
        }
        out.append("## Accuracy, all evaluated samples")
        out.append("")
        out += table(r.metrics, methods: r.methods)
        for kind in r.metricsByData.keys.sorted() where r.metricsByData.count > 1 {
            out.append("")
            let counts = r.counts.byData[kind] ?? [:]
            out.append(
                "## Accuracy, \(MarkdownText.escape(kind)) data only (\(counts.values.reduce(0, +)) samples: "
                    + counts.keys.sorted().map { "\(MarkdownText.escape($0)) \(counts[$0]!)" }.joined(separator: ", ")
                    + ")")
            out.append("")
            out += table(r.metricsByData[kind] ?? [:], methods: r.methods)
        }
        out.append("")
        out.append("## Picking a threshold (each data kind apart)")
        out.append("")
        for table in OperatingPointReport.tables(r) { out += OperatingPointReport.markdown(table) }
        if let success = r.successMetrics {
            out.append("## Success metrics (PRD 2.0 \"Success Criteria\")")
            out.append("")
            out += success.markdown(levels: r.ruleLevels)
        }
        if let parity = r.payloadParity {
            out.append("## Phone payload parity (story 9-6)")
            out.append("")
            out += parity.markdown()
        }
        if let privacy = r.privacyMode {
            out.append("## Privacy mode (hash-only payloads)")
            out.append("")
            out += privacy.markdown()
        }
        if let levels = r.ruleLevels {
            out.append("## Confidence levels per label, weighted and MVP rule")
            out.append("")
            out += levels.markdown()
        }
        out += VideoReport.markdown(r)
        out.append("## Latency (ms per sample, in-process, monotonic clock; nearest-rank percentiles)")
        out.append("")
        if r.build != "release" {
            out.append("_\(MarkdownText.escape(r.build)) build: latency verdicts are not applicable._\n")
        }
        out.append(
            "n: samples on which the key ran (a method only where it completed); not run: samples left out.\n")
        out.append("| key | n | not run | p50 | p90 | p99 | max | target | p50 verdict | p99 verdict |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
        for key in r.latency.keys.sorted() {
            let e = r.latency[key]!, s = e.statistics
            out.append(
                "| \(MarkdownText.code(key)) | \(s.n) | \(e.notRun.map(String.init) ?? "—") | \(ms(s.p50)) | \(ms(s.p90)) | "
                    + "\(ms(s.p99)) | \(ms(s.max)) | \(e.targetMs.map(ms) ?? "—") | \(MarkdownText.escape(e.verdict)) | "
                    + "\(MarkdownText.escape(e.p99Verdict ?? "—")) |")
        }
        if !r.failures.isEmpty {
            out.append("")
            out.append("## Failed samples (\(r.failures.count))")
            out.append("")
            out.append("| sample | dataset | stage | reason |")
            out.append("|---|---|---|---|")
            for f in r.failures.prefix(50) {
                out.append(
                    "| \(MarkdownText.escape(f.id)) | \(MarkdownText.escape(f.dataset)) | "
                        + "\(MarkdownText.escape(f.stage)) | \(MarkdownText.escape(f.reason)) |")
            }
            if r.failures.count > 50 { out.append("| … | | | \(r.failures.count - 50) more in results.json |") }
        }
        out.append("")
        out.append("## Data")
        out.append("")
        out.append("| dataset | data | manifest SHA-256 | samples | selected | evaluated | failed |")
        out.append("|---|---|---|---:|---:|---:|---:|")
        for d in r.datasets {
            out.append(
                "| \(MarkdownText.escape(d.name)) | \(MarkdownText.escape(d.data)) | \(MarkdownText.code(d.manifestSHA256.prefix(16) + "…")) | \(d.original) | \(d.selected) | \(d.evaluated) | \(d.failed) |"
            )
        }
        out.append("")
        out.append(
            "rial-bench \(MarkdownText.escape(r.tool.version))"
                + "\(r.tool.gitCommit.map { " (\(MarkdownText.escape(String($0.prefix(12)))))" } ?? ""), \(MarkdownText.escape(r.build)) build, "
                + "\(MarkdownText.escape(r.environment.machineDescription)), \(r.environment.cores) cores, \(r.jobs) jobs, "
                + "\(String(format: "%.1f", r.runSeconds)) s; \(MarkdownText.escape(r.created))."
        )
        out.append("")
        return out.joined(separator: "\n")
    }

    static func dataLine(_ r: RunResults) -> String {
        let parts = r.counts.byData.keys.sorted().map { kind -> String in
            let counts = r.counts.byData[kind]!
            return "\(counts.values.reduce(0, +)) \(MarkdownText.escape(kind)) ("
                + counts.keys.sorted().map { "\(MarkdownText.escape($0)) \(counts[$0]!)" }.joined(separator: ", ") + ")"
        }
        return "**Data:** \(r.counts.evaluated) evaluated samples — " + parts.joined(separator: "; ")
            + (r.counts.failed > 0 ? "; \(r.counts.failed) failed" : "") + "."
    }

    static func table(_ metrics: [String: MethodMetrics], methods: [String]) -> [String] {
        var out = [
            "| method | n bona fide / attack | AUC [95% CI] | EER | APCER max | BPCER | ACER (every species) | BPCER20 (every species) | TPR @ op |",
            "|---|---:|---|---:|---:|---:|---:|---:|---:|",
        ]
        for key in methods {
            guard let m = metrics[key] else { continue }
            let ci = m.aucCI.map { " [\(number($0.lower)), \(number($0.upper))]" } ?? ""
            let apcer =
                (m.apcer.minimumAttacksForMax == nil
                    ? number(m.apcer.max) + (m.apcer.maxSpecies.map { " (\(MarkdownText.escape($0)))" } ?? "")
                    : number(m.apcer.maxCounted)
                        + (m.apcer.maxCountedSpecies.map { " (\(MarkdownText.escape($0)))" } ?? ""))
                + (m.apcer.speciesBelowMinimum.isEmpty
                    ? "" : " † excl. " + m.apcer.speciesBelowMinimum.map(MarkdownText.escape).joined(separator: ", "))
            out.append(
                "| \(MarkdownText.code(key)) | \(m.bonaFideCount) / \(m.attackCount)\(m.excludedCount > 0 ? " (+\(m.excludedCount) unscored)" : "") | "
                    + "\(number(m.auc))\(ci) | \(number(m.eer)) | \(apcer) | \(number(m.bpcer)) | \(number(m.acer)) | "
                    + "\(number(m.bpcer20)) | \(number(m.tprAtOperatingPoint)) |")
        }
        if let minimum = methods.compactMap({ metrics[$0]?.apcer }).first(where: { !$0.speciesBelowMinimum.isEmpty }) {
            out.append("")
            out.append(
                "† APCER max counts only species with at least \(minimum.minimumAttacksForMax ?? 1) attacks; the "
                    + "excluded ones have their own APCER in the threshold tables. ACER and BPCER20 here take the "
                    + "maximum over every species (`apcer.max`, as in earlier results).")
        }
        return out
    }

    static func number(_ value: Double) -> String { value.isFinite ? String(format: "%.3f", value) : "—" }
    static func ms(_ value: Double) -> String { value.isFinite ? String(format: "%.2f", value) : "—" }
}
