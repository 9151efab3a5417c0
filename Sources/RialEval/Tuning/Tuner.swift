import Foundation
import RialDetection
import RialMedia

/// Options of one tuning (`rial-bench tune`).
public struct TuningOptions: Sendable, Equatable {
    public var objective: TuningObjective = .auc
    public var target: OperatingTarget = .bpcer(0.05)
    /// Outer folds for `.group`.
    public var folds: Int = 5
    public var scheme: FoldScheme = .group
    public var seed: UInt64 = 1
    /// Inner group folds that choose between Platt and isotonic per method.
    public var innerFolds: Int = 3
    /// Upper end of the APCER range of `pauc`: 0...0.1.
    public var partialAUCMaxAPCER: Double = 0.1
    /// Coarse grid step of the weight search (1/4: every weight in {0, .25, .5, .75, 1}).
    public var gridDivisions: Int = 4
    /// The smallest weight the primary method may get (its weight must stay > 0).
    public var primaryFloor: Double = 0.01
    /// The smallest share of the searched weight mass a searched method may get unless it
    /// gets none (`--min-weight-share`): every searched weight is 0 or at least this share.
    /// A method with weight > 0 votes in the aggregator's agreement boost and disagreement
    /// cap however small its weight, so a weight of 0.006 keeps the vote while it no longer
    /// moves the mean; the search then finds such corners, which rank well on the fitting
    /// data through the boost and caps rather than through the scores. In 0...0.5 (two
    /// methods at 0.5 each still fit); 0 turns the rule off.
    public var minimumWeightShare: Double = 0.1
    /// Whether a method whose calibrated score does not beat a constant on the inner
    /// held-out folds gets weight 0 (`--keep-uninformative` turns it off); see `Tuner`.
    public var dropUninformative: Bool = true
    /// How many standard errors the mean inner held-out log-loss gain over the constant
    /// must exceed for a method to count as informative (`Tuner.informativeGain`). 2; >= 0.
    public var uninformativeStandardErrors: Double = 2
    /// Whether each fit is checked against the base configuration on inner group folds of
    /// its data and replaced by it when not better (`Tuner.selectAgainstBase`;
    /// `--select-against-base` turns it on).
    public var selectAgainstBase: Bool = false

    public init() {}

    /// Checks the options a caller may set.
    ///
    /// - Throws: `ConfigurationError` naming the option for a value out of range.
    public func validate() throws(ConfigurationError) {
        guard minimumWeightShare.isFinite, (0...0.5).contains(minimumWeightShare) else {
            throw ConfigurationError(
                key: "tune.min_weight_share", "must be in 0...0.5, got \(minimumWeightShare)")
        }
        guard uninformativeStandardErrors.isFinite, uninformativeStandardErrors >= 0 else {
            throw ConfigurationError(
                key: "tune.uninformative_standard_errors", "must be finite and >= 0, got \(uninformativeStandardErrors)"
            )
        }
        guard innerFolds >= 2 else {
            throw ConfigurationError(key: "tune.inner_folds", "must be at least 2, got \(innerFolds)")
        }
        guard gridDivisions >= 1 else {
            throw ConfigurationError(key: "tune.grid_divisions", "must be at least 1, got \(gridDivisions)")
        }
    }
}

