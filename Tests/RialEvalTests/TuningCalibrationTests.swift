import Foundation
import RialDetection
import Testing

@testable import RialEval

/// Platt and isotonic fits against hand calculations and scikit-learn 1.9.1's output
/// (`python3 scripts/check-tune-sklearn.py` checks many more cases directly).
@Suite struct TuningCalibrationTests {
    func plattParameters(_ c: ScoreCalibration?) -> (a: Double, b: Double) {
        guard case .platt(let a, let b) = c else { return (.nan, .nan) }
        return (a, b)
    }

    /// Separable: scores 0,0 (attacks) and 1,1 (bona fide). Targets: 1/(2+2) = 1/4 and
    /// (2+1)/(2+2) = 3/4. p(0) = 1/4, p(1) = 3/4 makes both gradient sums
    /// `Σ (t - p)` and `Σ s (t - p)` exactly 0, so b = log(3), a + b = log(1/3):
    /// a = -2 log 3 = -2.1972245773, b = 1.0986122887 (scikit-learn's L-BFGS stops at
    /// -2.1972284553, 1.0986146109).
    @Test func plattSeparableHandSolution() {
        let (a, b) = plattParameters(PlattCalibration.fit(scores: [0, 0, 1, 1], bonaFide: [false, false, true, true]))
        #expect(abs(a - -2 * log(3.0)) < 1e-9)
        #expect(abs(b - log(3.0)) < 1e-9)
    }

    /// All scores equal (0): only b matters; the optimum makes p the mean target:
    /// 2 bona fide (t = 3/4), 3 attacks (t = 1/5), mean (1.5 + 0.6) / 5 = 0.42,
    /// b = log(0.58 / 0.42) = 0.3227733923 (scikit-learn: a 0, b 0.3227733921).
    @Test func plattConstantScores() {
        let (a, b) = plattParameters(
            PlattCalibration.fit(scores: [0, 0, 0, 0, 0], bonaFide: [true, true, false, false, false]))
        #expect(a == 0)
        #expect(abs(b - log(0.58 / 0.42)) < 1e-9)
    }

    /// Non-separable: the gradient of the smoothed cross-entropy, computed here from
    /// its formula, is ~0 at the fit; scikit-learn 1.9.1 gives a -3.1886539992,
    /// b 1.6457553539.
    @Test func plattNonSeparableGradientAndSklearn() {
        let s: [Double] = [0, 0.5, 1, 0.5, 0.2, 0.9]
        let y = [false, false, true, true, false, true]
        let (a, b) = plattParameters(PlattCalibration.fit(scores: s, bonaFide: y))
        let t = y.map { $0 ? 4.0 / 5 : 1.0 / 5 } // 3 bona fide: 4/5; 3 attacks: 1/5
        var ga = 0.0, gb = 0.0
        for i in s.indices {
            let p = 1 / (1 + exp(a * s[i] + b))
            ga += s[i] * (t[i] - p)
            gb += t[i] - p
        }
        #expect(abs(ga) < 1e-9 && abs(gb) < 1e-9)
        #expect(abs(a - -3.1886539992) < 1e-4)
        #expect(abs(b - 1.6457553539) < 1e-4)
    }

    @Test func plattOfNothingIsNil() {
        #expect(PlattCalibration.fit(scores: [], bonaFide: []) == nil)
    }

    /// By hand: [1, 3, 2, 4, 3.5] -> 3 and 2 pool to 2.5, 4 and 3.5 to 3.75.
    @Test func poolAdjacentViolatorsFivePoints() {
        let fitted = IsotonicCalibration.poolAdjacentViolators([1, 3, 2, 4, 3.5], weights: [1, 1, 1, 1, 1])
        #expect(fitted == [1, 2.5, 2.5, 3.75, 3.75])
    }

    /// Weighted, with a cascade: 3 (w 1) and 1 (w 1) pool to 2 (w 2); that equals the next
    /// value 2 (w 2), and equal neighbours pool too: (2·2 + 2·2) / 4 = 2.
    @Test func poolAdjacentViolatorsWeightedCascade() {
        #expect(IsotonicCalibration.poolAdjacentViolators([3, 1, 2], weights: [1, 1, 2]) == [2, 2, 2])
        #expect(
            IsotonicCalibration.poolAdjacentViolators([5, 4, 3, 2], weights: [1, 1, 1, 1]) == [3.5, 3.5, 3.5, 3.5])
    }

    /// Tied x averaged first: 0.2 holds one bona fide and one attack (0.5, weight 2); then
    /// 0, 0.5 (w2), 0 -> 0.5 and 0 pool to 1/3; 1, 1 pool to 1. No interior point equals
    /// both neighbours, so all five stay (scikit-learn: X_thresholds_ [0.1 ... 0.5],
    /// y_thresholds_ [0, 1/3, 1/3, 1, 1]).
    @Test func isotonicWithTies() {
        let c = IsotonicCalibration.fit(
            scores: [0.1, 0.2, 0.2, 0.3, 0.4, 0.5], bonaFide: [false, true, false, false, true, true])
        guard case .isotonic(let x, let y) = c else {
            Issue.record("not isotonic")
            return
        }
        #expect(x == [0.1, 0.2, 0.3, 0.4, 0.5])
        #expect(y.count == 5)
        #expect(y[0] == 0 && abs(y[1] - 1.0 / 3) < 1e-15 && abs(y[2] - 1.0 / 3) < 1e-15 && y[3] == 1 && y[4] == 1)
        // Linear between points, clipped outside.
        #expect(abs(c!.apply(0.35) - (1.0 / 3 + 0.5 * (2.0 / 3))) < 1e-12)
        #expect(c!.apply(-5) == 0 && c!.apply(5) == 1)
    }

    /// Scores closer than 1e-15 are one point (scikit-learn's `_make_unique`): 0.1 and the
    /// next double after it (1.4e-17 apart) pool to y 0.5 at x 0.1.
    @Test func isotonicMergesScoresWithinResolution() {
        let c = IsotonicCalibration.fit(scores: [0.1, 0.1.nextUp, 0.3], bonaFide: [false, true, true])
        #expect(c == .isotonic(x: [0.1, 0.3], y: [0.5, 1]))
    }

    /// Runs of equal fitted values keep only their ends.
    @Test func isotonicTrimsInteriorDuplicates() {
        let c = IsotonicCalibration.fit(scores: [1, 2, 3, 4, 5], bonaFide: [false, false, false, true, true])
        #expect(c == .isotonic(x: [1, 3, 4, 5], y: [0, 0, 1, 1]))
    }
}
