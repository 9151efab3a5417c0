import Foundation
import Testing

@testable import RialEval

/// Cross-checks against scikit-learn 1.9.1 on seeded random data with ties. The literals
/// below are the output of `python3 scripts/check-metrics-sklearn.py` (each case also
/// shows the equivalent one-line Python command); run it to regenerate them.
@Suite struct MetricsSklearnTests {
    enum Reference {
        // scikit-learn 1.9.1, numpy 2.4.6
        // case ties30: python3 -c 'import numpy as np; from sklearn.metrics import roc_curve,roc_auc_score,average_precision_score as ap; r=np.random.default_rng(7); a=r.random(30); y=(r.random(30)<0.4).astype(int); s=np.round(np.clip(a+0.0*y,0,1),1); print(roc_curve(y,s,drop_intermediate=False), roc_auc_score(y,s), ap(y,s))'
        static let ties30Scores: [Double] = [
            0.6, 0.9, 0.8, 0.2, 0.3, 0.9, 0.0, 0.8, 0.8, 0.5, 0.3, 0.3, 0.3, 0.4, 0.5, 0.6, 1.0, 0.8, 0.6, 1.0, 0.2,
            0.2, 0.6, 0.0, 0.0, 0.5, 0.5, 0.9, 0.6, 0.5,
        ]
        static let ties30BonaFide: [Bool] = [
            false, true, true, true, false, true, true, true, false, true, true, false, false, false, false, false,
            true, false, false, false, true, false, true, true, true, true, false, true, false, false,
        ]
        static let ties30FPR: [Double] = [
            0.0, 0.06666666666666667, 0.06666666666666667, 0.2, 0.4666666666666667, 0.6666666666666666,
            0.7333333333333333, 0.9333333333333333, 1.0, 1.0,
        ]
        static let ties30TPR: [Double] = [
            0.0, 0.06666666666666667, 0.26666666666666666, 0.4, 0.4666666666666667, 0.6, 0.6, 0.6666666666666666, 0.8,
            1.0,
        ]
        static let ties30Thresholds: [Double] = [Double.infinity, 1.0, 0.9, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.0]
        static let ties30DroppedFPR: [Double] = [
            0.0, 0.06666666666666667, 0.06666666666666667, 0.2, 0.4666666666666667, 0.6666666666666666,
            0.7333333333333333, 0.9333333333333333, 1.0, 1.0,
        ]
        static let ties30DroppedTPR: [Double] = [
            0.0, 0.06666666666666667, 0.26666666666666666, 0.4, 0.4666666666666667, 0.6, 0.6, 0.6666666666666666, 0.8,
            1.0,
        ]
        static let ties30DroppedThresholds: [Double] = [Double.infinity, 1.0, 0.9, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.0]
        static let ties30Precision: [Double] = [
            0.5, 0.4444444444444444, 0.4166666666666667, 0.45, 0.47368421052631576, 0.5, 0.6666666666666666, 0.8, 0.5,
            1.0,
        ]
        static let ties30Recall: [Double] = [
            1.0, 0.8, 0.6666666666666666, 0.6, 0.6, 0.4666666666666667, 0.4, 0.26666666666666666, 0.06666666666666667,
            0.0,
        ]
        static let ties30PRThresholds: [Double] = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 0.9, 1.0]
        static let ties30AUC = 0.48444444444444446
        static let ties30AP = 0.5657504873294347

