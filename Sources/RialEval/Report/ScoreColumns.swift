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

    /// `key`'s scores on `rows` (NaN where not scored) and the truth, as the plots read them.
    func scoresAndTruth(_ key: String, rows: [Int]) -> (scores: [Double], bonaFide: [Bool]) {
        let column = column(key)
        return (rows.map { column?[$0] ?? .nan }, rows.map { bonaFide[$0] })
    }

    /// `key`'s scored rows of `rows` only (a score present, NaN included), as the CSV curves read them.
    func scoredPairs(_ key: String, rows: [Int]) -> (scores: [Double], bonaFide: [Bool]) {
        guard let column = column(key) else { return ([], []) }
        var scores: [Double] = [], truth: [Bool] = []
        for i in rows {
            if let s = column[i] {
                scores.append(s)
                truth.append(bonaFide[i])
            }
        }
        return (scores, truth)
    }
}
