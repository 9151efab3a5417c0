import Foundation

/// How `roc.csv` and `det.csv` write a long curve (`results.json` `curve_export`).
///
/// A curve of at most `fullPoints` points is written in full: scikit-learn's
/// `roc_curve(drop_intermediate=False)` and `det_curve`, point for point. A longer one (a
/// run of a million samples has curves of a million points, hundreds of MB of CSV that no
/// plot or reader needs) keeps its first and last points and, walking in file order from
/// the last point written `w`, the next point `i` whose rates moved by more than
/// `tolerance` times their distance to the nearer end of 0...1:
///
///     |x_i - x_w| > tolerance * min(x_w, 1 - x_w)   or   |y_i - y_w| > tolerance * min(y_w, 1 - y_w)
///
/// (`x`, `y`: false- and true-positive rate in `roc.csv`, APCER and BPCER in `det.csv`). So
/// every point left out lies within that distance of the written point before it, in both
/// rates: near 0 and 1 (the tails a DET plot and low-error operating points read) nothing
/// is dropped, and in the middle the written rates step by at most `tolerance / 2`. A curve
/// keeps about `4 (1 + ln(n tolerance / 2)) / tolerance` points at most (n its points):
/// under 8,000 for a million points at the default 0.005.
///
/// Tolerance 0 writes every point (`--full-curves`). The exact curves always remain
/// computable from `scores.csv`; `scripts/check-auc-sklearn.py` and
/// `scripts/check-det-sklearn.py` check a thinned curve against scikit-learn's full one by
/// this rule.
public struct CurveExport: Sendable, Equatable, Codable {
    /// Curves with at most this many points are written in full.
    public var fullPoints: Int
    /// The relative tolerance above (0: every point).
    public var tolerance: Double

    /// 10,000 points in full, then tolerance 0.005.
    public static let standard = CurveExport(fullPoints: 10_000, tolerance: 0.005)
    /// Every point of every curve.
    public static let full = CurveExport(fullPoints: 10_000, tolerance: 0)

    public init(fullPoints: Int, tolerance: Double) {
        self.fullPoints = fullPoints
        self.tolerance = tolerance
    }

    enum CodingKeys: String, CodingKey {
        case fullPoints = "full_points"
        case tolerance
    }

    /// The indices of the points of the curve `(x, y)` (equal lengths, in file order) that
    /// are written (see the type), increasing.
    public func kept(x: [Double], y: [Double]) -> [Int] {
        let n = min(x.count, y.count)
        guard n > fullPoints, tolerance > 0, n > 2 else { return Array(0..<n) }
        var kept = [0]
        var w = 0
        for i in 1..<(n - 1) {
            let xw = x[w], yw = y[w]
            if abs(x[i] - xw) > tolerance * min(xw, 1 - xw) || abs(y[i] - yw) > tolerance * min(yw, 1 - yw) {
                kept.append(i)
                w = i
            }
        }
        kept.append(n - 1)
        return kept
    }
}