/// Fits calibrations, weights, the decision threshold and the level boundaries on part of
/// a `TuningProblem`, and scores other parts with the fit. Deterministic for a seed.
///
/// A fit on rows R:
/// 1. Calibration, per calibratable column that scored on R with both classes present:
///    Platt (`PlattCalibration`) or isotonic (`IsotonicCalibration`), whichever has the
///    lower mean log loss over `innerFolds` group folds of R (each fitted on the other
///    inner folds; Platt on a tie); the winner is then fitted on all of R. The same inner
///    folds measure a constant (Platt with slope 0 on the inner training part): a method whose
///    chosen calibration does not beat it held out (mean per-sample log-loss gain above
///    `uninformativeStandardErrors` standard errors: `informativeGain`) is uninformative and, with
///    `dropUninformative`, gets weight 0 in step 2 (never the primary).
///    Why: the weight search ranks by AUC, which a column that is nearly constant after
///    calibration (artifacts/1 on real photos: AUC 0.52, Platt slope near 0) does not
///    change however much weight it takes; such a column then soaks up weight that only
///    shrinks the other methods' spread. Fits on different folds land in different such
///    corners (supporting 0.41 and texture 0.02 in one, texture 0.22 and supporting 0.01
///    in the next, equal to 0.003 in AUC on their data), their held-out scores live on
///    different scales, and the pooled held-out AUC falls below the base configuration's
///    although most sources improve. A method that carries nothing beyond a constant on
///    data its calibration did not see is left out instead.
/// 2. Weights: the profile's weights over its methods and every method with a column,
///    searched on the simplex to maximise the objective of the ranking score on R (under
///    the base level boundaries). Every searched weight is 0 or at least
///    `minimumWeightShare` of the searched mass (`floored`): a method with any weight > 0
///    votes in the agreement boost and the disagreement cap, so a near-zero weight would
///    keep its vote while it no longer moves the mean. The start (the base weights,
///    normalised, the dropped methods' share moved to the searched ones) and every point
///    of the grid with step `1/gridDivisions` are evaluated and the best is the start of a
///    pattern search, which tries moving +-step of weight to or from each method (the
///    others rescaled so the sum stays 1) and takes the best improving move, halving
///    the step from 0.1 down to 1/128 when none improves. Weights are rounded to 4
///    decimals (the largest takes the rounding remainder) before being scored, so what is
///    written is what was scored. Ties on the objective go to AUC, then to the earlier
///    candidate. The primary keeps at least `primaryFloor`. A role that scored on no row
///    of R (lidar on photos without depth) keeps its base share: the data says nothing
///    about it, and a run renormalises over the methods that scored, so only the split of
///    the remaining weight among the roles that scored is searched.
/// 3. Boundaries and threshold: the level boundaries from the uncapped scores of R
///    (`boundaries(for:threshold:)`), then the decision threshold for the target
///    (`OperatingTarget`) on the ranking scores of R under those boundaries, so the
///    threshold written meets the target on R exactly as `run` would score R.
public struct Tuner: Sendable {
    public let problem: TuningProblem
    public let options: TuningOptions
    let profile: AggregationProfile
    /// Roles searched, sorted.
    let roles: [AggregationMethod]

    public init(problem: TuningProblem, options: TuningOptions) throws(ConfigurationError) {
        try options.validate()
        self.problem = problem
        self.options = options
        profile = try problem.base.aggregation.profile(named: problem.profileName)
        var roles = Set(profile.weights.keys)
        for column in problem.matrix.columns where column.calibratable { roles.insert(column.role) }
        self.roles = roles.sorted()
    }

    // MARK: Fitting

    /// Everything fitted on `rows`, then (with `selectAgainstBase`) the nested choice
    /// between that fit and the base configuration (step 4).
    public func fit(rows: [Int]) -> TunedFit {
        let tuned = fitTuned(rows: rows)
        guard options.selectAgainstBase else { return tuned }
        return selectAgainstBase(tuned, rows: rows)
    }

