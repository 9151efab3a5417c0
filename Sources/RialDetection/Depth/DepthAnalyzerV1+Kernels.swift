import Foundation

extension DepthAnalyzerV1 {
    /// Number of peaks of `histogram` after box smoothing (see `DepthAnalyzerV1`).
    ///
    /// `s[i] = (Σ_{j = i-r...i+r} h'[j]) / window` with `r = window / 2` and
    /// `h'[j] = h[j]` inside the histogram, `h[i]` (the bin itself) beyond either end;
    /// threshold `t = thresholdFraction * max(s)`; bin `i` counts when `s[i] > t` and
    /// `s[i] > s[i-1]` (if `i > 0`) and `s[i] > s[i+1]` (if `i < bins - 1`).
    ///
    /// - Parameters:
    ///   - histogram: at least 2 bins.
    ///   - smoothingWindow: odd, >= 1.
    static func countLayers(histogram: [Int], smoothingWindow: Int, thresholdFraction: Double) -> Int {
        let bins = histogram.count
        let radius = smoothingWindow / 2
        var smoothed = [Double](repeating: 0, count: bins)
        for i in 0..<bins {
            var sum = 0.0
            for j in (i - radius)...(i + radius) {
                sum += Double(j >= 0 && j < bins ? histogram[j] : histogram[i])
            }
            smoothed[i] = sum / Double(smoothingWindow)
        }
        let threshold = thresholdFraction * (smoothed.max() ?? 0)
        var layers = 0
        for i in 0..<bins where smoothed[i] > threshold {
            let aboveLeft = i == 0 || smoothed[i] > smoothed[i - 1]
            let aboveRight = i == bins - 1 || smoothed[i] > smoothed[i + 1]
            if aboveLeft && aboveRight { layers += 1 }
        }
        return layers
    }

    /// Edge pixels and valid interior pixels (see `DepthAnalyzerV1`); both 0 when the
    /// map is narrower or shorter than 3 pixels.
    static func edgeCounts(
        _ pixels: UnsafeBufferPointer<Float>, width: Int, height: Int,
        configuration c: Configuration
    ) -> (edges: Int, validInterior: Int) {
        guard width >= 3, height >= 3 else { return (0, 0) }
        let lo = c.minValidDepth, hi = c.maxValidDepth
        let neighbourMin = c.gradientNeighbourMinDepth, edgeThreshold = c.edgeThreshold
        var edges = 0, validInterior = 0
        for y in 1..<(height - 1) {
            let row = y * width
            for x in 1..<(width - 1) {
                let i = row + x
                let centre = Double(pixels[i])
                guard centre >= lo && centre <= hi else { continue }
                validInterior += 1
                let left = Double(pixels[i - 1]), right = Double(pixels[i + 1])
                let up = Double(pixels[i - width]), down = Double(pixels[i + width])
                // `finite and > 0.1`: NaN fails `>`, +inf is excluded explicitly.
                let gx =
                    left.isFinite && right.isFinite && left > neighbourMin && right > neighbourMin
                    ? (right - left) / 2 : 0
                let gy =
                    up.isFinite && down.isFinite && up > neighbourMin && down > neighbourMin
                    ? (down - up) / 2 : 0
                if (gx * gx + gy * gy).squareRoot() > edgeThreshold { edges += 1 }
            }
        }
        return (edges, validInterior)
    }

    /// The continuous margin of `is_likely_real_scene`, in 0...1.
    ///
    /// Each criterion gets a term `m(z) = 1 / (1 + exp(-z))` of its signed, scaled
    /// distance `z` from its threshold (positive on the side that holds), nudged to
    /// `max(m, nextUp(0.5))` when the criterion holds and `min(m, 0.5)` when it does not,
    /// so that `m > 0.5` exactly when the criterion holds (`m(z)` alone rounds to 0.5 for
    /// |z| below about 1e-16, and equals 0.5 on an inclusive boundary):
    /// - std: `z = (std - 0.5) / scales.std`, holds when `std > 0.5`;
    /// - layers: `z = (layers - (3 - 0.5)) / scales.layers`, holds when `layers >= 3`;
    /// - coherence: `z = (coherence - 0.3) / scales.coherence`, holds when `> 0.3`;
    /// - not screen-like is `range >= 0.15 OR uniformity <= 0.85 OR mean outside
    ///   [0.2, 1.5]`, with terms `z = (range - 0.15) / scales.range`,
    ///   `z = (0.85 - uniformity) / scales.uniformity`,
    ///   `z = max(0.2 - mean, mean - 1.5) / scales.mean`.
    ///
    /// `margin = min(max(m_range, m_uniformity, m_mean), m_std, m_layers, m_coherence)`:
    /// a conjunction is a minimum and a disjunction a maximum, hence `margin > 0.5`
    /// exactly when `is_likely_real_scene`. It rises with each criterion's distance past
    /// its threshold and is capped by the weakest required criterion.
    static func margin(
        std: Double, layers: Int, coherence: Double, range: Double, uniformity: Double,
        mean: Double, configuration c: Configuration
    ) -> Double {
        let s = c.marginScales
        let notScreen = max(
            term((range - c.screenMaxRange) / s.range, holds: !(range < c.screenMaxRange)),
            term((c.screenMinUniformity - uniformity) / s.uniformity, holds: !(uniformity > c.screenMinUniformity)),
            term(
                max(c.screenMinMean - mean, mean - c.screenMaxMean) / s.mean,
                holds: !(c.screenMinMean <= mean && mean <= c.screenMaxMean)))
        let stdTerm = term((std - c.stdThreshold) / s.std, holds: std > c.stdThreshold)
        let layersTerm = term((Double(layers) - (Double(c.minLayers) - 0.5)) / s.layers, holds: layers >= c.minLayers)
        let coherenceTerm = term(
            (coherence - c.coherenceThreshold) / s.coherence, holds: coherence > c.coherenceThreshold)
        return min(notScreen, stdTerm, layersTerm, coherenceTerm)
    }

    /// `1 / (1 + exp(-z))`, kept above 0.5 when `holds` and at most 0.5 otherwise.
    static func term(_ z: Double, holds: Bool) -> Double {
        let logistic = 1 / (1 + exp(-z))
        return holds ? max(logistic, 0.5.nextUp) : min(logistic, 0.5)
    }
}
