import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The fit and the nested cross-validation on a synthetic problem: lidar and moire
/// separate the classes, texture is noise, groups of 4 samples.
@Suite struct TuningTunerTests {
    static func problem(samples n: Int, seed: UInt64, withLidar: Bool = true) -> TuningProblem {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let columns: [AggregationMatrix.Column] = [
            .init(key: "depth/2", role: .lidar, calibratable: true),
            .init(key: "moire/1", role: .moire, calibratable: true),
            .init(key: "texture/1", role: .texture, calibratable: true),
            .init(key: "attestation", role: .attestation, calibratable: false),
        ]
        var scored: [Bool] = [], scores: [Double] = [], flags: [Bool] = []
        var truth: [Bool] = [], species: [Int32] = [], groups: [String] = [], sources: [String] = []
        for i in 0..<n {
            let real = i % 3 != 0
            truth.append(real)
            species.append(real ? -1 : Int32(i % 2))
            groups.append("g\(i / 4)")
            sources.append("owner/repo\(i % 5)")
            let y = real ? 1.0 : 0.0
            for (j, noise) in [0.35, 0.5, 2.0, 0].enumerated() {
                let available = j < 3 && (j != 0 || withLidar) && uniform() < 0.9
                scored.append(available)
                scores.append(available ? min(1, max(0, 0.3 + 0.4 * y + noise * (uniform() - 0.5))) : .nan)
                flags.append(false)
            }
        }
        let matrix = AggregationMatrix(
            columns: columns, scored: scored, scores: scores, screen: flags, print: flags,
            attestationCap: Array(repeating: .medium, count: n))
        return TuningProblem(
            matrix: matrix, bonaFide: truth, species: species, speciesNames: ["lcd_screen", "printed_photo"],
            groups: groups, sources: sources, dataKinds: Array(repeating: "simulated", count: n),
            base: .standard, profileName: AggregationProfile.iosProName)
    }

    @Test func fitIsValidAndMeetsTheTarget() throws {
        let problem = Self.problem(samples: 600, seed: 11)
        var options = TuningOptions()
        options.target = .bpcer(0.05)
        let tuner = try Tuner(problem: problem, options: options)
        let rows = Array(0..<problem.count)
        let fit = tuner.fit(rows: rows)
        #expect(fit.weights.values.allSatisfy { $0 >= 0 })
        #expect(abs(fit.weights.values.reduce(0, +) - 1) < 1e-9)
        #expect(fit.objective >= fit.objectiveAtStart)
        var configuration = AggregationConfiguration()
        configuration.levelBoundaries = fit.levelBoundaries
        configuration.profiles[AggregationProfile.iosProName]?.weights = fit.weights
        #expect(throws: Never.self) { try configuration.validate() }
        // The decision threshold keeps BPCER on the fitting data within the target.
        let scores = tuner.rankingScores(fit, rows: rows)
        let bonaFide = rows.filter { problem.bonaFide[$0] && scores[$0].isFinite }
        let rejected = bonaFide.filter { scores[$0] < fit.threshold }.count
        #expect(Double(rejected) / Double(bonaFide.count) <= 0.05)
        // Texture is noise: the informative methods outweigh it.
        #expect((fit.weights[.lidar] ?? 0) + (fit.weights[.moire] ?? 0) > (fit.weights[.texture] ?? 0))
        #expect(Set(fit.calibration.keys) == ["depth/2", "moire/1", "texture/1"])
    }

    /// With an APCER target the threshold keeps every species' APCER on the fitting data
    /// within it.
    @Test func apcerTargetIsMetOnTheFittingData() throws {
        let problem = Self.problem(samples: 600, seed: 12)
        var options = TuningOptions()
        options.target = .apcer(0.05)
        options.objective = .apcerAtBPCER
        let tuner = try Tuner(problem: problem, options: options)
        let rows = Array(0..<problem.count)
        let fit = tuner.fit(rows: rows)
        let scores = tuner.rankingScores(fit, rows: rows)
        for species in 0..<2 {
            let attacks = rows.filter { problem.species[$0] == Int32(species) }
            let accepted = attacks.filter { scores[$0] >= fit.threshold }.count
            #expect(Double(accepted) / Double(attacks.count) <= 0.05, "species \(species)")
        }
    }