    /// Step 4: the objective of the tuned configuration measured on `innerFolds` group
    /// folds of `rows` (each inner fold scored by steps 1-3 fitted on the other inner
    /// folds, the scores pooled), against the objective of the base configuration (it fits
    /// nothing, so its scores on `rows` are as held out as they get). The tuned fit is kept
    /// only when it is better (objective, then AUC); otherwise the fit is the base
    /// configuration itself (its calibration, weights normalised, level boundaries and
    /// decision threshold), so a fold that keeps the base scores its held-out samples
    /// exactly as "before" does. Nested: an outer fold's choice sees only its training
    /// rows. Why: the search maximises the objective on the rows it fits, and on small or
    /// heterogeneous data a fit that looks better there can be worse on data it did not see.
    /// Off by default (`--select-against-base`), because a per-fold choice cannot promise a
    /// pooled number: on the real photos (leave one source out) the pooled inner estimate,
    /// which mixes three inner fits' score scales, favoured the base in 16 of 18 folds, and
    /// the held-out scores of the 2 tuned folds pooled with 16 base-scored ones gave AUC
    /// 0.717, below both the base (0.790) and tuning everywhere (0.802).
    func selectAgainstBase(_ tuned: TunedFit, rows: [Int]) -> TunedFit {
        let inner = GroupFolds.groupKFold(
            groups: rows.map { problem.groups[$0] }, k: options.innerFolds, seed: options.seed)
        guard inner.count >= 2 else { return tuned }
        var heldOut = [Double](repeating: .nan, count: rows.count)
        for f in 0..<inner.count {
            let (train, test) = inner.split(f)
            let trainRows = train.map { rows[$0] }
            guard trainRows.contains(where: { problem.bonaFide[$0] }),
                trainRows.contains(where: { !problem.bonaFide[$0] })
            else { return tuned }
            let fit = fitTuned(rows: trainRows)
            let scores = rankingScores(fit, rows: test.map { rows[$0] })
            for (k, i) in test.enumerated() { heldOut[i] = scores[k] }
        }
        let truth = rows.map { problem.bonaFide[$0] }
        let kinds = rows.map { max(problem.species[$0], 0) }
        let summaryOf = { (scores: [Double]) in
            RankingSummary(
                scores: scores, bonaFide: truth, species: kinds, speciesCount: self.problem.speciesNames.count)
        }
        let baseAll = baseRankingScores(rows: rows)
        let tunedValue = objective(of: summaryOf(heldOut))
        let baseValue = objective(of: summaryOf(baseAll))
        var fit: TunedFit
        let keep = Self.better(tunedValue, than: baseValue)
        if keep {
            fit = tuned
        } else {
            fit = TunedFit(
                calibration: problem.base.calibration, calibrationChoice: tuned.calibrationChoice,
                weights: baseWeights(), threshold: problem.base.decision.threshold,
                levelBoundaries: problem.base.aggregation.levelBoundaries, objective: baseValue.objective,
                objectiveAtStart: tuned.objectiveAtStart, evaluations: tuned.evaluations, samples: rows.count)
        }
        fit.selection = .init(
            chosen: keep ? "tuned" : "base", tunedObjective: tunedValue.objective, baseObjective: baseValue.objective,
            innerFolds: inner.count)
        return fit
    }

    /// The base profile's weights over `roles`, normalised to sum 1 (a run renormalises
    /// over the methods that scored, so the ranking is the base configuration's).
    func baseWeights() -> [AggregationMethod: Double] {
        let raw = roles.map { max(0, profile.weights[$0] ?? 0) }
        let total = raw.reduce(0, +)
        return dictionary(total > 0 ? raw.map { $0 / total } : raw)
    }

    /// Steps 1-3 on `rows`.
    func fitTuned(rows: [Int]) -> TunedFit {
        let matrix = problem.matrix.subset(rows)
        let truth = rows.map { problem.bonaFide[$0] }
        let groups = rows.map { problem.groups[$0] }
        var calibration: [String: ScoreCalibration] = [:]
        var choices: [String: TunedFit.CalibrationChoice] = [:]
        for (j, column) in matrix.columns.enumerated() where column.calibratable {
            let (r, s) = matrix.column(j)
            guard !r.isEmpty else { continue }
            let y = r.map { truth[$0] }
            let choice = chooseCalibration(scores: s, bonaFide: y, groups: r.map { groups[$0] })
            choices[column.key] = choice.choice
            if let fitted = choice.calibration { calibration[column.key] = fitted }
        }
        let calibrated = matrix.calibrated(calibration)
        // Methods whose calibrated score did not beat a constant on the inner held-out
        // folds: weight 0 (never the primary, which must keep a weight).
        var dropped = Set<AggregationMethod>()
        if options.dropUninformative {
            for column in matrix.columns where choices[column.key]?.informative == false {
                if column.role != profile.primary { dropped.insert(column.role) }
            }
        }
        let kinds = rows.map { max(problem.species[$0], 0) }
        let speciesCount = problem.speciesNames.count
        let summaryOf: @Sendable ([Double]) -> RankingSummary = { scores in
            RankingSummary(scores: scores, bonaFide: truth, species: kinds, speciesCount: speciesCount)
        }
        let search = searchWeights(calibrated, dropped: dropped, summaryOf: summaryOf)
        let point = operatingPoint(calibrated, weights: search.weights, summaryOf: summaryOf)
        return TunedFit(
            calibration: calibration, calibrationChoice: choices, weights: search.weights, threshold: point.threshold,
            levelBoundaries: point.boundaries, objective: search.objective, objectiveAtStart: search.start,
            evaluations: search.evaluations,
            samples: rows.count)
    }

