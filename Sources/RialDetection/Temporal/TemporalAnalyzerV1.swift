import Foundation
import RialMedia

/// `temporal/1`: the deployed rial. backend's temporal depth check of a video's LiDAR
/// keyframes, reproduced exactly, flaws included (methods.md section 6, "temporal/1 —
/// the deployed backend check"; PRD 1.1 FR53). Constants are those of `Configuration`.
///
/// 1. Samples: keyframes `0, 10, 20, …` (every `sample_stride`-th: 1 fps of 10 fps
///    keyframes). Fewer than 2 -> `.unavailable`, never a throw.
/// 2. Per sample a 10-bin histogram of the depths in [0.1, 20] m (bins 1.99 m wide; a
///    depth equal to 20 falls in the last bin, non-finite and out-of-range depths in
///    none). Local consistency against the previous sample `Σ min(h1, h2) / min(Σ h1,
///    Σ h2)`; the first sample gets 1.0. Where the document is silent: a pair in which
///    one sample has no depth in range has consistency 0.
/// 3. Motion: the map is cut into 8x8 blocks (`floor(w / 8) x floor(h / 8)`, a partial
///    block at the right or bottom edge left out); a block's value is the mean of its
///    depths with `0.1 < d < 20` (a block without such a depth has none and is left out).
///    The blocks, in row-major order, are laid out on a grid of side
///    `floor(sqrt(blocks))` (the deployed bug: 32x24 = 768 blocks read as 27 wide, so
///    block `i` sits at `(i % 27, i / 27)`); the centroid weights each block by `1 /
///    value` (nearer blocks count more). The motion vector of two consecutive samples
///    is the centroid's displacement `(dx, dy) / (w / 8, h / 8)` (real division by the
///    true grid size); where a sample has no block, its vectors are `(0, 0)`.
/// 4. `depth_consistency` = mean local consistency (first sample's 1.0 included);
///    `motion_coherence` = mean over consecutive vector pairs of: both magnitudes below
///    0.01 -> 1.0, exactly one -> 0.5, else `(cos angle + 1) / 2`; fewer than 2 vectors
///    -> 1.0.
/// 5. `scene_stability` = `1 - unstable pairs / pairs`, where a pair is unstable when
///    its share of co-valid pixels (in [0.1, 20] m in both samples) whose depth changes
///    by more than 2.0 m exceeds 0.05 (no co-valid pixel: share 0).
/// 6. Suspicious samples: local consistency < 0.5, or the pair ending at it unstable.
///    Real = consistency >= 0.7 AND motion >= 0.6 AND stability >= 0.8 AND none
///    suspicious.
///
/// Known failure (methods.md): a perfectly flat video (uniform 0.5 m) scores 1.0 /
/// 1.0 / 1.0 and real. Nothing here looks at the shape of the depth: a screen or a print
/// filmed for 15 s passes. `temporal/2` is the sound version.
///
/// - Complexity: O(samples * w * h) time; two block arrays and two histograms of scratch.
public struct TemporalAnalyzerV1: Sendable, Equatable {
    /// `temporal/1`.
    public static let identifier = MethodIdentifier.temporalV1

    public let configuration: Configuration

