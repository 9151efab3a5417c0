import Foundation
import Testing

@testable import RialEval

/// Wilson intervals, the cluster bootstrap, paired comparisons and McNemar's test.
@Suite struct MetricsIntervalTests {
    @Test func wilsonIntervalHandChecked() {
        // p = 0.8, z = 1.959964: centre (0.8 + 0.19207) / 1.38415 = 0.71674,
        // half 1.41600 * sqrt(0.016 + 0.0096036) = 0.22656 -> [0.4902, 0.9433].
        let ci = ConfidenceInterval.wilson(successes: 8, trials: 10)
        #expect(abs(ci.lower - 0.4902) < 5e-5)
        #expect(abs(ci.upper - 0.9433) < 5e-5)
        #expect(ci.method == .wilson && ci.level == 0.95 && ci.resamples == nil && ci.seed == nil)
        // 0/10: [0, z² / (n + z²)] = [0, 3.84146 / 13.84146] = [0, 0.27753].
        let zero = ConfidenceInterval.wilson(successes: 0, trials: 10)
        #expect(zero.lower == 0)
        #expect(abs(zero.upper - 0.27753) < 5e-5)
        let all = ConfidenceInterval.wilson(successes: 10, trials: 10)
        #expect(abs(all.lower - 0.72247) < 5e-5 && all.upper == 1)
        // n/n is exactly 1 also where rounding would give 1 - 1e-16 (3/3).
        #expect(ConfidenceInterval.wilson(successes: 3, trials: 3).upper == 1)
    }

    @Test func wilsonIntervalBadInputIsNaN() {
        for (k, n, level) in [(0, 0, 0.95), (3, 2, 0.95), (-1, 5, 0.95), (1, 2, 1.0), (1, 2, 0.0)] {
            let ci = ConfidenceInterval.wilson(successes: k, trials: n, level: level)
            #expect(ci.lower.isNaN && ci.upper.isNaN)
        }
    }

    @Test func normalQuantile() {
        #expect(abs(standardNormalQuantile(0.975) - 1.959963984540054) < 1e-12)
        #expect(abs(standardNormalQuantile(0.5)) < 1e-15)
        #expect(abs(standardNormalQuantile(0.95) - 1.6448536269514722) < 1e-12)
        #expect(standardNormalQuantile(0).isNaN && standardNormalQuantile(1).isNaN)
    }

    @Test func quantileIsNumpyLinear() {
        // numpy.quantile([1, 2, 3, 4], 0.25) = 1.75, 0.975 -> 3.925.
        #expect(ConfidenceInterval.quantile(sorted: [1, 2, 3, 4], 0.25) == 1.75)
        #expect(abs(ConfidenceInterval.quantile(sorted: [1, 2, 3, 4], 0.975) - 3.925) < 1e-12)
        #expect(ConfidenceInterval.quantile(sorted: [], 0.5).isNaN)
    }

    /// 120 samples in 30 groups of 4, scores overlapping.
    static let grouped: [ScoredSample] = {
        var rng = SeededGenerator(seed: 5)
        return (0..<120).map { i in
            let bonaFide = i % 2 == 0
            let score = min(1, max(0, Double.random(in: 0..<1, using: &rng) * 0.8 + (bonaFide ? 0.2 : 0)))
            return ScoredSample(
                id: "s\(i)", score: score, bonaFide: bonaFide,
                species: bonaFide ? "real_scene" : (i % 4 == 1 ? "lcd_screen" : "printed_paper"),
                group: "g\(i / 4)")
        }
    }()

