import Foundation
import RialDetection

extension HTMLReportPage {
    // MARK: Metrics

    /// The key cell of a table row: a line sample in the plot colour, then the key.
    func keyCell(_ key: String) -> String {
        let style = HTMLReportPlots.style(key, in: keys)
        let dashed = style.dash == nil ? "solid" : "dashed"
        return
            "<th><span class=\"swatch\" style=\"border-top-color: \(style.colour); border-top-style: \(dashed)\"></span>"
            + "\(Self.e(key))</th>"
    }

    /// Why `metric`'s undefined values are undefined (its warnings), for tooltips.
    static func why(_ metric: MethodMetrics) -> String {
        let reasons = metric.warnings.filter { $0 != .nonFiniteScoresExcluded && $0 != .undefinedBootstrapResamples }
            .map(\.description)
        return reasons.isEmpty ? "undefined" : reasons.joined(separator: "; ")
    }

    /// A value (percent or 3 decimals) with its interval under it; only "—" when the
    /// value is undefined.
    static func cell(_ value: Double, _ ci: ConfidenceInterval?, percent: Bool, why: String) -> String {
        guard value.isFinite else { return HTMLFormat.undefined(why) }
        return (percent ? HTMLFormat.percent(value) : HTMLFormat.fixed(value))
            + HTMLFormat.interval(ci, percent: percent)
    }

    /// A threshold under a value (`at 0.471`), or nothing when undefined.
    static func at(_ threshold: Double) -> String {
        threshold.isFinite
            ? "<span class=\"sub\">at \(SVGNumber.format(threshold, decimals: 3, trimZeros: false))</span>" : ""
    }

    mutating func metricsSection() {
        let r = results
        html += "<section id=\"metrics\">\n<h2>Metrics</h2>\n"
        html +=
            "<p class=\"note\">ISO/IEC 30107-3 presentation-attack metrics, bona fide (<code>real_scene</code>) positive; "
        html +=
            "a sample is accepted as bona fide when its score ≥ the threshold. APCER = attacks accepted (max over species, "
        html +=
            "per species below), BPCER = bona fide rejected, ACER = (APCER max + BPCER) / 2, BPCER20 / BPCER100 = BPCER at "
        html += "the loosest threshold where APCER max ≤ 5 % / 1 %, EER where pooled APCER = BPCER, TPR = 1 − BPCER. "
        html += "AUC and AP as scikit-learn computes them. Rates in %. "
        if r.bootstrapResamples > 0 {
            html += "Intervals (grey): 95 % cluster bootstrap (percentile), \(r.bootstrapResamples) resamples, seed "
            html +=
                "\(r.seeds["bootstrap"].map(String.init) ?? "—"), groups resampled whole; per-species APCER: Wilson. "
        } else {
            html += "No bootstrap intervals (0 resamples). "
        }
        html += "A dash (—) marks an undefined value; the reason is listed under the table.</p>\n"
        html += "<h3>All evaluated samples</h3>\n"
        metricsTables(r.metrics, context: "all")
        let kinds = r.metricsByData.keys.sorted { Self.kindOrder($0) < Self.kindOrder($1) }
        if kinds.count > 1 {
            for kind in kinds {
                html += "<h3>\(Self.e(Self.kindName(kind))) only</h3>\n"
                metricsTables(r.metricsByData[kind] ?? [:], context: kind)
            }
        } else if let only = kinds.first {
            html +=
                "<p class=\"note\">All evaluated samples are \(Self.e(Self.kindName(only))): the split by data kind "
            html += "equals the table above.</p>\n"
        }
        html += "</section>\n"
    }

