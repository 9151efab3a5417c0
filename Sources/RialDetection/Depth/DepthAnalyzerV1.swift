import Foundation
import RialMedia

/// `depth/1`: the deployed rial. backend's LiDAR depth analysis, reproduced exactly so
/// its ROC can be measured (specs/methods.md section 1). Constants are those of
/// `Configuration.reference`; names below refer to its fields.
///
/// With the valid pixels `v` (finite and `0.1 <= d <= 20`), `n = |v|`:
/// - `coverage = n / (width * height)`; `n == 0` -> `.unavailable`, never a throw.
/// - `depth_variance` = population std `sqrt(Σ(v - mean)² / n)`, and min, max, mean.
/// - `depth_layers`: histogram `h` of 50 bins over [min, max], bin
///   `Int((d - min) / (max - min) * 50)` clamped to 49; box smoothing over 3 bins where
///   a neighbour beyond either end is replaced by the bin itself, i.e.
///   `s[0] = (h[0] + h[0] + h[1]) / 3`, `s[i] = (h[i-1] + h[i] + h[i+1]) / 3`,
///   `s[49] = (h[48] + h[49] + h[49]) / 3` (our reading of "edges reuse the bin itself";
///   the other reading, `s[0] = h[0]`, gives the same layer count on both real fixtures);
///   `t = 0.05 * max(s)`; bin `i` is a peak when `s[i] > t` and `s[i]` is strictly
///   greater than each neighbour that exists. `max <= min` gives 0 layers.
/// - `edge_coherence`: over interior pixels (`1...w-2`, `1...h-2`) with a valid centre,
///   `gx = (right - left) / 2` when both neighbours are finite and `> 0.1` (NOT the valid
///   range: a 25 m neighbour counts), else 0; `gy` likewise with the pixels above and
///   below; edge when `sqrt(gx² + gy²) > 0.1`; `ratio = edges / valid interior pixels`
///   (0 when there is none, e.g. maps narrower or shorter than 3 pixels);
///   `coherence = clamp(1 - exp(-30 ratio), 0, 1)`.
/// - screen pattern: `range = max - min`, `median = sorted(v)[n / 2]`,
///   `uniformity = |{d : |d - median| <= 0.05}| / n` ("within" read as inclusive);
///   screen-like when `range < 0.15 AND uniformity > 0.85 AND 0.2 <= mean <= 1.5`.
/// - quadrant check: advisory only, see `QuadrantCheck`.
/// - `is_likely_real_scene = NOT screen-like AND std > 0.5 AND layers >= 3 AND
///   coherence > 0.3`; score and margin as documented on `Result`.
///
/// Arithmetic is in `Double` on the `Float` depths, comparisons exactly as written
/// (strict where the spec says "greater"/"less", inclusive for ranges). In the
/// reference range every valid depth is a multiple of 2^-27 below 2^5, so the `Double`
/// sum of up to 2^21 depths is exact and the mean is correctly rounded: a constant
/// map has std exactly 0.
///
/// - Complexity: O(n) time: three passes over the map and an expected-linear
///   selection for the median; one scratch copy of the valid depths.
public struct DepthAnalyzerV1: Sendable, Equatable {
    /// `depth/1`.
    public static let identifier = MethodIdentifier.depthV1

    public let configuration: Configuration

    /// The reference configuration.
    public init() {
        configuration = .reference
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The analysis of `map`, untimed (`analyze(_:)` times it). Never throws: bad pixels
    /// are invalid, a map without valid pixel is `.unavailable`.
    public func evaluate(_ map: DepthMap) -> Result {
        let width = map.width, height = map.height, total = width * height
        let c = configuration
        return map.metres.withUnsafeBufferPointer { pixels -> Result in
            var scratch = [Float](repeating: 0, count: total)
            return scratch.withUnsafeMutableBufferPointer { scratch -> Result in
                evaluate(pixels, width: width, height: height, scratch: scratch, configuration: c)
            }
        }
    }

    private func evaluate(
        _ pixels: UnsafeBufferPointer<Float>, width: Int, height: Int,
        scratch: UnsafeMutableBufferPointer<Float>, configuration c: Configuration
    ) -> Result {
        let total = width * height
        let lo = c.minValidDepth, hi = c.maxValidDepth
        // Quadrants: top-left, top-right, bottom-left, bottom-right.
        let midRow = height / 2, midColumn = width / 2
        let rows = [0..<midRow, 0..<midRow, midRow..<height, midRow..<height]
        let columns = [0..<midColumn, midColumn..<width, 0..<midColumn, midColumn..<width]

        // Pass 1: copy the valid depths, count, sum, min, max (overall and per quadrant).
        var n = 0
        var minDepth = Double.infinity, maxDepth = -Double.infinity
        var quadrantCount = [Int](repeating: 0, count: 4)
        var quadrantSum = [Double](repeating: 0, count: 4)
        for q in 0..<4 {
            var count = 0, sum = 0.0
            for y in rows[q] {
                let row = y * width
                for x in columns[q] {
                    let d = Double(pixels[row + x])
                    if d >= lo && d <= hi {
                        scratch[n + count] = pixels[row + x]
                        count += 1
                        sum += d
                        if d < minDepth { minDepth = d }
                        if d > maxDepth { maxDepth = d }
                    }
                }
            }
            quadrantCount[q] = count
            quadrantSum[q] = sum
            n += count
        }
        let coverage = Double(n) / Double(total)
        guard n > 0 else {
            return .unavailable(
                reason: "no valid depth pixel: all \(total) pixels are non-finite or outside "
                    + "\(lo)...\(hi) m", coverage: coverage)
        }
        let sum = quadrantSum[0] + quadrantSum[1] + quadrantSum[2] + quadrantSum[3]
        let mean = sum / Double(n)
        let valid = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])

