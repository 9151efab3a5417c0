/// The binary confusion matrix of bona fide vs attack at a decision threshold.
///
/// Rows = truth, columns = prediction, in scikit-learn's label order (negative class
/// first): index 0 = `attack`, 1 = `bona_fide`, so `counts` is
/// `[[TN, FP], [FN, TP]]` with bona fide positive: TN = attacks rejected, FP = attacks
/// accepted (`score >= threshold`), FN = bona fide rejected, TP = bona fide accepted.
/// `normalized` divides each row by its total (`normalize='true'` in sklearn); a row
/// without samples is NaN (JSON `null`) where sklearn writes 0. Non-finite scores are
/// excluded and counted.
///
/// JSON: `{"threshold", "labels": ["attack", "bona_fide"], "counts": [[TN, FP], [FN, TP]],
/// "normalized": [[..], [..]], "excluded"}`.
public struct BinaryConfusionMatrix: Sendable, Equatable, Codable {
    public var threshold: Double
    public var trueNegatives: Int
    public var falsePositives: Int
    public var falseNegatives: Int
    public var truePositives: Int
    public var excludedCount: Int

    /// `["attack", "bona_fide"]`: the row and column order.
    public static let labels = ["attack", "bona_fide"]

    public init(samples: [ScoredSample], threshold: Double) {
        self.threshold = threshold
        var tn = 0, fp = 0, fn = 0, tp = 0, excluded = 0
        for sample in samples {
            guard sample.score.isFinite else {
                excluded += 1
                continue
            }
            switch (sample.bonaFide, sample.score >= threshold) {
            case (false, false): tn += 1
            case (false, true): fp += 1
            case (true, false): fn += 1
            case (true, true): tp += 1
            }
        }
        (trueNegatives, falsePositives, falseNegatives, truePositives, excludedCount) = (tn, fp, fn, tp, excluded)
    }

    /// `[[TN, FP], [FN, TP]]`.
    public var counts: [[Int]] { [[trueNegatives, falsePositives], [falseNegatives, truePositives]] }

    /// Each row of `counts` divided by its sum; NaN for an empty row.
    public var normalized: [[Double]] {
        counts.map { row in
            let total = row.reduce(0, +)
            return row.map { total > 0 ? Double($0) / Double(total) : .nan }
        }
    }

    enum CodingKeys: String, CodingKey {
        case threshold, labels, counts, normalized
        case excludedCount = "excluded"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        threshold = try c.decodeNullable(.threshold)
        let counts = try c.decode([[Int]].self, forKey: .counts)
        guard counts.count == 2, counts.allSatisfy({ $0.count == 2 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .counts, in: c,
                debugDescription: "counts must be a 2x2 array [[TN, FP], [FN, TP]]")
        }
        (trueNegatives, falsePositives, falseNegatives, truePositives) = (
            counts[0][0], counts[0][1], counts[1][0], counts[1][1]
        )
        excludedCount = try c.decodeIfPresent(Int.self, forKey: .excludedCount) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNullable(threshold, forKey: .threshold)
        try c.encode(Self.labels, forKey: .labels)
        try c.encode(counts, forKey: .counts)
        try c.encode(normalized.map { $0.map { $0.isFinite ? $0 : nil } }, forKey: .normalized)
        try c.encode(excludedCount, forKey: .excludedCount)
    }
}

/// The confusion matrix of a multi-class classifier (e.g. the texture classifier's
/// `real_scene` / `lcd_screen` / `oled_screen` / `printed_paper`).
///
/// Rows = truth, columns = prediction, both in the order of `classes` (duplicates
/// dropped, first kept). A pair whose truth or prediction is not in `classes` is not
/// counted (as sklearn's `labels=` argument) but counted in `excludedCount`.
/// `normalized` divides each row by its sum; an empty row is NaN (JSON `null`).
/// Storage is one row-major array.
///
/// JSON: `{"classes", "counts": [[..]], "normalized": [[..]], "excluded"}`.
public struct MulticlassConfusionMatrix: Sendable, Equatable, Codable {
    public var classes: [String]
    /// Row-major, `classes.count²` entries: `[truth * classes.count + predicted]`.
    public var flatCounts: [Int]
    public var excludedCount: Int

    /// Counts `(truth[i], predicted[i])` pairs; arrays of different length use the
    /// common prefix.
    public init(classes input: [String], truth: [String], predicted: [String]) {
        var classes: [String] = []
        var index: [String: Int] = [:]
        for name in input where index[name] == nil {
            index[name] = classes.count
            classes.append(name)
        }
        self.classes = classes
        var counts = [Int](repeating: 0, count: classes.count * classes.count)
        var excluded = 0
        for (t, p) in zip(truth, predicted) {
            guard let row = index[t], let column = index[p] else {
                excluded += 1
                continue
            }
            counts[row * classes.count + column] += 1
        }
        flatCounts = counts
        excludedCount = excluded
    }

    /// Samples with truth `truth` predicted as `predicted`; 0 for an unknown class.
    public func count(truth: String, predicted: String) -> Int {
        guard let row = classes.firstIndex(of: truth), let column = classes.firstIndex(of: predicted) else { return 0 }
        return flatCounts[row * classes.count + column]
    }

    /// Rows of `flatCounts`.
    public var counts: [[Int]] {
        (0..<classes.count).map { Array(flatCounts[($0 * classes.count)..<(($0 + 1) * classes.count)]) }
    }

    /// Each row divided by its sum; NaN for an empty row.
    public var normalized: [[Double]] {
        counts.map { row in
            let total = row.reduce(0, +)
            return row.map { total > 0 ? Double($0) / Double(total) : .nan }
        }
    }

    /// Share of counted pairs on the diagonal; NaN when nothing was counted.
    public var accuracy: Double {
        let total = flatCounts.reduce(0, +)
        guard total > 0 else { return .nan }
        return Double(classes.indices.reduce(0) { $0 + flatCounts[$1 * classes.count + $1] }) / Double(total)
    }

    enum CodingKeys: String, CodingKey {
        case classes, counts, normalized
        case excludedCount = "excluded"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let classes = try c.decode([String].self, forKey: .classes)
        let rows = try c.decode([[Int]].self, forKey: .counts)
        guard rows.count == classes.count, rows.allSatisfy({ $0.count == classes.count }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .counts, in: c,
                debugDescription: "counts must be a square array with one row and one column per class")
        }
        self.classes = classes
        flatCounts = rows.flatMap { $0 }
        excludedCount = try c.decodeIfPresent(Int.self, forKey: .excludedCount) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(classes, forKey: .classes)
        try c.encode(counts, forKey: .counts)
        try c.encode(normalized.map { $0.map { $0.isFinite ? $0 : nil } }, forKey: .normalized)
        try c.encode(excludedCount, forKey: .excludedCount)
    }
}
