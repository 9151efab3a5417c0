import Foundation
import RialDetection

/// Assembles `report.html` section by section (see `HTMLReport`).
struct HTMLReportPage {
    let results: RunResults
    /// Sample records the curves were drawn from (0: none were given).
    let sampleCount: Int
    let plots: HTMLReportPlots
    let keys: [String]
    var html = ""

    /// Failures listed in the table; the rest are counted.
    static let failureRows = 200

    init(results: RunResults, sampleCount: Int, plots: HTMLReportPlots) {
        self.results = results
        self.sampleCount = sampleCount
        self.plots = plots
        keys = plots.keys
    }

    static func e(_ text: String) -> String { HTMLText.escape(text) }

    mutating func render() -> String {
        html = ""
        html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>rial-bench report — \(Self.e(results.created))</title>\n"
        html += "<style>\n\(HTMLReportStyle.css)\n</style>\n</head>\n<body>\n"
        header()
        navigation()
        headlineSection()
        dataSection()
        failuresSection()
        metricsSection()
        operatingPointsSection()
        curvesSection()
        methodPlotsSection()
        latencySection()
        breakdownsSection()
        environmentSection()
        html += "</body>\n</html>\n"
        return html
    }

    // MARK: Header

    /// Evaluated samples by data kind, from `counts.by_data`.
    var countsByKind: [(kind: String, byLabel: [String: Int], total: Int)] {
        results.counts.byData.keys.sorted { Self.kindOrder($0) < Self.kindOrder($1) }.map { kind in
            let byLabel = results.counts.byData[kind] ?? [:]
            return (kind, byLabel, byLabel.values.reduce(0, +))
        }
    }

    static func kindOrder(_ kind: String) -> (Int, String) {
        (kind == "real" ? 0 : kind == "simulated" ? 1 : 2, kind)
    }

    static func kindName(_ kind: String) -> String {
        switch kind {
        case "real": "real (photos of the world)"
        case "simulated": "simulated (RialSynth renders)"
        default: kind
        }
    }

    mutating func header() {
        let r = results
        html += "<header>\n<h1>rial-bench run report</h1>\n"
        var meta = ["created \(Self.e(r.created))", "\(Self.e(r.tool.name)) \(Self.e(r.tool.version))"]
        if let commit = r.tool.gitCommit { meta.append("commit <code>\(Self.e(String(commit.prefix(12))))</code>") }
        meta.append("profile <code>\(Self.e(r.profile))</code>")
        meta.append("\(Self.e(r.build)) build")
        meta.append("\(r.jobs) job\(r.jobs == 1 ? "" : "s")")
        meta.append("\(SVGNumber.format(r.runSeconds, decimals: 1, trimZeros: false)) s")
        if r.shards > 1 { meta.append("\(r.shards) shards merged") }
        html += "<p class=\"meta\">\(meta.joined(separator: " · "))</p>\n"
        if r.testRun {
            let limit = r.limit.map { " with <code>--limit \($0)</code>" } ?? ""
            html += "<div class=\"banner test-run\" role=\"alert\"><strong>TEST RUN</strong>"
            html += "This run was cut short\(limit): \(r.counts.selected) of \(r.counts.original) samples. "
            html += "The numbers are not representative and must not be quoted.</div>\n"
        }
        let kinds = countsByKind
        let real = kinds.first { $0.kind == "real" }?.total ?? 0
        let simulated = kinds.first { $0.kind == "simulated" }?.total ?? 0
        let other = r.counts.evaluated - real - simulated
        if r.counts.evaluated > 0, real == 0 {
            html += "<div class=\"banner simulated\"><strong>NO REAL DATA</strong>"
            html +=
                "Every evaluated sample is simulated or of unknown kind: these numbers say nothing about real captures.</div>\n"
        }
        html += "<div class=\"basis\">\n<p><strong>What the numbers rest on:</strong> "
        html += "\(HTMLFormat.count(r.counts.evaluated)) evaluated sample\(r.counts.evaluated == 1 ? "" : "s") — "
        html += "\(HTMLFormat.count(real)) real, \(HTMLFormat.count(simulated)) simulated"
        if other > 0 { html += ", \(HTMLFormat.count(other)) of another kind" }
        html += ". \(HTMLFormat.count(r.counts.failed)) failed and are in no metric"
        html +=
            "; \(HTMLFormat.count(r.counts.selected)) of \(HTMLFormat.count(r.counts.original)) manifest samples were selected"
        html += " from \(r.datasets.count) dataset\(r.datasets.count == 1 ? "" : "s").</p>\n"
        if let aggregate = r.metrics["aggregate"], aggregate.excludedCount > 0 {
            html +=
                "<p><strong>Only \(HTMLFormat.count(aggregate.bonaFideCount + aggregate.attackCount)) of them have an "
            html += "aggregate score</strong> (\(HTMLFormat.count(aggregate.bonaFideCount)) bona fide, "
            html += "\(HTMLFormat.count(aggregate.attackCount)) attack\(aggregate.attackCount == 1 ? "" : "s")); "
            html += "\(HTMLFormat.count(aggregate.excludedCount)) "
            html += "had no usable method result and are left out of the aggregate's metrics.</p>\n"
        }
        countsTable(kinds)
        html += "</div>\n</header>\n"
    }