        // Pass 2 over the valid depths: squared deviations and the histogram.
        let bins = c.histogramBins
        var histogram = [Int](repeating: 0, count: bins)
        var squares = 0.0
        let span = maxDepth - minDepth
        let lastBin = bins - 1
        histogram.withUnsafeMutableBufferPointer { histogram in
            for v in valid {
                let d = Double(v)
                let deviation = d - mean
                squares += deviation * deviation
                if span > 0 {
                    let bin = Int((d - minDepth) / span * Double(bins))
                    histogram[bin < lastBin ? bin : lastBin] += 1
                }
            }
        }
        let std = (squares / Double(n)).squareRoot()
        let layers =
            span > 0
            ? Self.countLayers(
                histogram: histogram, smoothingWindow: c.smoothingWindow,
                thresholdFraction: c.peakThresholdFraction)
            : 0

        // Quadrant stds (valid depths of quadrant q are stored contiguously, in order).
        var quadrantStds: [Double?] = []
        var start = 0
        for q in 0..<4 {
            let count = quadrantCount[q]
            defer { start += count }
            guard count >= c.quadrantMinValid else {
                quadrantStds.append(nil)
                continue
            }
            let quadrantMean = quadrantSum[q] / Double(count)
            var quadrantSquares = 0.0
            for i in start..<(start + count) {
                let deviation = Double(valid[i]) - quadrantMean
                quadrantSquares += deviation * deviation
            }
            quadrantStds.append((quadrantSquares / Double(count)).squareRoot())
        }
        let presentStds = quadrantStds.compactMap { $0 }
        let quadrantPasses = presentStds.min().map { $0 > c.quadrantStdThreshold } ?? false

        // Pass 3: edges.
        let edges = Self.edgeCounts(pixels, width: width, height: height, configuration: c)
        let edgeRatio = edges.validInterior > 0 ? Double(edges.edges) / Double(edges.validInterior) : 0
        let edgeCoherence = Swift.min(Swift.max(1 - exp(-c.coherenceExpFactor * edgeRatio), 0), 1)

        // Screen pattern: the median is sorted[n / 2], found by selection.
        let median = Double(OrderStatistics.select(UnsafeBufferPointer(valid), k: n / 2))
        var near = 0
        for v in valid where abs(Double(v) - median) <= c.uniformityBand { near += 1 }
        let uniformity = Double(near) / Double(n)
        let range = maxDepth - minDepth
        let isScreen =
            range < c.screenMaxRange && uniformity > c.screenMinUniformity
            && c.screenMinMean <= mean && mean <= c.screenMaxMean

        let isReal =
            !isScreen && std > c.stdThreshold && layers >= c.minLayers
            && edgeCoherence > c.coherenceThreshold
        let score =
            isReal
            ? c.realScore
            : (std < c.flatMaxStd && layers <= c.flatMaxLayers ? c.flatScore : c.notRealScore)
        let margin = Self.margin(
            std: std, layers: layers, coherence: edgeCoherence, range: range,
            uniformity: uniformity, mean: mean, configuration: c)

        return Result(
            status: .completed, unavailableReason: nil, algorithmVersion: Self.identifier, analysisTimeMs: 0,
            score: score, margin: margin, depthVariance: std, minDepth: minDepth, maxDepth: maxDepth,
            meanDepth: mean, medianDepth: median, depthRange: range, coverage: coverage, depthLayers: layers,
            edgeRatio: edgeRatio, edgeCoherence: edgeCoherence, uniformity: uniformity, isScreenPattern: isScreen,
            quadrantCheck: QuadrantCheck(quadrantStds: quadrantStds, passes: quadrantPasses),
            isLikelyRealScene: isReal)
    }
}