    /// The main table, the per-species APCER table and the warnings of one metrics set.
    mutating func metricsTables(_ metrics: [String: MethodMetrics], context: String) {
        let rows = keys.filter { metrics[$0] != nil } + metrics.keys.filter { !keys.contains($0) }.sorted()
        guard !rows.isEmpty else {
            html += "<p class=\"note\">No metrics.</p>\n"
            return
        }
        html += "<div class=\"scroll\">\n<table class=\"metrics\" data-context=\"\(Self.e(context))\">\n<thead><tr>"
        html += "<th class=\"key\">method</th><th>n bona fide / attack</th><th>threshold</th>"
        html += "<th>AUC<span class=\"sub\">95 % CI</span></th>"
        html += "<th>AP</th><th>EER %</th><th>APCER max %</th><th>BPCER %</th><th>ACER %</th><th>BPCER20 %</th>"
        html += "<th>BPCER100 %</th><th>TPR at threshold %</th></tr></thead>\n<tbody>\n"
        for key in rows {
            let m = metrics[key]!
            let why = Self.why(m)
            html += key == "aggregate" ? "<tr class=\"aggregate\">" : "<tr>"
            html += keyCell(key)
            html += "<td>\(HTMLFormat.count(m.bonaFideCount)) / \(HTMLFormat.count(m.attackCount))"
            if m.excludedCount > 0 { html += "<span class=\"sub\">\(m.excludedCount) unscored</span>" }
            html += "</td>"
            html += "<td>\(HTMLFormat.fixed(m.threshold, why: "accept nothing"))</td>"
            html += "<td>\(Self.cell(m.auc, m.aucCI, percent: false, why: why))</td>"
            html += "<td>\(HTMLFormat.fixed(m.averagePrecision, why: why))</td>"
            html += "<td>\(Self.cell(m.eer, m.eerCI, percent: true, why: why))\(Self.at(m.eerThreshold))</td>"
            // APCER max over the species with enough attacks when the results have it.
            let counted = m.apcer.minimumAttacksForMax != nil
            let (apcerMax, apcerMaxCI) =
                counted ? (m.apcer.maxCounted, m.apcer.maxCountedCI) : (m.apcer.max, m.apcer.maxCI)
            let excluded = m.apcer.speciesBelowMinimum
            html +=
                "<td>\(Self.cell(apcerMax, apcerMaxCI, percent: true, why: excluded.isEmpty ? why : "no species has enough attacks"))"
            if let species = counted ? m.apcer.maxCountedSpecies : m.apcer.maxSpecies, apcerMax.isFinite {
                html += "<span class=\"sub\">\(Self.e(species))</span>"
            }
            if !excluded.isEmpty {
                html += "<span class=\"sub\">† excl. \(Self.e(excluded.joined(separator: ", ")))</span>"
            }
            html += "</td>"
            html += "<td>\(Self.cell(m.bpcer, m.bpcerCI, percent: true, why: why))</td>"
            html += "<td>\(Self.cell(m.acer, m.acerCI, percent: true, why: why))</td>"
            let b20 = HTMLFormat.percent(m.bpcer20, why: "APCER max ≤ 5 % not reachable or undefined")
            let b100 = HTMLFormat.percent(m.bpcer100, why: "APCER max ≤ 1 % not reachable or undefined")
            html += "<td>\(b20)\(Self.at(m.bpcer20Threshold))</td><td>\(b100)\(Self.at(m.bpcer100Threshold))</td>"
            html += "<td>\(Self.cell(m.tprAtOperatingPoint, m.tprCI, percent: true, why: why))</td>"
            html += "</tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n"

        let species = SVGPalette.orderedLabels(rows.flatMap { metrics[$0]!.apcer.attacksPerSpecies.keys })
        if !species.isEmpty {
            html += "<h4>APCER per attack species (%, Wilson 95 % interval, attacks of the species)</h4>\n"
            html += "<div class=\"scroll\">\n<table class=\"apcer\">\n<thead><tr><th class=\"key\">method</th>"
            for name in species { html += "<th>\(Self.e(name))</th>" }
            html += "</tr></thead>\n<tbody>\n"
            for key in rows {
                let apcer = metrics[key]!.apcer
                html += key == "aggregate" ? "<tr class=\"aggregate\">" : "<tr>"
                html += keyCell(key)
                for name in species {
                    guard let n = apcer.attacksPerSpecies[name] else {
                        html += "<td>\(HTMLFormat.undefined("no attack of this species"))</td>"
                        continue
                    }
                    let rate = apcer.perSpecies[name] ?? .nan
                    let value = HTMLFormat.percent(rate, why: "no scored attack of this species")
                    let isMax = name == apcer.maxSpecies && rate.isFinite
                    html += "<td>\(isMax ? "<strong>\(value)</strong>" : value)"
                    html +=
                        "\(HTMLFormat.interval(apcer.perSpeciesCI[name], percent: true))<span class=\"sub\">n = \(n)</span></td>"
                }
                html += "</tr>\n"
            }
            html += "</tbody>\n</table>\n</div>\n"
        }

        let warned = rows.filter { !metrics[$0]!.warnings.isEmpty }
        if !warned.isEmpty {
            html += "<ul class=\"warnings\">\n"
            for key in warned {
                let m = metrics[key]!
                var texts = m.warnings.map(\.description)
                if m.warnings.contains(.nonFiniteScoresExcluded) {
                    texts = texts.map {
                        $0 == MetricsWarning.nonFiniteScoresExcluded.description ? "\($0) (\(m.excludedCount))" : $0
                    }
                }
                html += "<li><strong>\(Self.e(key))</strong>: \(Self.e(texts.joined(separator: "; ")))</li>\n"
            }
            html += "</ul>\n"
        }
    }

    // MARK: Latency

    mutating func latencySection() {
        let r = results
        html += "<section id=\"latency\">\n<div class=\"keep\">\n<h2>Latency</h2>\n"
        if r.build != "release" {
            html += "<p><strong>\(Self.e(r.build)) build:</strong> timings are not representative; every verdict is "
            html += "<span class=\"na\">n/a</span>. Run a release build for latency verdicts.</p>\n"
        }
        html += "<div class=\"plots\">\n"
        figure(
            plots.latency, file: "latency.svg",
            caption: "p50, p90 and p99 per sample on a log axis; red: the target of methods.md section 9 for the key's "
                + "family. The verdicts compare the median and p99 with the target; n counts the samples on which the "
                + "key ran (a method only where it completed).")
        html += "</div>\n</div>\n"
        let latencyKeys = HTMLReport.latencyKeys(r)
        guard !latencyKeys.isEmpty else {
            html += "<p class=\"note\">No latency was recorded.</p>\n</section>\n"
            return
        }
        html += "<div class=\"scroll\">\n<table class=\"latency\">\n<thead><tr><th class=\"key\">key</th><th>n</th>"
        html +=
            "<th>min ms</th><th>mean ms</th><th>p50 ms</th><th>p90 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th>"
        html += "<th>target ms</th><th>p50 verdict</th><th>p99 verdict</th><th>not run</th></tr></thead>\n<tbody>\n"
        for key in latencyKeys {
            guard let entry = r.latency[key] else { continue }
            let s = entry.statistics
            html += "<tr><th>\(Self.e(key))</th><td>\(HTMLFormat.count(s.n))</td>"
            for value in [s.min, s.mean, s.p50, s.p90, s.p95, s.p99, s.max] {
                html += "<td>\(HTMLFormat.milliseconds(value))</td>"
            }
            html +=
                "<td>\(entry.targetMs.map(HTMLFormat.milliseconds) ?? HTMLFormat.undefined("no target for this key"))</td>"
            for verdict in [entry.verdict, entry.p99Verdict ?? "n/a"] {
                let verdictClass = verdict == "PASS" ? "pass" : verdict == "FAIL" ? "fail" : "na"
                html += "<td><span class=\"\(verdictClass)\">\(Self.e(verdict))</span></td>"
            }
            html += "<td>\(entry.notRun.map(HTMLFormat.count) ?? HTMLFormat.undefined("not recorded"))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n"
        html +=
            "<p class=\"note\">Milliseconds per sample, monotonic clock, in-process; percentiles are nearest-rank (the value at "
        html += "rank ⌈p·n/100⌉). PASS when p50 ≤ target; n/a without a target or in a debug build.</p>\n"
        html += "</section>\n"
    }

    // MARK: Breakdowns

    /// Groups listed in the per-group table; with more, the table is left to results.json.
    static let groupRows = 20

    mutating func breakdownsSection() {
        html += "<section id=\"breakdowns\">\n<h2>Breakdowns</h2>\n"
        html +=
            "<p class=\"note\">Each subset at the method's threshold: accepted = share with score ≥ threshold; APCER and BPCER "
        html +=
            "over the subset's own attacks and bona fide (Wilson 95 % intervals, clusters ignored). For an attack label, "
        html +=
            "AUC and EER are that species against all bona fide samples. A dash (—) marks an undefined value (no sample "
        html += "of that class in the subset).</p>\n"
        let dimensions: [(String, String, (MetricsBreakdown) -> [BreakdownEntry]?)] = [
            ("Per label", "label", { $0.perLabel }), ("Per tag", "tag", { $0.perTag }),
            ("Per attestation level", "attestation", { $0.perAttestation }), ("Per group", "group", { $0.perGroup }),
        ]
        var any = false
        for (title, name, pick) in dimensions {
            var entries: [String: [(key: String, entry: BreakdownEntry)]] = [:]
            for method in keys {
                for entry in results.metrics[method].flatMap({ $0.breakdowns }).flatMap(pick) ?? [] {
                    entries[entry.key, default: []].append((method, entry))
                }
            }
            guard !entries.isEmpty else { continue }
            any = true
            html += "<h3>\(title)</h3>\n"
            if name == "group", entries.count > Self.groupRows {
                html +=
                    "<p class=\"note\">\(entries.count) groups: the per-group table is in <code>results.json</code> "
                html += "(<code>breakdowns.per_group</code>).</p>\n"
                continue
            }
            let order =
                name == "label"
                ? SVGPalette.orderedLabels(entries.keys)
                : entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            breakdownTable(dimension: name, order: order, entries: entries)
        }
        if !any { html += "<p class=\"note\">No breakdowns were computed.</p>\n" }
        html += "</section>\n"
    }

    mutating func breakdownTable(
        dimension: String, order: [String],
        entries: [String: [(key: String, entry: BreakdownEntry)]]
    ) {
        html +=
            "<div class=\"scroll\">\n<table class=\"breakdown\" data-dimension=\"\(Self.e(dimension))\">\n<thead><tr>"
        html +=
            "<th class=\"key\">\(Self.e(dimension))</th><th class=\"key\">method</th><th>n bona fide</th><th>n attack</th>"
        html += "<th>mean score</th><th>accepted %</th><th>APCER %</th><th>BPCER %</th><th>AUC</th><th>EER %</th>"
        html += "</tr></thead>\n<tbody>\n"
        for subset in order {
            let rows = entries[subset] ?? []
            for (index, row) in rows.enumerated() {
                let b = row.entry
                let why = b.warnings.isEmpty ? "undefined" : b.warnings.map(\.description).joined(separator: "; ")
                html += "<tr>"
                if index == 0 { html += "<th rowspan=\"\(rows.count)\"><code>\(Self.e(subset))</code></th>" }
                html += "<td class=\"text\">\(Self.e(row.key))</td><td>\(HTMLFormat.count(b.nBonaFide))</td>"
                html += "<td>\(HTMLFormat.count(b.nAttack))</td><td>\(HTMLFormat.fixed(b.meanScore))</td>"
                html +=
                    "<td>\(HTMLFormat.percent(b.acceptanceRate))\(HTMLFormat.interval(b.acceptanceCI, percent: true))</td>"
                html += "<td>\(HTMLFormat.percent(b.apcer, why: "no attack in this subset"))"
                html += b.apcer.isFinite ? HTMLFormat.interval(b.apcerCI, percent: true) : ""
                html += "</td><td>\(HTMLFormat.percent(b.bpcer, why: "no bona fide in this subset"))"
                html += b.bpcer.isFinite ? HTMLFormat.interval(b.bpcerCI, percent: true) : ""
                html +=
                    "</td><td>\(HTMLFormat.fixed(b.auc, why: why))</td><td>\(HTMLFormat.percent(b.eer, why: why))</td></tr>\n"
            }
        }
        html += "</tbody>\n</table>\n</div>\n"
    }

    // MARK: Environment

    mutating func environmentSection() {
        let r = results
        html += "<section id=\"environment\">\n<h2>Environment and reproducibility</h2>\n"
        var rows: [(String, String)] = [
            ("tool", "\(Self.e(r.tool.name)) \(Self.e(r.tool.version))"),
            (
                "git commit",
                r.tool.gitCommit.map { "<span class=\"hash\">\(Self.e($0))</span>" }
                    ?? HTMLFormat.undefined("not in a git checkout")
            ),
            ("results schema", "<code>\(Self.e(r.schema))</code>"),
            ("created", Self.e(r.created)),
            ("configuration SHA-256", "<span class=\"hash\">\(Self.e(r.configurationSHA256))</span>"),
            ("profile", "<code>\(Self.e(r.profile))</code>"),
            ("decision threshold", HTMLFormat.fixed(r.configuration.decision.threshold)),
        ]
        for dataset in r.datasets {
            rows.append(
                (
                    "manifest SHA-256 — \(Self.e(dataset.name))",
                    "<span class=\"hash\">\(Self.e(dataset.manifestSHA256))</span>"
                ))
        }
        for key in r.seeds.keys.sorted() { rows.append(("seed <code>\(Self.e(key))</code>", String(r.seeds[key]!))) }
        rows += [
            ("bootstrap resamples", String(r.bootstrapResamples)),
            ("test run", r.testRun ? "yes (limit \(r.limit.map(String.init) ?? "—"))" : "no"),
            ("build", Self.e(r.build)), ("jobs", String(r.jobs)), ("shards", String(r.shards)),
            ("run time", "\(SVGNumber.format(r.runSeconds, decimals: 1, trimZeros: false)) s"),
            ("OS", Self.e(r.environment.os)), ("CPU", Self.e(r.environment.cpu)),
            ("instruction set", Self.e(r.environment.instructionSet ?? "not recorded")),
            ("cores", String(r.environment.cores)),
            ("memory", "\(SVGNumber.format(r.environment.memoryGiB, decimals: 1, trimZeros: false)) GiB"),
            ("Swift", Self.e(r.environment.swift)), ("host", Self.e(r.environment.hostname)),
        ]
        html += "<table class=\"environment\">\n<tbody>\n"
        for (name, value) in rows { html += "<tr><th>\(name)</th><td class=\"text\">\(value)</td></tr>\n" }
        html += "</tbody>\n</table>\n"
        html +=
            "<h3>Configuration</h3>\n<p class=\"note\">As resolved for this run; its canonical JSON (sorted keys) hashes to "
        html += "the SHA-256 above.</p>\n<pre>\(Self.e(Self.configurationJSON(r.configuration)))</pre>\n"
        html += "</section>\n"
    }

    /// The configuration as pretty JSON with sorted keys (stable across runs).
    static func configurationJSON(_ configuration: PipelineConfiguration) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(configuration) else { return "(configuration could not be encoded)" }
        return String(decoding: data, as: UTF8.self)
    }
}