        // case shifted60: python3 -c 'import numpy as np; from sklearn.metrics import roc_curve,roc_auc_score,average_precision_score as ap; r=np.random.default_rng(11); a=r.random(60); y=(r.random(60)<0.5).astype(int); s=np.round(np.clip(a+0.25*y,0,1),2); print(roc_curve(y,s,drop_intermediate=False), roc_auc_score(y,s), ap(y,s))'
        static let shifted60Scores: [Double] = [
            0.38, 0.5, 0.85, 0.28, 0.15, 1.0, 0.32, 0.13, 0.95, 0.87, 0.37, 0.76, 0.91, 0.53, 0.39, 0.79, 0.92, 0.51,
            1.0, 0.8, 1.0, 0.2, 0.55, 0.73, 0.6, 0.84, 0.24, 1.0, 1.0, 0.38, 0.72, 0.28, 0.08, 0.9, 0.43, 0.15, 0.67,
            0.2, 1.0, 0.22, 0.28, 0.45, 0.35, 0.47, 0.91, 0.95, 0.59, 0.27, 0.16, 1.0, 0.71, 0.94, 0.3, 0.03, 0.85,
            0.84, 0.56, 0.57, 0.09, 0.42,
        ]
        static let shifted60BonaFide: [Bool] = [
            true, false, true, true, false, true, true, false, false, true, false, true, true, true, true, false, true,
            false, true, true, true, false, false, true, true, true, false, true, true, true, true, false, false, false,
            false, false, false, false, true, false, true, true, false, false, false, true, true, true, false, true,
            true, true, true, false, false, true, true, true, false, true,
        ]
        static let shifted60FPR: [Double] = [
            0.0, 0.0, 0.04, 0.04, 0.04, 0.08, 0.12, 0.12, 0.16, 0.16, 0.16, 0.2, 0.2, 0.2, 0.2, 0.2, 0.24, 0.24, 0.24,
            0.24, 0.24, 0.28, 0.28, 0.32, 0.36, 0.4, 0.4, 0.44, 0.44, 0.44, 0.44, 0.48, 0.52, 0.52, 0.52, 0.56, 0.56,
            0.6, 0.64, 0.72, 0.76, 0.84, 0.88, 0.92, 0.96, 1.0,
        ]
        static let shifted60TPR: [Double] = [
            0.0, 0.2, 0.22857142857142856, 0.2571428571428571, 0.2857142857142857, 0.3142857142857143,
            0.3142857142857143, 0.34285714285714286, 0.37142857142857144, 0.42857142857142855, 0.45714285714285713,
            0.45714285714285713, 0.4857142857142857, 0.5142857142857142, 0.5428571428571428, 0.5714285714285714,
            0.5714285714285714, 0.6, 0.6285714285714286, 0.6571428571428571, 0.6857142857142857, 0.6857142857142857,
            0.7142857142857143, 0.7142857142857143, 0.7142857142857143, 0.7142857142857143, 0.7428571428571429,
            0.7428571428571429, 0.7714285714285715, 0.8, 0.8571428571428571, 0.8571428571428571, 0.8571428571428571,
            0.8857142857142857, 0.9142857142857143, 0.9714285714285714, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
            1.0,
        ]
        static let shifted60Thresholds: [Double] = [
            Double.infinity, 1.0, 0.95, 0.94, 0.92, 0.91, 0.9, 0.87, 0.85, 0.84, 0.8, 0.79, 0.76, 0.73, 0.72, 0.71,
            0.67, 0.6, 0.59, 0.57, 0.56, 0.55, 0.53, 0.51, 0.5, 0.47, 0.45, 0.43, 0.42, 0.39, 0.38, 0.37, 0.35, 0.32,
            0.3, 0.28, 0.27, 0.24, 0.22, 0.2, 0.16, 0.15, 0.13, 0.09, 0.08, 0.03,
        ]
        static let shifted60DroppedFPR: [Double] = [
            0.0, 0.0, 0.04, 0.04, 0.08, 0.12, 0.12, 0.16, 0.16, 0.16, 0.2, 0.2, 0.24, 0.24, 0.28, 0.28, 0.4, 0.4, 0.44,
            0.44, 0.44, 0.52, 0.52, 0.56, 0.56, 0.64, 0.72, 0.76, 0.84, 1.0,
        ]
        static let shifted60DroppedTPR: [Double] = [
            0.0, 0.2, 0.22857142857142856, 0.2857142857142857, 0.3142857142857143, 0.3142857142857143,
            0.34285714285714286, 0.37142857142857144, 0.42857142857142855, 0.45714285714285713, 0.45714285714285713,
            0.5714285714285714, 0.5714285714285714, 0.6857142857142857, 0.6857142857142857, 0.7142857142857143,
            0.7142857142857143, 0.7428571428571429, 0.7428571428571429, 0.8, 0.8571428571428571, 0.8571428571428571,
            0.9142857142857143, 0.9714285714285714, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
        ]
        static let shifted60DroppedThresholds: [Double] = [
            Double.infinity, 1.0, 0.95, 0.92, 0.91, 0.9, 0.87, 0.85, 0.84, 0.8, 0.79, 0.71, 0.67, 0.56, 0.55, 0.53,
            0.47, 0.45, 0.43, 0.39, 0.38, 0.35, 0.3, 0.28, 0.27, 0.22, 0.2, 0.16, 0.15, 0.03,
        ]
        static let shifted60Precision: [Double] = [
            0.5833333333333334, 0.5932203389830508, 0.603448275862069, 0.6140350877192983, 0.625, 0.6481481481481481,
            0.660377358490566, 0.6862745098039216, 0.7, 0.7142857142857143, 0.7083333333333334, 0.7111111111111111,
            0.7045454545454546, 0.6976744186046512, 0.7142857142857143, 0.7317073170731707, 0.717948717948718,
            0.7105263157894737, 0.7027027027027027, 0.7222222222222222, 0.7142857142857143, 0.7352941176470589,
            0.7575757575757576, 0.78125, 0.7741935483870968, 0.8, 0.7931034482758621, 0.7857142857142857,
            0.7777777777777778, 0.7692307692307693, 0.8, 0.7916666666666666, 0.782608695652174, 0.7727272727272727,
            0.7619047619047619, 0.8, 0.7894736842105263, 0.7647058823529411, 0.8, 0.7857142857142857,
            0.8461538461538461, 0.9090909090909091, 0.9, 0.8888888888888888, 1.0, 1.0,
        ]
        static let shifted60Recall: [Double] = [
            1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9714285714285714, 0.9142857142857143,
            0.8857142857142857, 0.8571428571428571, 0.8571428571428571, 0.8571428571428571, 0.8, 0.7714285714285715,
            0.7428571428571429, 0.7428571428571429, 0.7142857142857143, 0.7142857142857143, 0.7142857142857143,
            0.7142857142857143, 0.6857142857142857, 0.6857142857142857, 0.6571428571428571, 0.6285714285714286, 0.6,
            0.5714285714285714, 0.5714285714285714, 0.5428571428571428, 0.5142857142857142, 0.4857142857142857,
            0.45714285714285713, 0.45714285714285713, 0.42857142857142855, 0.37142857142857144, 0.34285714285714286,
            0.3142857142857143, 0.3142857142857143, 0.2857142857142857, 0.2571428571428571, 0.22857142857142856, 0.2,
            0.0,
        ]
        static let shifted60PRThresholds: [Double] = [
            0.03, 0.08, 0.09, 0.13, 0.15, 0.16, 0.2, 0.22, 0.24, 0.27, 0.28, 0.3, 0.32, 0.35, 0.37, 0.38, 0.39, 0.42,
            0.43, 0.45, 0.47, 0.5, 0.51, 0.53, 0.55, 0.56, 0.57, 0.59, 0.6, 0.67, 0.71, 0.72, 0.73, 0.76, 0.79, 0.8,
            0.84, 0.85, 0.87, 0.9, 0.91, 0.92, 0.94, 0.95, 1.0,
        ]
        static let shifted60AUC = 0.7777142857142857
        static let shifted60AP = 0.8209530250982109

