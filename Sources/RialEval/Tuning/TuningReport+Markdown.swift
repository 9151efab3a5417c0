import Foundation
import RialDetection

/// A rate as a percentage with one decimal, `n/a` when not finite.
private func p(_ v: Double) -> String { v.isFinite ? String(format: "%.1f%%", 100 * v) : "n/a" }
/// A number with three decimals, `n/a` when not finite.
private func n(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "n/a" }
/// ` [lower, upper]` in the format of `p` or `n`; empty when there is no finite interval.
private func ci(_ c: ConfidenceInterval?, percent: Bool) -> String {
    guard let c, c.lower.isFinite, c.upper.isFinite else { return "" }
    return percent ? " [\(p(c.lower)), \(p(c.upper))]" : " [\(n(c.lower)), \(n(c.upper))]"
}

extension TuningReport {
    /// `tune.md`: the held-out before/after first, then per fold or source, the chosen
    /// threshold with the APCER per species it gives, and what was fitted.
    public func markdown() -> String {
        var out = "# rial-bench tune: profile \(MarkdownText.escape(profile))\n\n"
        out += heldOutSections(heading: "##", detImage: "det.svg")
        out += methodSections(heading: "##")
        out += "\n## The tuned configuration (fitted on all \(samples) samples)\n\n"
        out += String(format: "Decision threshold %.6f (ranking score), for %@. ", final.threshold, self.target)
        let b = final.levelBoundaries
        out += String(
            format: "Level boundaries: very_high %.4f, high %.4f, medium %.4f, low %.4f.\n\n", b.veryHigh, b.high,
            b.medium, b.low)
        out += "Held-out APCER per attack species at each fold's threshold (pooled over folds), "
        out += "and in-sample at the final threshold:\n\n"
        out += "| species | attacks | APCER held out | APCER in-sample (final threshold) |\n|---|---|---|---|\n"
        for species in heldOutAfter.operatingPoint.attacksPerSpecies.keys.sorted() {
            out += "| \(MarkdownText.escape(species)) | \(heldOutAfter.operatingPoint.attacksPerSpecies[species]!) | "
            out += "\(p(heldOutAfter.operatingPoint.apcerPerSpecies[species] ?? .nan)) | "
            out += "\(p(finalInSample.apcerPerSpecies[species] ?? .nan)) |\n"
        }
        out += "\nWeights: "
        out += final.weights.keys.sorted().map { String(format: "%@ %.4f", $0.rawValue, final.weights[$0]!) }.joined(
            separator: ", ")
        out +=
            ".\n\n| method | calibration | Platt log loss | isotonic log loss | constant log loss | informative | samples |\n"
        out += "|---|---|---|---|---|---|---|\n"
        for key in final.calibrationChoice.keys.sorted() {
            let c = final.calibrationChoice[key]!
            out += "| \(key) | \(c.kind) | \(c.plattLogLoss.map(n) ?? "n/a") | \(c.isotonicLogLoss.map(n) ?? "n/a") | "
            out +=
                "\(c.constantLogLoss.map(n) ?? "n/a") | \(c.informative.map { $0 ? "yes" : "no" } ?? "n/a") | \(c.samples) |\n"
        }
        out += "\nHow: weights are non-negative and sum to 1 (grid with step 1/4 plus a pattern search from "
        out += "the base weights, on the ranking score of the fitting data)"
        if let share = minimumWeightShare, share > 0 {
            out += String(
                format:
                    "; every searched weight is 0 or at least %g%% of the searched weight, because a method with any "
                    + "weight votes in the agreement boost and the disagreement cap: a near-zero weight would keep "
                    + "its vote while no longer moving the mean", 100 * share)
        }
        if dropUninformative == true {
            out += "; a method whose calibrated score does not beat a constant (Platt with slope 0) in log loss "
            out += String(
                format: "on the inner held-out folds by more than %g standard errors of the mean per-sample gain ",
                uninformativeStandardErrors ?? 2)
            out += "(\"informative: no\") gets weight 0: its calibrated score is "
            out += "nearly constant, so the AUC the search maximises cannot tell how much weight it takes, and "
            out += "fits on different folds would park weight there in different amounts, putting their held-out "
            out += "scores on different scales"
        }
        if let selection = final.selection {
            out += String(
                format:
                    "; the fit is then checked against the base configuration on %d inner group folds of its data "
                    + "(objective held out there: tuned %.4f, base %.4f) and kept only when better (here: %@)",
                selection.innerFolds, selection.tunedObjective, selection.baseObjective, selection.chosen)
        }
        out += "; level boundaries come from the "
        out += "fitting data's uncapped scores (medium at the operating target, low where BPCER reaches 1%, "
        out += "high at APCER 1% or the bona fide median, very_high at APCER 0.1% or the top fifth of the "
        out += "bona fide, whichever is higher, kept at least 2 x capped_score_margin apart); the decision "
        out += "threshold is then taken for the target on the ranking score. A sample no weighted method "
        out += "scored counts as rejected (score 0), as the decision treats it.\n"
        out += "\nInputs: "
        out += inputs.map { "\(MarkdownText.escape($0.folder)) (samples_sha256 \($0.samplesSHA256.prefix(12))…)" }
            .joined(separator: ", ")
        out += ".\n"
        out += "\n" + aggregatedVersionsSentence + "\n"
        return out
    }

