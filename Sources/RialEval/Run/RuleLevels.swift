import RialDetection

/// The confidence levels of a run under both rules (`AggregationConfiguration.Rule`):
/// the weighted aggregator's and the deployed MVP rule's (PRD 1.1 / 2.0 "Confidence
/// Calculation (MVP)"), counted per label, and how the two levels of each sample relate.
/// Every evaluated sample with an aggregate counts; samples of runs written before the
/// levels were recorded count under `weighted` with their `level` and not under `mvp`.
///
/// JSON: `{"rule", "by_rule": {RULE: {LABEL: {LEVEL: n}}}, "mvp_vs_weighted": {WEIGHTED_LEVEL:
/// {MVP_LEVEL: n}}, "samples"}`, levels by their upper-case names.
public struct RuleLevels: Sendable, Equatable, Codable {
    /// The rule that gave `confidence_level` in this run.
    public var rule: AggregationConfiguration.Rule
    /// Rule (`weighted`, `mvp`) -> label -> level -> samples. The MVP level confusion is
    /// `by_rule.mvp`: label (truth) against level.
    public var byRule: [String: [String: [String: Int]]]
    /// The weighted level of a sample -> its MVP level -> samples.
    public var mvpVsWeighted: [String: [String: Int]]
    /// Samples counted.
    public var samples: Int

    enum CodingKeys: String, CodingKey {
        case rule
        case byRule = "by_rule"
        case mvpVsWeighted = "mvp_vs_weighted"
        case samples
    }

    /// The counts of `records` (failed records and those without an aggregate are skipped).
    public init(_ records: [SampleRecord], rule: AggregationConfiguration.Rule) {
        self.init(
            records.lazy.filter { $0.status == .evaluated }.compactMap { record in
                record.aggregate.map {
                    (label: record.label.rawValue, weighted: $0.weightedLevel ?? $0.level, mvp: $0.mvpLevel)
                }
            }, rule: rule)
    }

    /// The counts of samples' label, weighted level and MVP level (nil: not recorded).
    init<S: Sequence>(_ samples: S, rule: AggregationConfiguration.Rule)
    where S.Element == (label: String, weighted: ConfidenceLevel, mvp: ConfidenceLevel?) {
        self.rule = rule
        var byRule: [String: [String: [String: Int]]] = [:]
        var cross: [String: [String: Int]] = [:]
        var count = 0
        for (label, weighted, mvp) in samples {
            count += 1
            byRule[AggregationConfiguration.Rule.weighted.rawValue, default: [:]][label, default: [:]][
                weighted.rawValue, default: 0] += 1
            if let mvp {
                byRule[AggregationConfiguration.Rule.mvp.rawValue, default: [:]][label, default: [:]][
                    mvp.rawValue, default: 0] += 1
                cross[weighted.rawValue, default: [:]][mvp.rawValue, default: 0] += 1
            }
        }
        self.byRule = byRule
        mvpVsWeighted = cross
        self.samples = count
    }

    /// Markdown tables: per rule, label rows against level columns (SUSPICIOUS ... VERY_HIGH),
    /// then the weighted level against the MVP level.
    public func markdown() -> [String] {
        let present = byRule.values.flatMap { $0.values.flatMap(\.keys) }.compactMap(ConfidenceLevel.init(rawValue:))
        let levels = ConfidenceLevel.shown(present)
        var out: [String] = []
        out.append(
            "`confidence_level` comes from the **\(rule.rawValue)** rule; both rules are computed for every sample "
                + "(\(samples) samples). MVP: hardware attestation x primary depth check, SUSPICIOUS on any failed "
                + "check (PRD \"Confidence Calculation (MVP)\").")
        out.append("")
        for name in AggregationConfiguration.Rule.allCases.map(\.rawValue) {
            guard let table = byRule[name] else { continue }
            out.append("| \(name): label | " + levels.map(\.rawValue).joined(separator: " | ") + " |")
            out.append("|---|" + levels.map { _ in "---:|" }.joined())
            for label in table.keys.sorted() {
                out.append(
                    "| \(MarkdownText.escape(label)) | "
                        + levels.map { String(table[label]?[$0.rawValue] ?? 0) }.joined(separator: " | ") + " |")
            }
            out.append("")
        }
        if !mvpVsWeighted.isEmpty {
            out.append("| weighted \\ MVP | " + levels.map(\.rawValue).joined(separator: " | ") + " |")
            out.append("|---|" + levels.map { _ in "---:|" }.joined())
            for w in levels.reversed() where mvpVsWeighted[w.rawValue] != nil {
                out.append(
                    "| \(w.rawValue) | "
                        + levels.map { String(mvpVsWeighted[w.rawValue]?[$0.rawValue] ?? 0) }.joined(separator: " | ")
                        + " |")
            }
            out.append("")
        }
        return out
    }
}
