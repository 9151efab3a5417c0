import RialDetection

/// Every plot of a run, built once and used both inline in `report.html` and as `.svg`
/// files: ROC and precision-recall curves of all methods and the aggregate, score
/// histograms by label and confusion heatmaps per method, latency against targets.
///
/// Curves and histograms come from the sample records (evaluated ones, each method's
/// score where it completed), so they show exactly the samples behind the metrics; the
/// confusion matrices, thresholds, AUC/AP values and operating points come from
/// `results.metrics`.
struct HTMLReportPlots {
    /// One method's (or the aggregate's) plots.
    struct MethodPlots {
        var key: String
        /// File-name form of the key (`depth/2` -> `depth-2`).
        var stem: String
        var scores: SVGDocument
        var confusion: SVGDocument?
    }

    let keys: [String]
    let roc: SVGDocument
    let precisionRecall: SVGDocument
    let methods: [MethodPlots]
    let latency: SVGDocument
    /// ROC curves of each data kind (`real`, `simulated`) when the run has more than one.
    let rocByData: [(kind: String, plot: SVGDocument)]
    /// DET curves (normal-deviate axes) of each data kind, real first.
    let detByData: [(kind: String, plot: SVGDocument)]
    /// The aggregate's score histograms by species of each data kind, with the level
    /// boundaries and cap ceilings marked.
    let aggregateScoresByData: [(kind: String, plot: SVGDocument)]

    init(results: RunResults, records: [SampleRecord]) {
        self.init(results: results, columns: ScoreColumns(records: records, keys: Self.columnKeys(results)))
    }

    /// The keys the plots read: the report's method keys and the run's.
    static func columnKeys(_ results: RunResults) -> [String] {
        let keys = HTMLReport.methodKeys(results)
        return keys + results.methods.filter { !keys.contains($0) }
    }

    /// `columns`: the evaluated records' columns with at least `columnKeys(results)`.
    init(results: RunResults, columns: ScoreColumns) {
        let keys = HTMLReport.methodKeys(results)
        self.keys = keys
        let evaluated = Records(columns: columns, rows: columns.all, subset: "all")
        roc = Self.rocPlot(
            title: "ROC — all evaluated samples", keys: keys, records: evaluated, metrics: results.metrics)
        precisionRecall = Self.precisionRecallPlot(keys: keys, records: evaluated, metrics: results.metrics)
        let stems = HTMLReport.fileStems(keys)
        methods = keys.map { key in
            let metric = results.metrics[key]
            let threshold = metric?.threshold ?? results.configuration.decision.threshold
            return MethodPlots(
                key: key, stem: stems[key] ?? key,
                scores: Self.histogram(key: key, records: evaluated, threshold: threshold),
                confusion: metric.map { Self.confusion(key: key, metric: $0) })
        }
        latency = Self.latencyPlot(results)
        let kinds = Set(columns.data).sorted { $0.rawValue < $1.rawValue }
        var byKind: [SampleRecord.DataKind: Records] = [:]
        for kind in kinds {
            byKind[kind] = Records(columns: columns, rows: columns.rows(of: kind), subset: kind.rawValue)
        }
        rocByData =
            kinds.count < 2
            ? []
            : kinds.map { kind in
                (
                    kind.rawValue,
                    Self.rocPlot(
                        title: "ROC — \(kind.rawValue) data only", keys: keys,
                        records: byKind[kind]!,
                        metrics: results.metricsByData[kind.rawValue] ?? [:])
                )
            }
        let ordered = kinds.sorted { HTMLReportPage.kindOrder($0.rawValue) < HTMLReportPage.kindOrder($1.rawValue) }
        detByData = ordered.map { kind in
            (
                kind.rawValue,
                Self.detPlot(
                    kind: kind.rawValue, keys: keys, records: byKind[kind]!,
                    metrics: results.metricsByData[kind.rawValue] ?? [:])
            )
        }
        aggregateScoresByData =
            keys.contains("aggregate")
            ? ordered.map { kind in
                (
                    kind.rawValue,
                    Self.aggregateHistogram(
                        kind: kind.rawValue, records: byKind[kind]!, results: results)
                )
            } : []
    }

    /// The points of a curve the plots draw: those `CurveExport.standard` keeps (every
    /// point of a curve of at most 10,000; of a longer one, the curve CSVs' rule, whose
    /// steps are under a pixel at the plots' size). The plot then leaves out points within
    /// 0.1 px of the last one drawn (`SVGCurvePlot`).
    static func plotted(_ x: [Double], _ y: [Double]) -> [(x: Double, y: Double)] {
        CurveExport.standard.kept(x: x, y: y).map { (x: x[$0], y: y[$0]) }
    }