    /// Photos without depth: lidar never scores, so the data says nothing about its weight.
    /// It keeps its base share (ios_pro: 0.55 of 1.00), and so does supporting (0.15),
    /// which has no column at all; moire and texture share the other 0.30, informative
    /// moire taking more of it than noisy texture.
    @Test func rolesThatNeverScoredKeepTheirBaseShare() throws {
        let problem = Self.problem(samples: 600, seed: 13, withLidar: false)
        let tuner = try Tuner(problem: problem, options: TuningOptions())
        let fit = tuner.fit(rows: Array(0..<problem.count))
        #expect(fit.weights[.lidar] == 0.55)
        #expect(fit.weights[.supporting] == 0.15)
        #expect(abs((fit.weights[.moire] ?? 0) + (fit.weights[.texture] ?? 0) - 0.30) < 1e-9)
        #expect((fit.weights[.moire] ?? 0) > (fit.weights[.texture] ?? 0))
        #expect(fit.calibration["depth/2"] == nil)
    }

    /// A move among a subset keeps the others: mass of {1, 2} is 0.45; weight 1 goes to
    /// 0.40 and weight 2 gets the remaining 0.05; weight 0 stays 0.55.
    @Test func moveAmongASubsetKeepsTheRest() {
        let w = Tuner.move([0.55, 0.3, 0.15], 1, 0.1, among: [1, 2])
        #expect(zip(w, [0.55, 0.4, 0.05]).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    @Test func nestedCrossValidationIsDeterministic() throws {
        let problem = Self.problem(samples: 300, seed: 5)
        var options = TuningOptions()
        options.folds = 3
        options.objective = .apcerAtBPCER
        let settings = BootstrapSettings(resamples: 50, seed: 3)
        let run = {
            TuningReport.run(
                tuner: try Tuner(problem: problem, options: options), inputs: [], bootstrap: settings,
                created: "x")
        }
        let a = try run(), b = try run()
        #expect(try a.jsonData() == b.jsonData())
        #expect(a.perFold.count == 3)
        #expect(a.perFold.map(\.after.samples).reduce(0, +) == problem.count)
        #expect(a.heldOutAfter.auc > 0.5)
    }

    @Test func leaveOneSourceOutHasOneFoldPerSource() throws {
        let problem = Self.problem(samples: 200, seed: 6)
        var options = TuningOptions()
        options.scheme = .source
        let report = TuningReport.run(
            tuner: try Tuner(problem: problem, options: options), inputs: [],
            bootstrap: BootstrapSettings(resamples: 0), created: "x")
        #expect(report.perFold.map(\.name) == (0..<5).map { "owner/repo\($0)" })
        #expect(report.perFold.allSatisfy { $0.trainingSamples == 160 && $0.after.samples == 40 })
    }

    /// Moving weight keeps the sum and non-negativity; the grid covers the simplex.
    @Test func simplexMovesAndGrid() {
        let w = Tuner.move([0.5, 0.3, 0.2], 0, 0.1)
        #expect(abs(w[0] - 0.6) < 1e-12 && abs(w[1] - 0.24) < 1e-12 && abs(w[2] - 0.16) < 1e-12)
        #expect(zip(Tuner.move([1, 0, 0], 0, -0.2), [0.8, 0.1, 0.1]).allSatisfy { abs($0 - $1) < 1e-12 })
        let grid = Tuner.simplexGrid(dimensions: 3, divisions: 4)
        #expect(grid.count == 15) // C(4 + 2, 2)
        #expect(grid.allSatisfy { abs($0.reduce(0, +) - 1) < 1e-12 })
    }
}
