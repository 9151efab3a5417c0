import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The fast path of tuning (`AggregationMatrix.rankingScores`) against the aggregator
/// itself on the same inputs: identical ranking scores for random inputs, weights,
/// boundaries and attestations.
@Suite struct TuningAggregationMatrixTests {
    static let columns: [AggregationMatrix.Column] = [
        .init(key: "depth/2", role: .lidar, calibratable: true),
        .init(key: "parallax/1", role: .parallax, calibratable: true),
        .init(key: "moire/1", role: .moire, calibratable: true),
        .init(key: "texture/1", role: .texture, calibratable: true),
        .init(key: "artifacts/1", role: .supporting, calibratable: true),
        .init(key: "attestation", role: .attestation, calibratable: false),
    ]

    /// Also under each `medium_high`, `ranking` and `attestation_requirements.satisfied_by`, on
    /// all three default profiles (their `max_level` and the attestations' requirements).
    @Test(arguments: [UInt64(1), 2, 3, 4], AggregationConfiguration.MediumHigh.allCases)
    func equalsConfidenceAggregator(seed: UInt64, mediumHigh: AggregationConfiguration.MediumHigh) throws {
        var rng = SplitMix64(seed: seed)
        func uniform() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var configuration = AggregationConfiguration()
        configuration.levelBoundaries = .init(veryHigh: 0.93, high: 0.71, medium: 0.42, low: 0.2)
        configuration.levelBoundaries.mediumHigh = 0.56
        configuration.mediumHigh = mediumHigh
        configuration.attestationRequirements.satisfiedBy = seed.isMultiple(of: 2) ? .passed : .scored
        // Each `ranking` choice over the seeds (1 capped, 2 bounded, 3 evidence, 4 capped).
        configuration.ranking = AggregationConfiguration.Ranking.allCases[Int(seed) % 3]
        configuration.rankingPenalty = 0.07
        // Scores on a coarse grid so that ties with real_threshold and the boundaries happen.
        func score() -> Double { (uniform() * 20).rounded() / 20 }
        let attestations: [AttestationEvidence] = [
            .missing, .init(status: .pass, method: .secureEnclave), .init(status: .pass, method: .tee),
            .init(status: .fail, method: .strongbox), .init(status: .pass, method: .strongbox),
            .init(status: .pass, method: .software),
        ]
        for profileName in [
            AggregationProfile.iosProName, AggregationProfile.iosStandardName, AggregationProfile.androidName,
        ] {
            var profile = try configuration.profile(named: profileName)
            // Random weights; one method dropped (0) when it is not the primary.
            for role in profile.weights.keys.sorted() { profile.weights[role] = uniform() + 0.01 }
            if let dropped = profile.weights.keys.sorted().first(where: { $0 != profile.primary }) {
                profile.weights[dropped] = 0
            }
            configuration.profiles[profileName] = profile
            let aggregator = try ConfidenceAggregator(configuration: configuration)
            let n = 400
            var scored: [Bool] = [], scores: [Double] = [], screen: [Bool] = [], print: [Bool] = []
            var caps: [ConfidenceLevel] = []
            var requirements: [AggregationMatrix.Requirement?] = []
            var expected: [Double] = [], expectedUncapped: [Double] = []
            for _ in 0..<n {
                var inputs: [AggregationInput] = []
                for column in Self.columns {
                    let available = uniform() < 0.8
                    let s = available ? score() : Double.nan
                    let sc = uniform() < 0.1, pr = uniform() < 0.1
                    inputs.append(
                        AggregationInput(
                            method: column.role, available: available, score: available ? s : nil,
                            screenDetected: sc, printDetected: pr))
                    scored.append(available)
                    scores.append(s)
                    screen.append(sc)
                    print.append(pr)
                }
                let attestation = attestations[Int(rng.bounded(UInt64(attestations.count)))]
                let ceiling = AggregationMatrix.ceiling(
                    attestation: attestation, checkFailed: false, profile: profile, configuration: configuration,
                    columns: Self.columns)
                caps.append(ceiling.cap)
                requirements.append(ceiling.requirement)
                let result = aggregator.aggregate(inputs: inputs, attestation: attestation, profile: profile)
                expected.append(result.weightsUsed.isEmpty ? .nan : result.rankingScore)
                expectedUncapped.append(result.weightsUsed.isEmpty ? .nan : result.uncappedScore)
            }
            let matrix = AggregationMatrix(
                columns: Self.columns, scored: scored, scores: scores, screen: screen, print: print,
                attestationCap: caps, requirement: requirements)
            let fast = matrix.rankingScores(
                weights: Self.columns.map { profile.weights[$0.role] ?? 0 },
                expectedWeighted: profile.weightedMethods.count, primary: profile.primary,
                configuration: configuration)
            let uncapped = matrix.rankingScores(
                weights: Self.columns.map { profile.weights[$0.role] ?? 0 },
                expectedWeighted: profile.weightedMethods.count, primary: profile.primary,
                configuration: configuration, uncapped: true)
            for i in 0..<n {
                #expect(fast[i] == expected[i] || (fast[i].isNaN && expected[i].isNaN), "row \(i)")
                #expect(uncapped[i] == expectedUncapped[i] || (uncapped[i].isNaN && expectedUncapped[i].isNaN))
            }
        }
    }
}
