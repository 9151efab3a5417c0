import RialDetection

/// Isotonic (increasing) regression of the bona fide indicator on a raw score, as
/// scikit-learn's `IsotonicRegression(increasing=True, out_of_bounds="clip")` fits it
/// (what `CalibratedClassifierCV(method="isotonic")` uses):
/// 1. Sort by score; samples whose score is within `1e-15` of the first score of a run
///    (`np.finfo(float64).resolution`, `_make_unique`'s rule) are one point: its x is
///    that first score, its y the mean truth (1 bona fide, 0 attack), its weight the count.
/// 2. Pool adjacent violators on those points with their weights: a block whose mean is
///    not below the next block's is merged with it (weighted mean), repeatedly, until
///    the means strictly increase. The result is the unique weighted least-squares
///    non-decreasing fit.
/// 3. Interior points whose y equals both neighbours' are dropped (`trim_duplicates`);
///    they change no interpolated value.
/// The result is `ScoreCalibration.isotonic(x:y:)`: linear interpolation between the
/// points, constant beyond the ends.
public enum IsotonicCalibration {
    /// The fit of `scores` (finite) with truth `bonaFide`; nil without any sample.
    public static func fit(scores: [Double], bonaFide: [Bool]) -> ScoreCalibration? {
        let n = min(scores.count, bonaFide.count)
        guard n > 0 else { return nil }
        let order = (0..<n).sorted { scores[$0] < scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }
        var xs: [Double] = [], sums: [Double] = [], weights: [Double] = []
        for i in order {
            let s = scores[i], y = bonaFide[i] ? 1.0 : 0.0
            if let current = xs.last, s - current < 1e-15 {
                sums[sums.count - 1] += y
                weights[weights.count - 1] += 1
            } else {
                xs.append(s)
                sums.append(y)
                weights.append(1)
            }
        }
        let fitted = poolAdjacentViolators(sums.indices.map { sums[$0] / weights[$0] }, weights: weights)
        var keptX: [Double] = [], keptY: [Double] = []
        for i in fitted.indices {
            let interior = i > 0 && i < fitted.count - 1
            if interior && fitted[i] == fitted[i - 1] && fitted[i] == fitted[i + 1] { continue }
            keptX.append(xs[i])
            keptY.append(Swift.min(Swift.max(fitted[i], 0), 1))
        }
        return .isotonic(x: keptX, y: keptY)
    }

    /// The weighted non-decreasing least-squares fit of `y` (pool adjacent violators), in
    /// the order and arithmetic of scikit-learn's `_inplace_contiguous_isotonic_regression`
    /// so that pooled means agree to the last bit (trimming compares them for equality):
    /// from block `i`, a whole non-increasing run of following blocks is pooled at once
    /// (`Σ w y / Σ w`, each block entering as `w · mean`), then the scan steps back to the
    /// previous block; blocks are linked by their first and last index.
    ///
    /// - Complexity: O(n).
    public static func poolAdjacentViolators(_ values: [Double], weights: [Double]) -> [Double] {
        var y = values, w = weights
        let n = y.count
        // target[first] = last index of the block, target[last] = its first index.
        var target = Array(0..<n)
        var i = 0
        while i < n {
            var k = target[i] + 1
            if k == n { break }
            if y[i] < y[k] {
                i = k
                continue
            }
            var sumWY = w[i] * y[i], sumW = w[i]
            while true {
                let previous = y[k]
                sumWY += w[k] * y[k]
                sumW += w[k]
                k = target[k] + 1
                if k == n || previous < y[k] {
                    y[i] = sumWY / sumW
                    w[i] = sumW
                    target[i] = k - 1
                    target[k - 1] = i
                    if i > 0 { i = target[i - 1] }
                    break
                }
            }
        }
        i = 0
        while i < n {
            let k = target[i] + 1
            for j in (i + 1)..<k { y[j] = y[i] }
            i = k
        }
        return y
    }
}
