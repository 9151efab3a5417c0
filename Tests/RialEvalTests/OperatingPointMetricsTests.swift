import Foundation
import RialDetection
import Testing

@testable import RialEval

/// DET points, APCER at BPCER, the EER's realized rates, ties, the species minimum and
/// the output-level rates, on a 6-sample example worked out by hand.
///
/// Samples (score, truth, species):
///   b1 0.9 bona fide | a1 0.8 lcd_screen | b2 0.7 bona fide | a2 0.7 printed_paper |
///   b3 0.4 bona fide | a3 0.2 lcd_screen.            P = 3 bona fide, N = 3 attacks.
/// Blocks (descending): {0.9 b}, {0.8 a}, {0.7 b a}, {0.4 b}, {0.2 a}.
/// ROC with +inf first: thresholds [inf, .9, .8, .7, .4, .2], FP [0,0,1,2,2,3], TP [0,1,1,2,3,3].
/// DET (sklearn det_curve): from the last point with FP = 0 (k=1, 0.9) to the first with
/// TP = P (k=4, 0.4), reversed: thresholds [.4, .7, .8, .9], APCER (fpr) [2/3, 2/3, 1/3, 0],
/// BPCER (fnr) [0, 1/3, 2/3, 2/3]. (`python3 -c "from sklearn.metrics import det_curve;
/// print(det_curve([1,0,1,0,1,0],[.9,.8,.7,.7,.4,.2]))"` prints the same.)
/// EER: d = FNR - FPR is 1, 2/3, 1/3, -1/3 at k = 0..3, so the crossing is halfway
/// between k=2 (0.8) and k=3 (0.7): rate 1/3 + 0.5 (2/3 - 1/3) = 0.5, threshold 0.75.
/// At 0.75 only b1 and a1 are accepted: APCER pooled 1/3, BPCER 2/3 (not 50 % / 50 %).
/// Ties: one block of 2 (0.7): 2 of 6 samples tied = 1/3, largest block 2 at 0.7.
@Suite struct OperatingPointMetricsTests {
    static let example: [ScoredSample] = [
        ScoredSample(id: "b1", score: 0.9, bonaFide: true, species: "real_scene"),
        ScoredSample(id: "a1", score: 0.8, bonaFide: false, species: "lcd_screen"),
        ScoredSample(id: "b2", score: 0.7, bonaFide: true, species: "real_scene"),
        ScoredSample(id: "a2", score: 0.7, bonaFide: false, species: "printed_paper"),
        ScoredSample(id: "b3", score: 0.4, bonaFide: true, species: "real_scene"),
        ScoredSample(id: "a3", score: 0.2, bonaFide: false, species: "lcd_screen"),
    ]

