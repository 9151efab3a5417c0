import RialDetection

extension HTMLReportPage {
    /// The levels per label under the weighted and the MVP rule, and the weighted level
    /// against the MVP level (`RunResults.ruleLevels`); nothing for runs without them.
    mutating func ruleLevelsTables() {
        guard let levels = results.ruleLevels else { return }
        let present = levels.byRule.values.flatMap { $0.values.flatMap(\.keys) }
        let names = ConfidenceLevel.shown(present.compactMap(ConfidenceLevel.init(rawValue:))).map(\.rawValue)
        html += "<h3>Confidence levels per label, weighted and MVP rule</h3>\n"
        html +=
            "<p class=\"note\"><code>confidence_level</code> comes from the <strong>\(Self.e(levels.rule.rawValue))"
            + "</strong> rule (<code>aggregation.rule</code>); both are computed for every sample "
            + "(\(levels.samples) samples). MVP: hardware attestation × the primary depth check, SUSPICIOUS when "
            + "any check failed (PRD “Confidence Calculation (MVP)”).</p>\n"
        func table(_ title: String, rows: [(String, [String: Int])]) {
            html += "<div class=\"scroll\">\n<table>\n<thead><tr><th class=\"key\">\(Self.e(title))</th>"
            html += names.map { "<th>\($0)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for (row, counts) in rows {
                html += "<tr><th>\(Self.e(row))</th>"
                html += names.map { "<td>\(HTMLFormat.count(counts[$0] ?? 0))</td>" }.joined() + "</tr>\n"
            }
            html += "</tbody>\n</table>\n</div>\n"
        }
        for rule in AggregationConfiguration.Rule.allCases {
            guard let byLabel = levels.byRule[rule.rawValue] else { continue }
            table("\(rule.rawValue): label", rows: byLabel.keys.sorted().map { ($0, byLabel[$0]!) })
        }
        if !levels.mvpVsWeighted.isEmpty {
            table(
                "weighted \\ MVP",
                rows: names.reversed().compactMap { name in levels.mvpVsWeighted[name].map { (name, $0) } })
        }
    }
}