    /// Platt or isotonic for one method's scores (step 1).
    func chooseCalibration(scores: [Double], bonaFide: [Bool], groups: [String]) -> (
        calibration: ScoreCalibration?, choice: TunedFit.CalibrationChoice
    ) {
        let positives = bonaFide.filter { $0 }.count
        guard positives > 0 && positives < bonaFide.count else {
            return (
                nil,
                .init(
                    kind: "none", plattLogLoss: nil, isotonicLogLoss: nil, samples: scores.count, platt: nil,
                    isotonic: nil, constantLogLoss: nil, informative: true)
            )
        }
        let inner = GroupFolds.groupKFold(groups: groups, k: options.innerFolds, seed: options.seed)
        var platt = 0.0, isotonic = 0.0, constant = 0.0, counted = 0
        // Per held-out sample: constant's loss minus Platt's, and minus isotonic's.
        var plattGain: [Double] = [], isotonicGain: [Double] = []
        if inner.count >= 2 {
            for f in 0..<inner.count {
                let (train, test) = inner.split(f)
                let y = train.map { bonaFide[$0] }
                guard y.contains(true), y.contains(false), !test.isEmpty else { continue }
                let s = train.map { scores[$0] }
                guard let p = PlattCalibration.fit(scores: s, bonaFide: y),
                    let i = IsotonicCalibration.fit(scores: s, bonaFide: y)
                else { continue }
                // The constant: Platt with slope 0 on the inner training folds, i.e. the
                // mean of Platt's smoothed targets (bona fide (N+ + 1) / (N+ + 2), attack
                // 1 / (N- + 2)): what a method that says nothing about a sample gets. The
                // plain bona fide rate would lose to Platt's shrinkage toward 1/2 on inner
                // folds with extreme rates (one source, all attacks) and make a flat
                // method look informative.
                let positives = Double(y.filter { $0 }.count), negatives = Double(y.count) - positives
                let rate =
                    (positives * (positives + 1) / (positives + 2) + negatives / (negatives + 2)) / Double(y.count)
                for k in test {
                    let lp = Self.logLoss(p.apply(scores[k]), bonaFide[k])
                    let li = Self.logLoss(i.apply(scores[k]), bonaFide[k])
                    let lc = Self.logLoss(rate, bonaFide[k])
                    platt += lp
                    isotonic += li
                    constant += lc
                    plattGain.append(lc - lp)
                    isotonicGain.append(lc - li)
                }
                counted += test.count
            }
        }
        let useIsotonic = counted > 0 && isotonic < platt
        let plattFit = PlattCalibration.fit(scores: scores, bonaFide: bonaFide)
        let isotonicFit = IsotonicCalibration.fit(scores: scores, bonaFide: bonaFide)
        let mean = { (total: Double) in counted > 0 ? total / Double(counted) : nil }
        // Informative: the chosen calibration beats the constant on the inner held-out
        // samples (`informativeGain`). Without an inner fold to measure on there is no
        // evidence against the method: it stays.
        let informative =
            counted == 0
            || Self.informativeGain(
                useIsotonic ? isotonicGain : plattGain, standardErrors: options.uninformativeStandardErrors)
        return (
            useIsotonic ? isotonicFit : plattFit,
            .init(
                kind: useIsotonic ? "isotonic" : "platt", plattLogLoss: mean(platt), isotonicLogLoss: mean(isotonic),
                samples: scores.count, platt: plattFit, isotonic: isotonicFit, constantLogLoss: mean(constant),
                informative: informative)
        )
    }

    /// Whether per-sample log-loss gains over the constant (`gains`, constant's loss minus
    /// the calibration's, on inner held-out samples) show the method carries information:
    /// their mean is above `standardErrors` standard errors of that mean (sample standard
    /// deviation / sqrt(n)) and above 1e-9 (Platt on a constant score is that constant up to
    /// its solver's tolerance). A mean gain of 0.0003 nats on 1,100 samples (artifacts/1 in
    /// one leave-one-source-out fold of the real photos) is noise, and weighting it puts
    /// that fold's scores on another scale than the other folds'.
    static func informativeGain(_ gains: [Double], standardErrors z: Double) -> Bool {
        let n = Double(gains.count)
        guard n > 0 else { return true }
        let mean = gains.reduce(0, +) / n
        let variance = n > 1 ? gains.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0
        return mean > max(z * (variance / n).squareRoot(), 1e-9)
    }