    static func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-15 }
    }

    @Test func detPointsAreSklearnDetCurve() {
        let det = DETCurve(scores: Self.example.map(\.score), bonaFide: Self.example.map(\.bonaFide))
        #expect(det.thresholds == [0.4, 0.7, 0.8, 0.9])
        #expect(Self.close(det.apcer, [2.0 / 3, 2.0 / 3, 1.0 / 3, 0]))
        #expect(Self.close(det.bpcer, [0, 1.0 / 3, 2.0 / 3, 2.0 / 3]))
    }

    @Test func detWithoutAClassIsEmptyWithAWarning() {
        let det = DETCurve(scores: [0.2, 0.4], bonaFide: [true, true])
        #expect(det.apcer.isEmpty && det.thresholds.isEmpty && det.warnings.contains(.noAttack))
        #expect(DETCurve(scores: [], bonaFide: []).warnings.contains(.empty))
    }

    /// Perfect separation: b 0.9, 0.8; a 0.3, 0.1. FP [0,0,0,1,2], TP [0,1,2,2,2]: the last
    /// FP = 0 and the first TP = P are both k=2 (0.8): one point (0, 0) at 0.8 (sklearn
    /// returns ([0.], [0.], [0.8])).
    @Test func detOfASeparatedSetIsOnePoint() {
        let det = DETCurve(scores: [0.9, 0.8, 0.3, 0.1], bonaFide: [true, true, false, false])
        #expect(det.thresholds == [0.8] && det.apcer == [0] && det.bpcer == [0])
    }

    @Test func tieFractionAndLargestBlock() {
        let ties = ScoreTies(scores: Self.example.map(\.score))
        #expect(ties.scoredCount == 6 && ties.distinctCount == 5 && ties.tiedCount == 2)
        #expect(ties.tiedFraction == 1.0 / 3 && ties.largestBlock == 2 && ties.largestBlockScore == 0.7)
        // 0.74 x3, 0.5 x3, 0.1: 6 of 7 tied; two blocks of 3, the higher score is named.
        let capped = ScoreTies(scores: [0.74, 0.5, 0.74, 0.1, 0.5, 0.74, 0.5, .nan])
        #expect(capped.scoredCount == 7 && capped.tiedCount == 6 && capped.largestBlock == 3)
        #expect(capped.largestBlockScore == 0.74 && capped.largestBlockFraction == 3.0 / 7)
        let none = ScoreTies(scores: [])
        #expect(none.tiedFraction.isNaN && none.largestBlock == 0)
    }

    /// BPCER per candidate: inf 1, 0.9 2/3, 0.8 2/3, 0.7 1/3, 0.4 0, 0.2 0.
    /// (target, threshold, BPCER, pooled APCER, max APCER with every species counted)
    static let atBPCERCases: [(Double, Double, Double, Double, Double)] = [
        (0.01, 0.4, 0.0, 2.0 / 3, 1.0), // only 0.4 reaches 0: a1, a2 accepted; print 1/1
        (0.5, 0.7, 1.0 / 3, 2.0 / 3, 1.0),
        (2.0 / 3, 0.9, 2.0 / 3, 0.0, 0.0), // equality holds: 2/3 <= 2/3 at the highest score
        (1.0, Double.infinity, 1.0, 0.0, 0.0), // +inf accepts nothing
    ]

    @Test(arguments: atBPCERCases)
    func apcerAtBPCER(target: Double, threshold: Double, bpcer: Double, pooled: Double, max: Double) {
        let point = APCERAtBPCER(samples: Self.example, target: target)
        #expect(point.threshold == threshold && point.bpcer == bpcer)
        #expect(point.apcerPooled == pooled && point.apcerMax == max)
    }

    @Test func apcerAtBPCERIsUndefinedWithoutAClassOrForABadTarget() {
        #expect(APCERAtBPCER(samples: Self.example, target: 1.5).threshold.isNaN)
        #expect(APCERAtBPCER(samples: Array(Self.example.filter(\.bonaFide)), target: 0.05).apcerPooled.isNaN)
    }

    /// One group holding every sample: every resample is the data itself, so each
    /// interval collapses onto the point value (threshold and rates alike).
    @Test func apcerAtBPCERIntervalsOfOneClusterAreThePoint() {
        let grouped = Self.example.map { sample -> ScoredSample in
            var copy = sample
            copy.group = "g"
            return copy
        }
        let points = APCERAtBPCER.compute(
            prepared: RankedSamples(samples: grouped), targets: [0.01, 0.5], minimumAttacks: 1,
            bootstrap: BootstrapSettings(resamples: 50, seed: 3))
        #expect(points[0].thresholdCI?.lower == 0.4 && points[0].thresholdCI?.upper == 0.4)
        #expect(points[1].thresholdCI?.lower == 0.7 && points[1].apcerPooledCI?.upper == 2.0 / 3)
        #expect(points[1].apcerMaxCI?.lower == 1.0)
    }

    /// Ungrouped samples: resamples differ, the threshold interval stays on observed scores
    /// and contains the point value's neighbourhood; rates stay in 0...1.
    @Test func apcerAtBPCERIntervalsVaryAcrossClusters() throws {
        let points = APCERAtBPCER.compute(
            prepared: RankedSamples(samples: Self.example), targets: [0.5], minimumAttacks: 1,
            bootstrap: BootstrapSettings(resamples: 400, seed: 11))
        let ci = try #require(points[0].thresholdCI)
        #expect(ci.lower < ci.upper)
        #expect(Set(Self.example.map(\.score) + [Double.infinity]).contains(ci.lower))
        let rate = try #require(points[0].apcerPooledCI)
        #expect(rate.lower >= 0 && rate.upper <= 1 && rate.lower < rate.upper)
    }

    /// A resample is the data with each cluster repeated `weight` times: the weighted sweep
    /// must choose what the unweighted one chooses on those repeated samples. Weights:
    /// b1 0, a1 1, a2 1, b2 2, b3 1, a3 0 -> a1 0.8, a2 0.7, b2 0.7 twice, b3 0.4 (P 3, N 2).
    /// BPCER <= 0.5: 0.9 is absent (weight 0), 0.8 keeps BPCER 1, 0.7 gives 1/3: threshold
    /// 0.7, pooled APCER 2/2; BPCER <= 0.01: 0.4, APCER 1.
    @Test func weightedSweepEqualsRepeatedSamples() {
        let prepared = RankedSamples(samples: Self.example)
        let multiplicity: [String: UInt8] = ["b1": 0, "a1": 1, "a2": 1, "b2": 2, "b3": 1, "a3": 0]
        var weights = [UInt8](repeating: 0, count: prepared.clusterCount)
        for (k, index) in prepared.ranked.order.enumerated() {
            weights[Int(prepared.clusterOfSorted[k])] = multiplicity[Self.example[Int(index)].id]!
        }
        let sweep = WeightedThresholdSweep(prepared: prepared, eligible: [true, true])
        let weighted = weights.withUnsafeBufferPointer { sweep.points(targets: [0.5, 0.01], weights: $0) }
        let repeated = Self.example.flatMap { sample in
            (0..<Int(multiplicity[sample.id]!)).map { copy -> ScoredSample in
                var s = sample
                s.id += "-\(copy)"
                return s
            }
        }
        for (point, target) in zip(weighted, [0.5, 0.01]) {
            let plain = APCERAtBPCER(samples: repeated, target: target)
            #expect(point.threshold == plain.threshold && point.bpcer == plain.bpcer)
            #expect(point.apcerPooled == plain.apcerPooled && point.apcerMax == plain.apcerMax)
        }
        #expect(weighted[0].threshold == 0.7 && weighted[0].apcerPooled == 1 && weighted[1].threshold == 0.4)
    }

    /// The threshold table's one-pass rates equal the per-threshold tally the operating
    /// point's bootstrap uses, on the same resample weights (here b2 and a3 dropped, b1 doubled).
    @Test func oneSweepRatesEqualThePerThresholdTally() {
        let prepared = RankedSamples(samples: Self.example)
        let multiplicity: [String: UInt8] = ["b1": 2, "a1": 1, "a2": 1, "b2": 0, "b3": 1, "a3": 0]
        var weights = [UInt8](repeating: 0, count: prepared.clusterCount)
        for (k, index) in prepared.ranked.order.enumerated() {
            weights[Int(prepared.clusterOfSorted[k])] = multiplicity[Self.example[Int(index)].id]!
        }
        let thresholds = [0.75, 0.5, Double.infinity, 0.2, 0.7, 0.05]
        let sweep = WeightedThresholdSweep(prepared: prepared, eligible: [true, false])
        let swept = weights.withUnsafeBufferPointer { sweep.rates(at: thresholds, weights: $0) }
        for (index, threshold) in thresholds.enumerated() {
            let tally = OperatingPointTally(prepared: prepared, threshold: threshold, minimumAttacks: 2)
            let expected = weights.withUnsafeBufferPointer { tally.rates(weights: $0) }
            #expect(swept[index].apcerPooled == expected.apcerPooled && swept[index].bpcer == expected.bpcer)
            #expect(swept[index].apcerMax.isNaN == expected.apcerMax.isNaN)
            if !expected.apcerMax.isNaN { #expect(swept[index].apcerMax == expected.apcerMax) }
        }
        // By hand at 0.7: b1 x2 and b2 x0 accepted of bona fide b1 x2, b3: BPCER 1/3; a1, a2 accepted
        // of a1, a2: pooled 1; lcd (only a1 weighted, eligible) 1/1.
        #expect(swept[4].bpcer == 1.0 / 3 && swept[4].apcerPooled == 1 && swept[4].apcerMax == 1)
    }

    @Test func eerComesWithTheRatesItsThresholdGives() {
        let eer = EqualErrorRate(scores: Self.example.map(\.score), bonaFide: Self.example.map(\.bonaFide))
        #expect(eer.rate == 0.5 && abs(eer.threshold - 0.75) < 1e-15)
        let point = EEROperatingPoint(samples: Self.example, eer: eer)
        #expect(point.apcerPooled == 1.0 / 3 && point.bpcer == 2.0 / 3)
        // lcd 1 of 2 accepted, print 0 of 1.
        #expect(point.apcerMax == 0.5 && point.apcerMaxSpecies == "lcd_screen")
    }

    /// At 0.7: lcd 1 of 2 accepted (a1), print 1 of 1 (a2).
    @Test func speciesBelowTheMinimumIsFlaggedAndLeftOutOfTheMax() {
        let all = PresentationAttackMetrics(samples: Self.example, threshold: 0.7)
        #expect(all.apcerMax == 1 && all.apcerMaxSpecies == "printed_paper")
        let two = PresentationAttackMetrics(samples: Self.example, threshold: 0.7, minimumAttacks: 2)
        #expect(two.apcerMax == 0.5 && two.apcerMaxSpecies == "lcd_screen" && two.apcerMaxAllSpecies == 1)
        #expect(two.species.map(\.countsInMax) == [true, false])
        #expect(two.apcerPooled == 2.0 / 3)
        let three = PresentationAttackMetrics(samples: Self.example, threshold: 0.7, minimumAttacks: 3)
        #expect(three.apcerMax.isNaN && three.apcerMaxSpecies == nil && three.apcerMaxAllSpecies == 1)
    }

    /// APCER max <= 0.5, sweeping down: 0.9 (0), 0.8 (lcd 1/2), 0.7 (print 1/1 > 0.5 unless
    /// print is excluded), 0.4 (lcd still 1/2), 0.2 (lcd 2/2). All species: threshold 0.8,
    /// BPCER 2/3; print excluded (minimum 2): threshold 0.4, BPCER 0.
    @Test func bpcerAtAPCERFollowsTheSameMinimum() {
        let all = BPCERAtAPCER(samples: Self.example, target: 0.5)
        #expect(all.threshold == 0.8 && all.bpcer == 2.0 / 3)
        let two = BPCERAtAPCER(samples: Self.example, target: 0.5, minimumAttacks: 2)
        #expect(two.threshold == 0.4 && two.bpcer == 0 && two.apcer == 0.5)
        #expect(BPCERAtAPCER(samples: Self.example, target: 0.5, minimumAttacks: 3).threshold.isNaN)
    }

    @Test func methodMetricsCarryTheNewKeys() throws {
        let configuration = MetricsConfiguration(
            threshold: 0.5, bootstrap: BootstrapSettings(resamples: 0), minimumAttacksPerSpecies: 2)
        let m = MethodMetrics.compute(samples: Self.example, configuration: configuration)
        #expect(m.apcer.speciesBelowMinimum == ["printed_paper"] && m.apcer.minimumAttacksForMax == 2)
        // At 0.5: b1, a1, b2, a2 accepted; lcd 1/2, print 1/1 (excluded), pooled 2/3, BPCER 1/3.
        #expect(m.apcer.maxCounted == 0.5 && m.apcer.maxCountedSpecies == "lcd_screen" && m.apcer.pooled == 2.0 / 3)
        // The older keys count every species: max 1 (print), ACER (1 + 1/3) / 2.
        #expect(m.apcer.max == 1 && m.apcer.maxSpecies == "printed_paper" && m.acer == (1 + 1.0 / 3) / 2)
        #expect(m.ties?.tiedFraction == 1.0 / 3)
        #expect(m.eerOperatingPoint?.bpcer == 2.0 / 3)
        #expect(m.apcerAtBPCER?.map(\.target) == [0.01, 0.05, 0.10])
        let table = try #require(m.thresholdTable)
        #expect(table.map(\.reason).contains("bpcer_5") && table.map(\.reason).contains("apcer_max_5"))
        let decision = try #require(table.first { $0.reason == "decision" })
        #expect(decision.threshold == 0.5 && decision.bpcer == 1.0 / 3 && decision.apcerPooled == 2.0 / 3)
        #expect(decision.apcerPerSpecies == ["lcd_screen": 0.5, "printed_paper": 1])
        #expect(decision.apcerMax == 0.5 && decision.speciesBelowMinimum == ["printed_paper"])
        let eerRow = try #require(table.first { $0.reason == "eer" })
        #expect(abs(eerRow.threshold - 0.75) < 1e-15 && eerRow.bpcer == 2.0 / 3)
    }

    /// A results file written before these keys existed still decodes: absent keys are
    /// nil (`max_counted` NaN) and `max` reads as before.
    @Test func olderMetricsJSONStillDecodes() throws {
        let m = MethodMetrics.compute(
            samples: Self.example, configuration: MetricsConfiguration(bootstrap: BootstrapSettings(resamples: 0)))
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(m)) as? [String: Any])
        for key in ["ties", "eer_operating_point", "apcer_at_bpcer", "threshold_table"] {
            #expect(object[key] != nil)
            object.removeValue(forKey: key)
        }
        var apcer = try #require(object["apcer"] as? [String: Any])
        for key in ["min_attacks_for_max", "species_below_minimum", "max_counted", "max_counted_species"] {
            apcer.removeValue(forKey: key)
        }
        object["apcer"] = apcer
        let old = try JSONDecoder().decode(MethodMetrics.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.ties == nil && old.thresholdTable == nil && old.apcer.minimumAttacksForMax == nil)
        #expect(old.apcer.maxCounted.isNaN && old.apcer.max == m.apcer.max)
    }

    /// Levels: bona fide at MEDIUM and LOW, attacks at HIGH and SUSPICIOUS.
    /// Accept at >= LOW: BPCER 0/2, APCER 1/2; >= MEDIUM: BPCER 1/2 (the LOW one), APCER 1/2;
    /// >= HIGH: BPCER 2/2, APCER 1/2; >= VERY_HIGH: BPCER 1, APCER 0.
    @Test func outputLevelRates() {
        let rows = OutputLevelRow.rows(samples: [
            (.medium, true, "real_scene"), (.low, true, "real_scene"), (.high, false, "lcd_screen"),
            (.suspicious, false, "lcd_screen"),
        ])
        #expect(rows.map(\.level) == [.low, .medium, .high, .veryHigh])
        #expect(rows.map(\.bpcer) == [0, 0.5, 1, 1])
        #expect(rows.map(\.apcerPooled) == [0.5, 0.5, 0.5, 0])
        #expect(rows[0].apcerPerSpecies == ["lcd_screen": 0.5] && rows[3].apcerPerSpecies == ["lcd_screen": 0])
    }

    /// Published values of the standard normal quantile (scipy `norm.ppf`).
    static let quantiles: [(Double, Double)] = [
        (0.975, 1.959963984540054), (0.001, -3.090232306167813), (0.2, -0.8416212335729142), (0.5, 0.0),
    ]

    @Test(arguments: quantiles)
    func normalQuantile(p: Double, expected: Double) {
        #expect(abs(NormalQuantile.of(p) - expected) < 1e-12)
    }

    @Test func probitAxisClampsTheEnds() {
        let axis = SVGAxis.probit(label: "")
        #expect(axis.fraction(0) == 0 && axis.fraction(1) == 1 && axis.fraction(0.001) == 0)
        #expect(abs(axis.fraction(0.5) - 0.5) < 1e-12 && axis.fraction(.nan).isNaN)
    }
}
