import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The nested check of a fit against the base configuration (`Tuner.selectAgainstBase`):
/// the tuned fit is kept only when its objective on inner held-out folds beats the base
/// configuration's on the same samples. Expected choices are worked by hand from AUC's
/// definition (a perfect separator has AUC 1, which nothing beats; a score tied for every
/// sample has AUC 1/2).
@Suite struct TuningBaseSelectionTests {
    /// 60 samples in 30 groups of two (one bona fide, one attack each); moire/1 scores 0.9
    /// for bona fide and 0.1 for attacks (it separates them perfectly), texture/1 scores 0.5
    /// for everyone; no depth (lidar, the primary, never scores), no attestation score.
    static func problem(weights: [AggregationMethod: Double]) -> TuningProblem {
        let columns: [AggregationMatrix.Column] = [
            .init(key: "moire/1", role: .moire, calibratable: true),
            .init(key: "texture/1", role: .texture, calibratable: true),
            .init(key: "attestation", role: .attestation, calibratable: false),
        ]
        var scored: [Bool] = [], scores: [Double] = [], flags: [Bool] = []
        var truth: [Bool] = [], species: [Int32] = [], groups: [String] = []
        for i in 0..<60 {
            let real = i % 2 == 0
            truth.append(real)
            species.append(real ? -1 : 0)
            groups.append("g\(i / 2)")
            scored += [true, true, false]
            scores += [real ? 0.9 : 0.1, 0.5, .nan]
            flags += [false, false, false]
        }
        var base = PipelineConfiguration.standard
        base.aggregation.profiles[AggregationProfile.iosProName]?.weights = weights
        let matrix = AggregationMatrix(
            columns: columns, scored: scored, scores: scores, screen: flags, print: flags,
            attestationCap: Array(repeating: .medium, count: 60))
        return TuningProblem(
            matrix: matrix, bonaFide: truth, species: species, speciesNames: ["lcd_screen"], groups: groups,
            sources: groups, dataKinds: Array(repeating: "real", count: 60), base: base,
            profileName: AggregationProfile.iosProName)
    }

    /// Base weighs only texture (besides lidar, which never scores): every sample gets the
    /// same aggregate, AUC 1/2. The tuned fit drops texture (a constant beats nothing) and
    /// weighs moire, whose held-out AUC is 1: tuned is kept.
    @Test func aBetterTunedFitIsKept() throws {
        let problem = Self.problem(weights: [.lidar: 0.5, .texture: 0.5, .moire: 0])
        var options = TuningOptions()
        options.selectAgainstBase = true
        let tuner = try Tuner(problem: problem, options: options)
        let fit = tuner.fit(rows: Array(0..<60))
        let selection = try #require(fit.selection)
        #expect(selection.chosen == "tuned")
        #expect(selection.baseObjective == 0.5)
        #expect(selection.tunedObjective == 1)
        #expect(fit.weights[.texture] == 0)
        #expect(fit.weights[.moire] == 0.5)
    }

    /// Base weighs moire (AUC 1 on every sample): the tuned fit can at best tie, and a tie
    /// keeps the base configuration: its weights (normalised: lidar 0.5, moire 0.5), its
    /// calibration (none), its level boundaries and its decision threshold (0.5).
    @Test func aTunedFitThatIsNotBetterGivesWayToTheBase() throws {
        let problem = Self.problem(weights: [.lidar: 1, .moire: 1, .texture: 0])
        var options = TuningOptions()
        options.selectAgainstBase = true
        let tuner = try Tuner(problem: problem, options: options)
        let fit = tuner.fit(rows: Array(0..<60))
        let selection = try #require(fit.selection)
        #expect(selection.chosen == "base")
        #expect(selection.baseObjective == 1)
        #expect(fit.weights[.lidar] == 0.5 && fit.weights[.moire] == 0.5 && fit.weights[.texture] == 0)
        #expect(fit.calibration.isEmpty)
        #expect(fit.threshold == 0.5)
        #expect(fit.levelBoundaries == PipelineConfiguration.standard.aggregation.levelBoundaries)
        // Scored as "before" scores them.
        #expect(tuner.rankingScores(fit, rows: Array(0..<60)) == tuner.baseRankingScores())
    }

    /// Off (the default), the fit is the tuned one and records no selection.
    @Test func withoutTheCheckNoSelectionIsRecorded() throws {
        let problem = Self.problem(weights: [.lidar: 1, .moire: 1, .texture: 0])
        let fit = try Tuner(problem: problem, options: TuningOptions()).fit(rows: Array(0..<60))
        #expect(fit.selection == nil)
    }
}
