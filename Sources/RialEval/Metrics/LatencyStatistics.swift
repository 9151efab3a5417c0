/// Summary of latencies in milliseconds: n, min, mean, p50, p90, p95, p99, max. The one
/// latency summary of the package: run results, `Benchmark` and `bench-decode` use it.
///
/// Percentiles are nearest-rank: the p-th percentile of `n` sorted values is the value
/// at 1-based rank `ceil(p/100 · n)` (at least 1), always an observed value; e.g. of 10
/// values p90 is the 9th smallest, p95 and p99 the 10th. This is definition 1 of
/// Hyndman and Fan (1996), "Sample quantiles in statistical packages" (the inverse of
/// the empirical distribution function), numpy's `percentile(..., method="inverted_cdf")`.
/// So p50 of an even count is the lower of the two middle values, not their mean
/// (p50 of 1, 2, 3, 4 is 2). NaN and infinite values are
/// excluded and counted in `excludedCount`; without values every statistic is NaN
/// (JSON `null`) and `n` is 0.
///
/// JSON: `{"n", "min_ms", "mean_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "max_ms",
/// "excluded"}`.
public struct LatencyStatistics: Sendable, Equatable, Codable {
    public var n: Int
    public var min: Double
    /// Arithmetic mean.
    public var mean: Double
    public var p50: Double
    public var p90: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    public var excludedCount: Int

    /// The statistics of `milliseconds`.
    ///
    /// - Complexity: O(n log n).
    public init(milliseconds: [Double]) {
        let values = milliseconds.filter(\.isFinite).sorted()
        n = values.count
        excludedCount = milliseconds.count - values.count
        min = values.first ?? .nan
        max = values.last ?? .nan
        mean = values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
        p50 = Self.nearestRank(values, percent: 50)
        p90 = Self.nearestRank(values, percent: 90)
        p95 = Self.nearestRank(values, percent: 95)
        p99 = Self.nearestRank(values, percent: 99)
    }

    /// The nearest-rank `percent` percentile (0...100) of ascending `sorted`: the value at
    /// 1-based rank `max(1, ceil(percent/100 · n))`. The product is taken with a relative
    /// tolerance of 1e-12 so that binary rounding cannot push an exact rank up
    /// (`0.95 · 20` is rank 19). NaN for an empty array or a percent outside 0...100.
    public static func nearestRank(_ sorted: [Double], percent: Double) -> Double {
        guard !sorted.isEmpty, (0...100).contains(percent) else { return .nan }
        let exact = percent / 100 * Double(sorted.count)
        let rank = Swift.max(1, Swift.min(sorted.count, Int((exact * (1 - 1e-12)).rounded(.up))))
        return sorted[rank - 1]
    }

    enum CodingKeys: String, CodingKey {
        case n
        case min = "min_ms"
        case mean = "mean_ms"
        case p50 = "p50_ms"
        case p90 = "p90_ms"
        case p95 = "p95_ms"
        case p99 = "p99_ms"
        case max = "max_ms"
        case excludedCount = "excluded"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        n = try c.decode(Int.self, forKey: .n)
        min = try c.decodeNullable(.min)
        mean = try c.decodeNullable(.mean)
        p50 = try c.decodeNullable(.p50)
        p90 = try c.decodeNullable(.p90)
        p95 = try c.decodeNullable(.p95)
        p99 = try c.decodeNullable(.p99)
        max = try c.decodeNullable(.max)
        excludedCount = try c.decodeIfPresent(Int.self, forKey: .excludedCount) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(n, forKey: .n)
        try c.encodeNullable(min, forKey: .min)
        try c.encodeNullable(mean, forKey: .mean)
        try c.encodeNullable(p50, forKey: .p50)
        try c.encodeNullable(p90, forKey: .p90)
        try c.encodeNullable(p95, forKey: .p95)
        try c.encodeNullable(p99, forKey: .p99)
        try c.encodeNullable(max, forKey: .max)
        try c.encode(excludedCount, forKey: .excludedCount)
    }
}