        // case coarse40: python3 -c 'import numpy as np; from sklearn.metrics import roc_curve,roc_auc_score,average_precision_score as ap; r=np.random.default_rng(3); a=r.random(40); y=(r.random(40)<0.3).astype(int); s=np.floor(a*5)/4; print(roc_curve(y,s,drop_intermediate=False), roc_auc_score(y,s), ap(y,s))'
        static let coarse40Scores: [Double] = [
            0.0, 0.25, 1.0, 0.5, 0.0, 0.5, 0.5, 0.0, 0.75, 0.0, 0.25, 0.5, 0.5, 0.5, 0.75, 1.0, 0.25, 0.75, 0.75, 0.25,
            0.0, 1.0, 0.25, 0.25, 1.0, 0.5, 0.5, 0.75, 0.0, 0.75, 0.25, 0.0, 0.75, 1.0, 0.25, 0.75, 0.25, 0.75, 0.75,
            0.25,
        ]
        static let coarse40BonaFide: [Bool] = [
            false, false, false, false, false, false, false, true, false, false, false, true, false, true, false, true,
            false, false, false, true, true, false, false, false, false, true, false, true, false, false, false, false,
            false, false, true, false, true, true, true, false,
        ]
        static let coarse40FPR: [Double] = [
            0.0, 0.14285714285714285, 0.39285714285714285, 0.5714285714285714, 0.8214285714285714, 1.0,
        ]
        static let coarse40TPR: [Double] = [
            0.0, 0.08333333333333333, 0.3333333333333333, 0.5833333333333334, 0.8333333333333334, 1.0,
        ]
        static let coarse40Thresholds: [Double] = [Double.infinity, 1.0, 0.75, 0.5, 0.25, 0.0]
        static let coarse40DroppedFPR: [Double] = [
            0.0, 0.14285714285714285, 0.39285714285714285, 0.5714285714285714, 0.8214285714285714, 1.0,
        ]
        static let coarse40DroppedTPR: [Double] = [
            0.0, 0.08333333333333333, 0.3333333333333333, 0.5833333333333334, 0.8333333333333334, 1.0,
        ]
        static let coarse40DroppedThresholds: [Double] = [Double.infinity, 1.0, 0.75, 0.5, 0.25, 0.0]
        static let coarse40Precision: [Double] = [
            0.3, 0.30303030303030304, 0.30434782608695654, 0.26666666666666666, 0.2, 1.0,
        ]
        static let coarse40Recall: [Double] = [
            1.0, 0.8333333333333334, 0.5833333333333334, 0.3333333333333333, 0.08333333333333333, 0.0,
        ]
        static let coarse40PRThresholds: [Double] = [0.0, 0.25, 0.5, 0.75, 1.0]
        static let coarse40AUC = 0.4806547619047619
        static let coarse40AP = 0.2851778656126482