    /// `-log p` for bona fide, `-log(1 - p)` for an attack, p clipped to [1e-15, 1 - 1e-15].
    static func logLoss(_ p: Double, _ bonaFide: Bool) -> Double {
        let q = min(max(p, 1e-15), 1 - 1e-15)
        return bonaFide ? -log(q) : -log(1 - q)
    }

    // MARK: Weights

    /// The objective and its AUC tie-break for `weights` on `matrix` (`boundaries`).
    func score(
        _ matrix: AggregationMatrix, weights: [AggregationMethod: Double],
        boundaries: AggregationConfiguration.LevelBoundaries, summaryOf: ([Double]) -> RankingSummary
    ) -> (objective: Double, auc: Double) {
        objective(of: summaryOf(rankingScores(matrix, weights: weights, boundaries: boundaries)))
    }

    /// The objective and its AUC tie-break on `summary`.
    func objective(of summary: RankingSummary) -> (objective: Double, auc: Double) {
        let auc = summary.auc
        switch options.objective {
        case .auc: return (auc, auc)
        case .pauc: return (summary.partialAUC(maxFPR: options.partialAUCMaxAPCER), auc)
        case .apcerAtBPCER:
            switch options.target {
            case .bpcer(let x):
                let t = summary.thresholdForBPCER(x)
                return (-RankingSummary.maxRate(summary.rates(at: t).apcerPerSpecies), auc)
            case .apcer(let x):
                let t = summary.thresholdForAPCER(x)
                return (-summary.rates(at: t).bpcer, auc)
            }
        }
    }

    /// Ranking scores of `matrix` (already calibrated) under `weights` and `boundaries`.
    func rankingScores(
        _ matrix: AggregationMatrix, weights: [AggregationMethod: Double],
        boundaries: AggregationConfiguration.LevelBoundaries, uncapped: Bool = false
    ) -> [Double] {
        var c = problem.base.aggregation
        c.levelBoundaries = boundaries
        let columnWeights = matrix.columns.map { weights[$0.role] ?? 0 }
        return Self.rejectingUnscored(
            matrix.rankingScores(
                weights: columnWeights, expectedWeighted: weights.values.filter { $0 > 0 }.count,
                primary: profile.primary, configuration: c, uncapped: uncapped))
    }

    /// A sample that no weighted method scored is rejected by a run (its aggregate score
    /// is 0, SUSPICIOUS); tuning counts it at ranking score 0 instead of leaving it out,
    /// so that dropping a method cannot improve a metric by removing the samples only it
    /// scored.
    static func rejectingUnscored(_ scores: [Double]) -> [Double] {
        scores.map { $0.isNaN ? 0 : $0 }
    }

    /// Weights rounded to 4 decimals, summing to 1 (the largest takes the remainder);
    /// the primary at least `primaryFloor`; the roles `free` (the searched ones) each 0
    /// or at least `minimumWeightShare` of their mass (`floored`; up to the rounding).
    func normalised(_ raw: [Double], free: [Int] = []) -> [Double] {
        var w = raw.map { max(0, $0.isFinite ? $0 : 0) }
        let primary = profile.primary.flatMap { roles.firstIndex(of: $0) }
        if let k = primary { w[k] = max(w[k], options.primaryFloor) }
        let total = w.reduce(0, +)
        w = total > 0 ? w.map { $0 / total } : w.map { _ in 1 / Double(w.count) }
        w = Self.floored(w, among: free, share: options.minimumWeightShare, keep: primary)
        w = w.map { ($0 * 10_000).rounded() / 10_000 }
        let largest = w.indices.max { w[$0] < w[$1] || (w[$0] == w[$1] && $0 > $1) }!
        w[largest] = 0
        w[largest] = ((1 - w.reduce(0, +)) * 10_000).rounded() / 10_000
        return w
    }

