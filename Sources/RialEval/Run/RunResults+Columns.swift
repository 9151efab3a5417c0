import Foundation
import RialDetection

/// The results of a rescore from a run's columns (`rescore` without writing records): the
/// aggregation sidecar and the metric columns give every sample as metrics see it, the
/// compiled aggregation (`AggregationPlan`) its new aggregate, and the metrics of a method
/// whose scores and threshold did not change are the run's own, so nothing is parsed and
/// no unchanged bootstrap runs again. Equal, field for field, to `build(records:context:)`
/// on the rescored records (`RescoreColumnsTests`).
extension RunResults {
    /// Why `run`'s results cannot be rescored from its columns (nil when they can): the
    /// parts a run records per record that this path does not rebuild.
    static func columnRescoreObstacle(_ run: RunResults, sidecar: AggregationColumns?, metrics: MetricColumns?)
        -> String?
    {
        guard let sidecar, let metrics else { return "the run has no metric columns (written by an older rial-bench)" }
        guard metrics.count == sidecar.count, metrics.keys == run.methods else {
            return "the run's metric columns do not match its results"
        }
        guard run.methods.last == "aggregate" else { return "the run has no aggregate metrics" }
        if sidecar.video.contains(1) || run.video != nil || run.tamperDetection != nil { return "the run has videos" }
        if run.payloadParity != nil { return "the run has payload results" }
        if run.privacyMode != nil { return "the run has privacy-mode captures" }
        return nil
    }

    /// The score columns of the evaluated samples (the reports' input), whose `aggregate`
    /// column is `outputs`' metric score: what the reports that read no metric need, ready
    /// before the metrics.
    static func rescoredColumns(
        keys: [String], sidecar: AggregationColumns, metricColumns: MetricColumns, outputs: AggregateOutputs
    ) -> ScoreColumns {
        let rows = (0..<sidecar.count).filter { sidecar.status[$0] == 0 }
        let scores = keys.indices.concurrentMap { k -> [Double?] in
            keys[k] == "aggregate"
                ? rows.map { outputs.metricScore($0) }
                : rows.map { metricColumns.score(k, at: $0) }
        }
        let kinds = sidecar.dataKinds.map { SampleRecord.DataKind(rawValue: $0)! }
        return ScoreColumns(
            keys: keys, scores: scores, ids: rows.map { metricColumns.ids[$0] },
            datasets: rows.map { metricColumns.datasets[Int(metricColumns.dataset[$0])] },
            labels: rows.map { sidecar.labels[Int(sidecar.label[$0])] },
            bonaFide: rows.map { sidecar.bonaFide[$0] == 1 },
            data: rows.map { kinds[Int(sidecar.data[$0])] },
            groups: rows.map {
                sidecar.group[$0] == AggregationColumns.noGroup ? nil : sidecar.groups[Int(sidecar.group[$0])]
            })
    }

    /// The results of `source`'s samples under `context.configuration` from their score
    /// columns `columns` (`rescoredColumns`).
    static func rescored(
        from source: RunResults, sidecar: AggregationColumns, metricColumns: MetricColumns, outputs: AggregateOutputs,
        context: Context, columns: ScoreColumns
    ) -> RunResults {
        let rows = (0..<sidecar.count).filter { sidecar.status[$0] == 0 }
        let keys = source.methods
        let scores = columns.scores, groups = columns.groups, labels = columns.labels
        let bonaFide = columns.bonaFide, data = columns.data, ids = columns.ids
        let tags = rows.map { metricColumns.tags(at: $0) }
        let attestations = rows.map { metricColumns.attestations[Int(metricColumns.attestation[$0])] }

        let decision = context.configuration.decision
        let bootstrap = BootstrapSettings(resamples: context.resamples, seed: context.seed)
        let sameBootstrap = context.resamples == source.bootstrapResamples && context.seed == source.context.seed
        /// Distinct named groups among `subset`, by the sidecar's group codes.
        func groupCount(_ subset: [Int]) -> Int {
            var seen = [Bool](repeating: false, count: sidecar.groups.count)
            var count = 0
            for r in subset {
                let code = sidecar.group[rows[r]]
                if code != AggregationColumns.noGroup && !seen[Int(code)] {
                    seen[Int(code)] = true
                    count += 1
                }
            }
            return count
        }
        /// The metrics of every key on `subset` (`kind` nil: all samples); a method's are the
        /// run's when its threshold is unchanged: same scores, samples, bootstrap and breakdowns.
        func metrics(_ subset: [Int], kind: String?) -> [String: MethodMetrics] {
            let known = kind.map { source.metricsByData[$0] ?? [:] } ?? source.metrics
            return keyMetrics(
                keys: keys, scores: scores, rows: subset, groupCount: groupCount(subset),
                decision: decision, bootstrap: bootstrap,
                known: { key in
                    guard key != "aggregate", sameBootstrap,
                        decision.threshold(for: metricMethod(key))
                            == source.configuration.decision.threshold(for: metricMethod(key))
                    else { return nil }
                    return known[key]
                },
                sample: { row, score in
                    ScoredSample(
                        id: ids[row], score: score ?? .nan, bonaFide: bonaFide[row], species: labels[row],
                        group: groups[row], tags: tags[row], attestation: attestations[row])
                })
        }
        var byData: [String: [String: MethodMetrics]] = [:]
        let present = Set(data).sorted { $0.rawValue < $1.rawValue }
        let all = metrics(Array(rows.indices), kind: nil)
        for kind in present {
            byData[kind.rawValue] =
                present.count == 1 ? all : metrics(rows.indices.filter { data[$0] == kind }, kind: kind.rawValue)
        }

        var results = assemble(
            context: context, counts: source.counts, failures: source.failures, methods: keys, metrics: all,
            metricsByData: byData, latency: source.latency)
        /// The output levels of the rows of data kind `kind` (all when nil) with a scored aggregate.
        func levels(_ kind: SampleRecord.DataKind?) -> [OutputLevelRow] {
            OutputLevelRow.rows(
                samples: rows.indices.compactMap { r in
                    let i = rows[r]
                    guard kind == nil || data[r] == kind, outputs.present[i] == 2 else { return nil }
                    return (AggregateOutputs.level(outputs.level[i]), bonaFide[r], labels[r])
                })
        }
        var aggregateLevels = ["all": levels(nil)]
        for kind in present { aggregateLevels[kind.rawValue] = levels(kind) }
        results.aggregateLevels = aggregateLevels
        let aggregated = rows.indices.filter { outputs.present[rows[$0]] != 0 }
        results.ruleLevels = RuleLevels(
            aggregated.lazy.map { r in
                (
                    label: labels[r], weighted: AggregateOutputs.level(outputs.weightedLevel[rows[r]]),
                    mvp: Optional(AggregateOutputs.level(outputs.mvpLevel[rows[r]]))
                )
            }, rule: context.configuration.aggregation.rule)
        results.successMetrics = SuccessMetrics(
            metrics: all, metricsByData: byData,
            agreement: aggregated.isEmpty
                ? nil
                : (
                    agreeing: aggregated.count { outputs.methodsAgree[rows[$0]] == 1 },
                    boosted: aggregated.count { outputs.boosted[rows[$0]] == 1 }, samples: aggregated.count
                ), configuration: context.configuration)
        return results
    }
}
