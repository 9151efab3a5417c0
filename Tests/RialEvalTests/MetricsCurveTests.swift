import Foundation
import Testing

@testable import RialEval

/// ROC, precision-recall and EER on sklearn's documented example and hand-calculated
/// cases with ties and degenerate input.
@Suite struct MetricsCurveTests {
    /// sklearn's `roc_curve` / `average_precision_score` docstring example:
    /// y = [0, 0, 1, 1], s = [0.1, 0.4, 0.35, 0.8].
    static let exampleScores = [0.1, 0.4, 0.35, 0.8]
    static let exampleTruth = [false, false, true, true]

    @Test func sklearnDocumentedExample() {
        let curve = ROCCurve(scores: Self.exampleScores, bonaFide: Self.exampleTruth)
        #expect(curve.falsePositiveRates == [0, 0, 0.5, 0.5, 1])
        #expect(curve.truePositiveRates == [0, 0.5, 0.5, 1, 1])
        #expect(curve.thresholds == [.infinity, 0.8, 0.4, 0.35, 0.1])
        #expect(curve.falsePositives == [0, 0, 1, 1, 2])
        #expect(curve.truePositives == [0, 1, 1, 2, 2])
        #expect(curve.auc == 0.75)
        #expect(curve.warnings.isEmpty)
        // Every point is a corner: sklearn's default drops nothing here.
        #expect(curve.droppingIntermediatePoints() == curve)

        let pr = PrecisionRecallCurve(scores: Self.exampleScores, bonaFide: Self.exampleTruth)
        // Descending thresholds: 0.8 -> P 1, R 0.5; 0.4 -> 1/2, 1/2; 0.35 -> 2/3, 1; 0.1 -> 1/2, 1.
        #expect(pr.thresholds == [0.1, 0.35, 0.4, 0.8])
        #expect(zip(pr.precision, [0.5, 2.0 / 3, 0.5, 1, 1]).allSatisfy { abs($0 - $1) < 1e-15 })
        #expect(pr.recall == [1, 1, 0.5, 0.5, 0])
        // AP = 0.5 * 1 + 0.5 * 2/3 = 5/6 = 0.8333.
        #expect(abs(pr.averagePrecision - 5.0 / 6) < 1e-15)

        // FPR 0.5 = FNR 0.5 exactly at the 0.4 point.
        let eer = EqualErrorRate(curve: curve)
        #expect(eer == EqualErrorRate(rate: 0.5, threshold: 0.4))
    }

