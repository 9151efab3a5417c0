import Foundation
import RialDetection

/// The threshold-picking part of every report, built once from `results.json` and
/// rendered as Markdown (`report.md`, the methodology) or HTML (`report.html`): the
/// headline, per data kind a table of operating points of every method, the aggregate's
/// threshold table and its output-level table. Cells are plain text; each renderer
/// escapes them. Every table names the data it pools (data kind, samples, bootstrap
/// clusters).
enum OperatingPointReport {
    /// A table with its title, what it pools and its footnotes.
    struct Table {
        var title: String
        /// Which data, how many samples and groups.
        var basis: String
        var header: [String]
        var rows: [[String]]
        var notes: [String] = []
    }

    /// One headline paragraph: a bold lead and the sentences.
    struct Headline {
        var lead: String
        var text: String
    }

    /// Data kinds of `r`, real first.
    static func kinds(_ r: RunResults) -> [String] {
        r.metricsByData.keys.sorted { HTMLReportPage.kindOrder($0) < HTMLReportPage.kindOrder($1) }
    }

    static func kindName(_ kind: String) -> String {
        switch kind {
        case "real": "real photos"
        case "simulated": "simulated captures"
        default: "\(kind) data"
        }
    }

    /// `0.086` -> `8.6%`; undefined -> `—`.
    static func pct(_ rate: Double) -> String {
        rate.isFinite ? SVGNumber.format(rate * 100, decimals: 1, trimZeros: false) + "%" : "—"
    }

    /// A threshold with 3 decimals; `+inf` reads as "accept nothing".
    static func threshold(_ value: Double) -> String {
        if value == .infinity { return "+inf (accept nothing)" }
        return value.isFinite ? SVGNumber.format(value, decimals: 3, trimZeros: false) : "—"
    }

    /// ` [a, b]` in percent, or in score units when `!percent`; empty without interval.
    static func ci(_ c: ConfidenceInterval?, percent: Bool = true) -> String {
        guard let c else { return "" }
        guard c.lower.isFinite, c.upper.isFinite else { return " [—]" }
        return percent ? " [\(pct(c.lower)), \(pct(c.upper))]" : " [\(threshold(c.lower)), \(threshold(c.upper))]"
    }

    /// "real photos: 26 samples (21 bona fide, 5 attacks), 24 groups" for `m`.
    static func basis(_ kind: String, _ m: MethodMetrics) -> String {
        "\(kindName(kind)): \(m.bonaFideCount + m.attackCount) scored samples (\(m.bonaFideCount) bona fide, "
            + "\(m.attackCount) attacks\(m.excludedCount > 0 ? "; \(m.excludedCount) unscored left out" : "")), "
            + "\(m.clusterCount) bootstrap clusters (groups, or single samples)"
    }

    /// The footnote on species left out of APCER max (`†`-marked in tables).
    static func minimumNote(_ m: MethodMetrics, dagger: Bool = true) -> String? {
        guard !m.apcer.speciesBelowMinimum.isEmpty else { return nil }
        let list = m.apcer.speciesBelowMinimum.map { "\($0) (\(m.apcer.attacksPerSpecies[$0] ?? 0))" }
        return (dagger ? "† " : "") + "Species with fewer than \(m.apcer.minimumAttacksForMax ?? 1) attacks: "
            + "\(list.joined(separator: ", ")). Each keeps its own APCER but does not count in APCER max "
            + "(with so few attacks one accepted attack moves the rate by more than 5 points)."
    }

