import Foundation
import RialMedia

/// The evaluated records of a run as columns for the reports that sweep every sample once
/// per key (CSV curves and scores, plots): each key's score read once
/// (`SampleRecord.score(_:)`, nil where it did not score) and the fields they group by, so
/// no report copies records or looks a score up again.
struct ScoreColumns: Sendable {
    let keys: [String]
    /// `scores[k][i]`: key `keys[k]`'s score of evaluated record `i`.
    let scores: [[Double?]]
    let ids: [String]
    let datasets: [String]
    let labels: [String]
    let bonaFide: [Bool]
    let data: [SampleRecord.DataKind]
    let groups: [String?]
    /// Each key's ranking per subset of rows, sorted once for every curve of every report
    /// (`curveInputs`).
    let rankings = RankingCache()

    /// Rankings by key and subset, filled on first use from any thread.
    final class RankingCache: Sendable {
        private let entries = Locked<[String: RankedScores]>([:])

        func ranked(_ name: String, _ make: () -> RankedScores) -> RankedScores {
            if let found = entries.withLock({ $0[name] }) { return found }
            // Computed outside the lock (two threads may both compute it; the results are equal).
            let made = make()
            entries.withLock { $0[name] = made }
            return made
        }
    }

    /// Columns of the evaluated records of `records` (in order), for `keys`.
    init(records: [SampleRecord], keys: [String]) {
        let evaluated = records.indices.filter { records[$0].status == .evaluated }
        self.keys = keys
        scores = keys.indices.concurrentMap { k in evaluated.map { records[$0].score(keys[k]) } }
        ids = evaluated.map { records[$0].id }
        datasets = evaluated.map { records[$0].dataset }
        labels = evaluated.map { records[$0].label.rawValue }
        bonaFide = evaluated.map { records[$0].bonaFide }
        data = evaluated.map { records[$0].data }
        groups = evaluated.map { records[$0].group }
    }

    /// Columns as given (`RunResults.rescored`, from a run's metric columns).
    init(
        keys: [String], scores: [[Double?]], ids: [String], datasets: [String], labels: [String], bonaFide: [Bool],
        data: [SampleRecord.DataKind], groups: [String?]
    ) {
        self.keys = keys
        self.scores = scores
        self.ids = ids
        self.datasets = datasets
        self.labels = labels
        self.bonaFide = bonaFide
        self.data = data
        self.groups = groups
    }

    var count: Int { ids.count }

    /// Every row.
    var all: [Int] { Array(0..<count) }

    /// The rows of data kind `kind`.
    func rows(of kind: SampleRecord.DataKind) -> [Int] { (0..<count).filter { data[$0] == kind } }

    /// `key`'s column (nil for a key it was not built with).
    func column(_ key: String) -> [Double?]? { keys.firstIndex(of: key).map { scores[$0] } }

    /// What the curves of `key` on `rows` read: its finite scores in row order ranked
    /// (`RankedScores`, computed once per key and `subset`, the name of `rows`), the rows
    /// whose score is present but not finite, and the rows without a score.
    func curveInputs(_ key: String, rows: [Int], subset: String) -> (
        ranked: RankedScores, nonFinite: Int, unscored: Int
    ) {
        let column = column(key)
        var nonFinite = 0, unscored = 0
        for i in rows {
            guard let score = column?[i] ?? nil else {
                unscored += 1
                continue
            }
            if !score.isFinite { nonFinite += 1 }
        }
        // Rows are distinct, so a subset as long as the columns is every row: one ranking
        // for both (a run of one data kind plots `all` and that kind alike).
        let name = rows.count == count ? "\u{0}all" : subset
        let ranked = rankings.ranked("\(key)\u{0}\(name)") {
            var scores: [Double] = [], truth: [Bool] = []
            scores.reserveCapacity(rows.count)
            truth.reserveCapacity(rows.count)
            for i in rows {
                if let score = column?[i] ?? nil, score.isFinite {
                    scores.append(score)
                    truth.append(bonaFide[i])
                }
            }
            return RankedScores(finiteScores: scores, bonaFide: truth)
        }
        return (ranked, nonFinite, unscored)
    }

    /// The ROC curve `ROCCurve(scores:bonaFide:)` gives for `key` on `rows`: with
    /// `scoredOnly` of the scored rows' scores (the CSV curves), else of every row's with NaN
    /// where not scored (the plots); the ranking shared (`curveInputs`).
    func rocCurve(_ key: String, rows: [Int], subset: String, scoredOnly: Bool) -> ROCCurve {
        let (ranked, nonFinite, unscored) = curveInputs(key, rows: rows, subset: subset)
        let excluded = nonFinite + (scoredOnly ? 0 : unscored)
        return ROCCurve(
            ranked: ranked, excluded: excluded,
            inputWarnings: excluded > 0 ? [MetricsWarning.nonFiniteScoresExcluded] : [])
    }

    /// `PrecisionRecallCurve(scores:bonaFide:)` of every row's score (NaN where not scored),
    /// the ranking shared.
    func precisionRecall(_ key: String, rows: [Int], subset: String) -> PrecisionRecallCurve {
        let (ranked, nonFinite, unscored) = curveInputs(key, rows: rows, subset: subset)
        let excluded = nonFinite + unscored
        return PrecisionRecallCurve(
            ranked: ranked, excluded: excluded,
            inputWarnings: excluded > 0 ? [MetricsWarning.nonFiniteScoresExcluded] : [])
    }
}
