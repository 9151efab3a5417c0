import Foundation

/// A two-sided confidence interval with how it was obtained.
///
/// JSON: `{"lower", "upper", "level", "method", "resamples", "seed",
/// "undefined_resamples"}`; `lower`/`upper` are `null` when undefined (NaN: no data, or
/// every resample undefined); the bootstrap-only keys are absent for Wilson intervals.
public struct ConfidenceInterval: Sendable, Equatable, Codable {
    /// How the interval was computed.
    public enum Method: String, Sendable, Codable {
        /// Percentile interval of a seeded cluster bootstrap (`ClusterBootstrap`).
        case clusterBootstrapPercentile = "cluster_bootstrap_percentile"
        /// Wilson score interval of a binomial proportion.
        case wilson
    }

    public var lower: Double
    public var upper: Double
    /// Nominal coverage, e.g. 0.95.
    public var level: Double
    public var method: Method
    /// Bootstrap resamples drawn (bootstrap only).
    public var resamples: Int?
    /// SplitMix64 seed of the bootstrap (bootstrap only).
    public var seed: UInt64?
    /// Resamples where the statistic was undefined (a class missing) and which the
    /// percentiles leave out (bootstrap only).
    public var undefinedResamples: Int?

    enum CodingKeys: String, CodingKey {
        case lower, upper, level, method, resamples, seed
        case undefinedResamples = "undefined_resamples"
    }

    public init(
        lower: Double, upper: Double, level: Double, method: Method, resamples: Int? = nil,
        seed: UInt64? = nil, undefinedResamples: Int? = nil
    ) {
        self.lower = lower
        self.upper = upper
        self.level = level
        self.method = method
        self.resamples = resamples
        self.seed = seed
        self.undefinedResamples = undefinedResamples
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lower = try c.decodeNullable(.lower)
        upper = try c.decodeNullable(.upper)
        level = try c.decode(Double.self, forKey: .level)
        method = try c.decode(Method.self, forKey: .method)
        resamples = try c.decodeIfPresent(Int.self, forKey: .resamples)
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed)
        undefinedResamples = try c.decodeIfPresent(Int.self, forKey: .undefinedResamples)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNullable(lower, forKey: .lower)
        try c.encodeNullable(upper, forKey: .upper)
        try c.encode(level, forKey: .level)
        try c.encode(method, forKey: .method)
        try c.encodeIfPresent(resamples, forKey: .resamples)
        try c.encodeIfPresent(seed, forKey: .seed)
        try c.encodeIfPresent(undefinedResamples, forKey: .undefinedResamples)
    }

    /// The Wilson score interval of `successes` out of `trials` (Wilson 1927):
    /// with `p = k/n` and `z` the standard normal `(1 + level)/2` quantile,
    /// `centre = (p + z²/2n) / (1 + z²/n)`,
    /// `half = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)`, `[centre - half, centre + half]`
    /// clamped to 0...1 (exactly 0 at 0/n, 1 at n/n). 8/10 at 95 % gives
    /// [0.4902, 0.9433]. Unlike the Wald interval it is not degenerate at 0/n or n/n.
    ///
    /// `trials <= 0`, `successes` outside `0...trials`, or `level` outside (0, 1): NaN
    /// bounds.
    public static func wilson(successes: Int, trials: Int, level: Double = 0.95) -> ConfidenceInterval {
        guard trials > 0, (0...trials).contains(successes), level > 0, level < 1 else {
            return ConfidenceInterval(lower: .nan, upper: .nan, level: level, method: .wilson)
        }
        let n = Double(trials), p = Double(successes) / n
        let z = standardNormalQuantile((1 + level) / 2)
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // At 0/n and n/n the bound is exactly 0 or 1; rounding could leave 1 - 1e-16.
        let lower = successes == 0 ? 0 : max(0, centre - half)
        let upper = successes == trials ? 1 : min(1, centre + half)
        return ConfidenceInterval(lower: lower, upper: upper, level: level, method: .wilson)
    }

    /// The `q` quantile of a sorted sample by linear interpolation between order
    /// statistics (Hyndman & Fan type 7, numpy's default): `h = (m - 1) q`,
    /// `x[⌊h⌋] + (h - ⌊h⌋)(x[⌊h⌋ + 1] - x[⌊h⌋])`. NaN for an empty sample or `q`
    /// outside 0...1.
    static func quantile(sorted x: [Double], _ q: Double) -> Double {
        guard !x.isEmpty, q >= 0, q <= 1 else { return .nan }
        let h = Double(x.count - 1) * q
        let lo = Int(h.rounded(.down))
        guard lo + 1 < x.count else { return x[x.count - 1] }
        return x[lo] + (h - Double(lo)) * (x[lo + 1] - x[lo])
    }
}

/// The `p` quantile of the standard normal distribution, `p` in (0, 1): the root of
/// `Φ(z) = erfc(-z/√2)/2 = p`, by bisection on [-40, 40] to full double precision
/// (0.975 -> 1.959963984540054). NaN outside (0, 1).
func standardNormalQuantile(_ p: Double) -> Double {
    guard p > 0, p < 1 else { return .nan }
    var lo = -40.0, hi = 40.0
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if mid == lo || mid == hi { break }
        if erfc(-mid / 2.0.squareRoot()) / 2 < p { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
}
