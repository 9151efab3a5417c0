import Foundation
import RialMedia
import Testing

@testable import RialEval

@Suite struct TuningFoldsTests {
    /// 60 groups of 1 to 12 samples in a seeded random order.
    func groups(seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        var out: [String] = []
        for g in 0..<60 { out += Array(repeating: "g\(g)", count: 1 + Int(rng.bounded(12))) }
        for i in stride(from: out.count - 1, to: 0, by: -1) { out.swapAt(i, Int(rng.bounded(UInt64(i + 1)))) }
        return out
    }

    @Test(arguments: [2, 3, 5, 10]) func noGroupInTwoFolds(k: Int) {
        let groups = groups(seed: 3)
        let folds = GroupFolds.groupKFold(groups: groups, k: k, seed: 9)
        #expect(folds.count == k)
        var foldOf: [String: Int] = [:]
        for (g, f) in zip(groups, folds.folds) {
            #expect(foldOf[g, default: f] == f, "group \(g) in folds \(foldOf[g]!) and \(f)")
            foldOf[g] = f
        }
        for f in 0..<k {
            let (training, heldOut) = folds.split(f)
            #expect(Set(training.map { groups[$0] }).isDisjoint(with: heldOut.map { groups[$0] }))
            #expect(training.count + heldOut.count == groups.count)
        }
    }

    /// Greedy largest-first balancing: no fold is more than the largest group (12) away
    /// from the mean.
    @Test func balancedBySampleCount() {
        let groups = groups(seed: 4)
        let folds = GroupFolds.groupKFold(groups: groups, k: 5, seed: 1)
        let sizes = (0..<5).map { f in folds.folds.filter { $0 == f }.count }
        #expect(sizes.max()! - sizes.min()! <= 12)
    }

    /// Same seed, same folds whatever the input order of the groups; another seed moves some.
    @Test func deterministicForSeed() {
        let groups = groups(seed: 5)
        let a = GroupFolds.groupKFold(groups: groups, k: 5, seed: 7)
        let b = GroupFolds.groupKFold(groups: groups, k: 5, seed: 7)
        #expect(a == b)
        let reversed = GroupFolds.groupKFold(groups: groups.reversed(), k: 5, seed: 7)
        #expect(Array(reversed.folds.reversed()) == a.folds)
        let other = GroupFolds.groupKFold(groups: groups, k: 5, seed: 8)
        #expect(other.folds != a.folds)
    }

    @Test func fewerGroupsThanFolds() {
        let folds = GroupFolds.groupKFold(groups: ["a", "a", "b"], k: 5, seed: 1)
        #expect(folds.count == 2)
        #expect(folds.folds[0] == folds.folds[1] && folds.folds[0] != folds.folds[2])
    }

    @Test func leaveOneSourceOut() {
        let folds = GroupFolds.leaveOneSourceOut(sources: ["b/x", "a/y", "b/x", "c/z"])
        #expect(folds.names == ["a/y", "b/x", "c/z"])
        #expect(folds.folds == [1, 0, 1, 2])
        #expect(folds.split(1).heldOut == [0, 2])
    }
}

@Suite struct TuningRankingSummaryTests {
    func summary(_ s: [Double], _ y: [Bool], species: [Int32]? = nil, count: Int = 1) -> RankingSummary {
        RankingSummary(scores: s, bonaFide: y, species: species ?? s.map { _ in 0 }, speciesCount: count)
    }

    /// scikit-learn's documented example: AUC 0.75. Partial AUC to FPR 0.5 by hand: ROC
    /// (0,0) (0,.5) (.5,.5) (.5,1) (1,1); area to 0.5 is 0.25; McClish
    /// (1 + (0.25 - 0.125) / (0.5 - 0.125)) / 2 = 2/3 (scikit-learn: 0.6666666667).
    @Test func aucAndPartialAUC() {
        let s = summary([0.1, 0.4, 0.35, 0.8], [false, false, true, true])
        #expect(s.auc == 0.75)
        #expect(abs(s.partialAUC(maxFPR: 0.5) - 2.0 / 3) < 1e-12)
    }

    /// scikit-learn 1.9.1: roc_auc_score 0.7, max_fpr=0.2 -> 0.5555555556, 0.1 -> 0.5789473684.
    @Test func partialAUCInterpolatesTheLastSegment() {
        let y = [false, false, false, false, true, true, true, true, false, true]
        let s = summary([0.1, 0.2, 0.3, 0.6, 0.4, 0.5, 0.7, 0.9, 0.8, 0.3], y)
        #expect(abs(s.auc - 0.7) < 1e-12)
        #expect(abs(s.partialAUC(maxFPR: 0.2) - 0.5555555556) < 1e-9)
        #expect(abs(s.partialAUC(maxFPR: 0.1) - 0.5789473684) < 1e-9)
    }