    /// `w` with every weight of `among` either 0 or at least `share` of the mass of `among`
    /// (`m`; the weights outside `among` do not change), the minimum share rule of the
    /// search. First `keep` (the primary: it must keep a weight) is raised to `share · m`
    /// when below it, the other weights of `among` scaled down to keep the mass; then, while
    /// the smallest non-zero weight of `among` other than `keep` (ties: the later index) is
    /// below `share · m`, it becomes 0 and the other non-zero weights of `among` are scaled
    /// up to keep the mass. Scaling up never brings a weight below the minimum, so this
    /// ends with every weight 0 or at least the minimum (the last one standing holds `m`).
    /// A method is either out (weight 0: it does not vote in the agreement boost or the
    /// disagreement cap) or weighs enough to move the mean: no corner where it votes at a
    /// weight too small to count. Unchanged when `share` is 0 or `among` has fewer than two.
    static func floored(_ w: [Double], among: [Int], share: Double, keep: Int? = nil) -> [Double] {
        guard share > 0, among.count >= 2 else { return w }
        let mass = among.reduce(0) { $0 + w[$1] }
        guard mass > 0 else { return w }
        let minimum = share * mass
        var out = w
        func rescale(_ indices: [Int], to total: Double) {
            let current = indices.reduce(0) { $0 + out[$1] }
            guard current > 0 else { return }
            for i in indices { out[i] *= total / current }
        }
        if let keep, among.contains(keep), out[keep] < minimum {
            out[keep] = minimum
            rescale(among.filter { $0 != keep }, to: mass - minimum)
        }
        while true {
            let candidates = among.filter { $0 != keep && out[$0] > 0 }
            guard
                let smallest = candidates.min(by: { out[$0] < out[$1] || (out[$0] == out[$1] && $0 > $1) }),
                out[smallest] < minimum * (1 - 1e-12),
                among.filter({ out[$0] > 0 }).count > 1
            else { break }
            out[smallest] = 0
            rescale(among.filter { out[$0] > 0 }, to: mass)
        }
        return out
    }

    func dictionary(_ w: [Double]) -> [AggregationMethod: Double] {
        Dictionary(uniqueKeysWithValues: zip(roles, w))
    }

    /// Step 2 of the fit; the roles `dropped` (uninformative) get weight 0.
    func searchWeights(
        _ matrix: AggregationMatrix, dropped: Set<AggregationMethod> = [],
        summaryOf: @Sendable ([Double]) -> RankingSummary
    ) -> (
        weights: [AggregationMethod: Double], objective: Double, start: Double, evaluations: Int
    ) {
        let boundaries = problem.base.aggregation.levelBoundaries
        func evaluate(_ candidates: [[Double]]) -> [(objective: Double, auc: Double)] {
            withoutActuallyEscaping(summaryOf) { summaryOf in
                candidates.indices.concurrentMap { k in
                    self.score(
                        matrix, weights: self.dictionary(candidates[k]), boundaries: boundaries, summaryOf: summaryOf)
                }
            }
        }
        func better(_ a: (objective: Double, auc: Double), than b: (objective: Double, auc: Double)) -> Bool {
            Self.better(a, than: b)
        }
        // Roles that scored on no row keep their base share; the others share the rest,
        // except the dropped ones (0), unless that would leave nothing to search.
        let observed = Set(
            matrix.columns.indices.filter { j in
                (0..<matrix.rows).contains { matrix.scored[$0 * matrix.columns.count + j] }
            }
            .map { matrix.columns[$0].role })
        var free = roles.indices.filter { observed.contains(roles[$0]) && !dropped.contains(roles[$0]) }
        if free.isEmpty { free = roles.indices.filter { observed.contains(roles[$0]) } }
        let zeroed = roles.indices.filter { observed.contains(roles[$0]) && !free.contains($0) }
        // The start: the base weights, the dropped roles' share moved to the searched ones
        // (in proportion to their base weights; equally when those are all 0).
        var base = normalised(roles.map { profile.weights[$0] ?? 0 })
        let droppedMass = zeroed.reduce(0) { $0 + base[$1] }
        let freeMass = free.reduce(0) { $0 + base[$1] }
        for i in zeroed { base[i] = 0 }
        for i in free { base[i] += freeMass > 0 ? base[i] / freeMass * droppedMass : droppedMass / Double(free.count) }
        let start = normalised(base, free: free)
        let fixedMass = roles.indices.filter { !observed.contains(roles[$0]) }.reduce(0) { $0 + start[$1] }
        /// `point` (over the free roles, summing to 1) placed in the free mass, the fixed
        /// roles at their start share.
        func place(_ point: [Double]) -> [Double] {
            var w = start
            for (k, i) in free.enumerated() { w[i] = point[k] * (1 - fixedMass) }
            return w
        }
        var candidates = [start]
        var seen = Set([start])
        for point in Self.simplexGrid(dimensions: free.count, divisions: options.gridDivisions) {
            let w = normalised(place(point), free: free)
            if seen.insert(w).inserted { candidates.append(w) }
        }
        let scored = evaluate(candidates)
        var evaluations = candidates.count
        var best = 0
        for k in 1..<scored.count where better(scored[k], than: scored[best]) { best = k }
        var current = candidates[best], currentScore = scored[best]
        var step = 0.1
        while step >= 1.0 / 128 && evaluations < 2_000 {
            var moves: [[Double]] = []
            for i in free {
                for sign in [1.0, -1.0] {
                    let w = normalised(Self.move(current, i, sign * step, among: free), free: free)
                    if w != current && seen.insert(w).inserted { moves.append(w) }
                }
            }
            let results = evaluate(moves)
            evaluations += moves.count
            var pick: Int?
            for k in results.indices where better(results[k], than: pick.map { results[$0] } ?? currentScore) {
                pick = k
            }
            if let pick {
                current = moves[pick]
                currentScore = results[pick]
            } else {
                step /= 2
            }
        }
        return (dictionary(current), currentScore.objective, scored[0].objective, evaluations)
    }