    /// Rows = data kind (and a total), columns = labels, cells = evaluated samples.
    mutating func countsTable(_ kinds: [(kind: String, byLabel: [String: Int], total: Int)]) {
        guard !kinds.isEmpty else {
            html += "<p class=\"note\">No sample was evaluated.</p>\n"
            return
        }
        let labels = SVGPalette.orderedLabels(kinds.flatMap { $0.byLabel.keys })
        html += "<table class=\"counts\">\n<thead><tr><th class=\"key\">data</th>"
        for label in labels {
            html +=
                "<th>\(Self.e(label))<span class=\"sub\">\(label == "real_scene" ? "bona fide" : "attack")</span></th>"
        }
        html += "<th>total</th></tr></thead>\n<tbody>\n"
        for row in kinds {
            html += "<tr><th>\(Self.e(Self.kindName(row.kind)))</th>"
            for label in labels { html += "<td>\(HTMLFormat.count(row.byLabel[label] ?? 0))</td>" }
            html += "<td><strong>\(HTMLFormat.count(row.total))</strong></td></tr>\n"
        }
        if kinds.count > 1 {
            html += "<tr><th>all</th>"
            for label in labels {
                html += "<td>\(HTMLFormat.count(kinds.reduce(0) { $0 + ($1.byLabel[label] ?? 0) }))</td>"
            }
            html += "<td><strong>\(HTMLFormat.count(kinds.reduce(0) { $0 + $1.total }))</strong></td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
    }

    mutating func navigation() {
        let links = [
            ("headline", "Headline"), ("data", "Data"), ("failures", "Failures"), ("metrics", "Metrics"),
            ("thresholds", "Thresholds &amp; DET"), ("curves", "ROC &amp; PR"),
            ("methods", "Scores &amp; confusion"), ("latency", "Latency"), ("breakdowns", "Breakdowns"),
            ("environment", "Environment"),
        ]
        html += "<nav>" + links.map { "<a href=\"#\($0.0)\">\($0.1)</a>" }.joined() + "</nav>\n"
    }

    // MARK: Headline and operating points

    /// Which method, at which operating point, on real photos vs simulated captures, how sure.
    mutating func headlineSection() {
        html += "<section id=\"headline\">\n<h2>Headline</h2>\n"
        html += OperatingPointReport.html(OperatingPointReport.headline(results))
        html +=
            "<p class=\"note\">Intervals: 95 % cluster bootstrap by group (\(results.bootstrapResamples) resamples); "
        html += "rates in %, thresholds and AUC in score units. The decision is score ≥ threshold.</p>\n</section>\n"
    }

    /// Per data kind: DET curves, the operating points of every method, the aggregate's
    /// threshold table, its scores by species with levels and caps, its output levels.
    mutating func operatingPointsSection() {
        html += "<section id=\"thresholds\">\n<h2>Picking a threshold</h2>\n"
        html +=
            "<p class=\"note\">Each data kind apart: real photos and simulated captures are never pooled here.</p>\n"
        for kind in OperatingPointReport.kinds(results) {
            html += "<h3>\(Self.e(Self.kindName(kind)))</h3>\n<div class=\"plots\">\n"
            if let det = plots.detByData.first(where: { $0.kind == kind }) {
                figure(
                    det.plot, file: "det-\(kind).svg",
                    caption: "DET curves: pooled APCER against BPCER over every threshold (scikit-learn's "
                        + "<code>det_curve</code> with bona fide as the positive class), on normal-deviate axes.")
            }
            if let scores = plots.aggregateScoresByData.first(where: { $0.kind == kind }) {
                figure(
                    scores.plot, file: "scores-aggregate-\(kind).svg",
                    caption:
                        "The aggregate's ranking score per species, with the level boundaries and the cap ceilings.")
            }
            html += "</div>\n"
            for table in [
                OperatingPointReport.methodTable(results, kind: kind),
                OperatingPointReport.thresholdTable(results, kind: kind),
                OperatingPointReport.levelTable(results, kind: kind),
            ].compactMap({ $0 }) {
                html += OperatingPointReport.html(table)
            }
        }
        successAndParitySections()
        ruleLevelsTables()
        videoTables()
        html += "</section>\n"
    }

    // MARK: Data and failures

    mutating func dataSection() {
        html += "<section id=\"data\">\n<h2>Data</h2>\n<div class=\"scroll\">\n<table>\n<thead><tr>"
        html +=
            "<th class=\"key\">dataset</th><th class=\"key\">data</th><th>in manifest</th><th>selected</th><th>evaluated</th>"
        html +=
            "<th>failed</th><th class=\"key\">manifest</th><th class=\"key\">manifest SHA-256</th></tr></thead>\n<tbody>\n"
        for d in results.datasets {
            html += "<tr><th>\(Self.e(d.name))</th><td class=\"text\">\(Self.e(d.data))</td>"
            html += "<td>\(HTMLFormat.count(d.original))</td><td>\(HTMLFormat.count(d.selected))</td>"
            html += "<td>\(HTMLFormat.count(d.evaluated))</td><td>\(HTMLFormat.count(d.failed))</td>"
            html += "<td class=\"text path\"><code>\(Self.e(d.path))</code></td>"
            html += "<td class=\"text hash\">\(Self.e(d.manifestSHA256))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n"
        html +=
            "<p class=\"note\">Positive class: bona fide (<code>real_scene</code>); every other label is an attack species. "
        html += "Real = a photo of the world; simulated = a RialSynth render (a <code>synth</code> block or the tag "
        html +=
            "<code>synthetic</code>). No number in this report mixes the two without saying so: see the split tables.</p>\n"
        html += "</section>\n"
    }

    mutating func failuresSection() {
        html += "<section id=\"failures\">\n<h2>Failures</h2>\n"
        let failures = results.failures
        guard !failures.isEmpty else {
            html += "<p>No sample failed.</p>\n</section>\n"
            return
        }
        var byStage: [String: Int] = [:]
        for failure in failures { byStage[failure.stage, default: 0] += 1 }
        let summary = byStage.keys.sorted().map { "\(byStage[$0]!) at <code>\(Self.e($0))</code>" }.joined(
            separator: ", ")
        html +=
            "<p><strong>\(HTMLFormat.count(failures.count)) sample\(failures.count == 1 ? "" : "s") failed</strong> "
        html += "(\(summary)) and are left out of every metric.</p>\n"
        html +=
            "<div class=\"scroll\">\n<table>\n<thead><tr><th class=\"key\">sample</th><th class=\"key\">dataset</th>"
        html += "<th class=\"key\">stage</th><th class=\"key\">reason</th></tr></thead>\n<tbody>\n"
        for failure in failures.prefix(Self.failureRows) {
            html +=
                "<tr><td class=\"text\"><code>\(Self.e(failure.id))</code></td><td class=\"text\">\(Self.e(failure.dataset))</td>"
            html +=
                "<td class=\"text\">\(Self.e(failure.stage))</td><td class=\"text\">\(Self.e(failure.reason))</td></tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n"
        if failures.count > Self.failureRows {
            html +=
                "<p class=\"note\">… and \(failures.count - Self.failureRows) more: see <code>results.json</code> and "
            html += "<code>samples.jsonl</code>.</p>\n"
        }
        html += "</section>\n"
    }

    // MARK: Plots

    /// An inline figure as wide as its SVG (the caption wraps under it): the SVG, a
    /// caption and the name of its file beside the report.
    mutating func figure(_ svg: SVGDocument, file: String?, caption: String) {
        html += "<figure style=\"width: \(SVGNumber.format(svg.width))px\">\n\(svg.render(standalone: false))"
        html += "<figcaption>\(caption)"
        if let file { html += " File: <a href=\"\(Self.e(file))\">\(Self.e(file))</a>." }
        html += "</figcaption>\n</figure>\n"
    }

    mutating func curvesSection() {
        html += "<section id=\"curves\">\n<div class=\"keep\">\n<h2>ROC and precision-recall curves</h2>\n"
        if sampleCount == 0 {
            html += "<p class=\"note\">No sample records were given: curves cannot be drawn (metrics above come from "
            html += "<code>results.json</code>).</p>\n"
        }
        html += "<div class=\"plots\">\n"
        figure(
            plots.roc, file: "roc.svg",
            caption: "ROC of every method and the aggregate (scikit-learn's definition; collinear points dropped for "
                + "plotting only). Bona fide is the positive class: x = share of attacks accepted, y = share of bona fide accepted."
        )
        figure(
            plots.precisionRecall, file: "pr.svg",
            caption: "Precision-recall of the bona fide class as the step-sum average precision (AP) integrates it. "
                + "Dashed: the bona fide share, the precision of a random ranking.")
        html += "</div>\n</div>\n"
        if !plots.rocByData.isEmpty {
            html += "<div class=\"keep\">\n<h3>ROC by data kind</h3>\n<div class=\"plots\">\n"
            for (kind, plot) in plots.rocByData {
                figure(
                    plot, file: nil,
                    caption: "Only the \(Self.e(Self.kindName(kind))) samples; AUC values from "
                        + "<code>metrics_by_data.\(Self.e(kind))</code>.")
            }
            html += "</div>\n</div>\n"
        }
        html += "</section>\n"
    }

    mutating func methodPlotsSection() {
        html += "<section id=\"methods\">\n<h2>Score distributions and confusion matrices</h2>\n"
        html +=
            "<p class=\"note\">Histograms: share of each label's scored samples per score bin of width 0.05; the dashed line is "
        html +=
            "the method's decision threshold (accepted as bona fide when score ≥ threshold). Heatmaps: rows = truth, "
        html += "columns = prediction at that threshold, count and share of the row.</p>\n"
        for method in plots.methods {
            html += "<div class=\"keep\">\n<h3>\(Self.e(method.key))</h3>\n<div class=\"plots\">\n"
            figure(
                method.scores, file: "scores-\(method.stem).svg", caption: "Scores of \(Self.e(method.key)) by label.")
            if let confusion = method.confusion {
                figure(
                    confusion, file: "confusion-\(method.stem).svg",
                    caption: "Binary confusion of \(Self.e(method.key)); unscored samples are not counted.")
            }
            html += "</div>\n</div>\n"
        }
        html += "</section>\n"
    }
}
