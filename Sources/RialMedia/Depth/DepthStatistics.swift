/// Summary statistics of the valid pixels of a depth map, in metres.
///
/// Valid means finite (`DepthMap` stores invalid pixels as `NaN`; infinities are
/// treated as invalid too). With `n` valid values sorted ascending as `v[0] ... v[n-1]`:
/// - `median` is `v[n/2]` for odd `n` and `(v[n/2 - 1] + v[n/2]) / 2` for even `n`
///   (the `numpy.median` convention);
/// - `mean` is `Σv / n` and `std` the population standard deviation
///   `sqrt(Σ(v - mean)² / n)` (`numpy.std` with `ddof = 0`), both summed in `Double`;
/// - with no valid pixel, `validFraction` is 0 and every other statistic is `nil`.
public struct DepthStatistics: Sendable, Equatable, Codable {
    /// `width * height`.
    public var pixelCount: Int
    public var validCount: Int
    /// `validCount / pixelCount`, in 0...1.
    public var validFraction: Double
    public var min: Double?
    public var median: Double?
    public var max: Double?
    public var mean: Double?
    public var std: Double?

    enum CodingKeys: String, CodingKey {
        case pixelCount = "pixel_count"
        case validCount = "valid_count"
        case validFraction = "valid_fraction"
        case min, median, max, mean, std
    }

    /// Computes the statistics of `map`.
    ///
    /// - Complexity: O(n log n) for n valid pixels (a sorted copy of the valid values).
    public init(_ map: DepthMap) {
        let sorted = map.sortedValidValues()
        let n = sorted.count
        pixelCount = map.metres.count
        validCount = n
        validFraction = pixelCount > 0 ? Double(n) / Double(pixelCount) : 0
        guard n > 0 else {
            min = nil
            median = nil
            max = nil
            mean = nil
            std = nil
            return
        }
        min = Double(sorted[0])
        max = Double(sorted[n - 1])
        median = n % 2 == 1 ? Double(sorted[n / 2]) : (Double(sorted[n / 2 - 1]) + Double(sorted[n / 2])) / 2
        var sum = 0.0
        for v in sorted { sum += Double(v) }
        let average = sum / Double(n)
        var squares = 0.0
        for v in sorted {
            let d = Double(v) - average
            squares += d * d
        }
        mean = average
        std = (squares / Double(n)).squareRoot()
    }
}

extension DepthMap {
    /// Statistics of the valid pixels; see `DepthStatistics` for definitions.
    public func statistics() -> DepthStatistics { DepthStatistics(self) }

    /// Number of valid (finite) pixels.
    public var validCount: Int { metres.reduce(0) { $0 + ($1.isFinite ? 1 : 0) } }

    /// The `p`-th percentile of the valid values with linear interpolation between
    /// closest ranks (the default `numpy.percentile` method): position
    /// `p / 100 * (n - 1)` in the sorted values. `nil` when no pixel is valid.
    ///
    /// - Parameter p: 0...100; values outside are clamped.
    public func percentile(_ p: Double) -> Double? {
        Self.percentile(p, ofSorted: sortedValidValues())
    }

    /// The finite values, ascending.
    func sortedValidValues() -> [Float] {
        var values: [Float] = []
        values.reserveCapacity(metres.count)
        for v in metres where v.isFinite { values.append(v) }
        values.sort()
        return values
    }

    static func percentile(_ p: Double, ofSorted sorted: [Float]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let clamped = Swift.min(Swift.max(p.isNaN ? 0 : p, 0), 100)
        let position = clamped / 100 * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return Double(sorted[lower]) + (Double(sorted[upper]) - Double(sorted[lower])) * fraction
    }
}