    /// Whether `a` beats `b`: a higher objective (by more than 1e-12), then a higher AUC;
    /// NaN is worst.
    static func better(_ a: (objective: Double, auc: Double), than b: (objective: Double, auc: Double)) -> Bool {
        let ao = a.objective.isNaN ? -.infinity : a.objective, bo = b.objective.isNaN ? -.infinity : b.objective
        if ao > bo + 1e-12 { return true }
        if ao < bo - 1e-12 { return false }
        let aa = a.auc.isNaN ? -.infinity : a.auc, ba = b.auc.isNaN ? -.infinity : b.auc
        return aa > ba + 1e-12
    }

    /// `w` with weight `i` changed by `delta` and the other weights of `among` (which holds
    /// `i`; default: all) rescaled so that the sum over `among` stays what it was (shared
    /// equally when they were all 0); the weights outside `among` do not change.
    static func move(_ w: [Double], _ i: Int, _ delta: Double, among: [Int]? = nil) -> [Double] {
        let among = among ?? Array(w.indices)
        let mass = among.reduce(0) { $0 + w[$1] }
        var out = w
        let target = min(mass, max(0, w[i] + delta))
        let othersBefore = mass - w[i], othersAfter = mass - target
        out[i] = target
        for k in among where k != i {
            out[k] = othersBefore > 0 ? w[k] * othersAfter / othersBefore : othersAfter / Double(among.count - 1)
        }
        return out
    }

    /// Every point of the simplex whose coordinates are multiples of `1/divisions`, in
    /// lexicographic order of the counts.
    static func simplexGrid(dimensions: Int, divisions: Int) -> [[Double]] {
        guard dimensions > 0, divisions > 0 else { return [] }
        var out: [[Double]] = []
        var counts = [Int](repeating: 0, count: dimensions)
        func place(_ k: Int, _ left: Int) {
            if k == dimensions - 1 {
                counts[k] = left
                out.append(counts.map { Double($0) / Double(divisions) })
                return
            }
            for c in stride(from: left, through: 0, by: -1) {
                counts[k] = c
                place(k + 1, left - c)
            }
        }
        place(0, divisions)
        return out
    }

    // MARK: Threshold and boundaries

    /// Step 3 of the fit: the level boundaries from the uncapped scores (which do not
    /// depend on the boundaries), then the decision threshold on the ranking scores under
    /// those boundaries (which do: a capped sample's ranking score sits just below its
    /// level's upper boundary).
    func operatingPoint(
        _ matrix: AggregationMatrix, weights: [AggregationMethod: Double], summaryOf: ([Double]) -> RankingSummary
    ) -> (threshold: Double, boundaries: AggregationConfiguration.LevelBoundaries) {
        let base = problem.base.aggregation.levelBoundaries
        let uncapped = summaryOf(rankingScores(matrix, weights: weights, boundaries: base, uncapped: true))
        let boundaries = self.boundaries(
            for: uncapped, threshold: clampThreshold(options.target.threshold(on: uncapped)))
        let ranking = summaryOf(rankingScores(matrix, weights: weights, boundaries: boundaries))
        return (clampThreshold(options.target.threshold(on: ranking)), boundaries)
    }