        // cluster bootstrap of shifted60, cluster = index / 3, seed 42: first 5 resample AUCs,
        // sklearn roc_auc_score(y, s, sample_weight=multiplicity of the sample's cluster)
        static let shifted60BootstrapAUCs: [Double] = [
            0.7710622710622712, 0.7716049382716049, 0.791087962962963, 0.8778409090909092, 0.7625139043381536,
        ]
    }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let scores: [Double], bonaFide: [Bool]
        let fpr: [Double], tpr: [Double], thresholds: [Double]
        let droppedFPR: [Double], droppedTPR: [Double], droppedThresholds: [Double]
        let precision: [Double], recall: [Double], prThresholds: [Double]
        let auc: Double, ap: Double
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "ties30", scores: Reference.ties30Scores, bonaFide: Reference.ties30BonaFide,
            fpr: Reference.ties30FPR, tpr: Reference.ties30TPR, thresholds: Reference.ties30Thresholds,
            droppedFPR: Reference.ties30DroppedFPR, droppedTPR: Reference.ties30DroppedTPR,
            droppedThresholds: Reference.ties30DroppedThresholds, precision: Reference.ties30Precision,
            recall: Reference.ties30Recall, prThresholds: Reference.ties30PRThresholds,
            auc: Reference.ties30AUC, ap: Reference.ties30AP),
        Case(
            name: "shifted60", scores: Reference.shifted60Scores, bonaFide: Reference.shifted60BonaFide,
            fpr: Reference.shifted60FPR, tpr: Reference.shifted60TPR, thresholds: Reference.shifted60Thresholds,
            droppedFPR: Reference.shifted60DroppedFPR, droppedTPR: Reference.shifted60DroppedTPR,
            droppedThresholds: Reference.shifted60DroppedThresholds, precision: Reference.shifted60Precision,
            recall: Reference.shifted60Recall, prThresholds: Reference.shifted60PRThresholds,
            auc: Reference.shifted60AUC, ap: Reference.shifted60AP),
        Case(
            name: "coarse40", scores: Reference.coarse40Scores, bonaFide: Reference.coarse40BonaFide,
            fpr: Reference.coarse40FPR, tpr: Reference.coarse40TPR, thresholds: Reference.coarse40Thresholds,
            droppedFPR: Reference.coarse40DroppedFPR, droppedTPR: Reference.coarse40DroppedTPR,
            droppedThresholds: Reference.coarse40DroppedThresholds, precision: Reference.coarse40Precision,
            recall: Reference.coarse40Recall, prThresholds: Reference.coarse40PRThresholds,
            auc: Reference.coarse40AUC, ap: Reference.coarse40AP),
    ]

    static func close(_ a: [Double], _ b: [Double], tolerance: Double = 1e-12) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || abs($0 - $1) <= tolerance }
    }

    @Test(arguments: cases) func rocCurveMatchesSklearn(_ c: Case) {
        let curve = ROCCurve(scores: c.scores, bonaFide: c.bonaFide)
        #expect(Self.close(curve.falsePositiveRates, c.fpr))
        #expect(Self.close(curve.truePositiveRates, c.tpr))
        #expect(curve.thresholds == c.thresholds)
        #expect(abs(curve.auc - c.auc) < 1e-12)
        #expect(curve.warnings.isEmpty)
    }

    @Test(arguments: cases) func droppedIntermediatePointsMatchSklearnDefault(_ c: Case) {
        let dropped = ROCCurve(scores: c.scores, bonaFide: c.bonaFide).droppingIntermediatePoints()
        #expect(Self.close(dropped.falsePositiveRates, c.droppedFPR))
        #expect(Self.close(dropped.truePositiveRates, c.droppedTPR))
        #expect(dropped.thresholds == c.droppedThresholds)
        #expect(abs(dropped.auc - c.auc) < 1e-12)
    }

    @Test(arguments: cases) func precisionRecallAndAveragePrecisionMatchSklearn(_ c: Case) {
        let pr = PrecisionRecallCurve(scores: c.scores, bonaFide: c.bonaFide)
        #expect(Self.close(pr.precision, c.precision))
        #expect(Self.close(pr.recall, c.recall))
        #expect(pr.thresholds == c.prThresholds)
        #expect(abs(pr.averagePrecision - c.ap) < 1e-12)
        #expect(abs(PrecisionRecallCurve.averagePrecision(scores: c.scores, bonaFide: c.bonaFide) - c.ap) < 1e-12)
    }

    @Test(arguments: cases) func inputOrderDoesNotChangeTheCurve(_ c: Case) {
        let reversed = ROCCurve(scores: c.scores.reversed(), bonaFide: c.bonaFide.reversed())
        #expect(Self.close(reversed.falsePositiveRates, c.fpr))
        #expect(reversed.thresholds == c.thresholds)
    }

    /// The resampling is re-implemented in the script from the documented algorithm and
    /// sklearn computes each resample's weighted AUC: equal replicates mean the draw, the
    /// cluster weighting and the weighted tie handling all agree.
    @Test func clusterBootstrapReplicatesMatchSklearnWeightedAUC() {
        let clusters = Reference.shifted60Scores.indices.map { $0 / 3 }
        let bootstrap = ClusterBootstrap(
            scores: Reference.shifted60Scores, bonaFide: Reference.shifted60BonaFide,
            clusters: clusters)
        #expect(bootstrap.clusterCount == 20)
        let replicates = bootstrap.replicates(BootstrapSettings(resamples: 5, seed: 42, parallel: false))
        #expect(Self.close(replicates.map(\.auc), Reference.shifted60BootstrapAUCs))
    }
}