    @Test func bootstrapIsDeterministicAcrossThreadsAndInputOrder() throws {
        let settings = BootstrapSettings(resamples: 200, seed: 9, parallel: true)
        let a = try #require(ClusterBootstrap(samples: Self.grouped, threshold: 0.5).intervals(settings))
        var serial = settings
        serial.parallel = false
        let b = try #require(ClusterBootstrap(samples: Self.grouped, threshold: 0.5).intervals(serial))
        let c = try #require(ClusterBootstrap(samples: Self.grouped.reversed(), threshold: 0.5).intervals(settings))
        #expect(a == b)
        #expect(a == c)
        var other = settings
        other.seed = 10
        let d = try #require(ClusterBootstrap(samples: Self.grouped, threshold: 0.5).intervals(other))
        #expect(a.auc != d.auc)
        #expect(a.auc.resamples == 200 && a.auc.seed == 9 && a.auc.method == .clusterBootstrapPercentile)
        // The point estimate lies inside its interval.
        let auc = ROCCurve(samples: Self.grouped).auc
        #expect(a.auc.lower <= auc && auc <= a.auc.upper)
        #expect(a.apcerMax.lower <= a.apcerMax.upper && a.acer.lower <= a.acer.upper)
        #expect(abs(a.truePositiveRate.lower - (1 - a.bpcer.upper)) < 1e-12)
    }

