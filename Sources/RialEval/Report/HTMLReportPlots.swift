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

    init(results: RunResults, records: [SampleRecord]) {
        let keys = HTMLReport.methodKeys(results)
        self.keys = keys
        let evaluated = records.filter { $0.status == .evaluated }
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
        let kinds = Set(evaluated.map(\.data)).sorted { $0.rawValue < $1.rawValue }
        rocByData =
            kinds.count < 2
            ? []
            : kinds.map { kind in
                (
                    kind.rawValue,
                    Self.rocPlot(
                        title: "ROC — \(kind.rawValue) data only", keys: keys,
                        records: evaluated.filter { $0.data == kind },
                        metrics: results.metricsByData[kind.rawValue] ?? [:])
                )
            }
    }

    /// Scores of `key` on `records` (NaN where the method did not score) and the truth.
    static func scores(_ key: String, _ records: [SampleRecord]) -> (scores: [Double], bonaFide: [Bool]) {
        (records.map { $0.score(key) ?? .nan }, records.map(\.bonaFide))
    }

    static func style(_ key: String, in keys: [String]) -> SVGSeriesStyle {
        SVGPalette.style(method: key, index: keys.filter { $0 != "aggregate" }.firstIndex(of: key) ?? 0)
    }

    /// ROC of every key, thinned for plotting (`droppingIntermediatePoints`), with each
    /// operating point (pooled APCER, TPR at the threshold) as a ring.
    static func rocPlot(title: String, keys: [String], records: [SampleRecord], metrics: [String: MethodMetrics])
        -> SVGDocument
    {
        var series: [SVGCurvePlot.Series] = []
        var notes: [String] = ["Rings: operating point at each method's decision threshold."]
        for key in keys {
            let (scores, truth) = Self.scores(key, records)
            let curve = ROCCurve(scores: scores, bonaFide: truth).droppingIntermediatePoints()
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
                    points: zip(curve.falsePositiveRates, curve.truePositiveRates).map { (x: $0, y: $1) },
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
    static func scoredNote(keys: [String], records: [SampleRecord]) -> String {
        let scored = keys.map { key in records.filter { ($0.score(key) ?? .nan).isFinite }.count }
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
    static func precisionRecallPlot(keys: [String], records: [SampleRecord], metrics: [String: MethodMetrics])
        -> SVGDocument
    {
        var series: [SVGCurvePlot.Series] = []
        var notes: [String] = []
        for key in keys {
            let (scores, truth) = Self.scores(key, records)
            let curve = PrecisionRecallCurve(scores: scores, bonaFide: truth)
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
            series.append(
                SVGCurvePlot.Series(
                    key: key, name: key,
                    detail: "AP \(SVGNumber.format(ap, decimals: 3, trimZeros: false))",
                    style: style(key, in: keys),
                    points: stepsPost(recall: curve.recall, precision: curve.precision),
                    marker: nil))
        }
        // Chance level: the bona fide share among the samples the aggregate (else the
        // first key) scored.
        let reference = keys.contains("aggregate") ? "aggregate" : keys.first
        let scored = records.filter { record in reference.map { (record.score($0) ?? .nan).isFinite } ?? true }
        let share = scored.isEmpty ? Double.nan : Double(scored.filter(\.bonaFide).count) / Double(scored.count)
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
    static func histogram(key: String, records: [SampleRecord], threshold: Double) -> SVGDocument {
        let groups = SVGPalette.orderedLabels(records.map(\.label.rawValue)).map { label in
            let scores = records.filter { $0.label.rawValue == label }.map { $0.score(key) ?? .nan }
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