    /// The headline: per data kind, the aggregate at its decision threshold and at BPCER
    /// 5 %, the EER with the rates its threshold gives, ties, and the best single method.
    static func headline(_ r: RunResults) -> [Headline] {
        var out: [Headline] = []
        for kind in kinds(r) {
            guard let m = r.metricsByData[kind]?["aggregate"] else { continue }
            var text = "Aggregate score, \(m.bonaFideCount) bona fide / \(m.attackCount) attacks in "
            text += "\(m.clusterCount) bootstrap clusters. AUC \(threshold(m.auc))\(ci(m.aucCI, percent: false)). "
            text += "At the decision threshold \(threshold(m.threshold)): "
            if m.apcer.maxCounted.isNaN && !m.apcer.speciesBelowMinimum.isEmpty {
                text += "APCER max undefined (no species has at least \(m.apcer.minimumAttacksForMax ?? 1) attacks)"
            } else {
                text += "APCER max \(pct(m.apcer.maxCounted))\(ci(m.apcer.maxCountedCI))"
                if let species = m.apcer.maxCountedSpecies { text += " (\(species))" }
            }
            text += ", pooled \(pct(m.apcer.pooled))\(ci(m.apcer.pooledCI)), BPCER \(pct(m.bpcer))\(ci(m.bpcerCI)). "
            if let p = m.apcerAtBPCER?.first(where: { $0.target == 0.05 }), p.threshold.isFinite {
                text += "For BPCER ≤ 5%: threshold \(threshold(p.threshold))\(ci(p.thresholdCI, percent: false)) "
                text += "gives pooled APCER \(pct(p.apcerPooled))\(ci(p.apcerPooledCI)) (BPCER \(pct(p.bpcer))). "
            }
            if m.eer.isFinite, let e = m.eerOperatingPoint {
                text += "EER \(pct(m.eer)) at \(threshold(m.eerThreshold)): at that threshold APCER "
                text += "\(pct(e.apcerPooled)) / BPCER \(pct(e.bpcer)). "
            }
            if let t = m.ties, t.scoredCount > 0 {
                text += "Ties: \(pct(t.tiedFraction)) of scored samples share their score with another; the largest "
                text +=
                    "block is \(t.largestBlock) samples (\(pct(t.largestBlockFraction))) at \(threshold(t.largestBlockScore)). "
            }
            // A method that scored only a few of these samples (no depth on most photos) is no rival.
            let scored = m.bonaFideCount + m.attackCount
            let single = r.methods.filter { $0 != "aggregate" && !$0.contains(":") }.compactMap { key in
                r.metricsByData[kind]?[key].map { (key, $0) }
            }.filter { $0.1.auc.isFinite && 2 * ($0.1.bonaFideCount + $0.1.attackCount) >= scored }
                .max { $0.1.auc < $1.1.auc }
            if let (key, best) = single {
                text += "Best single method by AUC (of those scoring at least half of these samples): \(key), "
                text +=
                    "\(threshold(best.auc))\(ci(best.aucCI, percent: false)) on \(best.bonaFideCount + best.attackCount) "
                text += "scored samples."
            }
            if let note = minimumNote(m, dagger: false) { text += " " + note }
            out.append(Headline(lead: "On \(kindName(kind)):", text: text))
        }
        if out.isEmpty { out.append(Headline(lead: "No result:", text: "no sample was evaluated.")) }
        return out
    }

    /// Every method's operating points on `kind`.
    static func methodTable(_ r: RunResults, kind: String) -> Table? {
        guard let all = r.metricsByData[kind], let aggregate = all["aggregate"] else { return nil }
        var rows: [[String]] = []
        for key in r.methods {
            guard let m = all[key] else { continue }
            var row = [key, "\(m.bonaFideCount) / \(m.attackCount) (\(m.clusterCount))"]
            row.append(threshold(m.auc) + ci(m.aucCI, percent: false))
            let e = m.eerOperatingPoint
            row.append(
                m.eer.isFinite
                    ? "\(pct(m.eer)) at \(threshold(m.eerThreshold)) → \(pct(e?.apcerPooled ?? .nan)) / \(pct(e?.bpcer ?? .nan))"
                    : "—")
            for target in APCERAtBPCER.standardTargets {
                if let p = m.apcerAtBPCER?.first(where: { $0.target == target }), p.apcerPooled.isFinite {
                    row.append(
                        "\(pct(p.apcerPooled))\(ci(p.apcerPooledCI)) at \(threshold(p.threshold))\(ci(p.thresholdCI, percent: false))"
                    )
                } else {
                    row.append("—")
                }
            }
            row.append(
                m.ties.map {
                    "\(pct($0.tiedFraction)) (largest \($0.largestBlock) at \(threshold($0.largestBlockScore)))"
                }
                    ?? "—")
            rows.append(row)
        }
        return Table(
            title: "Operating points — \(kindName(kind))",
            basis: basis(kind, aggregate) + " (aggregate; per method n in the table)",
            header: [
                "method", "n bona fide / attack (clusters)", "AUC [95% CI]", "EER at threshold → APCER / BPCER there",
                "pooled APCER at BPCER 1% (threshold)", "at BPCER 5%", "at BPCER 10%", "tied scores (largest block)",
            ],
            rows: rows,
            notes: [
                "EER: where the interpolated ROC crosses pooled APCER = BPCER; the arrow gives the rates a decision at "
                    + "that threshold (score ≥ threshold) really gives, which differ when scores are tied.",
                "APCER at BPCER x%: the highest threshold whose BPCER ≤ x% (scores ≥ threshold accepted); intervals: "
                    + "cluster bootstrap, each resample picks its own threshold, so the threshold interval shows how far the "
                    + "operating point moves.",
                "Tied: share of scored samples whose score equals another sample's score; a tie block is one step of "
                    + "the ROC/DET curve that no threshold can split.",
            ])
    }

    /// What each threshold-table reason means.
    static func reasonText(_ reason: String) -> String {
        let parts = reason.split(separator: "_").map(String.init)
        switch parts.first {
        case "bpcer": return "BPCER ≤ \(parts.last ?? "")%"
        case "apcer": return "APCER \(parts.count > 2 ? parts[1] : "") ≤ \(parts.last ?? "")%"
        case "eer": return "EER threshold"
        case "decision": return "configured decision"
        default: return reason
        }
    }