    /// A threshold usable as `decision.threshold` (0...1): `-inf` (reject no bona fide
    /// needed) is 0, `+inf` (no threshold meets an APCER target) is 1, NaN (a class
    /// missing) is the base threshold.
    func clampThreshold(_ t: Double) -> Double {
        if t.isNaN { return problem.base.decision.threshold }
        return min(1, max(0, t))
    }

    /// The level boundaries for the fitting data's uncapped scores (`uncapped_score`: a
    /// level is the level of the uncapped score unless a cap lowers it):
    /// - medium = the threshold for the operating target on the uncapped scores;
    /// - low = the highest threshold with BPCER <= 1% (few bona fide fall to SUSPICIOUS);
    /// - high = the higher of the lowest threshold with APCER (max over species) <= 1% and
    ///   the highest with BPCER <= 50% (HIGH needs both: few attacks, and the better half
    ///   of the bona fide);
    /// - very_high = the higher of the lowest threshold with APCER <= 0.1% and the highest
    ///   with BPCER <= 80% (the best fifth of the bona fide);
    /// then, with `g = 2 · capped_score_margin` (every band must be wider than the margin),
    /// clamped in this order: medium into [2g, 1 - 2g], low into [g, medium - g], high
    /// into [medium + g, 1 - g], very_high into [high + g, 1], so they are strictly
    /// decreasing and valid. A rate that cannot be computed (a class missing) keeps the
    /// base boundary, clamped the same way.
    func boundaries(for summary: RankingSummary, threshold: Double) -> AggregationConfiguration.LevelBoundaries {
        let base = problem.base.aggregation.levelBoundaries
        let g = 2 * problem.base.aggregation.cappedScoreMargin
        func pick(_ value: Double, _ fallback: Double, _ lo: Double, _ hi: Double) -> Double {
            let v = value.isNaN ? fallback : value
            return min(hi, max(lo, v))
        }
        let medium = pick(threshold, base.medium, 2 * g, 1 - 2 * g)
        let low = pick(summary.thresholdForBPCER(0.01), base.low, g, medium - g)
        func higher(_ a: Double, _ b: Double) -> Double { a.isNaN ? b : b.isNaN ? a : max(a, b) }
        let high = pick(
            higher(summary.thresholdForAPCER(0.01), summary.thresholdForBPCER(0.5)), base.high, medium + g, 1 - g)
        let veryHigh = pick(
            higher(summary.thresholdForAPCER(0.001), summary.thresholdForBPCER(0.8)), base.veryHigh, high + g, 1)
        return .init(veryHigh: veryHigh, high: high, medium: medium, low: low)
    }

    // MARK: Scoring

    /// Ranking scores of `rows` under `fit` (0 where nothing scored: `rejectingUnscored`).
    public func rankingScores(_ fit: TunedFit, rows: [Int]) -> [Double] {
        let matrix = problem.matrix.subset(rows).calibrated(fit.calibration)
        var c = problem.base.aggregation
        c.levelBoundaries = fit.levelBoundaries
        let columnWeights = matrix.columns.map { fit.weights[$0.role] ?? 0 }
        return Self.rejectingUnscored(
            matrix.rankingScores(
                weights: columnWeights, expectedWeighted: fit.weights.values.filter { $0 > 0 }.count,
                primary: profile.primary, configuration: c))
    }

    /// Ranking scores of every sample under the base configuration (its own calibration,
    /// weights and boundaries).
    public func baseRankingScores() -> [Double] {
        baseRankingScores(rows: nil)
    }

    /// The same for `rows` only (all when nil), in that order.
    func baseRankingScores(rows: [Int]?) -> [Double] {
        let base = problem.base.aggregation
        let matrix = (rows.map { problem.matrix.subset($0) } ?? problem.matrix).calibrated(problem.base.calibration)
        let columnWeights = matrix.columns.map { profile.weights[$0.role] ?? 0 }
        return Self.rejectingUnscored(
            matrix.rankingScores(
                weights: columnWeights, expectedWeighted: profile.weightedMethods.count, primary: profile.primary,
                configuration: base))
    }
}
