import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The two rules that keep the weight search out of corners that rank well only on the
/// data it fits: every searched weight is 0 or at least a minimum share (a weighted
/// method votes in the agreement boost and the disagreement cap), and a method whose
/// calibrated score does not beat a constant on inner held-out folds gets weight 0.
/// Expected values are worked by hand from the rules as `Tuner.floored` and
/// `Tuner.chooseCalibration` document them.
@Suite struct TuningWeightRulesTests {
    static func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-12) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < tolerance }
    }

    /// Searched {1, 2, 3}, mass 0.45, minimum 0.1 x 0.45 = 0.045: 0.01 goes to 0 and
    /// 0.30, 0.14 are scaled by 0.45 / 0.44 (0.135 / 0.44 = 0.306818..., 0.063 / 0.44 =
    /// 0.143181...); weight 0 (outside) keeps 0.55.
    @Test func aWeightBelowTheMinimumShareGoesToZero() {
        let w = Tuner.floored([0.55, 0.30, 0.14, 0.01], among: [1, 2, 3], share: 0.1)
        #expect(Self.close(w, [0.55, 0.135 / 0.44, 0.063 / 0.44, 0]))
    }

    /// Mass 1, minimum 0.1: 0.04 goes to 0 (0.05, 0.91 become 0.05 / 0.96 = 0.052083 and
    /// 0.91 / 0.96), then 0.052083 < 0.1 goes to 0 too: everything on the last one.
    @Test func droppingRepeatsUntilEveryWeightIsZeroOrAboveTheMinimum() {
        let w = Tuner.floored([0.04, 0.05, 0.91], among: [0, 1, 2], share: 0.1)
        #expect(Self.close(w, [0, 0, 1]))
    }

    /// The primary (keep) is raised to the minimum, never dropped: 0.02 -> 0.1, the others
    /// scaled to 0.9 (0.5 x 0.9 / 0.98, 0.48 x 0.9 / 0.98).
    @Test func thePrimaryIsRaisedToTheMinimum() {
        let w = Tuner.floored([0.02, 0.5, 0.48], among: [0, 1, 2], share: 0.1, keep: 0)
        #expect(Self.close(w, [0.1, 0.45 / 0.98, 0.432 / 0.98]))
    }

    /// Share 0 is the search without the rule; weights already at or above the minimum
    /// are left as they are.
    @Test func noChangeWithoutTheRuleOrWhenItHolds() {
        #expect(Tuner.floored([0.5, 0.499, 0.001], among: [0, 1, 2], share: 0) == [0.5, 0.499, 0.001])
        #expect(Tuner.floored([0.2, 0.3, 0.5], among: [0, 1, 2], share: 0.2) == [0.2, 0.3, 0.5])
    }

    @Test func optionsOutOfRangeAreRefusedNamingTheOption() {
        var options = TuningOptions()
        options.minimumWeightShare = 0.6
        #expect(throws: ConfigurationError.self) { try options.validate() }
        do {
            try options.validate()
        } catch {
            #expect(error.key == "tune.min_weight_share")
        }
        options.minimumWeightShare = .nan
        #expect(throws: ConfigurationError.self) { try options.validate() }
        options.minimumWeightShare = 0.5
        #expect(throws: Never.self) { try options.validate() }
    }

    /// Six samples in three groups of two, the same score everywhere: g1 bona fide twice,
    /// g2 one of each, g3 attacks twice; three inner folds, one group each. The constant is
    /// Platt with slope 0 on the inner training part (the mean of Platt's smoothed targets,
    /// bona fide (N+ + 1) / (N+ + 2), attack 1 / (N- + 2)):
    /// - g1 held out: training 1 bona fide, 3 attacks: (2/3 + 3 x 1/5) / 4 = 19/60; loss
    ///   2 x -ln(19/60);
    /// - g2 held out: 2 and 2: (2 x 3/4 + 2 x 1/4) / 4 = 1/2; loss 2 ln 2;
    /// - g3 held out: 3 and 1: (3 x 4/5 + 1/3) / 4 = 41/60; loss 2 x -ln(1 - 41/60).
    /// Mean: (4 ln(60/19) + 2 ln 2) / 6 = 0.997653. Platt on a constant score is that
    /// constant (it cannot use the score), isotonic is the plain rate (1/4, 1/2, 3/4: loss
    /// (4 ln 4 + 2 ln 2) / 6 = 10 ln 2 / 6, worse): the method is not informative.
    @Test func aConstantScoreIsNotInformative() throws {
        let problem = TuningTunerTests.problem(samples: 30, seed: 1)
        let tuner = try Tuner(problem: problem, options: TuningOptions())
        let truth = [true, true, true, false, false, false]
        let groups = ["g1", "g1", "g2", "g2", "g3", "g3"]
        let choice = tuner.chooseCalibration(
            scores: Array(repeating: 0.7, count: 6), bonaFide: truth, groups: groups
        ).choice
        let constant = (4 * log(60.0 / 19) + 2 * log(2.0)) / 6
        #expect(abs((choice.constantLogLoss ?? .nan) - constant) < 1e-12)
        #expect(abs((choice.plattLogLoss ?? .nan) - constant) < 1e-7)
        #expect(abs((choice.isotonicLogLoss ?? .nan) - 10 * log(2.0) / 6) < 1e-12)
        #expect(choice.informative == false)
    }

    /// The same groups with a score that separates the classes (bona fide 0.9, attacks
    /// 0.1): both calibrations beat the constant held out, so the method is informative.
    @Test func aSeparatingScoreIsInformative() throws {
        let problem = TuningTunerTests.problem(samples: 30, seed: 1)
        let tuner = try Tuner(problem: problem, options: TuningOptions())
        let choice = tuner.chooseCalibration(
            scores: [0.9, 0.9, 0.9, 0.1, 0.1, 0.1], bonaFide: [true, true, true, false, false, false],
            groups: ["g1", "g1", "g2", "g2", "g3", "g3"]
        ).choice
        #expect(choice.informative == true)
        #expect((choice.plattLogLoss ?? .infinity) < (choice.constantLogLoss ?? -.infinity))
    }

    /// Gains 0.1, 0.3: mean 0.2, sample standard deviation sqrt(0.02 / 1) = 0.1414, standard
    /// error 0.1414 / sqrt(2) = 0.1: 0.2 is not above 2.5 x 0.1, but above 1.5 x 0.1. Gains 0.1, 0.3, 0.2: mean 0.2, standard deviation
    /// sqrt(0.02 / 2) = 0.1, standard error 0.1 / sqrt(3) = 0.0577: above 2 x 0.0577 =
    /// 0.115, not above 4 x 0.0577 = 0.231. No gain at all: not informative.
    @Test func informativeGainIsAboveItsStandardErrors() {
        #expect(!Tuner.informativeGain([0.1, 0.3], standardErrors: 2.5))
        #expect(Tuner.informativeGain([0.1, 0.3], standardErrors: 1.5))
        #expect(Tuner.informativeGain([0.1, 0.3, 0.2], standardErrors: 2))
        #expect(!Tuner.informativeGain([0.1, 0.3, 0.2], standardErrors: 4))
        #expect(!Tuner.informativeGain([0, 0, 0], standardErrors: 0))
        #expect(Tuner.informativeGain([0.01, 0.01], standardErrors: 2))
    }

    /// A fit where texture's score is the same for every sample: texture is not
    /// informative and gets weight 0 (it no longer votes); with `dropUninformative` off it
    /// may keep weight. Every searched weight (moire, texture; lidar never scores and keeps
    /// its base 0.55, supporting has no column and keeps 0.15) is 0 or at least 10% of the
    /// searched 0.30, up to the 4-decimal rounding.
    @Test func anUninformativeMethodGetsNoWeight() throws {
        var problem = TuningTunerTests.problem(samples: 600, seed: 13, withLidar: false)
        let m = problem.matrix.columns.count
        let texture = problem.matrix.columns.firstIndex { $0.key == "texture/1" }!
        for i in 0..<problem.count {
            problem.matrix.scored[i * m + texture] = true
            problem.matrix.scores[i * m + texture] = 0.6
        }
        let tuner = try Tuner(problem: problem, options: TuningOptions())
        let fit = tuner.fit(rows: Array(0..<problem.count))
        #expect(fit.calibrationChoice["texture/1"]?.informative == false)
        #expect(fit.calibrationChoice["moire/1"]?.informative == true)
        #expect(fit.weights[.texture] == 0)
        #expect(abs((fit.weights[.moire] ?? 0) - 0.30) < 1e-9)
        #expect(fit.weights[.lidar] == 0.55)
        for role in [AggregationMethod.moire, .texture] {
            let w = fit.weights[role] ?? 0
            #expect(w == 0 || w >= 0.1 * 0.30 - 1e-4, "\(role) \(w)")
        }
    }
}