    /// DET curves of every key on `records` (one data kind): pooled APCER against BPCER
    /// on normal-deviate axes, the points of `DETCurve` (= sklearn `det_curve`), with the
    /// operating point at each decision threshold as a ring.
    static func detPlot(kind: String, keys: [String], records: Records, metrics: [String: MethodMetrics])
        -> SVGDocument
    {
        var series: [SVGCurvePlot.Series] = []
        var notes = [
            "Rings: each method's decision threshold. Axes: normal deviate (probit); rates of 0 or 1 drawn at the edge."
        ]
        for key in keys {
            let det = DETCurve(
                curve: records.columns.rocCurve(key, rows: records.rows, subset: records.subset, scoredOnly: false))
            let metric = metrics[key]
            let eer = metric.map { "EER \(SVGNumber.format($0.eer * 100, decimals: 1, trimZeros: false))%" }
            if det.apcer.isEmpty {
                notes.append(
                    "\(key): " + (det.warnings.first { $0 != .nonFiniteScoresExcluded }?.description ?? "undefined"))
            }
            series.append(
                SVGCurvePlot.Series(
                    key: key, name: key, detail: det.apcer.isEmpty ? "undefined" : eer, style: style(key, in: keys),
                    points: plotted(det.apcer, det.bpcer),
                    marker: metric.map { (x: $0.apcer.pooled, y: $0.bpcer) }))
        }
        let kindName = OperatingPointReport.kindName(kind)
        notes.append(
            "Pools \(kindName): " + scoredNote(keys: keys, records: records)
                + " \(records.namedGroupCount) named groups.")
        return SVGCurvePlot(
            title: "DET — \(kindName)", xLabel: "pooled APCER (attacks accepted)",
            yLabel: "BPCER (bona fide rejected)", series: series, reference: nil, notes: notes,
            axes: (SVGAxis.probit(label: ""), SVGAxis.probit(label: ""))
        ).render()
    }

    /// The aggregate's scores per label on `records` (one data kind), with the decision
    /// threshold, the level boundaries (dotted grey) and the score ceilings of capped
    /// levels (dashed orange: a cap to level L puts the confidence score at most at L's
    /// upper bound minus `capped_score_margin`).
    static func aggregateHistogram(kind: String, records: Records, results: RunResults) -> SVGDocument {
        let aggregation = results.configuration.aggregation
        let boundaries = aggregation.effectiveBoundaries
        var markers: [SVGScoreHistogram.Marker] = aggregation.levels.filter { $0 > .suspicious }.map {
            SVGScoreHistogram.Marker(
                value: boundaries.lowerBound(of: $0), label: $0.rawValue, colour: "#777777", dash: "2 3",
                labelAtTop: true)
        }
        let caps = aggregation.levelCaps, attestation = aggregation.attestationCaps
        let capLevels = Set(
            [
                caps.disagreement, caps.screen, caps.print, attestation.secureEnclave, attestation.strongbox,
                attestation.tee, attestation.none,
            ].map(aggregation.resolved)
        ).filter { $0 > .suspicious && $0 < .veryHigh }.sorted()
        var ceilings: [String] = []
        for level in capLevels {
            guard let upper = boundaries.upperBound(of: level) else { continue }
            let value = upper - aggregation.cappedScoreMargin
            ceilings.append("\(level.rawValue) \(SVGNumber.format(value, decimals: 2, trimZeros: false))")
            markers.append(
                SVGScoreHistogram.Marker(value: value, label: "cap \(level.rawValue)", colour: "#c75300", dash: "5 2"))
        }
        let groups = records.labels.map { label in
            let scores = records.scores("aggregate", label: label)
            let finite = scores.filter(\.isFinite)
            return SVGScoreHistogram.Group(
                label: label, colour: SVGPalette.colour(label: label), scores: finite,
                unscored: scores.count - finite.count)
        }
        let groupCount = records.namedGroupCount
        var histogram = SVGScoreHistogram(
            title:
                "Aggregate score by species — \(OperatingPointReport.kindName(kind))",
            groups: groups,
            threshold: results.metricsByData[kind]?["aggregate"]?.threshold ?? results.configuration.decision.threshold)
        histogram.markers = markers
        histogram.legend =
            "\(records.count) samples, \(groupCount) named groups. Grey dotted: level lower bounds. Orange dashed: "
            + "cap ceilings (" + ceilings.joined(separator: ", ") + ")."
        return histogram.render()
    }