    /// The deployed configuration.
    public init() {
        configuration = .reference
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The analysis of `keyframes`, untimed (`analyze(_:)` times it). Never throws.
    public func evaluate(_ keyframes: DepthKeyframes) -> Result {
        let c = configuration
        let indices = Array(stride(from: 0, to: keyframes.count, by: c.sampleStride))
        guard indices.count >= c.minSamples else {
            return Result(
                status: .unavailable,
                reason: "\(indices.count) sample(s) of \(keyframes.count) depth keyframe(s) at every "
                    + "\(c.sampleStride)th; temporal/1 needs at least \(c.minSamples)",
                keyframeCount: keyframes.count, sampleCount: indices.count)
        }
        let width = keyframes.width, height = keyframes.height
        let grid = BlockGrid(width: width, height: height, configuration: c)

        var consistency: [Double] = [1.0]
        var centroids: [(Double, Double)?] = []
        var jumps: [Double] = []
        var previousHistogram = [Int](repeating: 0, count: c.histogramBins)
        var histogram = previousHistogram
        var blocks = [Double](repeating: 0, count: grid.columns * grid.rows)
        var counts = [Int](repeating: 0, count: blocks.count)
        for (s, index) in indices.enumerated() {
            let metres = keyframes.frames[index].depth.metres
            metres.withUnsafeBufferPointer { d in
                Self.histogram(d, into: &histogram, configuration: c)
                centroids.append(grid.centroid(d, blocks: &blocks, counts: &counts))
                if s > 0 {
                    consistency.append(Self.intersection(previousHistogram, histogram))
                    keyframes.frames[indices[s - 1]].depth.metres.withUnsafeBufferPointer { p in
                        jumps.append(Self.jumpShare(previous: p, current: d, configuration: c))
                    }
                }
            }
            swap(&previousHistogram, &histogram)
        }

        var vectors: [(Double, Double)] = []
        for s in 1..<centroids.count {
            if let a = centroids[s - 1], let b = centroids[s] {
                vectors.append(((b.0 - a.0) / grid.normaliserX, (b.1 - a.1) / grid.normaliserY))
            } else {
                vectors.append((0, 0))
            }
        }
        let motion = Self.motionCoherence(vectors, staticBelow: c.staticMotion)
        let depthConsistency = consistency.reduce(0, +) / Double(consistency.count)
        let unstable = jumps.filter { $0 > c.jumpShare }.count
        let stability = 1 - Double(unstable) / Double(jumps.count)
        var suspicious: [Int] = []
        for s in 1..<indices.count where consistency[s] < c.suspiciousConsistency || jumps[s - 1] > c.jumpShare {
            suspicious.append(indices[s])
        }
        let isReal =
            depthConsistency >= c.minConsistency && motion >= c.minMotionCoherence && stability >= c.minStability
            && suspicious.isEmpty

        var result = Result(
            status: .completed, reason: nil, keyframeCount: keyframes.count, sampleCount: indices.count)
        result.score = Self.score(
            consistency: depthConsistency, motion: motion, stability: stability,
            suspiciousShare: Double(suspicious.count) / Double(jumps.count), configuration: c)
        result.sampleIndices = indices
        result.localConsistency = consistency
        result.depthConsistency = depthConsistency
        result.motionVectors = vectors.map { [$0.0, $0.1] }
        result.motionCoherence = motion
        result.jumpShares = jumps
        result.sceneStability = stability
        result.suspiciousFrames = suspicious
        result.blockGrid = [grid.columns, grid.rows]
        result.gridSide = grid.side
        result.isLikelyRealScene = isReal
        return result
    }

    /// The histogram of the depths in `[histogram_min_depth, histogram_max_depth]`,
    /// `histogram_bins` equal bins, the last one closed.
    static func histogram(_ d: UnsafeBufferPointer<Float>, into bins: inout [Int], configuration c: Configuration) {
        let lo = c.histogramMinDepth, hi = c.histogramMaxDepth, count = c.histogramBins
        let scale = Double(count) / (hi - lo)
        for i in bins.indices { bins[i] = 0 }
        bins.withUnsafeMutableBufferPointer { bins in
            for v in d {
                let x = Double(v)
                guard x >= lo && x <= hi else { continue }
                bins[Swift.min(count - 1, Int((x - lo) * scale))] += 1
            }
        }
    }

    /// `Σ min(a, b) / min(Σ a, Σ b)`; 0 when either histogram is empty.
    static func intersection(_ a: [Int], _ b: [Int]) -> Double {
        var common = 0, sumA = 0, sumB = 0
        for i in a.indices {
            common += Swift.min(a[i], b[i])
            sumA += a[i]
            sumB += b[i]
        }
        let denominator = Swift.min(sumA, sumB)
        return denominator > 0 ? Double(common) / Double(denominator) : 0
    }

    /// Share of the pixels valid in both maps (in the histogram range) whose depth
    /// changes by more than `jump_depth`; 0 without such pixels.
    static func jumpShare(
        previous: UnsafeBufferPointer<Float>, current: UnsafeBufferPointer<Float>, configuration c: Configuration
    ) -> Double {
        let lo = c.histogramMinDepth, hi = c.histogramMaxDepth
        var both = 0, jumping = 0
        for i in 0..<Swift.min(previous.count, current.count) {
            let a = Double(previous[i]), b = Double(current[i])
            guard a >= lo && a <= hi && b >= lo && b <= hi else { continue }
            both += 1
            if abs(b - a) > c.jumpDepth { jumping += 1 }
        }
        return both > 0 ? Double(jumping) / Double(both) : 0
    }

    /// Mean pair score of consecutive vectors (see the type's step 4).
    static func motionCoherence(_ vectors: [(Double, Double)], staticBelow limit: Double) -> Double {
        guard vectors.count >= 2 else { return 1.0 }
        var sum = 0.0
        for i in 1..<vectors.count {
            let a = vectors[i - 1], b = vectors[i]
            let ma = (a.0 * a.0 + a.1 * a.1).squareRoot(), mb = (b.0 * b.0 + b.1 * b.1).squareRoot()
            let stillA = ma < limit, stillB = mb < limit
            if stillA && stillB {
                sum += 1.0
            } else if stillA || stillB {
                sum += 0.5
            } else {
                let cosine = Swift.min(1, Swift.max(-1, (a.0 * b.0 + a.1 * b.1) / (ma * mb)))
                sum += (cosine + 1) / 2
            }
        }
        return sum / Double(vectors.count - 1)
    }

    /// The continuous margin of `Result.score`.
    static func score(
        consistency: Double, motion: Double, stability: Double, suspiciousShare: Double, configuration c: Configuration
    ) -> Double {
        func margin(_ value: Double, _ threshold: Double) -> Double {
            if value >= threshold { return threshold < 1 ? (value - threshold) / (1 - threshold) : 0 }
            return threshold > 0 ? (value - threshold) / threshold : 0
        }
        var q = Swift.min(
            margin(consistency, c.minConsistency), margin(motion, c.minMotionCoherence),
            margin(stability, c.minStability))
        if suspiciousShare > 0 { q = Swift.min(q, -suspiciousShare) }
        return Swift.min(1, Swift.max(0, (1 + q) / 2))
    }

    /// The block grid of the motion vector and its (buggy) layout.
    struct BlockGrid {
        let width: Int, height: Int, size: Int
        let columns: Int, rows: Int
        /// Width the block list is read with.
        let side: Int
        let normaliserX: Double, normaliserY: Double
        let lo: Float, hi: Float

        init(width: Int, height: Int, configuration c: Configuration) {
            self.width = width
            self.height = height
            size = c.blockSize
            columns = width / c.blockSize
            rows = height / c.blockSize
            let blocks = columns * rows
            side = c.gridSideBug ? Int(Double(blocks).squareRoot()) : columns
            normaliserX = Double(width) / Double(c.blockSize)
            normaliserY = Double(height) / Double(c.blockSize)
            lo = Float(c.motionMinDepth)
            hi = Float(c.motionMaxDepth)
        }

        /// The inverse-depth-weighted centroid of the block means, in block-grid units as
        /// the grid is read (`side` wide); nil without a block holding a valid depth.
        func centroid(_ d: UnsafeBufferPointer<Float>, blocks: inout [Double], counts: inout [Int]) -> (Double, Double)?
        {
            guard columns > 0, rows > 0, side > 0 else { return nil }
            for i in blocks.indices {
                blocks[i] = 0
                counts[i] = 0
            }
            blocks.withUnsafeMutableBufferPointer { sums in
                counts.withUnsafeMutableBufferPointer { counts in
                    for y in 0..<(rows * size) {
                        let row = y * width, blockRow = (y / size) * columns
                        for x in 0..<(columns * size) {
                            let v = d[row + x]
                            guard v > lo && v < hi else { continue }
                            let b = blockRow + x / size
                            sums[b] += Double(v)
                            counts[b] += 1
                        }
                    }
                }
            }
            var weight = 0.0, sx = 0.0, sy = 0.0
            for i in blocks.indices where counts[i] > 0 {
                let w = Double(counts[i]) / blocks[i] // 1 / mean
                weight += w
                sx += w * Double(i % side)
                sy += w * Double(i / side)
            }
            return weight > 0 ? (sx / weight, sy / weight) : nil
        }
    }
}