    /// 20 bona fide at 0.05, 0.10, ..., 1.00: BPCER <= 5% allows 1 rejection, so the
    /// highest threshold is the second lowest bona fide score, 0.10 (BPCER there 1/20).
    /// BPCER <= 4% allows none: 0.05. 3/60 <= 0.05 holds exactly.
    @Test func thresholdForBPCER() {
        let scores = (1...20).map { Double($0) / 20 } + [0.5, 0.9]
        let y = Array(repeating: true, count: 20) + [false, false]
        let s = summary(scores, y)
        #expect(s.thresholdForBPCER(0.05) == 0.10)
        #expect(s.thresholdForBPCER(0.04) == 0.05)
        #expect(s.rates(at: 0.10).bpcer == 0.05)
        #expect(RankingSummary.largestCount(0.05, of: 60) == 3)
    }

    /// Attacks of two species: lcd at 0.9, 0.3; print at 0.6. APCER (max) <= 0 needs a
    /// threshold above 0.9: the smallest candidate above is the bona fide 0.95. <= 0.5
    /// allows lcd 1/2 (0.9 accepted) but not print 1/1: the lowest threshold keeping print
    /// out is the next score above 0.6, i.e. 0.7. Pooled <= 1/3 allows the same.
    @Test func thresholdForAPCER() {
        let s = summary(
            [0.95, 0.9, 0.7, 0.6, 0.3, 0.2], [true, false, true, false, false, true], species: [0, 0, 0, 1, 0, 0],
            count: 2)
        #expect(s.thresholdForAPCER(0) == 0.95)
        #expect(s.thresholdForAPCER(0.5) == 0.7)
        #expect(s.thresholdForAPCER(1.0 / 3, maxOverSpecies: false) == 0.7)
        #expect(s.thresholdForAPCER(1) == 0.2)
        let r = s.rates(at: 0.7)
        #expect(r.apcerPerSpecies == [0.5, 0] && r.bpcer == 1.0 / 3)
    }
}

@Suite struct TuningRadixOrderTests {
    /// The radix order equals a comparison sort by (descending value, ascending index)
    /// on values with ties, negatives, -0.0 and non-finite entries (left out).
    @Test func radixOrderEqualsComparisonSort() {
        var rng = SplitMix64(seed: 12)
        var values: [Double] = (0..<3000).map { _ in (Double(rng.bounded(41)) - 20) / 8 }
        values += [-0.0, 0.0, .nan, .infinity, -.infinity, 1e-300, -1e-300, 0.0, -0.0]
        let expected = values.indices.filter { values[$0].isFinite }.sorted {
            values[$0] > values[$1] || (values[$0] == values[$1] && $0 < $1)
        }
        #expect(RankingSummary.descendingOrder(values).map(Int.init) == expected)
    }
}

@Suite struct TuningHeldOutMetricsTests {
    /// 20 bona fide at 0.05 ... 1.00; attacks: lcd at 0.5 and 0.05, print at 0.9. BPCER <= 5%
    /// allows one bona fide below the threshold, so (ascending) the block at 0.05 (one
    /// bona fide, one lcd) is rejected and the threshold is 0.10. APCER: lcd 1/2 (0.5
    /// accepted), print 1/1: max 1, pooled 2/3; BPCER 1/20.
    @Test func apcerAtBPCERByHand() {
        var samples = (1...20).map {
            ScoredSample(id: "b\($0)", score: Double($0) / 20, bonaFide: true, species: "real_scene")
        }
        samples += [
            ScoredSample(id: "a1", score: 0.5, bonaFide: false, species: "lcd_screen"),
            ScoredSample(id: "a2", score: 0.05, bonaFide: false, species: "lcd_screen"),
            ScoredSample(id: "a3", score: 0.9, bonaFide: false, species: "printed_paper"),
        ]
        let r = HeldOutMetrics.apcerAtBPCER(samples, target: 0.05, settings: BootstrapSettings(resamples: 0))
        #expect(r.threshold == 0.10)
        #expect(r.apcerMax == 1 && abs(r.apcerPooled - 2.0 / 3) < 1e-15 && r.bpcer == 0.05)
        #expect(r.apcerMaxCI == nil)
        let withCI = HeldOutMetrics.apcerAtBPCER(samples, target: 0.05, settings: BootstrapSettings(resamples: 200))
        #expect(withCI.apcerMaxCI.map { $0.lower <= 1 && $0.upper <= 1 && $0.lower >= 0 } == true)
    }
}

@Suite struct TuningDETPlotTests {
    /// Acklam's probit against the exact quantile (bisection on erfc): 1.2e-9 relative.
    @Test(arguments: [0.001, 0.01, 0.02425, 0.05, 0.3, 0.5, 0.6, 0.9, 0.999])
    func probitMatchesTheExactQuantile(p: Double) {
        let exact = standardNormalQuantile(p)
        #expect(abs(TuningDETPlot.probit(p) - exact) <= 1.2e-9 * max(1, abs(exact)))
    }
}