    /// Some rows of the evaluated records' columns (all, or one data kind).
    struct Records {
        let columns: ScoreColumns
        let rows: [Int]
        /// The name of `rows` (`all` or a data kind) under which their rankings are shared.
        let subset: String
        /// The labels present, in display order (`SVGPalette.orderedLabels`), and the rows
        /// of each: found once, not once per plotted key.
        let labels: [String]
        let rowsByLabel: [String: [Int]]
        /// Distinct named groups among `rows`.
        let namedGroupCount: Int

        init(columns: ScoreColumns, rows: [Int], subset: String) {
            self.columns = columns
            self.rows = rows
            self.subset = subset
            var byLabel: [String: [Int]] = [:]
            for row in rows { byLabel[columns.labels[row], default: []].append(row) }
            rowsByLabel = byLabel
            labels = SVGPalette.orderedLabels(byLabel.keys)
            namedGroupCount = Set(rows.compactMap { columns.groups[$0] }).count
        }

        /// The evaluated ones of `records`, with the scores of `keys`.
        init(_ records: [SampleRecord], keys: [String]) {
            let columns = ScoreColumns(records: records, keys: keys)
            self.init(columns: columns, rows: columns.all, subset: "all")
        }

        var count: Int { rows.count }

        /// `key`'s scores (NaN where not scored) of the rows labelled `label`.
        func scores(_ key: String, label: String) -> [Double] {
            let column = columns.column(key)
            return (rowsByLabel[label] ?? []).map { column?[$0] ?? .nan }
        }

        /// Rows where `key` has a finite score.
        func finiteCount(_ key: String) -> Int {
            guard let column = columns.column(key) else { return 0 }
            return rows.reduce(0) { $0 + ((column[$1] ?? .nan).isFinite ? 1 : 0) }
        }
    }

    static func style(_ key: String, in keys: [String]) -> SVGSeriesStyle {
        SVGPalette.style(method: key, index: keys.filter { $0 != "aggregate" }.firstIndex(of: key) ?? 0)
    }

    /// ROC of every key, thinned for plotting (`droppingIntermediatePoints`), with each
    /// operating point (pooled APCER, TPR at the threshold) as a ring.
    static func rocPlot(title: String, keys: [String], records: Records, metrics: [String: MethodMetrics])
        -> SVGDocument
    {
        var series: [SVGCurvePlot.Series] = []
        var notes: [String] = ["Rings: operating point at each method's decision threshold."]
        for key in keys {
            let curve = records.columns.rocCurve(key, rows: records.rows, subset: records.subset, scoredOnly: false)
                .droppingIntermediatePoints()
            let metric = metrics[key]
            let auc = metric?.auc ?? curve.auc
            var detail = "AUC \(SVGNumber.format(auc, decimals: 3, trimZeros: false))"
            if let ci = metric?.aucCI, ci.lower.isFinite, ci.upper.isFinite {
                let lower = SVGNumber.format(ci.lower, decimals: 3, trimZeros: false)
                detail += " [\(lower), \(SVGNumber.format(ci.upper, decimals: 3, trimZeros: false))]"
            }
            if !auc.isFinite {
                detail = "undefined"
                notes.append(
                    "\(key): " + (curve.warnings.first { $0 != .nonFiniteScoresExcluded }?.description ?? "undefined"))
            }
            let marker = metric.map { (x: $0.apcer.pooled, y: $0.tprAtOperatingPoint) }
            series.append(
                SVGCurvePlot.Series(
                    key: key, name: key, detail: detail, style: style(key, in: keys),
                    points: plotted(curve.falsePositiveRates, curve.truePositiveRates),
                    marker: marker))
        }
        notes.append(scoredNote(keys: keys, records: records))
        return SVGCurvePlot(
            title: title, xLabel: "FPR = attacks accepted (pooled APCER)",
            yLabel: "TPR = bona fide accepted (1 − BPCER)", series: series,
            reference: .init(from: (0, 0), to: (1, 1), label: "chance"), notes: notes
        ).render()
    }

    /// "N evaluated samples" or, when some key did not score them all, how many each scored.
    static func scoredNote(keys: [String], records: Records) -> String {
        let scored = keys.map { records.finiteCount($0) }
        let total = records.count
        guard scored.contains(where: { $0 != total }) else {
            return "\(total) evaluated sample\(total == 1 ? "" : "s"); bona fide (real_scene) is the positive class."
        }
        let list = zip(keys, scored).map { "\($0) \($1)" }.joined(separator: ", ")
        return "Scored of \(total) evaluated: \(list). Bona fide (real_scene) is the positive class."
    }