    /// The threshold table of `key` on `kind`.
    static func thresholdTable(_ r: RunResults, kind: String, key: String = "aggregate") -> Table? {
        guard let m = r.metricsByData[kind]?[key], let table = m.thresholdTable, !table.isEmpty else { return nil }
        let species = m.apcer.attacksPerSpecies.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let below = Set(m.apcer.speciesBelowMinimum)
        var header = ["operating point", "threshold"]
        header += species.map {
            "APCER \($0) (n=\(m.apcer.attacksPerSpecies[$0] ?? 0))\(below.contains($0) ? " †" : "")"
        }
        header += ["pooled APCER", "APCER max", "BPCER (n=\(m.bonaFideCount))"]
        let rows = table.map { row -> [String] in
            var cells = [reasonText(row.reason), threshold(row.threshold)]
            cells += species.map { pct(row.apcerPerSpecies[$0] ?? .nan) + ci(row.apcerPerSpeciesCI[$0]) }
            cells.append(pct(row.apcerPooled) + ci(row.apcerPooledCI))
            cells.append(pct(row.apcerMax) + ci(row.apcerMaxCI) + (row.apcerMaxSpecies.map { " (\($0))" } ?? ""))
            cells.append(pct(row.bpcer) + ci(row.bpcerCI))
            return cells
        }
        var notes = [
            "Accept = score ≥ threshold. Per-species intervals: Wilson (clusters ignored); pooled, max and BPCER: "
                + "cluster bootstrap at that fixed threshold. APCER rows use APCER max (or pooled when no species has "
                + "enough attacks) and take the lowest threshold that keeps it at or under the target."
        ]
        if let note = minimumNote(m) { notes.append(note) }
        return Table(
            title: "Threshold table — \(key), \(kindName(kind))", basis: basis(kind, m), header: header, rows: rows,
            notes: notes)
    }

    /// The aggregate's output levels as decisions on `kind`.
    static func levelTable(_ r: RunResults, kind: String) -> Table? {
        guard let rows = r.aggregateLevels?[kind], let first = rows.first else { return nil }
        let species = first.attacksPerSpecies.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let boundaries = r.configuration.aggregation.effectiveBoundaries
        var header = ["accept at level ≥", "score ≥"]
        header += species.map { "APCER \($0) (n=\(first.attacksPerSpecies[$0] ?? 0))" }
        header += ["pooled APCER", "BPCER (n=\(first.nBonaFide))"]
        let body = rows.map { row -> [String] in
            [row.level.rawValue, threshold(boundaries.lowerBound(of: row.level))]
                + species.map { pct(row.apcerPerSpecies[$0] ?? .nan) }
                + [pct(row.apcerPooled) + ci(row.apcerPooledCI), pct(row.bpcer) + ci(row.bpcerCI)]
        }
        return Table(
            title: "Output levels as decisions — aggregate, \(kindName(kind))",
            basis: "\(kindName(kind)): \(first.nBonaFide + first.nAttack) samples with an aggregate level "
                + "(\(first.nBonaFide) bona fide, \(first.nAttack) attacks)",
            header: header, rows: body,
            notes: [
                "A sample is accepted at level L when its displayed confidence level (caps included) is L or higher. "
                    + "Intervals: Wilson (single proportions, clusters ignored)."
            ])
    }

    /// Every table of `r`, per data kind.
    static func tables(_ r: RunResults) -> [Table] {
        kinds(r).flatMap { kind in
            [methodTable(r, kind: kind), thresholdTable(r, kind: kind), levelTable(r, kind: kind)].compactMap { $0 }
        }
    }

    // MARK: Rendering

    static func markdown(_ headline: [Headline]) -> [String] {
        headline.flatMap { ["**\(MarkdownText.escape($0.lead))** \(MarkdownText.escape($0.text))", ""] }
    }

    static func markdown(_ table: Table, level: String = "###") -> [String] {
        var out = [
            "\(level) \(MarkdownText.escape(table.title))", "", "_Pools \(MarkdownText.escape(table.basis))._", "",
        ]
        out.append("| " + table.header.map(MarkdownText.escape).joined(separator: " | ") + " |")
        out.append("|" + table.header.indices.map { $0 == 0 ? "---|" : "---:|" }.joined())
        for row in table.rows { out.append("| " + row.map(MarkdownText.escape).joined(separator: " | ") + " |") }
        out.append("")
        for note in table.notes { out += [MarkdownText.escape(note), ""] }
        return out
    }

    static func html(_ headline: [Headline]) -> String {
        headline.map { "<p><strong>\(HTMLText.escape($0.lead))</strong> \(HTMLText.escape($0.text))</p>\n" }.joined()
    }

    static func html(_ table: Table) -> String {
        var out = "<div class=\"keep\">\n<h3>\(HTMLText.escape(table.title))</h3>\n"
        out +=
            "<p class=\"note\">Pools \(HTMLText.escape(table.basis)).</p>\n<div class=\"scroll\">\n<table>\n<thead><tr>"
        for (i, h) in table.header.enumerated() {
            out += i == 0 ? "<th class=\"key\">\(HTMLText.escape(h))</th>" : "<th>\(HTMLText.escape(h))</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            out += "<tr>"
            for (i, cell) in row.enumerated() {
                out += i == 0 ? "<th>\(HTMLText.escape(cell))</th>" : "<td>\(HTMLText.escape(cell))</td>"
            }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table>\n</div>\n"
        for note in table.notes { out += "<p class=\"note\">\(HTMLText.escape(note))</p>\n" }
        return out + "</div>\n"
    }
}