    /// Bona fide {0.9, 0.5}, attacks {0.5, 0.1}: the tie at 0.5 is one threshold and a
    /// diagonal segment (the tied pair counts half): AUC = (1 + 1 + 0.5 + 1) / 4.
    @Test func tiesFormOneThresholdAndCountHalf() {
        let curve = ROCCurve(scores: [0.9, 0.5, 0.5, 0.1], bonaFide: [true, false, true, false])
        #expect(curve.thresholds == [.infinity, 0.9, 0.5, 0.1])
        #expect(curve.falsePositiveRates == [0, 0, 0.5, 1])
        #expect(curve.truePositiveRates == [0, 0.5, 1, 1])
        #expect(curve.auc == 0.875)
        // The crossing lies on the diagonal segment (0, 0.5) -> (0.5, 1) at alpha 0.5:
        // FPR = FNR = 0.25, threshold 0.9 + 0.5 (0.5 - 0.9) = 0.7.
        let eer = EqualErrorRate(curve: curve)
        #expect(abs(eer.rate - 0.25) < 1e-15)
        #expect(abs(eer.threshold - 0.7) < 1e-15)
        // 0.9: P 1, R 1/2; 0.5: P 2/3, R 1 -> AP = 1/2 + 1/2 * 2/3.
        #expect(
            abs(
                PrecisionRecallCurve.averagePrecision(
                    scores: [0.9, 0.5, 0.5, 0.1],
                    bonaFide: [true, false, true, false]) - 5.0 / 6) < 1e-15)
    }

    @Test func eerInterpolatesInsideTheCrossingSegment() {
        // Bona fide 0.9, 0.7; attacks 0.8, 0.5, 0.4. (FPR, FNR): +inf (0, 1), 0.9 (0, 1/2),
        // 0.8 (1/3, 1/2), 0.7 (1/3, 0): the crossing is on the vertical segment 0.8 -> 0.7,
        // d = 1/6 then -1/3, alpha = 1/3: EER 1/3, threshold 0.8 - 0.1/3.
        let vertical = EqualErrorRate(scores: [0.9, 0.8, 0.7, 0.5, 0.4], bonaFide: [true, false, true, false, false])
        #expect(abs(vertical.rate - 1.0 / 3) < 1e-15)
        #expect(abs(vertical.threshold - (0.8 - 0.1 / 3)) < 1e-15)
        // Bona fide 0.9, 0.5; attacks 0.5, 0.5, 0.1: 0.9 (0, 1/2), tied block 0.5 (2/3, 0).
        // d = 1/2 then -2/3, alpha = 3/7: EER = 3/7 * 2/3 = 2/7, threshold 0.9 - 3/7 * 0.4.
        let diagonal = EqualErrorRate(scores: [0.9, 0.5, 0.5, 0.5, 0.1], bonaFide: [true, true, false, false, false])
        #expect(abs(diagonal.rate - 2.0 / 7) < 1e-15)
        #expect(abs(diagonal.threshold - (0.9 - 3.0 / 7 * 0.4)) < 1e-15)
    }

    @Test func allTiedScoresGiveTheDiagonal() {
        let truth = [true, false, true, false, false]
        let curve = ROCCurve(scores: Array(repeating: 0.5, count: 5), bonaFide: truth)
        #expect(curve.thresholds == [.infinity, 0.5])
        #expect(curve.falsePositiveRates == [0, 1])
        #expect(curve.truePositiveRates == [0, 1])
        #expect(curve.auc == 0.5)
        #expect(EqualErrorRate(curve: curve) == EqualErrorRate(rate: 0.5, threshold: 0.5))
        // One threshold: precision 2/5 at recall 1.
        #expect(PrecisionRecallCurve.averagePrecision(scores: Array(repeating: 0.5, count: 5), bonaFide: truth) == 0.4)
    }

    @Test func perfectAndInvertedSeparation() {
        let perfect = ROCCurve(scores: [0.9, 0.8, 0.2, 0.1], bonaFide: [true, true, false, false])
        #expect(perfect.auc == 1)
        // (0, 0) -> (0, 0.5) -> (0, 1): FPR = FNR = 0 first at threshold 0.8.
        #expect(EqualErrorRate(curve: perfect) == EqualErrorRate(rate: 0, threshold: 0.8))
        let inverted = ROCCurve(scores: [0.1, 0.2, 0.8, 0.9], bonaFide: [true, true, false, false])
        #expect(inverted.auc == 0)
        #expect(EqualErrorRate(curve: inverted) == EqualErrorRate(rate: 1, threshold: 0.8))
    }

    /// Points on a straight run are dropped for plotting, corners kept (sklearn default).
    @Test func droppingIntermediatePointsKeepsCornersAndArea() {
        // Descending: 0.9 P, 0.8 P, 0.7 P, 0.6 N, 0.5 N -> tps 1 2 3 3 3, fps 0 0 0 1 2.
        let curve = ROCCurve(scores: [0.9, 0.8, 0.7, 0.6, 0.5], bonaFide: [true, true, true, false, false])
        let dropped = curve.droppingIntermediatePoints()
        // Second differences: at 0.8 (0, 0) -> dropped; at 0.7 (1, -1) -> kept; at 0.6 (0, 0) -> dropped.
        #expect(dropped.thresholds == [.infinity, 0.9, 0.7, 0.5])
        #expect(dropped.falsePositiveRates == [0, 0, 0, 1])
        #expect(dropped.truePositiveRates == [0, 1.0 / 3, 1, 1])
        #expect(dropped.auc == 1)
        #expect(EqualErrorRate(curve: dropped).rate == EqualErrorRate(curve: curve).rate)
    }

    @Test func missingAttackClassGivesNaNAndAWarning() {
        let curve = ROCCurve(scores: [0.2, 0.7, 0.7], bonaFide: [true, true, true])
        #expect(curve.auc.isNaN)
        #expect(curve.falsePositiveRates.allSatisfy { $0.isNaN })
        #expect(curve.truePositiveRates == [0, 2.0 / 3, 1])
        #expect(curve.warnings == [.noAttack])
        #expect(EqualErrorRate(curve: curve).rate.isNaN)
        // sklearn: no negatives -> precision 1 everywhere -> AP 1.
        let pr = PrecisionRecallCurve(scores: [0.2, 0.7, 0.7], bonaFide: [true, true, true])
        #expect(pr.averagePrecision == 1)
        #expect(pr.warnings == [.noAttack])
    }

    @Test func missingBonaFideClassGivesNaNAndAWarning() {
        let curve = ROCCurve(scores: [0.1, 0.2, 0.3], bonaFide: [false, false, false])
        #expect(curve.auc.isNaN)
        #expect(curve.truePositiveRates.allSatisfy { $0.isNaN })
        #expect(curve.falsePositiveRates == [0, 1.0 / 3, 2.0 / 3, 1])
        #expect(curve.thresholds == [.infinity, 0.3, 0.2, 0.1])
        #expect(curve.warnings == [.noBonaFide])
        // sklearn: no positives -> recall set to 1, AP = 0 (with a warning).
        let pr = PrecisionRecallCurve(scores: [0.1, 0.2, 0.3], bonaFide: [false, false, false])
        #expect(pr.recall == [1, 1, 1, 0])
        #expect(pr.averagePrecision == 0)
        #expect(pr.warnings == [.noBonaFide])
    }

    @Test func emptyInputGivesNaNWithoutTrapping() {
        let curve = ROCCurve(scores: [], bonaFide: [])
        #expect(curve.auc.isNaN)
        #expect(curve.thresholds == [.infinity])
        #expect(curve.warnings == [.empty])
        #expect(curve.droppingIntermediatePoints().thresholds == [.infinity])
        #expect(EqualErrorRate(curve: curve).rate.isNaN)
        let pr = PrecisionRecallCurve(scores: [], bonaFide: [], dropIntermediate: true)
        #expect(pr.averagePrecision.isNaN)
        #expect(pr.precision == [1])
        #expect(pr.recall == [0])
        #expect(pr.thresholds.isEmpty)
    }

    @Test func nonFiniteScoresAreExcludedAndCounted() {
        let curve = ROCCurve(
            scores: Self.exampleScores + [.nan, .infinity, -.infinity],
            bonaFide: Self.exampleTruth + [true, false, true])
        #expect(curve.auc == 0.75)
        #expect(curve.thresholds == [.infinity, 0.8, 0.4, 0.35, 0.1])
        #expect(curve.excludedCount == 3)
        #expect(curve.warnings == [.nonFiniteScoresExcluded])
        let allNaN = ROCCurve(scores: [.nan, .nan], bonaFide: [true, false])
        #expect(allNaN.auc.isNaN)
        #expect(allNaN.warnings == [.nonFiniteScoresExcluded, .empty])
    }

    @Test func lengthMismatchUsesTheCommonPrefix() {
        let curve = ROCCurve(scores: Self.exampleScores + [0.99], bonaFide: Self.exampleTruth)
        #expect(curve.auc == 0.75)
        #expect(curve.warnings == [.lengthMismatch])
    }

    @Test func samplesInitialiserUsesScoreAndTruth() {
        let samples = zip(Self.exampleScores, Self.exampleTruth).enumerated().map { i, pair in
            ScoredSample(id: "s\(i)", score: pair.0, bonaFide: pair.1, species: pair.1 ? "real_scene" : "lcd_screen")
        }
        #expect(ROCCurve(samples: samples).auc == 0.75)
        #expect(abs(PrecisionRecallCurve(samples: samples).averagePrecision - 5.0 / 6) < 1e-15)
    }

    /// sklearn `precision_recall_curve(drop_intermediate=True)`: of a run of equal true
    /// positives keep the first and the last threshold.
    @Test func precisionRecallDropIntermediate() {
        // Descending: 0.9 P (tp 1), 0.8 N (1), 0.7 N (1), 0.6 N (1), 0.5 P (2).
        let pr = PrecisionRecallCurve(
            scores: [0.9, 0.8, 0.7, 0.6, 0.5], bonaFide: [true, false, false, false, true],
            dropIntermediate: true)
        // tps 1 1 1 1 2: 0.8 and 0.7 have the same tps on both sides -> dropped; 0.6 kept
        // (the next differs). Same as sklearn 1.9.1 on this input.
        #expect(pr.thresholds == [0.5, 0.6, 0.9])
        #expect(pr.recall == [1, 0.5, 0.5, 0])
        #expect(zip(pr.precision, [0.4, 0.25, 1, 1]).allSatisfy { abs($0 - $1) < 1e-15 })
        // AP from the full curve: 0.5 * 1 + 0.5 * 0.4.
        #expect(abs(pr.averagePrecision - 0.7) < 1e-15)
    }
}