    /// Precision-recall of the bona fide class per key, drawn as sklearn's
    /// `PrecisionRecallDisplay` (steps-post in sklearn's array order: precision holds
    /// from a point to the next lower recall), which is the curve the step-sum AP sums.
    static func precisionRecallPlot(keys: [String], records: Records, metrics: [String: MethodMetrics])
        -> SVGDocument
    {
        var series: [SVGCurvePlot.Series] = []
        var notes: [String] = []
        for key in keys {
            let curve = records.columns.precisionRecall(key, rows: records.rows, subset: records.subset)
            let ap = metrics[key]?.averagePrecision ?? curve.averagePrecision
            guard curve.bonaFideCount > 0, curve.attackCount > 0 else {
                series.append(
                    SVGCurvePlot.Series(
                        key: key, name: key, detail: "undefined", style: style(key, in: keys),
                        points: [], marker: nil))
                notes.append(
                    "\(key): " + (curve.bonaFideCount == 0 ? MetricsWarning.noBonaFide : .noAttack).description)
                continue
            }
            let drawn = plotted(curve.recall, curve.precision)
            series.append(
                SVGCurvePlot.Series(
                    key: key, name: key,
                    detail: "AP \(SVGNumber.format(ap, decimals: 3, trimZeros: false))",
                    style: style(key, in: keys),
                    points: stepsPost(recall: drawn.map(\.x), precision: drawn.map(\.y)),
                    marker: nil))
        }
        // Chance level: the bona fide share among the samples the aggregate (else the
        // first key) scored.
        let reference = keys.contains("aggregate") ? "aggregate" : keys.first
        let column = reference.flatMap { records.columns.column($0) }
        let scored = records.rows.filter { i in reference == nil || (column?[i] ?? .nan).isFinite }
        let share =
            scored.isEmpty
            ? Double.nan : Double(scored.filter { records.columns.bonaFide[$0] }.count) / Double(scored.count)
        let chance: SVGCurvePlot.Reference? =
            share.isFinite
            ? .init(
                from: (0, share), to: (1, share), label: "chance",
                detail: "bona fide share \(SVGNumber.format(share, decimals: 2, trimZeros: false))")
            : nil
        return SVGCurvePlot(
            title: "Precision-recall — bona fide class", xLabel: "Recall = bona fide accepted",
            yLabel: "Precision = accepted that are bona fide", series: series, reference: chance,
            notes: notes
        ).render()
    }

    /// The steps-post path through sklearn-ordered points: from each point horizontally to
    /// the next point's recall, then vertically to its precision.
    static func stepsPost(recall: [Double], precision: [Double]) -> [(x: Double, y: Double)] {
        var points: [(x: Double, y: Double)] = []
        for i in recall.indices {
            points.append((recall[i], precision[i]))
            if i + 1 < recall.count { points.append((recall[i + 1], precision[i])) }
        }
        return points
    }

    /// Histogram strips of `key`'s scores, one per label present in `records`.
    static func histogram(key: String, records: Records, threshold: Double) -> SVGDocument {
        let groups = records.labels.map { label in
            let scores = records.scores(key, label: label)
            let finite = scores.filter(\.isFinite)
            return SVGScoreHistogram.Group(
                label: label, colour: SVGPalette.colour(label: label), scores: finite,
                unscored: scores.count - finite.count)
        }
        return SVGScoreHistogram(title: "Scores by label — \(key)", groups: groups, threshold: threshold).render()
    }

    /// The binary confusion heatmap of `metric` (rows attack, bona fide; sklearn order).
    static func confusion(key: String, metric: MethodMetrics) -> SVGDocument {
        let threshold =
            metric.threshold.isFinite ? SVGNumber.format(metric.threshold, decimals: 2, trimZeros: false) : "—"
        return SVGConfusionHeatmap(
            title: "Confusion — \(key)",
            columnCaption: "prediction at threshold \(threshold)",
            rowLabels: ["attack", "bona fide"],
            columnLabels: ["rejected (attack)", "accepted (bona fide)"],
            counts: metric.confusion.counts
        ).render()
    }

    static func latencyPlot(_ results: RunResults) -> SVGDocument {
        let rows = HTMLReport.latencyKeys(results).compactMap { key -> SVGLatencyChart.Row? in
            guard let entry = results.latency[key] else { return nil }
            let s = entry.statistics
            return SVGLatencyChart.Row(
                key: key, p50: s.p50, p90: s.p90, p99: s.p99, target: entry.targetMs,
                verdict: entry.verdict)
        }
        var note =
            results.build == "release"
            ? "Verdict: p50 against the target. Nearest-rank percentiles, per sample, in-process."
            : "\(results.build) build: verdicts are n/a, timings are not representative of a release build."
        if rows.contains(where: { [$0.p50, $0.p90, $0.p99].contains(0) }) { note += " 0 ms is not drawn (log scale)." }
        return SVGLatencyChart(title: "Latency per sample against targets", rows: rows, note: note).render()
    }
}
