/// How much of a score ranking is ties: scores that equal another sample's score cannot
/// be ordered by any threshold, so a large tie block is a flat stretch of the ROC/DET
/// curve that no operating point can split.
///
/// Over the finite scores (NaN/infinite excluded, as every metric does), blocks of equal
/// scores (`-0.0 == 0.0`, as `RankedScores`):
/// - `tiedFraction` = samples in a block of two or more / scored samples, i.e. the share
///   of scored samples whose score equals at least one other sample's score;
/// - `largestBlock` = the size of the largest block, `largestBlockScore` its score (the
///   highest such score when several blocks are equally large), `largestBlockFraction`
///   = `largestBlock / scored`.
///
/// No scored sample: fractions NaN, `largestBlock` 0, `largestBlockScore` NaN.
///
/// JSON (`MethodMetrics.ties`): `{"n_scored", "n_distinct", "n_tied", "tied_fraction",
/// "largest_block", "largest_block_fraction", "largest_block_score"}`.
public struct ScoreTies: Sendable, Equatable, Codable {
    public var scoredCount: Int
    /// Distinct finite score values.
    public var distinctCount: Int
    /// Samples whose score equals another sample's score.
    public var tiedCount: Int
    public var tiedFraction: Double
    public var largestBlock: Int
    public var largestBlockFraction: Double
    public var largestBlockScore: Double

    enum CodingKeys: String, CodingKey {
        case scoredCount = "n_scored"
        case distinctCount = "n_distinct"
        case tiedCount = "n_tied"
        case tiedFraction = "tied_fraction"
        case largestBlock = "largest_block"
        case largestBlockFraction = "largest_block_fraction"
        case largestBlockScore = "largest_block_score"
    }

    /// The ties of `scores` (non-finite values are left out).
    public init(scores: [Double]) {
        let finite = scores.filter(\.isFinite)
        self.init(ranked: RankedScores(finiteScores: finite, bonaFide: [Bool](repeating: false, count: finite.count)))
    }

    /// - Complexity: O(number of blocks).
    init(ranked: RankedScores) {
        var tied = 0, largest = 0, largestScore = Double.nan, start = 0
        for end32 in ranked.blockEnds {
            let end = Int(end32), size = end - start
            if size >= 2 { tied += size }
            if size > largest {
                largest = size
                largestScore = ranked.scores[start]
            }
            start = end
        }
        let n = ranked.count
        scoredCount = n
        distinctCount = ranked.blockEnds.count
        tiedCount = tied
        tiedFraction = n > 0 ? Double(tied) / Double(n) : .nan
        largestBlock = largest
        largestBlockFraction = n > 0 ? Double(largest) / Double(n) : .nan
        largestBlockScore = largestScore
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        scoredCount = try c.decode(Int.self, forKey: .scoredCount)
        distinctCount = try c.decode(Int.self, forKey: .distinctCount)
        tiedCount = try c.decode(Int.self, forKey: .tiedCount)
        tiedFraction = try c.decodeNullable(.tiedFraction)
        largestBlock = try c.decode(Int.self, forKey: .largestBlock)
        largestBlockFraction = try c.decodeNullable(.largestBlockFraction)
        largestBlockScore = try c.decodeNullable(.largestBlockScore)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(scoredCount, forKey: .scoredCount)
        try c.encode(distinctCount, forKey: .distinctCount)
        try c.encode(tiedCount, forKey: .tiedCount)
        try c.encodeNullable(tiedFraction, forKey: .tiedFraction)
        try c.encode(largestBlock, forKey: .largestBlock)
        try c.encodeNullable(largestBlockFraction, forKey: .largestBlockFraction)
        try c.encodeNullable(largestBlockScore, forKey: .largestBlockScore)
    }
}