    @Test func oneClusterResamplesToItselfSoTheIntervalIsThePoint() throws {
        let oneGroup = Self.grouped.map {
            var s = $0
            s.group = "all"
            return s
        }
        let intervals = try #require(
            ClusterBootstrap(samples: oneGroup, threshold: 0.5)
                .intervals(BootstrapSettings(resamples: 50)))
        let auc = ROCCurve(samples: oneGroup).auc
        #expect(intervals.auc.lower == auc && intervals.auc.upper == auc)
        let eer = EqualErrorRate(curve: ROCCurve(samples: oneGroup)).rate
        #expect(abs(intervals.eer.lower - eer) < 1e-12 && abs(intervals.eer.upper - eer) < 1e-12)
        let pad = PresentationAttackMetrics(samples: oneGroup, threshold: 0.5)
        #expect(intervals.bpcer.lower == pad.bpcer && intervals.apcerMax.upper == pad.apcerMax)
        #expect(intervals.apcerPooled.lower == pad.apcerPooled)
    }

    /// The weighted EER of the bootstrap on a hand-calculated crossing (see
    /// `MetricsCurveTests.eerInterpolatesInsideTheCrossingSegment`): with one cluster every
    /// resample is the original set, EER 2/7 (alpha 3/7 on the tied block's segment).
    @Test func bootstrapEERUsesTheSameCrossing() throws {
        let samples = zip([0.9, 0.5, 0.5, 0.5, 0.1], [true, true, false, false, false]).enumerated().map { i, pair in
            ScoredSample(
                id: "s\(i)", score: pair.0, bonaFide: pair.1, species: pair.1 ? "real_scene" : "lcd_screen",
                group: "one")
        }
        let intervals = try #require(
            ClusterBootstrap(samples: samples, threshold: 0.5)
                .intervals(BootstrapSettings(resamples: 10)))
        #expect(abs(intervals.eer.lower - 2.0 / 7) < 1e-15 && abs(intervals.eer.upper - 2.0 / 7) < 1e-15)
        // AUC: 0.9 beats all 3 attacks, 0.5 beats 0.1 and ties two: (3 + 1 + 1) / 6.
        #expect(abs(intervals.auc.lower - 5.0 / 6) < 1e-15)
    }

    /// Two clusters, one all bona fide and one all attack: a resample draws both with
    /// probability 1/2, otherwise one class is missing and the AUC is undefined. Resampling
    /// single samples instead would almost never lose a class.
    @Test func wholeClustersAreResampled() throws {
        let samples = (0..<40).map { i in
            ScoredSample(
                id: "s\(i)", score: Double(i) / 40, bonaFide: i >= 20, species: i >= 20 ? "real_scene" : "lcd_screen",
                group: i >= 20 ? "real" : "attack")
        }
        let intervals = try #require(
            ClusterBootstrap(samples: samples, threshold: 0.5)
                .intervals(BootstrapSettings(resamples: 1000)))
        let undefined = try #require(intervals.auc.undefinedResamples)
        // Binomial(1000, 1/2): mean 500, sd 16.
        #expect((420...580).contains(undefined))
        #expect(intervals.auc.lower == 1 && intervals.auc.upper == 1)
        let singles = samples.map {
            var s = $0
            s.group = nil
            return s
        }
        let singleIntervals = try #require(
            ClusterBootstrap(samples: singles, threshold: 0.5)
                .intervals(BootstrapSettings(resamples: 1000)))
        #expect(singleIntervals.auc.undefinedResamples == 0)
    }

    @Test func disabledBootstrapGivesNoIntervals() {
        #expect(
            ClusterBootstrap(samples: Self.grouped, threshold: 0.5).intervals(BootstrapSettings(resamples: 0)) == nil)
    }

    @Test func bootstrapOfDegenerateInputIsUndefinedNotATrap() throws {
        let empty = try #require(
            ClusterBootstrap(samples: [], threshold: 0.5).intervals(BootstrapSettings(resamples: 20)))
        #expect(empty.auc.lower.isNaN && empty.auc.undefinedResamples == 20)
        let oneClass = Self.grouped.filter(\.bonaFide)
        let intervals = try #require(
            ClusterBootstrap(samples: oneClass, threshold: 0.5)
                .intervals(BootstrapSettings(resamples: 20)))
        #expect(intervals.auc.lower.isNaN && intervals.apcerMax.upper.isNaN)
        #expect(!intervals.bpcer.lower.isNaN)
    }

    /// The one-byte multiplicities and the 32-bit fallback give the same resamples.
    @Test func narrowAndWideMultiplicitiesAgree() {
        let bootstrap = ClusterBootstrap(samples: Self.grouped, threshold: 0.5)
        let settings = BootstrapSettings(resamples: 50, seed: 3)
        let narrow = bootstrap.replicates(settings), wide = bootstrap.replicates(settings, alwaysWide: true)
        #expect(narrow.count == 50 && wide.count == 50)
        let metrics: [(String, KeyPath<ClusterBootstrap.Replicate, Double>)] = [
            ("auc", \.auc), ("eer", \.eer), ("apcerMax", \.apcerMax), ("apcerPooled", \.apcerPooled),
            ("bpcer", \.bpcer), ("acer", \.acer), ("truePositiveRate", \.truePositiveRate),
        ]
        for (name, metric) in metrics {
            let a = narrow.map { $0[keyPath: metric] }, b = wide.map { $0[keyPath: metric] }
            #expect(zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "metric \(name)")
        }
        // 300 draws into 1 byte: the same counts as into 32 bits unless a count passes 255.
        var small = [UInt8](repeating: 0, count: 300), large = [Int32](repeating: 0, count: 300)
        let fits = small.withUnsafeMutableBufferPointer { ClusterResampler.draw(into: $0, seed: 11) }
        _ = large.withUnsafeMutableBufferPointer { ClusterResampler.draw(into: $0, seed: 11) }
        #expect(fits && small.map(Int32.init) == large)
    }

    @Test func lemireDrawGivesMultiplicitiesSummingToTheClusterCount() {
        var weights = [Int32](repeating: 7, count: 13)
        _ = weights.withUnsafeMutableBufferPointer { ClusterResampler.draw(into: $0, seed: 3) }
        #expect(weights.reduce(0, +) == 13)
        #expect(weights.allSatisfy { $0 >= 0 })
        var one = [Int32](repeating: 0, count: 1)
        _ = one.withUnsafeMutableBufferPointer { ClusterResampler.draw(into: $0, seed: 3) }
        #expect(one == [1])
    }

    @Test func pairedComparisonOfIdenticalScoresIsZeroWithPValueOne() throws {
        let result = PairedAUCComparison(
            first: Self.grouped, second: Self.grouped.reversed(),
            settings: BootstrapSettings(resamples: 200))
        #expect(result.difference == 0)
        #expect(result.pairedCount == 120 && result.excludedCount == 0)
        let interval = try #require(result.interval)
        #expect(interval.lower == 0 && interval.upper == 0)
        #expect(result.pValue == 1)
    }

    @Test func pairedComparisonDetectsABetterMethod() throws {
        // Second method separates perfectly; the first is the overlapping grouped scores.
        let better = Self.grouped.map {
            var s = $0
            s.score = s.bonaFide ? 0.9 : 0.1
            return s
        }
        let result = PairedAUCComparison(
            first: Self.grouped, second: better, settings: BootstrapSettings(resamples: 400))
        #expect(result.aucSecond == 1)
        #expect(result.difference > 0)
        let interval = try #require(result.interval)
        #expect(interval.lower > 0)
        // Every resampled difference is > 0: p = 2 (0 + 1) / (400 + 1).
        #expect(result.pValue == 2.0 / 401)
    }

    @Test func pairedComparisonExcludesUnpairedSamples() {
        var second = Array(Self.grouped.dropLast(10))
        second[0].bonaFide.toggle()
        second[1].score = .nan
        let result = PairedAUCComparison(first: Self.grouped, second: second, settings: BootstrapSettings(resamples: 0))
        #expect(result.pairedCount == 108)
        #expect(result.excludedCount == 12)
        #expect(result.warnings == [.unpairedSamplesExcluded])
        #expect(result.interval == nil && result.pValue.isNaN)
    }

    @Test func mcNemarExactBinomial() {
        // b = 3, c = 10, n = 13: P(X <= 3) = (1 + 13 + 78 + 286) / 8192 = 378 / 8192.
        let test = McNemarTest(onlyFirstCorrect: 3, onlySecondCorrect: 10)
        #expect(test.method == .exactBinomial)
        #expect(test.statistic == nil)
        #expect(abs(test.pValue - 2 * 378.0 / 8192) < 1e-15)
        #expect(McNemarTest(onlyFirstCorrect: 0, onlySecondCorrect: 0).pValue == 1)
        #expect(McNemarTest(onlyFirstCorrect: 12, onlySecondCorrect: 12).pValue == 1)
    }

    @Test func mcNemarChiSquareWithContinuityCorrection() {
        // b = 10, c = 25: chi² = (15 - 1)² / 35 = 5.6; p = erfc(sqrt(2.8)), from Python:
        // python3 -c 'import math; print(math.erfc(math.sqrt(2.8)))' -> 0.017960477526078766
        let test = McNemarTest(onlyFirstCorrect: 10, onlySecondCorrect: 25)
        #expect(test.method == .chiSquareContinuityCorrected)
        #expect(abs((test.statistic ?? 0) - 5.6) < 1e-12)
        #expect(abs(test.pValue - 0.017960477526078766) < 1e-12)
        // |b - c| = 0 with the correction clipped at 0: chi² 0, p 1.
        #expect(McNemarTest(onlyFirstCorrect: 15, onlySecondCorrect: 15).pValue == 1)
    }

    @Test func mcNemarFromScoredSamples() {
        // Threshold 0.5. First correct on a, b; second correct on b, c; d wrong for both.
        let first = [
            ScoredSample(id: "a", score: 0.9, bonaFide: true, species: "real_scene"),
            ScoredSample(id: "b", score: 0.1, bonaFide: false, species: "lcd_screen"),
            ScoredSample(id: "c", score: 0.2, bonaFide: true, species: "real_scene"),
            ScoredSample(id: "d", score: 0.7, bonaFide: false, species: "lcd_screen"),
        ]
        var second = first
        second[0].score = 0.1
        second[2].score = 0.8
        let test = McNemarTest(first: first, second: second, firstThreshold: 0.5, secondThreshold: 0.5)
        #expect(test.onlyFirstCorrect == 1 && test.onlySecondCorrect == 1)
        #expect(test.bothCorrect == 1 && test.bothWrong == 1)
    }
}