    /// Which method versions fed the aggregate of the input runs (their `aggregate_with`).
    var aggregatedVersionsSentence: String {
        if let versions = aggregatedVersions {
            return "Aggregated versions (every input run's `aggregate_with`): "
                + versions.map { MarkdownText.code($0.description) }.joined(separator: ", ") + "."
        }
        if inputs.contains(where: { $0.aggregateWith != nil }) {
            return "Aggregated versions: the input runs' `aggregate_with` differ (see `inputs` in tune.json)."
        }
        return "Aggregated versions: not recorded (a tune.json written before `aggregate_with` was kept)."
    }

    /// What was measured on held-out samples: how the folds were made, the pooled
    /// before/after table, the DET image (`detImage`, when given) and the per-fold or
    /// per-source table, under headings of level `heading` (`##`); `tune.md` and the
    /// methodology (`rial-bench methodology --tuning DIR`) show the same text.
    public func heldOutSections(heading: String, detImage: String?) -> String {
        let target = String(format: "%g%%", 100 * heldOutAfter.apcerAtBPCER.targetBPCER)
        var out = ""
        out += "Objective `\(objective.rawValue)`"
        if objective == .pauc { out += String(format: " (APCER 0-%g%%)", 100 * partialAUCMaxAPCER) }
        out += ", target \(self.target), "
        out +=
            foldScheme == .source
            ? "leave-one-source-out (\(folds) sources)" : "group \(folds)-fold (no group in two folds)"
        out += ", seed \(seed), \(samples) samples from \(inputs.count) run(s). "
        out += "Every number below is measured on held-out samples: each fold's fit (calibration, "
        out += "Platt-or-isotonic choice by \(innerFolds) inner group folds, weights, threshold, level boundaries) "
        out += "saw only the other folds. Intervals: 95% cluster bootstrap by group, "
        out += "\(bootstrap.resamples) resamples.\n\n"
        out += "\(heading) Held out, pooled\n\n"
        out += "| | AUC | APCER at BPCER \(target) | operating point: BPCER | APCER (max species) | APCER pooled |\n"
        out += "|---|---|---|---|---|---|\n"
        for (name, m) in [("before (base configuration)", heldOutBefore), ("after (tuned per fold)", heldOutAfter)] {
            let op = m.operatingPoint
            out += "| \(name) | \(n(m.auc))\(ci(m.aucCI, percent: false)) | "
            out += "\(p(m.apcerAtBPCER.apcerMax))\(ci(m.apcerAtBPCER.apcerMaxCI, percent: true)) | "
            out +=
                "\(p(op.bpcer))\(ci(op.bpcerCI, percent: true)) | \(p(op.apcerMax))\(ci(op.apcerMaxCI, percent: true)) | "
            out += "\(p(op.apcerPooled))\(ci(op.apcerPooledCI, percent: true)) |\n"
        }
        out += "\nThe operating point uses each configuration's own decision threshold (before: the base "
        out += "threshold; after: the threshold each fold fitted for \(self.target)); "
        out += "\"APCER at BPCER \(target)\" takes the threshold on the held-out scores themselves.\n\n"
        let selections = perFold.compactMap(\.fit.selection)
        if !selections.isEmpty {
            let kept = selections.filter { $0.chosen == "tuned" }.count
            out += "Nested check against the base configuration: each fold's tuned fit was measured on "
            out += "\(selections[0].innerFolds) inner group folds of that fold's training data (each scored by a "
            out += "fit on the other inner folds) against the base configuration on the same samples, and kept "
            out += "only when better there; tuned kept in \(kept) of \(perFold.count) folds"
            out += kept < perFold.count ? " (the others use the base configuration).\n\n" : ".\n\n"
        }
        if let detImage { out += "![DET curves](\(detImage))\n\n" }
        out += "\(heading) Per held-out \(foldScheme == .source ? "source" : "fold")\n\n"
        out += "A held-out part with a single group has no interval: resampling one group gives back "
        out += "the same samples, so its spread says nothing (shown as \"1 group\").\n\n"
        out +=
            "| held out | n | groups | AUC before | AUC after | APCER at BPCER \(target) before | after | threshold | BPCER after |\n"
        out += "|---|---|---|---|---|---|---|---|---|\n"
        for fold in perFold {
            let single = fold.after.clusters < 2
            func foldCI(_ c: ConfidenceInterval?, percent: Bool) -> String {
                single ? " (1 group)" : ci(c, percent: percent)
            }
            out += "| \(MarkdownText.escape(fold.name)) | \(fold.after.samples) | \(fold.after.clusters) | "
            out += "\(n(fold.before.auc))\(foldCI(fold.before.aucCI, percent: false)) | "
            out += "\(n(fold.after.auc))\(foldCI(fold.after.aucCI, percent: false)) | "
            out +=
                "\(p(fold.before.apcerAtBPCER.apcerMax))\(foldCI(fold.before.apcerAtBPCER.apcerMaxCI, percent: true)) | "
            out +=
                "\(p(fold.after.apcerAtBPCER.apcerMax))\(foldCI(fold.after.apcerAtBPCER.apcerMaxCI, percent: true)) | "
            out += "\(String(format: "%.4f", fold.fit.threshold)) | \(p(fold.after.operatingPoint.bpcer)) |\n"
        }
        return out
    }
}

