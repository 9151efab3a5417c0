import RialDetection

/// Every method version's own score on the tuning records, pooled and per held-out part
/// (issue "Detection that holds on real photos", item 4: AUC and APCER at BPCER 5% for
/// every method version, leave one source out).
///
/// `tune` fits nothing of a method: a method's score is held out for a source exactly when
/// the method's own constants and models were not fitted on it. That holds for
/// `texture/2` in `scripts/tune-real-dev`, whose runs score each source with the model of
/// its own fold, and for methods whose constants were set on simulated captures; the
/// methodology names the provenance of each.
public struct MethodHeldOut: Sendable, Equatable, Codable {
    /// The method's scores on every record that it scored.
    public var pooled: HeldOutMetrics
    /// The same per held-out part (source under `--by source`, else group), only parts
    /// with both bona fide and attack samples scored.
    public var parts: [String: HeldOutMetrics]

    /// The per-method metrics of `records` (the evaluated ones with a known label, in the
    /// order `TuningProblem.from` takes them; `parts[i]` is the held-out part of the i-th of
    /// them and `groups[i]` its bootstrap cluster). A method's accept decision is its score
    /// against `decision`'s threshold for it.
    public static func compute(
        records: [SampleRecord], parts: [String], groups: [String],
        decision: PipelineConfiguration.DecisionConfiguration,
        targetBPCER: Double, settings: BootstrapSettings
    ) -> [String: MethodHeldOut] {
        let evaluated = records.filter { $0.status == .evaluated && $0.label != .unknown }
        precondition(evaluated.count == parts.count && parts.count == groups.count, "parts and groups per record")
        var keys = Set<String>()
        for record in evaluated { keys.formUnion((record.aggregationInputs ?? [:]).keys) }
        let truth = evaluated.map(\.bonaFide)
        let species = evaluated.map(\.label.rawValue)
        var byPart: [String: [Int]] = [:]
        for (i, part) in parts.enumerated() { byPart[part, default: []].append(i) }
        var out: [String: MethodHeldOut] = [:]
        for key in keys.sorted() {
            let threshold = decision.threshold(for: try? MethodIdentifier(parsing: key))
            let scores = evaluated.map { record -> Double in
                guard let c = record.aggregationInputs?[key], c.available, let s = c.score, s.isFinite else {
                    return .nan
                }
                return s
            }
            guard scores.contains(where: \.isFinite) else { continue }
            func metrics(_ rows: [Int]) -> HeldOutMetrics {
                HeldOutMetrics(
                    scores: rows.map { scores[$0] }, accepted: rows.map { scores[$0] >= threshold },
                    bonaFide: rows.map { truth[$0] }, species: rows.map { species[$0] },
                    groups: rows.map { groups[$0] }, targetBPCER: targetBPCER, settings: settings)
            }
            var perPart: [String: HeldOutMetrics] = [:]
            for (part, rows) in byPart {
                let scored = rows.filter { scores[$0].isFinite }
                guard scored.contains(where: { truth[$0] }), scored.contains(where: { !truth[$0] }) else { continue }
                perPart[part] = metrics(rows)
            }
            out[key] = MethodHeldOut(pooled: metrics(Array(evaluated.indices)), parts: perPart)
        }
        return out
    }
}