extension TuningReport {
    /// Every method version on its own (`methods`): pooled AUC and APCER at the target
    /// BPCER on the same records, beside the simulated figure when `simulated` (a run's
    /// metrics of its simulated captures) is given, then AUC per held-out part with at least
    /// `minimumAttacks` attacks. Empty for reports without `methods`.
    public func methodSections(
        heading: String, simulated: [String: MethodMetrics]? = nil,
        minimumAttacks: Int = MetricsConfiguration.defaultMinimumAttacksPerSpecies
    ) -> String {
        guard let methods, !methods.isEmpty else { return "" }
        let keys = methods.keys.sorted()
        let target = String(format: "%g%%", 100 * heldOutAfter.apcerAtBPCER.targetBPCER)
        let part = foldScheme == .source ? "source" : "fold"
        var out = "\n\(heading) Every method version, held out\n\n"
        out += "Each method's own score (no calibration, no aggregation) on the same \(samples) samples, pooled over "
        out += "the held-out \(part)s. `tune` fits nothing of a method, so a score is held out for a \(part) when the "
        out += "method's constants and model were not fitted on it (the methodology names what each was fitted on). "
        out +=
            "APCER at BPCER \(target): the threshold taken on these scores. Intervals: 95% cluster bootstrap by group.\n\n"
        var header = "| method | bona fide / attacks scored | AUC | APCER at BPCER \(target) |"
        var rule = "|---|---|---|---|"
        if simulated != nil {
            header += " simulated AUC (this run) |"
            rule += "---|"
        }
        out += header + "\n" + rule + "\n"
        for key in keys {
            let m = methods[key]!.pooled
            out +=
                "| \(MarkdownText.code(key)) | \(m.bonaFide) / \(m.attacks) | \(n(m.auc))\(ci(m.aucCI, percent: false)) | "
            out += "\(p(m.apcerAtBPCER.apcerMax))\(ci(m.apcerAtBPCER.apcerMaxCI, percent: true)) |"
            if let simulated {
                out +=
                    simulated[key].map {
                        " \(n($0.auc))\(ci($0.aucCI, percent: false)) (\($0.bonaFideCount) / \($0.attackCount)) |"
                    } ?? " - |"
            }
            out += "\n"
        }
        // Parts with enough attacks (in any method's scored samples), widest first.
        var attacks: [String: Int] = [:]
        for method in methods.values {
            for (name, m) in method.parts { attacks[name] = max(attacks[name] ?? 0, m.attacks) }
        }
        let parts = attacks.filter { $0.value >= minimumAttacks }.keys.sorted()
        guard !parts.isEmpty else { return out }
        out +=
            "\nAUC per held-out \(part) with at least \(minimumAttacks) attacks (\(part) names shortened to the part "
        out += "before `/`; \"-\": the method scored no bona fide or no attack sample there).\n\n"
        out +=
            "| method | "
            + parts.map { MarkdownText.escape(String($0.split(separator: "/").first ?? Substring($0))) }.joined(
                separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: parts.count) + "\n"
        for key in keys {
            out += "| \(MarkdownText.code(key)) | "
            out += parts.map { name in methods[key]!.parts[name].map { n($0.auc) } ?? "-" }.joined(separator: " | ")
            out += " |\n"
        }
        return out
    }
}
